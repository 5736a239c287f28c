// Raw ceilings: RS256 signing with jose and argon2id verification with @node-rs/argon2, with the same key size,
// payload shape and parameters as the service (src/kernel/crypto/keyring.ts, src/kernel/auth/access-tokens.ts,
// src/kernel/crypto/passwords.ts). Each is measured twice (issue 28, item 4):
// - on one core: in-process and sequentially, one operation in flight at a time, so at most one core works;
// - on all cores: the same sequential loop on one worker thread per core, all measuring at once; the sum is
//   what the machine can do, the fair bound for a service that uses every core.
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
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

/**
 * Runs `operation` back to back (awaited) for `seconds` after `warmup` calls; returns operations/second.
 * `ready`, when given, is awaited between the warm-up and the measurement (the all-core start line).
 */
async function sequentialRate(operation, seconds, warmup, ready) {
  for (let i = 0; i < warmup; i++) await operation();
  if (ready) await ready();
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

export async function rs256SignRate(seconds, ready) {
  const key = await rsaSigningKey();
  return sequentialRate(() => signAccessToken(key), seconds, 20, ready);
}

export async function argon2idVerifyRate(seconds, ready) {
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
    ready,
  );
}

const RATES = { rs256_sign: rs256SignRate, argon2id_verify: argon2idVerifyRate };

/**
 * `name` (rs256_sign or argon2id_verify) on `threads` worker threads (default: one per core) at once: each warms
 * up, waits until all are warm, then runs its sequential loop for `seconds`. Returns the sum of their rates.
 */
export async function allCoresRate(name, seconds, threads = availableParallelism()) {
  if (!RATES[name]) throw new Error(`unknown ceiling ${name}`);
  const workers = Array.from(
    { length: threads },
    () => new Worker(new URL(import.meta.url), { workerData: { ceiling: name, seconds } }),
  );
  try {
    const warm = workers.map(
      (worker) =>
        new Promise((resolve, reject) => {
          worker.once('message', resolve);
          worker.once('error', reject);
        }),
    );
    await Promise.all(warm);
    const done = workers.map(
      (worker) =>
        new Promise((resolve, reject) => {
          worker.once('message', resolve);
          worker.once('error', reject);
        }),
    );
    for (const worker of workers) worker.postMessage('go');
    const results = await Promise.all(done);
    return {
      per_s: results.reduce((sum, result) => sum + result.per_s, 0),
      operations: results.reduce((sum, result) => sum + result.operations, 0),
      threads,
    };
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
}

/** Both ceilings on one core and on all cores, rounded as the reports print them. */
export async function ceilingsOnOneAndAllCores(seconds, before = async () => {}) {
  const out = { cores: availableParallelism() };
  for (const name of Object.keys(RATES)) {
    await before(`${name} on one core`);
    const one = await RATES[name](seconds);
    await before(`${name} on all cores`);
    const all = await allCoresRate(name, seconds);
    out[name] = { one_core_per_s: Number(one.per_s.toFixed(1)), all_cores_per_s: Number(all.per_s.toFixed(1)) };
  }
  return out;
}

if (!isMainThread && workerData?.ceiling) {
  const ready = () =>
    new Promise((resolve) => {
      parentPort.once('message', resolve);
      parentPort.postMessage('warm');
    });
  RATES[workerData.ceiling](workerData.seconds, ready).then((result) => parentPort.postMessage(result));
}
