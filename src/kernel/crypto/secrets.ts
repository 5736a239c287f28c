import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** 256 bits of randomness as base64url (43 characters): the body of every token and credential we issue. */
export const randomSecret = (bytes = 32) => randomBytes(bytes).toString('base64url');

/** `prefix` + secret, for credentials whose kind should be recognisable in a leak scan (`whsec_`, `agt_`…). */
export const prefixedSecret = (prefix: string, bytes = 32) => `${prefix}${randomSecret(bytes)}`;

/** High-entropy tokens are stored as their SHA-256: a database leak yields nothing usable. */
export const sha256Hex = (value: string | Buffer) => createHash('sha256').update(value).digest('hex');

export const sha256Base64Url = (value: string | Buffer) => createHash('sha256').update(value).digest('base64url');

export const hmacSha256Hex = (key: string | Buffer, value: string | Buffer) =>
  createHmac('sha256', key).update(value).digest('hex');

/** Constant-time comparison of two secrets; unequal lengths compare a digest so timing reveals nothing. */
export function secretsEqual(a: string | Buffer, b: string | Buffer): boolean {
  const left = createHash('sha256').update(a).digest();
  const right = createHash('sha256').update(b).digest();
  return timingSafeEqual(left, right) && Buffer.from(a).length === Buffer.from(b).length;
}
