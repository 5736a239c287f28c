import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../kernel/http/index.js';
import { CSRF_FIELD, type Csrf } from './csrf.js';
import { errorBox, html, paragraph, type SafeHtml, sendPage } from './html.js';

/** Route options shared by every hosted page: no credential, and not part of the API document. */
export const PAGE_OPTIONS = { config: { auth: 'public' as const }, schema: { hide: true } };

/** Longest accepted values: the API's own limits, so a page never passes on what the API would refuse. */
export const TOKEN_MAX = 512;
export const PASSWORD_MAX = 1024;

/**
 * One string field of a query or a form-encoded body; undefined when absent, repeated, empty or too long
 * (form bodies are untyped input, read here rather than through a JSON schema so failures render as pages).
 */
export function fieldOf(source: unknown, name: string, maxLength: number): string | undefined {
  if (!source || typeof source !== 'object') return undefined;
  const value = (source as Record<string, unknown>)[name];
  return typeof value === 'string' && value.length > 0 && value.length <= maxLength ? value : undefined;
}

export const tokenOf = (source: unknown) => fieldOf(source, 'token', TOKEN_MAX);

export function failurePage(
  reply: FastifyReply,
  status: number,
  title: string,
  message: string,
  extra?: SafeHtml,
  organization?: string,
) {
  return sendPage(reply, status, title, html`${errorBox(message)}${extra ?? ''}`, {}, { organization });
}

/** The link in the mail is missing its token or was cut short by the mail client. */
export const incompleteLink = (reply: FastifyReply, title: string) =>
  failurePage(reply, 400, title, 'This link is incomplete. Open the link from your email again, or copy all of it.');

/**
 * 403 unless the form carries the CSRF field matching its cookie; checked before anything else is read, so a
 * forged post changes nothing.
 */
export function csrfRefused(request: FastifyRequest, reply: FastifyReply, csrf: Csrf): boolean {
  if (csrf.verify(request, fieldOf(request.body, CSRF_FIELD, 64))) return false;
  failurePage(
    reply,
    403,
    'This form could not be accepted',
    'The form expired or was not sent from this page. Nothing was changed. Open the link from your email again and try once more.',
  );
  return true;
}

/**
 * Renders a service refusal as a page with the same status. The service's message is written for people and
 * is shown as it is (escaped); 429 keeps its Retry-After and rate headers. Anything else is rethrown.
 */
export function renderRefusal(
  reply: FastifyReply,
  error: unknown,
  title: string,
  hint?: string,
  organization?: string,
) {
  if (!(error instanceof HttpError) || error.status >= 500) throw error;
  const message =
    error.status === 429 ? 'Too many attempts from your network. Wait a few minutes and try again.' : error.detail;
  return sendPage(
    reply,
    error.status,
    title,
    html`${errorBox(message)}${hint ? paragraph(hint) : ''}`,
    error.status === 429 ? error.headers : {},
    { organization },
  );
}

/** Password and its confirmation, the two inputs of every page that sets a password. */
export function passwordInputs(name: string, label: string): SafeHtml {
  return html`<label for="${name}">${label}</label>
<input type="password" id="${name}" name="${name}" autocomplete="new-password" required>
<label for="confirm_password">Repeat the password</label>
<input type="password" id="confirm_password" name="confirm_password" autocomplete="new-password" required>
<p class="note">A long passphrase that is not a common password works best; if it falls short of the policy you will be told why.</p>`;
}

/** The two password inputs, or the reason they cannot be used before calling the service. */
export function passwordsOf(body: unknown, name: string): { password: string } | { problem: string } {
  const password = fieldOf(body, name, PASSWORD_MAX);
  if (!password) return { problem: 'Enter a password.' };
  if (fieldOf(body, 'confirm_password', PASSWORD_MAX) !== password) {
    return { problem: 'The two passwords do not match.' };
  }
  return { password };
}
