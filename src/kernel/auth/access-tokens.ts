import { decodeProtectedHeader, type JWTPayload } from 'jose';
import type { Clock } from '../clock.js';
import type { Keyring } from '../crypto/index.js';
import { newId } from '../ids.js';

export const ACCESS_TOKEN_ISSUER = 'svc-auth';
export const ACCESS_TOKEN_AUDIENCE = 'svc-services';
/** Verified tokens each node remembers (about 1 KB each); the oldest is forgotten first. */
const VERIFIED_TOKENS_KEPT = 20_000;

/** Claims of our access tokens (Part A 2.11). Not contract for clients: they may change in any release. */
export interface AccessClaims {
  sub: string;
  tid: string;
  sid: string;
  /** The user's revocation epoch when the token was minted; a bump refuses every older token. */
  ep: number;
  /** Actor kind: `human` for people, `agent` for agent tokens. */
  act: 'human' | 'agent';
  /** RFC 9449 confirmation: the SHA-256 thumbprint of the DPoP key the token is bound to. */
  cnf?: { jkt: string };
  /**
   * Set on a token the OpenID Provider issued to an OAuth client for a person (Part A 4.14): the client and the
   * granted scopes. Such a token works at UserInfo or at its resource, never at the platform API.
   */
  client_id?: string;
  scope?: string;
  exp: number;
  iat: number;
  jti: string;
}

/**
 * Claims of an access token an OAuth client obtained for itself (client_credentials, Part A 2.11 and 4.14): no
 * person and no session stand behind it. `sub` is the client id; `act: 'client'` and the missing `sid` and `ep`
 * make `verify` refuse it, so it never passes where a person's token is expected (the platform API, UserInfo).
 */
export interface ClientAccessClaims {
  sub: string;
  client_id: string;
  /** The client's organization. */
  tid: string;
  /** Space-separated granted scopes (RFC 9068 section 2.2.3). */
  scope: string;
  act: 'client';
  /** RFC 9449 confirmation: the SHA-256 thumbprint of the DPoP key the token is bound to. */
  cnf?: { jkt: string };
}

export interface AccessTokens {
  issue(
    claims: Omit<AccessClaims, 'exp' | 'iat' | 'jti'>,
    options?: { ttlSeconds?: number; audience?: string },
  ): Promise<{
    token: string;
    expiresIn: number;
  }>;
  /**
   * A client's own token (Part A 2.11): RS256, `typ: at+jwt`, issuer `svc-auth`, audience `svc-services` or the
   * resource identifier it was minted for (RFC 8707), the configured lifetime unless `ttlSeconds` says otherwise.
   */
  issueClientToken(
    claims: ClientAccessClaims,
    options?: { ttlSeconds?: number; audience?: string },
  ): Promise<{ token: string; expiresIn: number }>;
  /** Signature, issuer, audience and expiry; throws when any fails. */
  verify(token: string, options?: { audience?: string }): Promise<AccessClaims>;
}

export function createAccessTokens(deps: { keyring: Keyring; clock: Clock; ttlSeconds: number }): AccessTokens {
  const { keyring, clock } = deps;
  /**
   * Tokens whose signature and claims verified, by their exact text: a client presents one token for many requests
   * over its lifetime, and checking the signature again would give the same answer. An entry serves only while
   * the token has not expired and its signing key is still published (a retired key's tokens are refused as
   * soon as this node's key set says so, exactly as without the cache). Revocation is not a property of the
   * token: the session, epoch and membership are still read on every request. Only successes are kept, so a
   * forged or altered token is always checked in full.
   */
  const verified = new Map<string, { claims: AccessClaims; audience: string; kid: string }>();
  /** One signing path for every kind of access token: same issuer, lifetime rule, `typ` and fresh `jti`. */
  async function sign(claims: object, options: { ttlSeconds?: number; audience?: string }) {
    const ttl = options.ttlSeconds ?? deps.ttlSeconds;
    const iat = Math.floor(clock.now().getTime() / 1000);
    const payload: JWTPayload = {
      ...claims,
      iss: ACCESS_TOKEN_ISSUER,
      aud: options.audience ?? ACCESS_TOKEN_AUDIENCE,
      iat,
      exp: iat + ttl,
      jti: newId(),
    };
    return { token: await keyring.sign(payload, { typ: 'at+jwt' }), expiresIn: ttl };
  }
  return {
    issue: (claims, options = {}) => sign(claims, options),
    issueClientToken: (claims, options = {}) => sign(claims, options),
    async verify(token, options = {}) {
      const audience = options.audience ?? ACCESS_TOKEN_AUDIENCE;
      const known = verified.get(token);
      if (known) {
        if (
          known.audience === audience &&
          known.claims.exp * 1000 > clock.now().getTime() &&
          keyring.trusts(known.kid)
        ) {
          return known.claims;
        }
        verified.delete(token);
      }
      const payload = await keyring.verify(token, {
        issuer: ACCESS_TOKEN_ISSUER,
        audience,
        typ: 'at+jwt',
        requiredClaims: ['sub', 'tid', 'sid', 'exp', 'iat'],
      });
      if (typeof payload.ep !== 'number' || (payload.act !== 'human' && payload.act !== 'agent')) {
        throw new Error('malformed access token');
      }
      // Shared by every request that presents the token: nobody may change it.
      if (payload.cnf) Object.freeze(payload.cnf);
      const claims = Object.freeze(payload) as unknown as AccessClaims;
      if (verified.size >= VERIFIED_TOKENS_KEPT) verified.delete(verified.keys().next().value!);
      verified.set(token, { claims, audience, kid: decodeProtectedHeader(token).kid! });
      return claims;
    },
  };
}
