import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { open, seal } from './aead.js';
import { hashPassword, verifyNothing, verifyPassword } from './passwords.js';
import { prefixedSecret, randomSecret, secretsEqual, sha256Hex } from './secrets.js';

describe('AES-256-GCM sealing', () => {
  const key = randomBytes(32);

  it('round-trips and never shows the plaintext', () => {
    const sealed = seal(key, 'totp secret JBSWY3DPEHPK3PXP', 'mfa:user-1');
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(open(key, sealed, 'mfa:user-1')).toBe('totp secret JBSWY3DPEHPK3PXP');
  });

  it('refuses another key, another context and any tampering', () => {
    const sealed = seal(key, 'secret', 'ctx');
    expect(() => open(randomBytes(32), sealed, 'ctx')).toThrow();
    expect(() => open(key, sealed, 'other-ctx')).toThrow();
    const [v, iv, body, tag] = sealed.split('.');
    const flipped = Buffer.from(body!, 'base64url');
    flipped[0]! ^= 1;
    expect(() => open(key, [v, iv, flipped.toString('base64url'), tag].join('.'), 'ctx')).toThrow();
    expect(() => open(key, 'v2.a.b.c', 'ctx')).toThrow();
  });
});

describe('secrets', () => {
  it('generates 256-bit base64url secrets with prefixes', () => {
    expect(randomSecret()).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(prefixedSecret('whsec_')).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(randomSecret()).not.toBe(randomSecret());
  });

  it('hashes tokens with SHA-256 and compares secrets exactly', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(secretsEqual('same-secret', 'same-secret')).toBe(true);
    expect(secretsEqual('same-secret', 'same-secreT')).toBe(false);
    expect(secretsEqual('short', 'short-but-longer')).toBe(false);
  });
});

describe('argon2id passwords', () => {
  it('hashes with the OWASP parameters and verifies', async () => {
    const hash = await hashPassword('correct horse battery staple');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(hash, 'correct horse battery staple')).toBe(true);
    expect(await verifyPassword(hash, 'wrong horse battery staple')).toBe(false);
    expect(await verifyPassword('not a hash', 'anything')).toBe(false);
  });

  it('spends comparable time on a dummy verification, which always fails', async () => {
    const hash = await hashPassword('correct horse battery staple');
    await verifyNothing('warm up');
    const time = async (work: () => Promise<unknown>) => {
      const start = performance.now();
      await work();
      return performance.now() - start;
    };
    // Alternating rounds compared by their medians: a busy machine slows both alike instead of one run of three.
    const reals: number[] = [];
    const dummies: number[] = [];
    for (let i = 0; i < 7; i++) {
      reals.push(await time(() => verifyPassword(hash, 'wrong password here')));
      dummies.push(await time(() => verifyNothing('wrong password here')));
    }
    const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const real = median(reals);
    const dummy = median(dummies);
    expect(await verifyNothing('correct horse battery staple')).toBe(false);
    expect(dummy).toBeGreaterThan(real * 0.3);
    expect(dummy).toBeLessThan(real * 3);
  });
});
