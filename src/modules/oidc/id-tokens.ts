import { createHash } from 'node:crypto';
import type { Clock } from '../../kernel/clock.js';
import type { Keyring } from '../../kernel/crypto/index.js';
import { newId } from '../../kernel/ids.js';

/** ID tokens live an hour: a client checks one when it receives it; sessions are ended by logout, not by exp. */
export const ID_TOKEN_LIFETIME_SECONDS = 3600;
/** Part A 2.12 and 8: a logout token lives about 2 minutes. */
export const LOGOUT_TOKEN_LIFETIME_SECONDS = 120;
/** How old an `id_token_hint` may be at end session (OIDC RP-Initiated Logout lets an expired one through). */
const HINT_MAX_AGE_SECONDS = 30 * 24 * 3600;

const BACKCHANNEL_EVENT = 'http://schemas.openid.net/event/backchannel-logout';

/** OIDC Core 3.1.3.6: base64url of the left half of the SHA-256 of the access token. */
export const atHash = (accessToken: string) =>
  createHash('sha256').update(accessToken).digest().subarray(0, 16).toString('base64url');

export interface IdTokenInput {
  clientId: string;
  userId: string;
  tenantId: string;
  tenantSlug: string;
  /** The provider's browser session (Part A 2.9 `sid`, the logout token's too). */
  sid: string;
  authTime: Date;
  amr: string[];
  nonce: string | null;
  accessToken: string;
}

/**
 * The OIDC issuer's own tokens (Part A 2.9, 2.12), RS256 with the service's keyring and `iss` the configured
 * issuer: distinct from access tokens, whose issuer is `svc-auth` (Part A 5.6 pins them separately).
 */
export function createIdTokens(deps: { keyring: Keyring; clock: Clock; issuer: string }) {
  const { keyring, clock, issuer } = deps;
  const nowSeconds = () => Math.floor(clock.now().getTime() / 1000);
  return {
    idToken(input: IdTokenInput): Promise<string> {
      const iat = nowSeconds();
      return keyring.sign({
        iss: issuer,
        aud: input.clientId,
        sub: input.userId,
        iat,
        exp: iat + ID_TOKEN_LIFETIME_SECONDS,
        auth_time: Math.floor(input.authTime.getTime() / 1000),
        ...(input.nonce === null ? {} : { nonce: input.nonce }),
        at_hash: atHash(input.accessToken),
        amr: input.amr,
        sid: input.sid,
        tid: input.tenantId,
        tenant_slug: input.tenantSlug,
      });
    },

    /** OIDC Back-Channel Logout 1.0 section 2.4: `typ` logout+jwt, the event member, never a nonce. */
    logoutToken(input: { clientId: string; userId: string; sid: string }): Promise<string> {
      const iat = nowSeconds();
      return keyring.sign(
        {
          iss: issuer,
          aud: input.clientId,
          iat,
          exp: iat + LOGOUT_TOKEN_LIFETIME_SECONDS,
          jti: newId(),
          sub: input.userId,
          sid: input.sid,
          events: { [BACKCHANNEL_EVENT]: {} },
        },
        { typ: 'logout+jwt' },
      );
    },

    /**
     * An `id_token_hint` (end session): our signature and issuer; expiry is not held against it, within 30
     * days (OIDC RP-Initiated Logout 1.0 section 2). Undefined when it is not one of ours.
     */
    async verifyHint(
      token: string,
    ): Promise<{ clientId: string; userId: string; sid: string; tenantId: string } | undefined> {
      try {
        const claims = await keyring.verify(token, {
          issuer,
          typ: 'JWT',
          clockTolerance: HINT_MAX_AGE_SECONDS,
          requiredClaims: ['aud', 'sub', 'sid', 'tid'],
        });
        const { aud, sub, sid, tid } = claims as { aud: unknown; sub: unknown; sid: unknown; tid: unknown };
        if (typeof aud !== 'string' || typeof sub !== 'string' || typeof sid !== 'string' || typeof tid !== 'string') {
          return undefined;
        }
        return { clientId: aud, userId: sub, sid, tenantId: tid };
      } catch {
        return undefined;
      }
    },
  };
}

export type IdTokens = ReturnType<typeof createIdTokens>;
