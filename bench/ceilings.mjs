// Raw per-core ceilings, measured in-process and sequentially (one operation in flight at a time, so at
// most one core works): RS256 signing with jose and argon2id verification with @node-rs/argon2, with the
// same key size, payload shape and parameters as the service (src/kernel/crypto/keyring.ts,
// src/kernel/auth/access-tokens.ts, src/kernel/crypto/passwords.ts).
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { calculateJwkThumbprint, exportJWK, SignJWT } from 'jose';

export const ACCESS_TOKEN_ISSUER = 'svc-auth';
export const ACCESS_TOKEN_AUDIENCE = 'svc-services';
/** src/kernel/crypto/passwords.ts: OWASP argon2id, m=19456 KiB, t=2, p=1 (algorithm 2 = Argon2id). */
export const ARGON2ID = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

/** An RSA-2048 signing key like the keyring's, with its RFC 7638 thumbprint as kid. */
export async function rsaSigningKey() {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = await calculateJwkThumbprint(await exportJWK(publicKey));
  return { privateKey, publicKey, kid };
}

/** An access token of the service's shape: claims of access-tokens.ts, header of keyring.sign (typ at+jwt). */
export function signAccessToken({ privateKey, kid }, ttlSeconds = 900) {
  const iat = Math.floor((performance.timeOrigin + performance.now()) / 1000);
  return new SignJWT({
    sub: randomUUID(),
    tid: randomUUID(),
    sid: randomUUID(),
    ep: 0,
    act: 'human',
    iss: ACCESS_TOKEN_ISSUER,
    aud: ACCESS_TOKEN_AUDIENCE,
    iat,
    exp: iat + ttlSeconds,
    jti: randomUUID(),
  })
    .setProtectedHeader({ alg: 'RS256', kid, typ: 'at+jwt' })
    .sign(privateKey);
}

/** Runs `operation` back to back (awaited) for `seconds` after `warmup` calls; returns operations/second. */
async function sequentialRate(operation, seconds, warmup) {
  for (let i = 0; i < warmup; i++) await operation();
  const budget = seconds * 1000;
  const start = performance.now();
  let count = 0;
  let elapsed = 0;
  while (elapsed < budget) {
    await operation();
    count++;
    elapsed = performance.now() - start;
  }
  return { per_s: count / (elapsed / 1000), operations: count, seconds: elapsed / 1000 };
}

export async function rs256SignRate(seconds) {
  const key = await rsaSigningKey();
  return sequentialRate(() => signAccessToken(key), seconds, 20);
}

export async function argon2idVerifyRate(seconds) {
  const password = 'correct horse battery staple 42';
  const encoded = await hash(password, ARGON2ID);
  if (!encoded.startsWith('$argon2id$v=19$m=19456,t=2,p=1$')) {
    throw new Error(`unexpected argon2 hash parameters: ${encoded.slice(0, 40)}`);
  }
  return sequentialRate(
    async () => {
      if (!(await verify(encoded, password))) throw new Error('argon2id verify returned false');
    },
    seconds,
    2,
  );
}
