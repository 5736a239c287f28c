import {
  type CryptoKey,
  createLocalJWKSet,
  generateKeyPair,
  type JSONWebKeySet,
  type JWTPayload,
  type JWTVerifyOptions,
  errors as joseErrors,
  jwtVerify,
} from 'jose';
import type { Clock } from '../../kernel/clock.js';
import { HttpError, unprocessable } from '../../kernel/http/index.js';
import { assertOutboundUrl, type Egress, fetchJsonDocument } from '../../kernel/net/index.js';

/** Attestations are signed with RS256 or ES256, nothing else (Part B 2.2). */
export const ATTESTATION_ALGORITHMS = ['RS256', 'ES256'];
/** A key set is used this long before it is fetched again. */
const KEYS_TTL_MS = 10 * 60_000;
/**
 * The floor between two fetches of one issuer's keys: an unknown `kid` (key rotation) or a failed fetch fetches
 * again, but never sooner, so attestations naming made-up key ids cannot drive a stream of requests at the issuer.
 */
export const KEYS_REFETCH_FLOOR_MS = 60_000;

type KeySet = ReturnType<typeof createLocalJWKSet>;

/**
 * Registration without `jwks_uri`: the issuer's discovery document (`<issuer>/.well-known/openid-configuration`),
 * fetched through the egress client, must name this issuer exactly and a `jwks_uri` that passes the outbound
 * rule. Each failure is a 422 saying what was wrong.
 */
