import {
  constants,
  createPublicKey,
  hash,
  type JsonWebKey,
  type KeyObject,
  publicDecrypt,
  verify as verifySignature,
} from 'node:crypto';
import { Redis } from 'ioredis';
import { calculateJwkThumbprint, decodeProtectedHeader, type JWK } from 'jose';
import type { Clock } from '../clock.js';
import { HttpError } from '../http/errors.js';

/**
 * DPoP (RFC 9449) proof verification, shared by every endpoint that issues or accepts key-bound tokens:
 * sign-in and refresh, principal resolution, agents and the OAuth token endpoint.
 */

interface AlgorithmSpec {
  kty: 'EC' | 'OKP' | 'RSA';
  /** Curves the key may use (EC, OKP). */
  crv?: readonly string[];
  /** Digest for node:crypto (null for EdDSA, which hashes internally). */
  hash: string | null;
  /** ECDSA signatures are r || s of fixed length (RFC 7518 section 3.4). */
  signatureBytes?: number;
  pss?: boolean;
}

/**
 * Asymmetric algorithms only (RFC 9449 section 4.2: never `none`, never a MAC), each pinned to the key type it
 * needs, so a key can never be used under an algorithm of another family (RFC 8725 section 3.1).
 */
const ALGORITHMS: Record<string, AlgorithmSpec> = {
  ES256: { kty: 'EC', crv: ['P-256'], hash: 'sha256', signatureBytes: 64 },
  ES384: { kty: 'EC', crv: ['P-384'], hash: 'sha384', signatureBytes: 96 },
  ES512: { kty: 'EC', crv: ['P-521'], hash: 'sha512', signatureBytes: 132 },
  EdDSA: { kty: 'OKP', crv: ['Ed25519', 'Ed448'], hash: null },
  RS256: { kty: 'RSA', hash: 'sha256' },
  RS384: { kty: 'RSA', hash: 'sha384' },
  RS512: { kty: 'RSA', hash: 'sha512' },
  PS256: { kty: 'RSA', hash: 'sha256', pss: true },
  PS384: { kty: 'RSA', hash: 'sha384', pss: true },
  PS512: { kty: 'RSA', hash: 'sha512', pss: true },
};
export const DPOP_ALGORITHMS = Object.keys(ALGORITHMS);

/** RFC 9449 section 7.1: a request refused for its DPoP binding says which scheme and why (people's and agents'). */
export const dpopRefused = (detail: string, error = 'invalid_token') =>
  new HttpError(401, detail, { 'WWW-Authenticate': `DPoP error="${error}", algs="ES256 EdDSA RS256 PS256"` });

/** RSA proof keys: modulus of 2048 to 8192 bits, public exponent at most 2^32 - 1 (in practice 65537). */
const RSA_MAX_BITS = 8192;
const RSA_MAX_EXPONENT = 0xffffffffn;

/** How far `iat` may be from our clock, either way (RFC 9449 section 11.1: a short window). */
export const DPOP_IAT_WINDOW_SECONDS = 60;

/** A proof that fails any check. Callers answer 401 (resources) or `invalid_dpop_proof` (OAuth). */
export class DpopError extends Error {}

export interface DpopCheck {
  /** The `DPoP` header as received (undefined when absent). */
  proof: string | string[] | undefined;
  /** HTTP method of the request (`htm`). */
  method: string;
  /** The request target as the client addressed it: origin + path; query and fragment are ignored (`htu`). */
  url: string;
  /** When presenting a bound access token: `ath` must be its SHA-256 (section 4.3). Refresh sends none. */
  accessToken?: string | undefined;
  /** The thumbprint the key must have (the token's `cnf.jkt` or the session's key). */
  expectedJkt?: string | undefined;
}

export interface DpopProof {
  /** RFC 7638 SHA-256 thumbprint of the proof's key, base64url: what tokens are bound to (`cnf.jkt`). */
  jkt: string;
}

export interface DpopVerifier {
  verify(check: DpopCheck): Promise<DpopProof>;
  /**
   * `htu` of a request to this service: BASE_URL + path, without query. `base` replaces BASE_URL for endpoints
   * advertised under another URL (the OpenID Provider's, under OIDC_ISSUER).
   */
  urlOf(path: string, base?: string): string;
  close(): Promise<void>;
}

