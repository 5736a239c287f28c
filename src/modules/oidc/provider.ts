import type { AfterAnswer } from '../../kernel/after-answer.js';
import {
  type AccessClaims,
  type AccessTokens,
  type AuthStateListener,
  DpopError,
  type DpopVerifier,
} from '../../kernel/auth/index.js';
import type { Clock } from '../../kernel/clock.js';
import type { Keyring } from '../../kernel/crypto/index.js';
import type { Transactions } from '../../kernel/db/index.js';
import type { Events } from '../../kernel/events/index.js';
import { HttpError, notFound } from '../../kernel/http/index.js';
import type { Limiter } from '../../kernel/limits/index.js';
import type { Egress } from '../../kernel/net/index.js';
import type { Metrics } from '../../kernel/observability/index.js';
import type { PersonalDataRegistry } from '../../kernel/personal-data.js';
import type { LiveSession, SessionService } from '../sign-in/index.js';
import { createAuthorizationCodeGrant } from './authorization-code-grant.js';
import { type AuthorizationRequest, createAuthorizeEndpoint, redirectTo } from './authorize.js';
import { createBackchannelLogoutSender } from './backchannel-logout.js';
import { createBrowserSessions } from './browser-sessions.js';
import { createClientDirectory } from './client-directory.js';
import { createIdTokens } from './id-tokens.js';
import { oidcPersonalData } from './personal-data.js';
import { createRefreshTokenGrant } from './refresh-token-grant.js';
import { SCOPES } from './registration.js';
import { createSignedState } from './signed-state.js';
import * as store from './store.js';
import { createTokenEndpoint } from './token-endpoint.js';
import { createWindowedLimiter } from './token-throttles.js';

/** A pending authorization request or end-session confirmation lives as long as a sign-in round trip may take. */
const PENDING_LIFETIME_SECONDS = 15 * 60;

/** Part A 4.14 paths, under the issuer (Part A 9: endpoints under /api/v1, discovery and JWKS under /.well-known). */
export const PROVIDER_PATHS = {
  authorize: '/api/v1/oauth/authorize',
  token: '/api/v1/oauth/token',
  userinfo: '/api/v1/oauth/userinfo',
  endSession: '/api/v1/oauth/logout',
  jwks: '/.well-known/jwks.json',
} as const;

/** Claims the provider emits in ID tokens and UserInfo (Part A 2.9, 2.10): discovery states exactly these. */
export const CLAIMS_SUPPORTED = [
  'sub',
  'iss',
  'aud',
  'exp',
  'iat',
  'auth_time',
  'nonce',
  'at_hash',
  'amr',
  'sid',
  'tid',
  'tenant_slug',
  'email',
  'email_verified',
  'name',
  'given_name',
  'family_name',
  'picture',
  'updated_at',
] as const;

/** A pending end-session request (Part A 4.14): what the confirmation page needs to finish it. */
interface PendingLogout {
  clientId: string;
  clientName: string;
  tenantId: string;
  userId: string;
  sid: string;
  redirect: string | null;
}

/** `WWW-Authenticate` refusal of UserInfo (RFC 6750 section 3.1; RFC 9449 section 7.1 for DPoP). */
const userinfoRefused = (scheme: 'Bearer' | 'DPoP', description: string) =>
  new HttpError(401, description, {
    'WWW-Authenticate': `${scheme} error="invalid_token", error_description="${description}"`,
  });

export interface OpenIdProviderDeps {
  config: { baseUrl: string; oidcIssuer: string };
  secretKey: Buffer;
  transactions: Transactions;
  events: Events;
  clock: Clock;
  limiter: Limiter;
  keyring: Keyring;
  accessTokens: AccessTokens;
  dpop: DpopVerifier;
  egress: Egress;
  sessions: SessionService;
  authState: AuthStateListener;
  personalData: PersonalDataRegistry;
  logger: { warn(obj: object, msg: string): void };
  metrics?: Pick<Metrics, 'tokenIssued'>;
  afterAnswer: AfterAnswer;
}

/**
 * The OpenID Provider (Part A 4.14): our own code on jose, shaped like panva's oidc-provider, sharing the
 * service's one session model. The browser's sign-in at the provider is a service session; each client's grant
 * is a session of its own under it; so every revocation of Part A 3 reaches the tokens clients hold.
 */
