import { randomBytes } from 'node:crypto';
import { sha256Hex } from '../../kernel/crypto/index.js';

/**
 * API key format (Part A 2.5): `svc_live_<secret>_<check>` in production, `svc_test_<secret>_<check>`
 * elsewhere. The secret is 43 base62 characters (about 256 bits); the check is 6 characters of a digest of
 * everything before it, so a mistyped or truncated key is refused without a database look-up.
 */
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const SECRET_LENGTH = 43;
const CHECK_LENGTH = 6;
const KEY_SHAPE = /^svc_(live|test)_([0-9A-Za-z]{43})_([0-9A-Za-z]{6})$/;

export type KeyEnvironment = 'live' | 'test';

/** The environment whose keys this deployment accepts and issues: live only in production. */
export const environmentOf = (svcEnv: string): KeyEnvironment => (svcEnv === 'production' ? 'live' : 'test');

function base62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 4 * 62: rejecting the rest keeps every character equally likely.
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

function checkOf(body: string): string {
  const digest = BigInt(`0x${sha256Hex(body).slice(0, 16)}`);
  let value = digest;
  let out = '';
  for (let i = 0; i < CHECK_LENGTH; i++) {
    out = BASE62[Number(value % 62n)] + out;
    value /= 62n;
  }
  return out;
}

export interface IssuedKey {
  plaintext: string;
  hash: string;
  displayHandle: string;
}

export function issueKey(environment: KeyEnvironment): IssuedKey {
  const body = `svc_${environment}_${base62(SECRET_LENGTH)}`;
  const plaintext = `${body}_${checkOf(body)}`;
  return { plaintext, hash: hashKey(plaintext), displayHandle: displayHandleOf(plaintext) };
}

export const hashKey = (plaintext: string) => sha256Hex(plaintext);

/** Prefix and the secret's first four characters, an ellipsis, and the last four characters of the key. */
export function displayHandleOf(plaintext: string): string {
  const prefixLength = 'svc_live_'.length;
  return `${plaintext.slice(0, prefixLength + 4)}…${plaintext.slice(-4)}`;
}

/** Looks like one of our keys at all (any environment): other credential kinds are left to their resolvers. */
export const looksLikeApiKey = (token: string) => token.startsWith('svc_');

/** True when the key is well formed, of `environment`, and its check matches: only then is it looked up. */
export function isWellFormedKey(token: string, environment: KeyEnvironment): boolean {
  const match = KEY_SHAPE.exec(token);
  if (!match || match[1] !== environment) return false;
  return checkOf(token.slice(0, -(CHECK_LENGTH + 1))) === match[3];
}

export { CHECK_LENGTH, SECRET_LENGTH };
