import {
  createLocalJWKSet,
  type JSONWebKeySet,
  type JWTPayload,
  type JWTVerifyResult,
  errors as joseErrors,
  jwtVerify,
} from 'jose';
import type { Clock } from '../../kernel/clock.js';
import { HttpError } from '../../kernel/http/index.js';
import { assertOutboundUrl, type Egress, EgressError, type EgressResponse } from '../../kernel/net/index.js';
import { type Discovery, discover } from './connection-test.js';

/**
 * Why a federated sign-in failed, for the log and the organization's events. Never shown to the browser: every
 * failure of a round trip ends in one generic redirect (Part A 4.5), and the reason may name upstream details.
 */
export class FederationError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'FederationError';
  }
}

export type ProviderMetadata = Discovery & {
  userinfo_endpoint?: unknown;
  id_token_signing_alg_values_supported?: unknown;
};

export interface RelyingPartyClient {
  clientId: string;
  clientSecret: string;
}

/** Asymmetric signatures only: an HMAC ID token would be signed with our own client secret (OIDC Core 10.1). */
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];
const TIMEOUT_MS = 5_000;
const DOCUMENT_BYTES = 256 * 1024;
/** Provider metadata and keys are cached briefly: one sign-in makes no more than the calls it needs. */
const METADATA_TTL_MS = 5 * 60_000;
/** An unknown `kid` refetches the key set (key rotation), but not more often than this per key set. */
const JWKS_REFETCH_MS = 30_000;
/** Clock skew tolerated between the provider and this service (seconds). */
const CLOCK_TOLERANCE_S = 60;
/** OIDC Back-Channel Logout 1.0 section 2.4: the logout token's `events` member. */
export const BACKCHANNEL_LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';

function json(response: EgressResponse, what: string): Record<string, unknown> {
  if (response.truncated) throw new FederationError(`${what}: answer too large`);
  try {
    const value = JSON.parse(response.body.toString('utf8'));
    if (value && typeof value === 'object' && !Array.isArray(value)) return value;
  } catch {
    // reported below
  }
  throw new FederationError(`${what}: answer is not a JSON object (HTTP ${response.status})`);
}

/** A URL the provider's metadata names must pass the kernel's outbound rule before anything is sent to it. */
function outbound(value: unknown, field: string): string {
  if (typeof value !== 'string') throw new FederationError(`provider metadata has no ${field}`);
  try {
    return assertOutboundUrl(value, field);
  } catch (error) {
    if (error instanceof HttpError) throw new FederationError(`provider metadata: ${error.detail}`);
    throw error;
  }
}

/** RFC 6749 section 2.3.1: client id and secret are form-encoded before they are joined for HTTP Basic. */
const formEncode = (value: string) => new URLSearchParams({ v: value }).toString().slice(2);

/**
 * An OpenID Connect relying party (OIDC Core 1.0, authorization code flow with PKCE) on `jose` and the kernel's
 * egress client: every request to the provider goes to a public address only, follows no redirect, and reads a
 * bounded answer. Used for an organization's identity provider (SSO) and for Google (social login).
 */
