import { hmacSha256Hex, open, prefixedSecret, purposeKey, seal } from '../../kernel/crypto/index.js';

/** `whsec_` + 256 random bits (Part A 2.6). */
export const newEndpointSecret = () => prefixedSecret('whsec_');

/** The key that seals endpoint secrets at rest: derived from the service secret key, for this use only. */
export const sealingKeyOf = (secretKey: Buffer) => purposeKey(secretKey, 'svc webhook endpoint secrets v1');

export const sealSecret = (key: Buffer, endpointId: string, secret: string) =>
  seal(key, secret, `webhook:${endpointId}`);
export const openSecret = (key: Buffer, endpointId: string, sealed: string) =>
  open(key, sealed, `webhook:${endpointId}`);

/**
 * Part A 6: `Svc-Signature: t=<unix-seconds>,v1=<hex>[,v1=<hex>]`, HMAC-SHA256 keyed with each active secret
 * over `<t>.<raw body bytes>`. During a rotation both the new and the previous secret sign.
 */
export function signatureHeader(secrets: readonly string[], unixSeconds: number, body: string | Buffer): string {
  const signed = Buffer.concat([Buffer.from(`${unixSeconds}.`), Buffer.isBuffer(body) ? body : Buffer.from(body)]);
  return [`t=${unixSeconds}`, ...secrets.map((secret) => `v1=${hmacSha256Hex(secret, signed)}`)].join(',');
}
