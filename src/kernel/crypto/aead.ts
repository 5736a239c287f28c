import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM for secrets at rest (signing keys, TOTP secrets, upstream client secrets). Format:
 * `v1.<iv>.<ciphertext>.<tag>` in base64url. `context` is bound as additional data, so a ciphertext moved to
 * another row or purpose does not decrypt.
 */
export function seal(key: Buffer, plaintext: string, context: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), body.toString('base64url'), cipher.getAuthTag().toString('base64url')].join(
    '.',
  );
}

export function open(key: Buffer, sealed: string, context: string): string {
  const [version, iv, body, tag] = sealed.split('.');
  if (version !== 'v1' || !iv || body === undefined || !tag) throw new Error('unrecognised sealed secret');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(context));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}

/**
 * A key for one purpose, derived from the service secret key (HKDF-SHA-256, RFC 5869): a ciphertext sealed for
 * one purpose never opens under another's key, and SECRET_KEY itself never encrypts data directly.
 */
export const purposeKey = (secretKey: Buffer, purpose: string): Buffer =>
  Buffer.from(hkdfSync('sha256', secretKey, Buffer.alloc(0), purpose, 32));
