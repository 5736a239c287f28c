import { randomSecret, sha256Hex } from '../../kernel/crypto/index.js';
import { OAuthError } from '../../kernel/http/index.js';
import { verifyClientSecret } from './clients.js';
import type { TokenClientRow } from './store.js';

/**
 * Client authentication at the token endpoint (RFC 6749 section 2.3.1, Part A 4.14): HTTP Basic with the
 * client id and secret, or the `client_id` and `client_secret` form fields; a public client sends its id only.
 */

/** How the client presented itself (the names of RFC 7591 section 2, `token_endpoint_auth_method`). */
export type ClientAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'none';

export interface ClientCredentials {
  clientId: string;
  /** Undefined when none was sent (a public client). */
  secret: string | undefined;
  method: ClientAuthMethod;
}

/** RFC 9110 section 15.5.2: every 401 names a scheme the server accepts; ours is Basic (RFC 6749 section 5.2). */
export const BASIC_CHALLENGE = 'Basic realm="svc"';

/** One answer for an unknown client, a wrong or missing secret, and a secret sent by a public client (Part A 7). */
export const invalidClient = () =>
  new OAuthError('invalid_client', 'Client authentication failed', 401, { 'WWW-Authenticate': BASIC_CHALLENGE });

const malformedBasic = () =>
  new OAuthError(
    'invalid_request',
    'Malformed HTTP Basic credentials: base64 of the form-encoded client id, a colon and the form-encoded secret (RFC 6749 section 2.3.1)',
  );

/** RFC 4648 section 4 base64, padded; anything else is refused rather than guessed at. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const BASIC = /^Basic +(\S+) *$/i;

/** `application/x-www-form-urlencoded` decoding of one value (`+` is a space); null when malformed. */
function formDecode(value: string): string | null {
  try {
    return decodeURIComponent(value.replaceAll('+', ' '));
  } catch {
    return null;
  }
}

/**
 * The client id and secret of an `Authorization: Basic` header, or null when the header is absent or another
 * scheme. RFC 6749 section 2.3.1: both are form-encoded before they are joined with `:` and base64-encoded
 * (RFC 7617), so an id or secret holding `:`, `%`, `+` or non-ASCII text travels intact. Throws
 * `invalid_request` when the header says Basic but does not decode to that.
 */
export function parseBasicCredentials(header: string | undefined): { clientId: string; secret: string } | null {
  if (header === undefined) return null;
  if (!/^Basic(?: |$)/i.test(header)) return null;
  const match = BASIC.exec(header);
  if (!match || !BASE64.test(match[1]!)) throw malformedBasic();
  const decoded = Buffer.from(match[1]!, 'base64');
  const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let pair: string;
  try {
    pair = text.decode(decoded);
  } catch {
    throw malformedBasic();
  }
  const colon = pair.indexOf(':');
  if (colon < 0) throw malformedBasic();
  const clientId = formDecode(pair.slice(0, colon));
  const secret = formDecode(pair.slice(colon + 1));
  if (!clientId || secret === null) throw malformedBasic();
  return { clientId, secret };
}

/**
 * Who the request says it is: HTTP Basic, or the form fields, never both (RFC 6749 section 2.3.1: a client uses
 * one method per request). A `client_id` field beside Basic credentials must name the same client.
 */
export function readClientCredentials(
  params: Readonly<Record<string, string>>,
  authorization: string | undefined,
): ClientCredentials {
  const basic = parseBasicCredentials(authorization);
  const formId = params.client_id;
  const formSecret = params.client_secret;
  if (basic) {
    if (formSecret !== undefined) {
      throw new OAuthError(
        'invalid_request',
        'Client authentication: use HTTP Basic or the client_secret form field, not both (RFC 6749 section 2.3.1)',
      );
    }
    if (formId !== undefined && formId !== basic.clientId) {
      throw new OAuthError('invalid_request', 'client_id differs from the client id of the HTTP Basic credentials');
    }
    return { clientId: basic.clientId, secret: basic.secret, method: 'client_secret_basic' };
  }
  if (formId === undefined) {
    throw new OAuthError(
      'invalid_client',
      'Client authentication required: HTTP Basic, or the client_id (and client_secret) form fields',
      401,
      { 'WWW-Authenticate': BASIC_CHALLENGE },
    );
  }
  return formSecret === undefined
    ? { clientId: formId, secret: undefined, method: 'none' }
    : { clientId: formId, secret: formSecret, method: 'client_secret_post' };
}

/** Why an authentication failed, for the audit trail (never the presented secret). */
export type AuthenticationFailure = 'unknown_client' | 'secret_mismatch' | 'secret_missing' | 'public_client_secret';

/** Compared against when the client is unknown, so that answer costs the same work as a wrong secret. */
const NO_CLIENT_HASH = sha256Hex(randomSecret());

/**
 * Part A 4.14: a confidential client proves its secret (compared in constant time); a public client sends none
 * and relies on PKCE, and a secret sent by one fails (it has none to match). Answers why it failed, or null.
 */
export function authenticationFailure(
  client: TokenClientRow | undefined,
  credentials: ClientCredentials,
): AuthenticationFailure | null {
  const presented = credentials.secret ?? '';
  if (!client) {
    verifyClientSecret(NO_CLIENT_HASH, presented);
    return 'unknown_client';
  }
  if (client.clientType === 'public') return credentials.secret === undefined ? null : 'public_client_secret';
  if (credentials.secret === undefined) return 'secret_missing';
  return verifyClientSecret(client.secretHash, presented) ? null : 'secret_mismatch';
}
