import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import { calculateJwkThumbprint, exportJWK, type JWTPayload, type JWTVerifyOptions, jwtVerify, SignJWT } from 'jose';
import type { Clock } from '../clock.js';
import type { Transactions, Tx } from '../db/index.js';
import { open, seal } from './aead.js';
import { signingKeys } from './schema.js';

export interface PublicJwk {
  kty: string;
  kid: string;
  alg: 'RS256';
  use: 'sig';
  n: string;
  e: string;
}

export interface Keyring {
  /** Creates the first active and staged keys on a fresh install; loads the set. */
  init(): Promise<void>;
  /** Re-reads the key set (another node may have rotated). */
  reload(): Promise<void>;
  /** Signs with the active key; `typ` sets the JOSE header (`logout+jwt`…). */
  sign(payload: JWTPayload, options?: { typ?: string }): Promise<string>;
  /** Verifies an RS256 JWT against the published keys; an unknown `kid` triggers one reload. */
  verify(token: string, options: JWTVerifyOptions): Promise<JWTPayload>;
  /** Whether tokens signed by `kid` still verify: the key is published (previous, active or next). */
  trusts(kid: string): boolean;
  /** At most three public keys: previous (still verifying), active, next (staged). */
  jwks(): { keys: PublicJwk[] };
  /** next -> active, active -> previous, previous -> retired, and a new next is staged. */
  rotate(): Promise<{ active: string; previous: string | undefined; next: string }>;
  /** Resolves once no re-read started beside a signature is running (the node is stopping). */
  close(): Promise<void>;
}

const ADVISORY_LOCK = 7_727_002;
const PUBLISHED = ['previous', 'active', 'next'] as const;
const RELOAD_AFTER_MS = 60_000;

export function createKeyring(deps: { transactions: Transactions; secretKey: Buffer; clock: Clock }): Keyring {
  const { transactions, secretKey, clock } = deps;
  let active: { kid: string; key: KeyObject } | undefined;
  let verifying = new Map<string, KeyObject>();
  let published: PublicJwk[] = [];
  let lastReload = 0;
  let reloading: Promise<void> | undefined;

  async function createKey(tx: Tx, status: 'next' | 'active'): Promise<string> {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const jwk = await exportJWK(publicKey);
    const kid = await calculateJwkThumbprint(jwk);
    const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const now = clock.now();
    await tx.insert(signingKeys).values({
      kid,
      status,
      publicJwk: { kty: jwk.kty!, n: jwk.n!, e: jwk.e! },
      privateKeySealed: seal(secretKey, pem, `signing-key:${kid}`),
      createdAt: now,
      activatedAt: status === 'active' ? now : null,
    });
    return kid;
  }

  async function reload(): Promise<void> {
    const keys = await transactions.system((tx) =>
      tx
        .select()
        .from(signingKeys)
        .where(inArray(signingKeys.status, [...PUBLISHED])),
    );
    const next = new Map<string, KeyObject>();
    const jwks: PublicJwk[] = [];
    for (const status of PUBLISHED) {
      for (const row of keys.filter((k) => k.status === status)) {
        const jwk = { ...row.publicJwk, kid: row.kid, alg: 'RS256', use: 'sig' } as PublicJwk;
        jwks.push(jwk);
        next.set(row.kid, createPublicKey({ key: { ...jwk }, format: 'jwk' }));
        if (status === 'active') {
          let pem: string;
          try {
            pem = open(secretKey, row.privateKeySealed, `signing-key:${row.kid}`);
          } catch {
            throw new Error(
              'SECRET_KEY: cannot decrypt the stored signing keys; it differs from the key they were made with',
            );
          }
          active = { kid: row.kid, key: createPrivateKey(pem) };
        }
      }
    }
    verifying = next;
    published = jwks;
    lastReload = clock.now().getTime();
  }

  return {
    async init() {
      await transactions.system(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(${ADVISORY_LOCK})`);
        const existing = await tx.select({ status: signingKeys.status }).from(signingKeys);
        if (!existing.some((k) => k.status === 'active')) await createKey(tx, 'active');
        if (!existing.some((k) => k.status === 'next')) await createKey(tx, 'next');
      });
      await reload();
    },
    reload,
    async close() {
      await reloading;
    },
    async sign(payload, options = {}) {
      // Another node or `svc keys rotate` may have promoted a key: every node signs with it within a minute.
      // The re-read runs beside the signature, never inside it: signing often happens in an open transaction.
      if (!reloading && clock.now().getTime() - lastReload > RELOAD_AFTER_MS) {
        reloading = reload()
          .catch(() => undefined)
          .finally(() => {
            reloading = undefined;
          });
      }
      if (!active) throw new Error('keyring not initialised');
      return new SignJWT(payload)
        .setProtectedHeader({ alg: 'RS256', kid: active.kid, typ: options.typ ?? 'JWT' })
        .sign(active.key);
    },
    async verify(token, options) {
      const { payload } = await jwtVerify(
        token,
        async (header) => {
          let key = header.kid ? verifying.get(header.kid) : undefined;
          // Another node may have rotated: look once more, at most once a second.
          if (!key && header.kid && clock.now().getTime() - lastReload > 1000) {
            await reload();
            key = verifying.get(header.kid);
          }
          if (!key) throw new Error('unknown kid');
          return key;
        },
        { algorithms: ['RS256'], currentDate: clock.now(), ...options },
      );
      return payload;
    },
    trusts: (kid) => verifying.has(kid),
    jwks: () => ({ keys: published }),
    async rotate() {
      const result = await transactions.system(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(${ADVISORY_LOCK})`);
        const now = clock.now();
        const rows = await tx
          .select()
          .from(signingKeys)
          .where(inArray(signingKeys.status, [...PUBLISHED]));
        const current = rows.find((k) => k.status === 'active');
        const staged = rows.find((k) => k.status === 'next');
        await tx
          .update(signingKeys)
          .set({ status: 'retired', retiredAt: now })
          .where(eq(signingKeys.status, 'previous'));
        if (current) {
          await tx.update(signingKeys).set({ status: 'previous' }).where(eq(signingKeys.kid, current.kid));
        }
        let activeKid: string;
        if (staged) {
          await tx
            .update(signingKeys)
            .set({ status: 'active', activatedAt: now })
            .where(eq(signingKeys.kid, staged.kid));
          activeKid = staged.kid;
        } else {
          activeKid = await createKey(tx, 'active');
        }
        const next = await createKey(tx, 'next');
        return { active: activeKid, previous: current?.kid, next };
      });
      await reload();
      return result;
    },
  };
}
