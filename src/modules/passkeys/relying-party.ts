import { minutes } from '../../kernel/clock.js';
import { unprocessable } from '../../kernel/http/index.js';

/** Part A 4.3: a ceremony (options, then the browser's answer) must finish within about 5 minutes. */
export const CEREMONY_TTL_MS = minutes(5);

/** Name a passkey gets when the person gives none. */
export const DEFAULT_PASSKEY_NAME = 'Passkey';
export const PASSKEY_NAME_MAX = 100;

/**
 * The WebAuthn relying party is the application origin itself (W3C WebAuthn Level 3, section 5.1.3 and the RP
 * ID rules of 13.4.9): the RP ID is the host name of BASE_URL and responses must come from its origin. A
 * passkey is bound to the RP ID, so changing BASE_URL's host orphans every registered passkey.
 */
export interface RelyingParty {
  id: string;
  origin: string;
  name: string;
}

export function relyingPartyOf(config: { baseUrl: string }): RelyingParty {
  const url = new URL(config.baseUrl);
  return { id: url.hostname, origin: url.origin, name: 'svc' };
}

/**
 * The WebAuthn user handle of an account: the 16 bytes of its UUID. It identifies the account to the
 * authenticator without any personal data (WebAuthn section 14.6.1: the handle must not contain PII).
 */
export function userHandleOf(userId: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(userId.replace(/-/g, ''), 'hex'));
}

export const userHandleText = (userId: string) => Buffer.from(userHandleOf(userId)).toString('base64url');

/** The challenge the browser signed, read from `clientDataJSON` (base64url JSON); undefined when unreadable. */
export function challengeOf(clientDataJSON: string): string | undefined {
  try {
    const parsed = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as { challenge?: unknown };
    return typeof parsed.challenge === 'string' && /^[A-Za-z0-9_-]{16,128}$/.test(parsed.challenge)
      ? parsed.challenge
      : undefined;
  } catch {
    return undefined;
  }
}

/** C0 and C1 controls and the bidirectional overrides that can disguise a name (as for profile names). */
const CONTROL = /[\p{Cc}\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

/** A passkey's display name: 1 to 100 characters without control characters; 422 naming the rule. */
export function passkeyName(name: string | undefined): string {
  if (name === undefined) return DEFAULT_PASSKEY_NAME;
  const trimmed = name.trim();
  if (trimmed.length === 0 || [...trimmed].length > PASSKEY_NAME_MAX) {
    throw unprocessable(`name: must be 1 to ${PASSKEY_NAME_MAX} characters`);
  }
  if (CONTROL.test(trimmed)) throw unprocessable('name: must not contain control characters');
  return trimmed;
}
