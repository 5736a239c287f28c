import { createHash, randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';

/** A client's DPoP key (RFC 9449) that signs proofs for tests. */
export interface DpopKey {
  publicJwk: JWK;
  /**
   * A fresh proof for `method url`; with `accessToken`, its `ath`. `overrides` replace claims or header fields
   * (to build broken proofs); `iat` defaults to `now` (seconds), which tests pass from their ManualClock.
   */
  proof(
    method: string,
    url: string,
    options?: {
      accessToken?: string;
      now?: Date;
      claims?: Record<string, unknown>;
      header?: Record<string, unknown>;
    },
  ): Promise<string>;
}

export async function newDpopKey(
  alg: 'ES256' | 'ES384' | 'EdDSA' | 'RS256' | 'RS384' | 'RS512' | 'PS256' = 'ES256',
  options: { modulusLength?: number } = {},
): Promise<DpopKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true, ...options });
  const publicJwk = await exportJWK(publicKey);
  return {
    publicJwk,
    async proof(method, url, options = {}) {
      const now = options.now ?? new Date();
      const claims: Record<string, unknown> = {
        jti: randomUUID(),
        htm: method,
        htu: url,
        iat: Math.floor(now.getTime() / 1000),
        ...(options.accessToken ? { ath: createHash('sha256').update(options.accessToken).digest('base64url') } : {}),
        ...options.claims,
      };
      for (const [name, value] of Object.entries(claims)) if (value === undefined) delete claims[name];
      return new SignJWT(claims)
        .setProtectedHeader({ alg, typ: 'dpop+jwt', jwk: publicJwk, ...options.header } as never)
        .sign(privateKey);
    },
  };
}
