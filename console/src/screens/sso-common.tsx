import type { ReactNode } from 'react';
import { api, useApi } from '../api';
import { ConfirmButton, ErrorBanner, Field, Form, type FormValues, Loading } from '../ui';
import { CancelButton, linesOf } from '../ui/integrations-kit';

/** What the OpenID Connect and SAML connections share: the rule for changing them, loading, removal, domains and state. */

/** Every change to single sign-on is held to this rule (docs/sso.md), so each SSO form states it first. */
const CHANGE_RULE =
  'Changing single sign-on needs a sign-in with your own password, passkey or magic link (not through SSO) within the last 10 minutes; every change is mailed to all owners.';

/** The fields both protocols' connections have. */
interface Connection {
  allowed_domains: string[];
  enabled: boolean;
}

/** The organization's connection at `path`: the API answers 404 while none is configured (dormant), not an error. */
export function useConnection<T>(path: string) {
  const config = useApi<T>(path);
  const dormant = config.error?.status === 404;
  return { config, dormant, connection: config.data && !dormant ? config.data : undefined };
}

/** The loading state and any error of a connection but the 404 that means none is configured. */
export function ConnectionLoadState(props: { loaded: ReturnType<typeof useConnection> }) {
  const { config, dormant } = props.loaded;
  return (
    <>
      {config.loading && !config.data && !config.error && <Loading />}
      {config.error && !dormant && <ErrorBanner error={config.error} />}
    </>
  );
}

/** The button that deletes the connection at `path` after asking `question`. */
export function RemoveConnection(props: { protocol: string; path: string; question: string; onRemoved: () => void }) {
  return (
    <ConfirmButton
      label="Remove"
      ariaLabel={`Remove the ${props.protocol} connection`}
      question={props.question}
      onConfirm={async () => {
        await api('DELETE', props.path);
        props.onRemoved();
      }}
    />
  );
}

/** A form that changes a connection: the change rule first, Cancel beside the submit button. */
export function ConnectionForm<Always extends string = never>(props: {
  label: string;
  submitLabel: string;
  onSubmit: (values: FormValues<Always>) => Promise<void>;
  onCancel: () => void;
  children: ReactNode;
}) {
  return (
    <Form
      label={props.label}
      submitLabel={props.submitLabel}
      onSubmit={props.onSubmit}
      secondary={<CancelButton onCancel={props.onCancel} />}
    >
      <p className="hint">{CHANGE_RULE}</p>
      {props.children}
    </Form>
  );
}

/** The allowed domains and the state of a connection, inside its facts list. */
export function DomainsAndStateFacts(props: { connection: Connection }) {
  return (
    <>
      <dt>Allowed domains</dt>
      <dd>{props.connection.allowed_domains.join(', ') || 'Every verified domain'}</dd>
      <dt>State</dt>
      <dd>{props.connection.enabled ? 'Enabled' : 'Disabled'}</dd>
    </>
  );
}

/** The allowed domains and state fields of a connection form; `disabledLabel` says what disabling does. */
export function DomainsAndStateFields(props: { connection: Connection | undefined; disabledLabel: string }) {
  return (
    <>
      <Field
        name="allowed_domains"
        label="Allowed email domains"
        multiline
        defaultValue={props.connection?.allowed_domains.join('\n')}
        hint="One per line, among the organization's verified domains; empty: every verified domain."
      />
      <Field
        name="enabled"
        label="State"
        defaultValue={String(props.connection?.enabled ?? true)}
        options={[
          { value: 'true', label: 'Enabled' },
          { value: 'false', label: props.disabledLabel },
        ]}
      />
    </>
  );
}

/** The allowed domains and state as the API takes them, from the values of `DomainsAndStateFields`. */
export const domainsAndStateOf = (values: FormValues): Connection => ({
  allowed_domains: linesOf(values.allowed_domains),
  enabled: values.enabled === 'true',
});