export async function discoverJwksUri(egress: Egress, issuer: string): Promise<string> {
  const url = `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
  const fetched = await fetchJsonDocument(egress, url, 'discovery document');
  if ('problem' in fetched) throw unprocessable(`issuer: ${fetched.problem}`);
  const { document } = fetched;
  if (document.issuer !== issuer) {
    throw unprocessable(`issuer: the discovery document names another issuer; give jwks_uri or the exact issuer`);
  }
  if (typeof document.jwks_uri !== 'string') throw unprocessable('issuer: the discovery document names no jwks_uri');
  try {
    return assertOutboundUrl(document.jwks_uri, 'jwks_uri');
  } catch (error) {
    if (error instanceof HttpError) throw unprocessable(`issuer: discovery document: ${error.detail}`);
    throw error;
  }
}

/** Fetches a JWK Set; undefined when the answer is not one. */
async function fetchKeys(egress: Egress, jwksUri: string): Promise<KeySet | undefined> {
  const fetched = await fetchJsonDocument(egress, jwksUri, 'key set');
  if ('problem' in fetched || !Array.isArray(fetched.document.keys)) return undefined;
  const body = fetched.document as { keys: Array<Record<string, unknown> | null> };
  // Only public signature keys of the two accepted types are kept; anything else in the set is ignored.
  const keys = body.keys.filter(
    (key): key is Record<string, unknown> =>
      !!key &&
      typeof key === 'object' &&
      (key.kty === 'RSA' || key.kty === 'EC') &&
      (key.use === undefined || key.use === 'sig') &&
      key.d === undefined,
  );
  try {
    return createLocalJWKSet({ keys } as JSONWebKeySet);
  } catch {
    return undefined;
  }
}

interface CachedKeys {
  jwksUri: string;
  /** Undefined while the last fetch failed and none succeeded before it. */
  keys: KeySet | undefined;
  fetchedAt: number;
  pending: Promise<KeySet | undefined> | undefined;
}

/** Signs nothing: public keys of the same types, verified against when there is no issuer key to use. */
let decoys: Promise<Record<string, CryptoKey>> | undefined;
function decoyKeys(): Promise<Record<string, CryptoKey>> {
  decoys ??= (async () => {
    const [rsa, ec] = await Promise.all([generateKeyPair('RS256'), generateKeyPair('ES256')]);
    return { RS256: rsa.publicKey, ES256: ec.publicKey };
  })();
  return decoys;
}

/**
 * Each issuer's signing keys, per node: fetched through the egress client, kept for `KEYS_TTL_MS`, fetched again
 * for an unknown `kid` or after a failure, never more often than the floor. One fetch at a time per issuer.
 */
export function createIssuerKeys(deps: { egress: Egress; clock: Clock }) {
  const { egress, clock } = deps;
  const cache = new Map<string, CachedKeys>();
  // Made once per process, ahead of the first refusal (an RSA key takes a moment to generate).
  decoyKeys().catch(() => {});

  async function keysOf(issuer: { issuerId: string; jwksUri: string }, unknownKid: boolean) {
    const now = clock.now().getTime();
    let entry = cache.get(issuer.issuerId);
    if (!entry || entry.jwksUri !== issuer.jwksUri) {
      entry = { jwksUri: issuer.jwksUri, keys: undefined, fetchedAt: Number.NEGATIVE_INFINITY, pending: undefined };
      cache.set(issuer.issuerId, entry);
    }
    const age = now - entry.fetchedAt;
    const due = age >= KEYS_TTL_MS || ((unknownKid || !entry.keys) && age >= KEYS_REFETCH_FLOOR_MS);
    if (!due) return entry.keys;
    const current = entry;
    current.pending ??= fetchKeys(egress, issuer.jwksUri).then(
      (keys) => {
        current.fetchedAt = clock.now().getTime();
        // A failed fetch keeps the keys that worked before (an issuer's outage does not stop exchange at once).
        if (keys) current.keys = keys;
        current.pending = undefined;
        return current.keys;
      },
      (error) => {
        current.fetchedAt = clock.now().getTime();
        current.pending = undefined;
        throw error;
      },
    );
    return current.pending;
  }

  /** jose's pattern for a key set with several candidate keys (no `kid`): each is tried. */
  async function verifyWithSet(token: string, keys: KeySet, options: JWTVerifyOptions) {
    try {
      return await jwtVerify(token, keys, options);
    } catch (error) {
      if (!(error instanceof joseErrors.JWKSMultipleMatchingKeys)) throw error;
      for await (const key of error as unknown as AsyncIterable<CryptoKey>) {
        try {
          return await jwtVerify(token, key, options);
        } catch (inner) {
          if (!(inner instanceof joseErrors.JWSSignatureVerificationFailed)) throw inner;
        }
      }
      throw new joseErrors.JWSSignatureVerificationFailed();
    }
  }

  return {
    /**
     * Verifies the attestation's signature and registered claims against the issuer's keys; with no issuer to
     * trust (unknown, disabled), against a decoy key, so that refusal costs the same verification. Answers the
     * payload, or why it was refused (for the organization's events, never for the caller).
     */
    async verify(
      token: string,
      issuer: { issuerId: string; jwksUri: string } | undefined,
      options: JWTVerifyOptions,
    ): Promise<{ payload: JWTPayload } | { refused: string }> {
      const settings = { ...options, algorithms: ATTESTATION_ALGORITHMS };
      try {
        if (!issuer) {
          const alg = JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString('utf8'))?.alg;
          const decoy = (await decoyKeys())[alg === 'ES256' ? 'ES256' : 'RS256']!;
          await jwtVerify(token, decoy, settings);
          return { refused: 'no trusted issuer' };
        }
        let keys = await keysOf(issuer, false);
        if (!keys) return { refused: 'issuer keys unavailable' };
        try {
          return { payload: (await verifyWithSet(token, keys, settings)).payload };
        } catch (error) {
          if (!(error instanceof joseErrors.JWKSNoMatchingKey)) throw error;
          // Key rotation: a `kid` the cached set does not hold fetches the set again (not below the floor).
          keys = await keysOf(issuer, true);
          if (!keys) return { refused: 'issuer keys unavailable' };
          return { payload: (await verifyWithSet(token, keys, settings)).payload };
        }
      } catch (error) {
        if (error instanceof joseErrors.JOSEError) return { refused: error.code };
        if (error instanceof SyntaxError || error instanceof TypeError) return { refused: 'malformed' };
        throw error;
      }
    },

    /** Drops an issuer's keys on this node (issuer removed or its key set changed). */
    forget(issuerId: string) {
      cache.delete(issuerId);
    },
  };
}

export type IssuerKeys = ReturnType<typeof createIssuerKeys>;