export function createRelyingParty(deps: { egress: Egress; clock: Clock }) {
  const { egress, clock } = deps;
  const metadataCache = new Map<string, { at: number; metadata: ProviderMetadata }>();
  const keyCache = new Map<string, { at: number; keys: JSONWebKeySet }>();

  async function send(url: string, what: string, init: Parameters<Egress['request']>[1] = {}) {
    try {
      return await egress.request(url, { timeoutMs: TIMEOUT_MS, maxBodyBytes: DOCUMENT_BYTES, ...init });
    } catch (error) {
      if (error instanceof EgressError) throw new FederationError(`${what}: ${error.code} (${error.reason})`);
      throw error;
    }
  }

  async function keysOf(jwksUri: string, force: boolean): Promise<JSONWebKeySet> {
    const cached = keyCache.get(jwksUri);
    const now = clock.now().getTime();
    if (cached && (!force || now - cached.at < JWKS_REFETCH_MS) && now - cached.at < METADATA_TTL_MS) {
      return cached.keys;
    }
    const response = await send(outbound(jwksUri, 'jwks_uri'), 'key set', { headers: { accept: 'application/json' } });
    if (response.status !== 200) throw new FederationError(`key set answered HTTP ${response.status}`);
    const body = json(response, 'key set');
    if (!Array.isArray(body.keys)) throw new FederationError('key set has no "keys" array');
    const keys = { keys: body.keys } as JSONWebKeySet;
    keyCache.set(jwksUri, { at: now, keys });
    return keys;
  }

  /** Verifies a JWT of the provider against its key set, refetching the set once for an unknown key id. */
  async function verifyJwt(
    metadata: ProviderMetadata,
    token: string,
    options: { issuers: string[]; audience: string; maxTokenAge?: string; typ?: string[] },
  ): Promise<JWTVerifyResult> {
    const verify = async (force: boolean) =>
      jwtVerify(token, createLocalJWKSet(await keysOf(metadata.jwks_uri, force)), {
        issuer: options.issuers,
        audience: options.audience,
        algorithms: ALGORITHMS,
        currentDate: clock.now(),
        clockTolerance: CLOCK_TOLERANCE_S,
        ...(options.maxTokenAge ? { maxTokenAge: options.maxTokenAge } : {}),
      });
    let result: JWTVerifyResult;
    try {
      try {
        result = await verify(false);
      } catch (error) {
        if (!(error instanceof joseErrors.JWKSNoMatchingKey)) throw error;
        result = await verify(true);
      }
    } catch (error) {
      if (error instanceof joseErrors.JOSEError) throw new FederationError(`token refused: ${error.code}`);
      throw error;
    }
    const typ = result.protectedHeader.typ;
    if (options.typ && typ !== undefined && !options.typ.includes(typ.toLowerCase())) {
      throw new FederationError(`token refused: unexpected typ ${typ}`);
    }
    return result;
  }

  return {
    /** The provider's metadata (OIDC Discovery 1.0), through the same checks as the admin's connection test. */
    async discover(issuer: string): Promise<ProviderMetadata> {
      const cached = metadataCache.get(issuer);
      if (cached && clock.now().getTime() - cached.at < METADATA_TTL_MS) return cached.metadata;
      const { check, metadata } = await discover(egress, issuer);
      if (!metadata) throw new FederationError(`discovery failed: ${check.detail}`);
      metadataCache.set(issuer, { at: clock.now().getTime(), metadata });
      return metadata;
    },

    /** OIDC Core 3.1.2.1 with PKCE (RFC 7636, S256): the URL the browser is sent to. */
    authorizationUrl(
      metadata: ProviderMetadata,
      request: {
        clientId: string;
        redirectUri: string;
        scope: string;
        state: string;
        nonce: string;
        challenge: string;
      },
    ): string {
      const url = new URL(outbound(metadata.authorization_endpoint, 'authorization_endpoint'));
      const params = {
        response_type: 'code',
        client_id: request.clientId,
        redirect_uri: request.redirectUri,
        scope: request.scope,
        state: request.state,
        nonce: request.nonce,
        code_challenge: request.challenge,
        code_challenge_method: 'S256',
      };
      for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
      return url.toString();
    },

    /**
     * OIDC Core 3.1.3: the code for tokens, authenticated as the client (`client_secret_basic`, or
     * `client_secret_post` when the provider does not list basic), with the PKCE verifier.
     */
    async exchangeCode(
      metadata: ProviderMetadata,
      client: RelyingPartyClient,
      grant: { code: string; redirectUri: string; verifier: string },
    ): Promise<{ idToken: string; accessToken: string | undefined }> {
      const supported = Array.isArray(metadata.token_endpoint_auth_methods_supported)
        ? metadata.token_endpoint_auth_methods_supported
        : ['client_secret_basic'];
      const form = new URLSearchParams({
        grant_type: 'authorization_code',
        code: grant.code,
        redirect_uri: grant.redirectUri,
        code_verifier: grant.verifier,
      });
      const headers: Record<string, string> = {
        accept: 'application/json',
        'content-type': 'application/x-www-form-urlencoded',
      };
      if (supported.includes('client_secret_basic') || !supported.includes('client_secret_post')) {
        const pair = `${formEncode(client.clientId)}:${formEncode(client.clientSecret)}`;
        headers.authorization = `Basic ${Buffer.from(pair).toString('base64')}`;
      } else {
        form.set('client_id', client.clientId);
        form.set('client_secret', client.clientSecret);
      }
      const response = await send(outbound(metadata.token_endpoint, 'token_endpoint'), 'token endpoint', {
        method: 'POST',
        headers,
        body: form.toString(),
      });
      const body = json(response, 'token endpoint');
      if (response.status !== 200) {
        const error = typeof body.error === 'string' ? body.error.slice(0, 64) : 'no error code';
        throw new FederationError(`token endpoint answered HTTP ${response.status} (${error})`);
      }
      if (typeof body.id_token !== 'string') throw new FederationError('token endpoint answered no id_token');
      return {
        idToken: body.id_token,
        accessToken: typeof body.access_token === 'string' ? body.access_token : undefined,
      };
    },

    /**
     * OIDC Core 3.1.3.7: signature against the provider's keys (asymmetric algorithms only), `iss` among the
     * accepted issuers, `aud` holding our client id (and `azp` naming us when there are several audiences), `exp`
     * and `iat`, `sub`, and the `nonce` this browser's flow sent.
     */
    async verifyIdToken(
      metadata: ProviderMetadata,
      idToken: string,
      expected: { clientId: string; nonce: string; issuers?: string[] },
    ): Promise<JWTPayload & { sub: string }> {
      const { payload } = await verifyJwt(metadata, idToken, {
        issuers: expected.issuers ?? [metadata.issuer],
        audience: expected.clientId,
      });
      if (typeof payload.sub !== 'string' || payload.sub === '') throw new FederationError('ID token has no sub');
      if (typeof payload.iat !== 'number') throw new FederationError('ID token has no iat');
      if (Array.isArray(payload.aud) && payload.aud.length > 1 && payload.azp !== expected.clientId) {
        throw new FederationError('ID token azp does not name this client');
      }
      if (payload.nonce !== expected.nonce) throw new FederationError('ID token nonce does not match the flow');
      return payload as JWTPayload & { sub: string };
    },

    /**
     * OIDC Core 5.3: the claims the ID token left out (providers that put scope claims only there). The answer's
     * `sub` must be the ID token's (section 5.3.2), or it is someone else's.
     */
    async userinfo(metadata: ProviderMetadata, accessToken: string, sub: string): Promise<Record<string, unknown>> {
      const response = await send(outbound(metadata.userinfo_endpoint, 'userinfo_endpoint'), 'userinfo endpoint', {
        headers: { accept: 'application/json', authorization: `Bearer ${accessToken}` },
      });
      if (response.status !== 200) throw new FederationError(`userinfo endpoint answered HTTP ${response.status}`);
      const claims = json(response, 'userinfo endpoint');
      if (claims.sub !== sub) throw new FederationError('userinfo sub differs from the ID token sub');
      return claims;
    },

    /** Whether the provider names a UserInfo endpoint. */
    hasUserinfo: (metadata: ProviderMetadata) => typeof metadata.userinfo_endpoint === 'string',

    /**
     * OIDC Back-Channel Logout 1.0 section 2.6: a logout token signed by the provider's keys, `iss` and `aud` as
     * for ID tokens, `iat` recent, a `jti`, the back-channel-logout `events` member holding an object, `sub` or
     * `sid`, and no `nonce` (so an ID token can never pass for a logout token). `typ`, when present, is
     * `logout+jwt` (or plain `JWT`).
     */
    async verifyLogoutToken(
      metadata: ProviderMetadata,
      token: string,
      clientId: string,
    ): Promise<{ sub?: string; sid?: string; jti: string }> {
      const { payload } = await verifyJwt(metadata, token, {
        issuers: [metadata.issuer],
        audience: clientId,
        maxTokenAge: '5m',
        typ: ['logout+jwt', 'jwt'],
      });
      const events = payload.events as Record<string, unknown> | undefined;
      const member = events && typeof events === 'object' ? events[BACKCHANNEL_LOGOUT_EVENT] : undefined;
      if (!member || typeof member !== 'object' || Array.isArray(member)) {
        throw new FederationError('logout token has no back-channel logout event');
      }
      if ('nonce' in payload) throw new FederationError('logout token carries a nonce');
      if (typeof payload.jti !== 'string' || payload.jti === '') throw new FederationError('logout token has no jti');
      const sub = typeof payload.sub === 'string' && payload.sub !== '' ? payload.sub : undefined;
      const sid = typeof payload.sid === 'string' && payload.sid !== '' ? payload.sid : undefined;
      if (!sub && !sid) throw new FederationError('logout token names neither sub nor sid');
      return { ...(sub ? { sub } : {}), ...(sid ? { sid } : {}), jti: payload.jti };
    },
  };
}

export type RelyingParty = ReturnType<typeof createRelyingParty>;
