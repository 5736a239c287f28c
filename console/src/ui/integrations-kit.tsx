import { type ReactNode, useId, useRef } from 'react';
import { ApiError, api } from '../api';
import { currentTokens, renew } from '../auth';
import { navigate } from '../router';
import { ConfirmButton } from './confirm-button';
import { Notice } from './feedback';
import { SecretOnce } from './secret-once';
import './integrations-kit.css';

/**
 * Pieces the integrations screens (API keys, webhooks, OAuth, SSO, SCIM) share and the console's kit lacks:
 * a group of check boxes (an API's list field), a filter select kept in the URL, list parsing, dates, a form's
 * Cancel button, a registration's notice with its secret shown once, deleting from a detail page, and a
 * non-JSON request (SAML metadata is posted as XML, which `api()` does not send).
 */

export { when } from './dates';

/** One value per line (or comma), trimmed, empty ones dropped: how the forms take URI and domain lists. */
export const linesOf = (text: string | undefined): string[] =>
  (text ?? '')
    .split(/[\n,]/)
    .map((line) => line.trim())
    .filter(Boolean);

/** The values of a check-box group as Form collects them (several values of one name joined by new lines). */
export const checkedOf = (text: string | undefined): string[] => (text ? text.split('\n').filter(Boolean) : []);

/** A fieldset of check boxes named `name`: each checked box adds its value to the form's values. */
export function ChoiceGroup(props: {
  name: string;
  legend: string;
  choices: { value: string; label?: string; hint?: string }[];
  checked?: readonly string[];
  hint?: string;
}) {
  const id = useId();
  return (
    <fieldset className="choice-group" aria-describedby={props.hint ? `${id}-hint` : undefined}>
      <legend>{props.legend}</legend>
      {props.hint && (
        <p id={`${id}-hint`} className="hint">
          {props.hint}
        </p>
      )}
      <div className="choices">
        {props.choices.map((choice) => (
          <label key={choice.value} className="choice" title={choice.hint}>
            <input
              type="checkbox"
              name={props.name}
              value={choice.value}
              defaultChecked={props.checked?.includes(choice.value)}
            />
            <span>{choice.label ?? choice.value}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** The button beside a form's submit button that closes the form unsent. */
export function CancelButton(props: { onCancel: () => void }) {
  return (
    <button type="button" className="button" onClick={props.onCancel}>
      Cancel
    </button>
  );
}

/**
 * What a registration answered: the notice (`children`), then the secret it issued, shown this once until Done
 * (a registration without a secret, such as a public OAuth client, shows only the notice).
 */
export function RegisteredNotice(props: {
  children: ReactNode;
  secretLabel: string;
  secret: string | null | undefined;
  onDone: () => void;
}) {
  return (
    <>
      <Notice>{props.children}</Notice>
      {props.secret && <SecretOnce label={props.secretLabel} value={props.secret} onDone={props.onDone} />}
    </>
  );
}

/** A detail page's delete button: after `question` is confirmed, DELETE `path` and go back to the list at `back`. */
export function DeleteAndReturn(props: { label: string; question: string; path: string; back: string }) {
  return (
    <ConfirmButton
      label={props.label}
      question={props.question}
      onConfirm={async () => {
        await api('DELETE', props.path);
        navigate(props.back);
      }}
    />
  );
}

/** A text input inside a confirmation question (a revocation's reason): its current value via the ref. */
export function useQuestionInput() {
  const ref = useRef<HTMLInputElement>(null);
  return { ref, value: () => ref.current?.value ?? '' };
}

/**
 * POST a document that is not JSON (SAML metadata) to `/api/v1<path>` with the signed-in person's token, renewing
 * once on 401 as `api()` does; errors are ApiError from the `{"detail"}` answer.
 */
export async function postDocument<T>(path: string, body: string, contentType: string): Promise<T> {
  const send = () =>
    fetch(`/api/v1${path}`, {
      method: 'POST',
      headers: {
        accept: 'application/json',
        'content-type': contentType,
        ...(currentTokens()?.accessToken ? { authorization: `Bearer ${currentTokens()?.accessToken}` } : {}),
      },
      body,
      credentials: 'omit',
    });
  let response = await send();
  if (response.status === 401 && currentTokens()?.refreshToken && (await renew())) response = await send();
  if (!response.ok) {
    const answer = (await response.json().catch(() => undefined)) as { detail?: unknown } | undefined;
    throw new ApiError(
      response.status,
      typeof answer?.detail === 'string' ? answer.detail : `${response.status} ${response.statusText}`,
    );
  }
  return (await response.json()) as T;
}
