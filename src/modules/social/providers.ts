import type { Config } from '../../config.js';
import { type Egress, EgressError, type EgressResponse } from '../../kernel/net/index.js';
import { FederationError, type RelyingParty } from '../sso/index.js';

/** The two social providers (Part A 4.5), in the order `GET /auth/social/providers` lists them. */
export const PROVIDER_IDS = ['google', 'github'] as const;
export type ProviderId = (typeof PROVIDER_IDS)[number];

/** What a provider says about the person who signed in there. */
export interface ProviderIdentity {
  /** The provider's stable id of the person (Google `sub`, GitHub's numeric user id). */
  subject: string;
  email: string | undefined;
  /** Whether the provider verified that the person controls `email`. */
  emailVerified: boolean;
  name: string | null;
  givenName: string | null;
  familyName: string | null;
}

export interface SocialProvider {
  id: ProviderId;
  /** The URL the browser is sent to, with `state`, PKCE (S256) and, for OpenID Connect, the `nonce`. */
  authorizationUrl(request: { redirectUri: string; state: string; nonce: string; challenge: string }): Promise<string>;
  /** Redeems the callback's code (with the PKCE verifier) and reads who signed in. Throws `FederationError`. */
  identity(grant: { code: string; redirectUri: string; verifier: string; nonce: string }): Promise<ProviderIdentity>;
}

const TIMEOUT_MS = 5_000;
const ANSWER_BYTES = 64 * 1024;
const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value.slice(0, 255) : null);

/**
 * Google as an OpenID Connect provider (discovery at its issuer; ID token verified as OIDC Core 3.1.3.7 asks).
 * Google documents both `https://accounts.google.com` and `accounts.google.com` as the ID token's `iss`.
 */
function google(config: NonNullable<Config['social']['google']>, relyingParty: RelyingParty): SocialProvider {
  const issuers = [config.issuer, ...(config.issuer === 'https://accounts.google.com' ? ['accounts.google.com'] : [])];
  const client = { clientId: config.clientId, clientSecret: config.clientSecret };
  return {
    id: 'google',
    async authorizationUrl(request) {
      const metadata = await relyingParty.discover(config.issuer);
      return relyingParty.authorizationUrl(metadata, {
        ...request,
        clientId: client.clientId,
        scope: 'openid email profile',
      });
    },
    async identity(grant) {
      const metadata = await relyingParty.discover(config.issuer);
      const tokens = await relyingParty.exchangeCode(metadata, client, grant);
      const idToken = await relyingParty.verifyIdToken(metadata, tokens.idToken, {
        clientId: client.clientId,
        nonce: grant.nonce,
        issuers,
      });
      const claims: Record<string, unknown> =
        typeof idToken.email !== 'string' && tokens.accessToken && relyingParty.hasUserinfo(metadata)
          ? { ...(await relyingParty.userinfo(metadata, tokens.accessToken, idToken.sub)), ...idToken }
          : idToken;
      return {
        subject: idToken.sub,
        email: typeof claims.email === 'string' ? claims.email : undefined,
        emailVerified: claims.email_verified === true || claims.email_verified === 'true',
        name: text(claims.name),
        givenName: text(claims.given_name),
        familyName: text(claims.family_name),
      };
    },
  };
}

/**
 * GitHub's OAuth 2.0 web application flow (with PKCE) and its REST API: `GET /user` for the stable numeric id and
 * name, `GET /user/emails` for the addresses with their `verified` flag (the `email` of `/user` is only the public
 * one). The person's primary address is the one used; GitHub answers errors of the token request with HTTP 200.
 */
function github(config: NonNullable<Config['social']['github']>, egress: Egress): SocialProvider {
  async function send(url: string, what: string, init: Parameters<Egress['request']>[1]): Promise<EgressResponse> {
    try {
      return await egress.request(url, { timeoutMs: TIMEOUT_MS, maxBodyBytes: ANSWER_BYTES, ...init });
    } catch (error) {
      if (error instanceof EgressError) throw new FederationError(`${what}: ${error.code} (${error.reason})`);
      throw error;
    }
  }
  function json(response: EgressResponse, what: string): unknown {
    if (response.status !== 200 || response.truncated) {
      throw new FederationError(`${what} answered HTTP ${response.status}`);
    }
    try {
      return JSON.parse(response.body.toString('utf8'));
    } catch {
      throw new FederationError(`${what} answered no JSON`);
    }
  }
  const api = (path: string, token: string, what: string) =>
    send(`${config.apiUrl}${path}`, what, {
      headers: {
        accept: 'application/vnd.github+json',
        authorization: `Bearer ${token}`,
        'x-github-api-version': '2022-11-28',
        // GitHub's REST API refuses requests without a User-Agent.
        'user-agent': 'svc-identity',
      },
    }).then((response) => json(response, what));

  return {
    id: 'github',
    async authorizationUrl(request) {
      const url = new URL(`${config.webUrl}/login/oauth/authorize`);
      const params = {
        client_id: config.clientId,
        redirect_uri: request.redirectUri,
        scope: 'read:user user:email',
        state: request.state,
        code_challenge: request.challenge,
        code_challenge_method: 'S256',
      };
      for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
      return url.toString();
    },
    async identity(grant) {
      const exchange = await send(`${config.webUrl}/login/oauth/access_token`, 'GitHub token endpoint', {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          client_id: config.clientId,
          client_secret: config.clientSecret,
          code: grant.code,
          redirect_uri: grant.redirectUri,
          code_verifier: grant.verifier,
        }).toString(),
      });
      const tokens = json(exchange, 'GitHub token endpoint') as Record<string, unknown>;
      if (typeof tokens.access_token !== 'string') {
        const error = typeof tokens.error === 'string' ? tokens.error.slice(0, 64) : 'no access_token';
        throw new FederationError(`GitHub token endpoint refused the code (${error})`);
      }
      const [user, emails] = await Promise.all([
        api('/user', tokens.access_token, 'GitHub /user') as Promise<Record<string, unknown>>,
        api('/user/emails', tokens.access_token, 'GitHub /user/emails'),
      ]);
      if (typeof user?.id !== 'number' && typeof user?.id !== 'string')
        throw new FederationError('GitHub user has no id');
      const primary = Array.isArray(emails)
        ? (emails as Array<Record<string, unknown>>).find((entry) => entry?.primary === true)
        : undefined;
      return {
        subject: String(user.id),
        email: typeof primary?.email === 'string' ? primary.email : undefined,
        emailVerified: primary?.verified === true,
        name: text(user.name),
        givenName: null,
        familyName: null,
      };
    },
  };
}

/** The providers this deployment configured (client id and secret both set), by id. */
export function configuredProviders(deps: {
  config: Pick<Config, 'social'>;
  egress: Egress;
  relyingParty: RelyingParty;
}): Map<ProviderId, SocialProvider> {
  const providers = new Map<ProviderId, SocialProvider>();
  const { google: googleConfig, github: githubConfig } = deps.config.social;
  if (googleConfig) providers.set('google', google(googleConfig, deps.relyingParty));
  if (githubConfig) providers.set('github', github(githubConfig, deps.egress));
  return providers;
}