/** Single-use `jti` store: true when the id was unseen (and is now recorded until `ttlMs` passes). */
interface ReplayCache {
  firstUse(key: string, ttlMs: number, nowMs: number): Promise<boolean>;
  close(): Promise<void>;
}

function memoryReplayCache(maxEntries = 1_000_000): ReplayCache {
  // Ids are kept in sets by when they may be forgotten (buckets of BUCKET_MS): a bucket is dropped whole once
  // everything in it has expired, and an id is looked for in the few live buckets. Nothing is kept per entry
  // but its id, so hundreds of thousands of ids (a minute of a busy node) cost little to keep and to collect.
  const BUCKET_MS = 8_000;
  const buckets = new Map<number, Set<string>>();
  let size = 0;
  return {
    async firstUse(key, ttlMs, nowMs) {
      for (const [end, ids] of buckets) {
        if (end * BUCKET_MS > nowMs) continue;
        size -= ids.size;
        buckets.delete(end);
      }
      for (const ids of buckets.values()) if (ids.has(key)) return false;
      // Still full of live entries: refuse rather than forget one (forgetting would allow a replay).
      if (size >= maxEntries) throw new DpopError('DPoP replay cache full');
      const end = Math.ceil((nowMs + ttlMs) / BUCKET_MS);
      let ids = buckets.get(end);
      if (!ids) {
        ids = new Set();
        buckets.set(end, ids);
      }
      ids.add(key);
      size += 1;
      return true;
    },
    async close() {
      buckets.clear();
      size = 0;
    },
  };
}

/**
 * `SET key 1 PX ttl NX` for each key, in one script call: 1 where the key was new, 0 where it existed.
 * Concurrent requests share a call (see below); all keys carry one hash tag, so they live in one cluster slot.
 */
const FIRST_USE_SCRIPT = `local r = {}
for i, key in ipairs(KEYS) do
  r[i] = redis.call('SET', key, '1', 'PX', ARGV[i], 'NX') and 1 or 0
end
return r`;

/**
 * Shared across nodes. Every bound request checks one `jti`; the checks that arrive in one turn of the event
 * loop go to Redis together as one script call, which costs the event loop far less than a command each.
 * Fails closed when Redis is down.
 */
function redisReplayCache(redisUrl: string, prefix: string): ReplayCache {
  const client = new Redis(redisUrl, {
    lazyConnect: true,
    enableOfflineQueue: true,
    maxRetriesPerRequest: 1,
    connectTimeout: 1000,
    commandTimeout: 1000,
  });
  client.on('error', () => undefined);
  client.defineCommand('svcDpopFirstUse', { lua: FIRST_USE_SCRIPT });
  type Pending = { key: string; ttlMs: number; resolve(first: boolean): void; reject(error: Error): void };
  let queue: Pending[] = [];

  async function flush(): Promise<void> {
    const batch = queue;
    queue = [];
    // A full queue was flushed early: the turn's scheduled flush may find nothing left.
    if (batch.length === 0) return;
    try {
      const call = (client as unknown as Record<string, (...args: Array<string | number>) => Promise<number[]>>)
        .svcDpopFirstUse;
      const answers = await call!.call(
        client,
        batch.length,
        ...batch.map((p) => `${prefix}:{dpop}:${p.key}`),
        ...batch.map((p) => p.ttlMs),
      );
      for (const [i, p] of batch.entries()) p.resolve(answers[i] === 1);
    } catch {
      for (const p of batch) p.reject(new DpopError('DPoP replay cache unavailable'));
    }
  }

  return {
    firstUse(key, ttlMs) {
      return new Promise<boolean>((resolve, reject) => {
        queue.push({ key, ttlMs: Math.ceil(ttlMs), resolve, reject });
        if (queue.length === 1) setImmediate(() => void flush());
        else if (queue.length >= 256) void flush();
      });
    },
    async close() {
      if (client.status === 'ready') await client.quit().catch(() => client.disconnect());
      else client.disconnect();
    },
  };
}