export function createOpenIdProvider(deps: OpenIdProviderDeps) {
  const { config, transactions, events, clock, accessTokens, dpop, sessions } = deps;
  const issuer = config.oidcIssuer;
  deps.personalData.add(oidcPersonalData());
  const idTokens = createIdTokens({ keyring: deps.keyring, clock, issuer });
  const limits = createWindowedLimiter(deps.limiter, clock);
  const pendingRequests = createSignedState<{ request: AuthorizationRequest; sid?: string }>({
    secretKey: deps.secretKey,
    clock,
    purpose: 'authorization-request',
    lifetimeSeconds: PENDING_LIFETIME_SECONDS,
  });
  const pendingLogouts = createSignedState<PendingLogout>({
    secretKey: deps.secretKey,
    clock,
    purpose: 'end-session',
    lifetimeSeconds: PENDING_LIFETIME_SECONDS,
  });
  const clients = createClientDirectory({ transactions, authState: deps.authState, baseUrl: config.baseUrl });
  const authorizeEndpoint = createAuthorizeEndpoint({ transactions, events, clock, limits, pendingRequests, clients });
  const grantDeps = { transactions, events, clock, accessTokens, idTokens, sessions };
  const tokenEndpoint = createTokenEndpoint({
    ...{ transactions, events, clock, accessTokens, dpop, logger: deps.logger, afterAnswer: deps.afterAnswer },
    limiter: deps.limiter,
    metrics: deps.metrics,
    clients,
    issuer,
    personGrants: [
      ['authorization_code', createAuthorizationCodeGrant(grantDeps)],
      ['refresh_token', createRefreshTokenGrant(grantDeps)],
    ],
  });
  const browserSessions = createBrowserSessions({
    baseUrl: config.baseUrl,
    secretKey: deps.secretKey,
    clock,
    sessions,
  });
  const backchannel = createBackchannelLogoutSender({ transactions, events, egress: deps.egress, idTokens });

  /** The access token of a person's grant, verified for UserInfo; throws the 401 UserInfo answers. */
  async function grantToken(
    authorization: string | undefined,
    request: { dpop: string | string[] | undefined; method: string; url: string },
  ): Promise<AccessClaims & { client_id: string; scope: string }> {
    const match = /^(Bearer|DPoP) ([A-Za-z0-9\-._~+/]+=*)$/i.exec(authorization ?? '');
    if (!match) throw userinfoRefused('Bearer', 'An access token is required');
    const scheme = match[1]!.toLowerCase() === 'dpop' ? 'DPoP' : 'Bearer';
    const token = match[2]!;
    let claims: AccessClaims;
    try {
      // The platform audience only: a token bound to a resource (RFC 8707) is refused here (Part A 4.14).
      claims = await accessTokens.verify(token);
    } catch {
      throw userinfoRefused(scheme, 'The access token is invalid or expired');
    }
    if (claims.client_id === undefined || claims.scope === undefined) {
      throw userinfoRefused(scheme, 'The access token was not issued by the authorization endpoint');
    }
    // OIDC Core 5.3: UserInfo answers tokens granted `openid`.
    if (!claims.scope.split(' ').includes('openid')) {
      throw new HttpError(403, 'The access token was not granted the openid scope', {
        'WWW-Authenticate': `${scheme} error="insufficient_scope", scope="openid"`,
      });
    }
    const jkt = claims.cnf?.jkt;
    if (jkt && scheme !== 'DPoP') throw userinfoRefused('DPoP', 'Key-bound token presented without DPoP');
    if (!jkt && scheme === 'DPoP') throw userinfoRefused('Bearer', 'The access token is not DPoP-bound');
    const live = await sessions.liveSession(claims.tid, claims.sid);
    if (!live || live.userId !== claims.sub || live.epoch !== claims.ep) {
      throw userinfoRefused(scheme, 'The session of this access token has ended');
    }
    if (jkt) {
      if (live.dpopJkt !== jkt) throw userinfoRefused('DPoP', 'The access token is bound to another key');
      try {
        await dpop.verify({
          proof: request.dpop,
          method: request.method,
          url: dpop.urlOf(request.url, issuer),
          accessToken: token,
          expectedJkt: jkt,
        });
      } catch (error) {
        if (error instanceof DpopError) throw userinfoRefused('DPoP', error.message);
        throw error;
      }
    }
    return claims as AccessClaims & { client_id: string; scope: string };
  }

  return {
    issuer,
    idTokens,
    browserSessions,
    backchannel,
    token: tokenEndpoint.token,
    authorize: authorizeEndpoint,
    pendingRequests,
    pendingLogouts,

    /** `GET /.well-known/openid-configuration` (Part A 4.14): exactly what is enforced. */
    discovery() {
      return {
        issuer,
        authorization_endpoint: `${issuer}${PROVIDER_PATHS.authorize}`,
        token_endpoint: `${issuer}${PROVIDER_PATHS.token}`,
        userinfo_endpoint: `${issuer}${PROVIDER_PATHS.userinfo}`,
        jwks_uri: `${issuer}${PROVIDER_PATHS.jwks}`,
        end_session_endpoint: `${issuer}${PROVIDER_PATHS.endSession}`,
        response_types_supported: ['code'],
        response_modes_supported: ['query'],
        grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        scopes_supported: [...SCOPES],
        claims_supported: [...CLAIMS_SUPPORTED],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
        prompt_values_supported: ['none', 'login', 'consent', 'select_account'],
        dpop_signing_alg_values_supported: ['ES256', 'EdDSA', 'RS256', 'PS256'],
        backchannel_logout_supported: true,
        backchannel_logout_session_supported: true,
        // OIDC Discovery defaults these to true: say that request objects are not taken (Part A 4.14, JAR).
        request_parameter_supported: false,
        request_uri_parameter_supported: false,
      };
    },

    /** UserInfo (Part A 2.10, 4.14): claims by scope; profile claims only when they exist. */
    async userinfo(
      authorization: string | undefined,
      request: { dpop: string | string[] | undefined; method: string; url: string },
    ): Promise<Record<string, unknown>> {
      const claims = await grantToken(authorization, request);
      const scopes = claims.scope.split(' ');
      const subject = await transactions.tenant(claims.tid, (tx) => store.claimsSubject(tx, claims.tid, claims.sub));
      if (!subject) throw userinfoRefused('Bearer', 'The session of this access token has ended');
      const answer: Record<string, unknown> = { sub: claims.sub, tid: claims.tid, tenant_slug: subject.tenantSlug };
      if (scopes.includes('email')) {
        answer.email = subject.email;
        answer.email_verified = subject.emailVerified;
      }
      if (scopes.includes('profile')) {
        const profile = {
          name: subject.name,
          given_name: subject.givenName,
          family_name: subject.familyName,
          picture: subject.picture,
        };
        for (const [name, value] of Object.entries(profile)) if (value) answer[name] = value;
        answer.updated_at = Math.floor(subject.updatedAt.getTime() / 1000);
      }
      return answer;
    },

    /**
     * `GET /oauth/logout` (Part A 4.14, OIDC RP-Initiated Logout 1.0): `id_token_hint` required and ours;
     * `post_logout_redirect_uri` registered for the hint's client, exactly; answers the confirmation page's
     * address. Refusals are 400 and never redirect.
     */
    async endSession(params: Record<string, string>): Promise<{ location: string }> {
      const hint = params.id_token_hint ? await idTokens.verifyHint(params.id_token_hint) : undefined;
      if (!hint) throw new HttpError(400, 'id_token_hint is required and must be an ID token this provider issued');
      const client = await clients.find(hint.clientId);
      if (!client || client.tenantId !== hint.tenantId) {
        throw new HttpError(400, 'The client of the id_token_hint is no longer registered');
      }
      const uri = params.post_logout_redirect_uri;
      if (uri !== undefined && !client.postLogoutRedirectUris.includes(uri)) {
        throw new HttpError(
          400,
          'post_logout_redirect_uri is not exactly one of the post-logout redirect URIs registered for this client',
        );
      }
      const redirect = uri === undefined ? null : redirectTo(uri, { state: params.state });
      const pending = pendingLogouts.sign({
        clientId: client.clientId,
        clientName: client.name,
        tenantId: hint.tenantId,
        userId: hint.userId,
        sid: hint.sid,
        redirect,
      });
      return { location: `/logout?request=${encodeURIComponent(pending)}` };
    },

    /**
     * The person confirmed on the logout page: the provider session named by the hint ends (and with it every
     * grant made from it, each client notified by back-channel logout).
     */
    async confirmLogout(pending: PendingLogout): Promise<void> {
      await transactions.tenant(pending.tenantId, async (tx) => {
        if (await sessions.revoke(tx, pending.sid, 'logout')) {
          await events.emit(tx, {
            tenantId: pending.tenantId,
            actor: { id: pending.userId, type: 'human' },
            category: 'session',
            action: 'session.logged_out',
            subjectUserId: pending.userId,
            data: { user_id: pending.userId, client_id: pending.clientId },
          });
        }
      });
    },

    /** `GET /me/connected-apps` (ARCHITECTURE.md): the person's consents in this organization. */
    async connectedApps(principal: { tenantId: string; userId: string }) {
      const rows = await transactions.tenant(principal.tenantId, (tx) =>
        store.consentsOf(tx, principal.tenantId, principal.userId),
      );
      return rows.map(({ consent, clientName }) => ({
        client_id: consent.clientId,
        name: clientName,
        scopes: consent.scopes,
        granted_at: consent.createdAt.toISOString(),
        updated_at: consent.updatedAt.toISOString(),
      }));
    },

    /**
     * `DELETE /me/connected-apps/{client_id}`: the consent goes, the app's live grant sessions end (each
     * client notified by back-channel logout) and its refresh tokens stop working. 404 when there is none.
     */
    async revokeConnectedApp(principal: { tenantId: string; userId: string }, clientId: string): Promise<void> {
      const revoked = await transactions.tenant(principal.tenantId, async (tx) => {
        if (!(await store.deleteConsent(tx, principal.tenantId, principal.userId, clientId))) return false;
        const ended = await sessions.revokeGrantsOfClient(tx, { ...principal, clientId });
        await events.emit(tx, {
          tenantId: principal.tenantId,
          actor: { id: principal.userId, type: 'human' },
          category: 'auth',
          action: 'oauth.consent_revoked',
          subjectUserId: principal.userId,
          data: { client_id: clientId, sessions_ended: ended },
        });
        return true;
      });
      if (!revoked) throw notFound('No connected app with this client_id');
    },

    /** The browser's live provider session, for the pages and the authorize endpoint. */
    readBrowserSession: browserSessions.read,
  };
}

export type OpenIdProvider = ReturnType<typeof createOpenIdProvider>;
export type { LiveSession, PendingLogout };
