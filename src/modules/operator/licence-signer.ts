import { createPrivateKey, createPublicKey } from 'node:crypto';
import { calculateJwkThumbprint, type JWK, SignJWT } from 'jose';
import type { LicenceSigningKey } from '../../config.js';
import { HttpError } from '../../kernel/http/index.js';

/** The JWT `typ` of a licence bundle, so it can never pass for another kind of token signed elsewhere. */
export const LICENCE_JWT_TYPE = 'licence+jwt';

export interface LicenceClaims {
  jti: string;
  sub: string;
  iat: Date;
  exp: Date;
  claims: Record<string, unknown>;
}

/**
 * Signs licence bundles with the key of LICENCE_SIGNING_KEY_FILE (Ed25519 as EdDSA, or P-256 as ES256). The
 * header's `kid` is the RFC 7638 thumbprint of the public key, which is what `docs/operator.md` publishes.
 * Without a key every licence issuance answers 503 (Part B 7).
 */
export function createLicenceSigner(key: LicenceSigningKey | undefined, issuer: string) {
  const loaded = key
    ? (async () => {
        const privateKey = createPrivateKey(key.pem);
        const kid = await calculateJwkThumbprint(createPublicKey(privateKey).export({ format: 'jwk' }) as JWK);
        return { privateKey, kid, alg: key.alg };
      })()
    : undefined;
  return {
    /** 503 while no key is provisioned, before anything is written. */
    assertProvisioned(): void {
      if (!loaded) {
        throw new HttpError(
          503,
          'Licence signing key not provisioned: set LICENCE_SIGNING_KEY_FILE to an Ed25519 or P-256 private key (PEM)',
        );
      }
    },
    async sign(licence: LicenceClaims): Promise<string> {
      this.assertProvisioned();
      const { privateKey, kid, alg } = await loaded!;
      return new SignJWT(licence.claims)
        .setProtectedHeader({ alg, kid, typ: LICENCE_JWT_TYPE })
        .setIssuer(issuer)
        .setSubject(licence.sub)
        .setJti(licence.jti)
        .setIssuedAt(licence.iat)
        .setNotBefore(licence.iat)
        .setExpirationTime(licence.exp)
        .sign(privateKey);
    },
  };
}

export type LicenceSigner = ReturnType<typeof createLicenceSigner>;