const PROOF_SYNTAX = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
const REST_SYNTAX = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** The proof's claims: a JSON object, base64url-encoded (RFC 7519 section 7.2). */
function claimsOf(segment: string): Record<string, unknown> {
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
  } catch {
    throw new DpopError('DPoP proof malformed');
  }
  if (!claims || typeof claims !== 'object' || Array.isArray(claims)) throw new DpopError('DPoP proof malformed');
  return claims as Record<string, unknown>;
}

const b64urlSha256 = (value: string) => hash('sha256', value, 'base64url');

/** DER DigestInfo prefixes of EMSA-PKCS1-v1_5 (RFC 8017 section 9.2, note 1), by digest. */
const DIGEST_INFO: Record<string, Buffer> = {
  sha256: Buffer.from('3031300d060960864801650304020105000420', 'hex'),
  sha384: Buffer.from('3041300d060960864801650304020205000430', 'hex'),
  sha512: Buffer.from('3051300d060960864801650304020305000440', 'hex'),
};

/**
 * RSASSA-PKCS1-v1_5 verification as RFC 8017 section 8.2.2 specifies it: the raw RSA operation on the
 * signature, then a byte-for-byte comparison with the encoding the message must have. Nothing of the
 * recovered block is parsed, so no lenient-parsing forgery applies. node:crypto's `verify` does the same
 * work with about 15 µs more overhead per call, which every RS256-bound request would pay
 * (docs/benchmarks.md).
 */
function pkcs1v15Holds(data: string, signature: Buffer, key: ProofKey) {
  if (signature.length !== key.modulusBytes) return false;
  let recovered: Buffer;
  try {
    recovered = publicDecrypt({ key: key.key, padding: constants.RSA_NO_PADDING }, signature);
  } catch {
    return false; // not below the modulus
  }
  const prefix = key.pkcs1Prefix!;
  return (
    recovered.length === key.modulusBytes &&
    recovered.subarray(0, prefix.length).equals(prefix) &&
    recovered.subarray(prefix.length).equals(hash(key.spec.hash!, data, 'buffer'))
  );
}

/** `00 01 FF…FF 00 DigestInfo`: the encoded message of RFC 8017 section 9.2 up to the digest, for one key size. */
function pkcs1Prefix(modulusBytes: number, digest: string): Buffer {
  const digestInfo = DIGEST_INFO[digest]!;
  const digestBytes = { sha256: 32, sha384: 48, sha512: 64 }[digest]!;
  const prefix = Buffer.alloc(modulusBytes - digestBytes, 0xff);
  prefix[0] = 0x00;
  prefix[1] = 0x01;
  prefix[prefix.length - digestInfo.length - 1] = 0x00;
  digestInfo.copy(prefix, prefix.length - digestInfo.length);
  return prefix;
}

/**
 * The JWS signature over `header.payload` (RFC 7515 section 5.2), checked with node:crypto: jose's WebCrypto
 * verification costs the event loop several times more, and every DPoP-bound request pays it
 * (docs/benchmarks.md). RSASSA-PKCS1-v1_5 is cheap and runs on the event loop; elliptic-curve verification costs
 * several times an RSA one and runs on the libuv thread pool.
 */
function signatureHolds(compact: string, key: ProofKey): Promise<boolean> | boolean {
  const { spec } = key;
  const dot = compact.lastIndexOf('.');
  const signature = Buffer.from(compact.slice(dot + 1), 'base64url');
  if (spec.signatureBytes && signature.length !== spec.signatureBytes) return false;
  if (key.pkcs1Prefix) {
    // In the event loop's check phase, after this turn's replay-cache batch has left for Redis: the round trip
    // then overlaps the signature checks of the turn's requests instead of waiting behind them.
    return new Promise((resolve) => setImmediate(() => resolve(pkcs1v15Holds(compact.slice(0, dot), signature, key))));
  }
  const data = Buffer.from(compact.slice(0, dot));
  if (spec.pss) {
    const options = {
      key: key.key,
      padding: constants.RSA_PKCS1_PSS_PADDING,
      saltLength: constants.RSA_PSS_SALTLEN_DIGEST,
    };
    try {
      return verifySignature(spec.hash, data, options, signature);
    } catch {
      return false;
    }
  }
  const options = spec.kty === 'EC' ? { key: key.key, dsaEncoding: 'ieee-p1363' as const } : key.key;
  return new Promise((resolve) => {
    verifySignature(spec.hash, data, options, signature, (error, valid) => resolve(!error && valid));
  });
}

