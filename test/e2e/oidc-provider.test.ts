import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../support/http.js';
import { authorizeThroughPages, FormBrowser, organizationWithClient } from '../support/oidc-browser.js';
import { startService, type TestService } from '../support/service.js';

/**
 * The OpenID Provider end to end (Part A 4.14) with `openid-client` as the relying party: discovery, the
 * authorization code flow with PKCE through the hosted pages, ID token validation by the library, UserInfo and
 * refresh with rotation.
 */

const REDIRECT = 'http://127.0.0.1:9/callback';
let svc: TestService;
beforeAll(async () => {
  svc = await startService({}, { baseUrlIsListenAddress: true });
});
afterAll(async () => {
  await svc?.close();
});

async function relyingParty(client: { client_id: string; client_secret?: string }) {
  return oidc.discovery(new URL(svc.deps.config.oidcIssuer), client.client_id, client.client_secret, undefined, {
    execute: [oidc.allowInsecureRequests],
  });
}

async function startAuthorization(config: oidc.Configuration, extra: Record<string, string> = {}) {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT,
    scope: 'openid profile email',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    ...extra,
  });
  return { url, verifier, state, nonce };
}

describe('discovery', () => {
  it('advertises exactly what is enforced, every URL under the issuer', async () => {
    const res = await request(`${svc.url}/.well-known/openid-configuration`);
    expect(res.status).toBe(200);
    const issuer = svc.deps.config.oidcIssuer;
    expect(res.body).toMatchObject({
      issuer,
      authorization_endpoint: `${issuer}/api/v1/oauth/authorize`,
      token_endpoint: `${issuer}/api/v1/oauth/token`,
      userinfo_endpoint: `${issuer}/api/v1/oauth/userinfo`,
      jwks_uri: `${issuer}/.well-known/jwks.json`,
      end_session_endpoint: `${issuer}/api/v1/oauth/logout`,
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
      grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
      id_token_signing_alg_values_supported: ['RS256'],
      scopes_supported: ['openid', 'profile', 'email'],
      backchannel_logout_session_supported: true,
      request_parameter_supported: false,
      request_uri_parameter_supported: false,
    });
    expect(res.body.claims_supported).toEqual(
      expect.arrayContaining(['sub', 'tid', 'tenant_slug', 'email', 'amr', 'sid']),
    );
  });
});

describe('authorization code flow', () => {
  it('signs in on /login, consents, exchanges the code, validates the ID token, reads UserInfo and refreshes', async () => {
    const org = await organizationWithClient(svc.url, {
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
    });
    const config = await relyingParty(org.client);
    const flow = await startAuthorization(config);
    const browser = new FormBrowser(svc.url);
    const { url, pages } = await authorizeThroughPages(browser, flow.url.toString(), org.account);
    expect(pages).toEqual(['/login', '/consent']);
    expect(url.searchParams.get('state')).toBe(flow.state);

    const tokens = await oidc.authorizationCodeGrant(config, url, {
      pkceCodeVerifier: flow.verifier,
      expectedState: flow.state,
      expectedNonce: flow.nonce,
    });
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(tokens.expires_in).toBe(900);
    const claims = tokens.claims()!;
    expect(claims).toMatchObject({
      iss: svc.deps.config.oidcIssuer,
      aud: org.client.client_id,
      tid: org.tenantId,
      tenant_slug: org.tenantSlug,
      amr: ['pwd'],
    });
    expect(typeof claims.sid).toBe('string');
    expect(typeof claims.auth_time).toBe('number');

    const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
    expect(info).toMatchObject({
      sub: claims.sub,
      tid: org.tenantId,
      tenant_slug: org.tenantSlug,
      email: org.account.email,
      email_verified: false,
    });
    // Never invented: the owner set no name or picture.
    expect(info).not.toHaveProperty('name');
    expect(info).not.toHaveProperty('picture');

    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect(refreshed.claims()!.sid).toBe(claims.sid);
    // The rotated token presented again ends the grant (Part A 3).
    const replay = await oidc.refreshTokenGrant(config, tokens.refresh_token!).catch((error: unknown) => error);
    expect(replay).toMatchObject({
      error: 'invalid_grant',
      error_description: 'The refresh token was already used; the grant is revoked',
    });
    const after = await oidc.refreshTokenGrant(config, refreshed.refresh_token!).catch((error: unknown) => error);
    // The successor is spent with the grant: it reads as a replay too.
    expect(after).toMatchObject({
      error: 'invalid_grant',
      error_description: 'The refresh token was already used; the grant is revoked',
    });

    // A second authorization: the browser is signed in and the consent stands, so no page is shown.
    const again = await startAuthorization(config);
    const silent = await authorizeThroughPages(browser, again.url.toString(), org.account);
    expect(silent.pages).toEqual([]);
    expect(silent.url.searchParams.get('code')).toBeTruthy();
  });
});

describe('grants in the active-sessions list', () => {
  it("shows the application's grant by name; ending it there ends the client's refresh", async () => {
    const org = await organizationWithClient(svc.url, {
      name: 'Expense reports',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
    });
    const config = await relyingParty(org.client);
    const flow = await startAuthorization(config);
    const { url } = await authorizeThroughPages(new FormBrowser(svc.url), flow.url.toString(), org.account);
    const tokens = await oidc.authorizationCodeGrant(config, url, {
      pkceCodeVerifier: flow.verifier,
      expectedState: flow.state,
      expectedNonce: flow.nonce,
    });

    const list = await request(`${svc.url}/api/v1/me/sessions`, { token: org.ownerToken });
    expect(list.status).toBe(200);
    const grants = list.body.sessions.filter((s: { application: unknown }) => s.application !== null);
    expect(grants).toHaveLength(1);
    expect(grants[0].application).toEqual({ client_id: org.client.client_id, name: 'Expense reports' });
    // The browser's own sign-in at the provider is listed too, as a session of the person's.
    expect(list.body.sessions.length).toBeGreaterThanOrEqual(3);

    const ended = await request(`${svc.url}/api/v1/me/sessions/${grants[0].session_id}`, {
      method: 'DELETE',
      token: org.ownerToken,
    });
    expect(ended.status).toBe(204);
    const refused = await oidc.refreshTokenGrant(config, tokens.refresh_token!).catch((error: unknown) => error);
    expect(refused).toMatchObject({ error: 'invalid_grant', error_description: 'The session of this grant has ended' });
  });
});
