import { randomBytes } from 'node:crypto';
import { sha256Hex } from '../../kernel/crypto/index.js';

/**
 * Agent credential (Part B 2.1): `agt_<secret>`, the secret 43 base64url characters (256 bits). Only its
 * SHA-256 is stored; the plaintext is shown once, at registration or rotation.
 */
const CREDENTIAL_SHAPE = /^agt_[A-Za-z0-9_-]{43}$/;
const PREFIX_LENGTH = 12;

export interface IssuedAgentCredential {
  credential: string;
  hash: string;
  /** `agt_` and the first characters of the secret: enough to recognise it in a list, not to guess it. */
  prefix: string;
}

export function issueAgentCredential(): IssuedAgentCredential {
  const credential = `agt_${randomBytes(32).toString('base64url')}`;
  return { credential, hash: hashAgentCredential(credential), prefix: credential.slice(0, PREFIX_LENGTH) };
}

/** Whether a string has the credential's shape (a malformed one is refused without a database look-up). */
export const looksLikeAgentCredential = (value: string) => CREDENTIAL_SHAPE.test(value);

export const hashAgentCredential = (credential: string) => sha256Hex(credential);