const normalized = new Map<string, string | null>();

/**
 * `scheme://host[:port]/path`, lowercased scheme and host, default ports dropped, no query or fragment.
 * Clients send the same few URLs over and over: answers are memoized (bounded).
 */
function normalizeHtu(value: string): string | null {
  const known = normalized.get(value);
  if (known !== undefined) return known;
  let result: string | null;
  try {
    const url = new URL(value);
    result = `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    result = null;
  }
  if (normalized.size >= 4096) normalized.clear();
  normalized.set(value, result);
  return result;
}

/** A client's public key, imported once. `modulusBytes` is the RSA modulus length (0 for other keys). */
interface ImportedKey {
  key: KeyObject;
  jkt: string;
  modulusBytes: number;
}

/** An imported key and the algorithm a proof header names for it. */
interface ProofKey extends ImportedKey {
  spec: AlgorithmSpec;
  /** RSASSA-PKCS1-v1_5 (RS256, RS384, RS512): the encoding every signature must recover to, up to the digest. */
  pkcs1Prefix?: Buffer;
}

export function createDpopVerifier(options: {
  clock: Clock;
  baseUrl: string;
  redisUrl?: string | undefined;
  keyPrefix?: string | undefined;
}): DpopVerifier {
  const { clock } = options;
  const cache = options.redisUrl
    ? redisReplayCache(options.redisUrl, `${options.keyPrefix ?? 'svc'}:dpop-jti`)
    : memoryReplayCache();
  // Imported public keys by their JSON: a client proves with one key for many requests.
  const keys = new Map<string, ImportedKey>();
  const base = options.baseUrl.replace(/\/$/, '');

  async function keyOf(jwk: JWK, spec: AlgorithmSpec): Promise<ImportedKey> {
    const id = JSON.stringify(jwk);
    const known = keys.get(id);
    if (known) return known;
    if (jwk.kty !== spec.kty || (spec.crv && !spec.crv.includes(String(jwk.crv)))) {
      throw new DpopError('DPoP proof key does not fit its algorithm');
    }
    const key = createPublicKey({ key: jwk as JsonWebKey, format: 'jwk' });
    if (key.type !== 'public') throw new DpopError('DPoP proof must embed a public JWK');
    const details = key.asymmetricKeyDetails;
    const bits = details?.modulusLength ?? 0;
    if (spec.kty === 'RSA') {
      if (bits < 2048) throw new DpopError('DPoP proof RSA key shorter than 2048 bits');
      // Verification runs inline and costs in proportion to the exponent's and modulus's size: a crafted key
      // (a huge `e`) would make every unauthenticated sign-in proof a hundred times dearer to check.
      if (bits > RSA_MAX_BITS || (details?.publicExponent ?? 0n) > RSA_MAX_EXPONENT) {
        throw new DpopError('DPoP proof RSA key too large');
      }
    }
    const imported = { key, jkt: await calculateJwkThumbprint(jwk, 'sha256'), modulusBytes: Math.ceil(bits / 8) };
    if (keys.size >= 10_000) keys.delete(keys.keys().next().value!);
    keys.set(id, imported);
    return imported;
  }

  // A client sends the same protected header (alg, typ, its key) with every proof: checked once, then known.
  const headers = new Map<string, ProofKey>();

  async function headerOf(segment: string): Promise<ProofKey> {
    const known = headers.get(segment);
    if (known) return known;
    let header: ReturnType<typeof decodeProtectedHeader>;
    try {
      header = decodeProtectedHeader(`${segment}.e30.`);
    } catch {
      throw new DpopError('DPoP proof malformed');
    }
    const jwk = header.jwk as JWK | undefined;
    if (header.typ !== 'dpop+jwt') throw new DpopError('DPoP proof typ must be dpop+jwt');
    const alg = typeof header.alg === 'string' && Object.hasOwn(ALGORITHMS, header.alg) ? header.alg : undefined;
    if (!alg) throw new DpopError('DPoP proof algorithm not allowed');
    const spec = ALGORITHMS[alg]!;
    // RFC 7515 section 4.1.11: no extension is understood here, so any `crit` refuses the proof.
    if (header.crit !== undefined) throw new DpopError('DPoP proof carries unsupported crit parameters');
    if (!jwk || typeof jwk !== 'object' || 'd' in jwk || 'p' in jwk || 'k' in jwk) {
      throw new DpopError('DPoP proof must embed a public JWK');
    }
    let imported: ImportedKey;
    try {
      imported = await keyOf(jwk, spec);
    } catch (error) {
      if (error instanceof DpopError) throw error;
      throw new DpopError('DPoP proof must embed a public JWK');
    }
    const entry: ProofKey = { ...imported, spec };
    if (spec.kty === 'RSA' && !spec.pss) entry.pkcs1Prefix = pkcs1Prefix(imported.modulusBytes, spec.hash!);
    if (headers.size >= 10_000) headers.delete(headers.keys().next().value!);
    headers.set(segment, entry);
    return entry;
  }

  return {
    urlOf: (path, at = base) => `${at}${path.split('?')[0]}`,

    async verify(check) {
      const proof = typeof check.proof === 'string' ? check.proof : '';
      const firstDot = proof.indexOf('.');
      if (firstDot < 0) throw new DpopError('DPoP proof missing or malformed');
      const segment = proof.slice(0, firstDot);
      // A header seen before was checked then (headerOf): only the rest of the proof needs its syntax checked.
      const known = headers.get(segment);
      if (!(known ? REST_SYNTAX : PROOF_SYNTAX).test(known ? proof.slice(firstDot + 1) : proof)) {
        throw new DpopError('DPoP proof missing or malformed');
      }
      const key = known ?? (await headerOf(segment));
      const { jkt } = key;
      const payload = claimsOf(proof.slice(firstDot + 1, proof.lastIndexOf('.')));
      const { jti, htm, htu, iat, ath } = payload;
      if (typeof jti !== 'string' || jti.length < 8 || jti.length > 256) throw new DpopError('DPoP proof jti invalid');
      if (htm !== check.method.toUpperCase()) throw new DpopError('DPoP proof htm does not match the request');
      const wanted = normalizeHtu(check.url);
      if (typeof htu !== 'string' || !wanted || normalizeHtu(htu) !== wanted) {
        throw new DpopError('DPoP proof htu does not match the request');
      }
      const nowMs = clock.now().getTime();
      if (typeof iat !== 'number' || Math.abs(nowMs / 1000 - iat) > DPOP_IAT_WINDOW_SECONDS) {
        throw new DpopError('DPoP proof iat outside the accepted window');
      }
      if (check.accessToken !== undefined) {
        if (typeof ath !== 'string' || ath !== b64urlSha256(check.accessToken)) {
          throw new DpopError('DPoP proof ath does not match the access token');
        }
      } else if (ath !== undefined) {
        throw new DpopError('DPoP proof carries ath where no access token is presented');
      }
      if (check.expectedJkt !== undefined && check.expectedJkt !== jkt) {
        throw new DpopError('DPoP proof key does not match the token binding');
      }
      // The claims are only compared so far (a mismatch refuses before any costly work). Then the signature (on
      // the thread pool) and the jti's first use (Redis) are checked at once, so a request waits for the slower of
      // the two, not for both. The jti is remembered for as long as its iat keeps it acceptable, under the key's
      // thumbprint: a proof with a bad signature can only burn a jti of the key it names, which whoever saw the
      // proof could do by replaying it anyway.
      const ttlMs = Math.max(1000, (iat + DPOP_IAT_WINDOW_SECONDS + 1) * 1000 - nowMs);
      const [firstUse, signed] = await Promise.all([
        cache.firstUse(`${jkt}.${jti}`, ttlMs, nowMs).then(
          (first) => ({ first }),
          (error: unknown) => ({ error }),
        ),
        signatureHolds(proof, key),
      ]);
      if (!signed) throw new DpopError('DPoP proof signature invalid');
      if ('error' in firstUse) throw firstUse.error;
      if (!firstUse.first) throw new DpopError('DPoP proof replayed');
      return { jkt };
    },

    close: () => cache.close(),
  };
}
