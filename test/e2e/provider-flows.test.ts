import { sql } from 'drizzle-orm';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import * as oauth from 'oauth4webapi';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/kernel/db/index.js';
import { RecordType, startDnsServer } from '../support/dns.js';
import { request } from '../support/http.js';
import { authorizeThroughPages, FormBrowser, hiddenFields, organizationWithClient } from '../support/oidc-browser.js';
import { addMember } from '../support/organizations.js';
import { startService, type TestService } from '../support/service.js';
import { startWebhookReceiver, TEST_CA_FILE, type WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * The OpenID Provider's rules that issue 6 names, over real HTTP with real relying parties: `openid-client` for
 * the code flow, `oauth4webapi` for DPoP and resource indicators, a TLS receiver on loopback for back-channel
 * logout.
 */

const REDIRECT = 'http://127.0.0.1:9/callback';
const LOGOUT_REDIRECT = 'http://127.0.0.1:9/signed-out';
const BACKCHANNEL_EVENT = 'http://schemas.openid.net/event/backchannel-logout';
let svc: TestService;
let receiver: WebhookReceiver;
let dns: Awaited<ReturnType<typeof startDnsServer>>;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
  receiver.respond('/backchannel', 200);
  dns = await startDnsServer({ 'internal.example.test': [{ type: RecordType.A, address: '10.0.0.1' }] });
  svc = await startService(
    {
      EGRESS_TEST_ROUTES: `secure.example.test=127.0.0.1:${receiver.port}`,
      EGRESS_TEST_CA_FILE: TEST_CA_FILE,
      DNS_SERVERS: `127.0.0.1:${dns.port}`,
    },
    { baseUrlIsListenAddress: true },
  );
});
afterAll(async () => {
  await svc?.close();
  await receiver?.close();
  await dns?.close();
});

const issuer = () => svc.deps.config.oidcIssuer;

async function setUp(client: Record<string, unknown> = {}) {
  const org = await organizationWithClient(svc.url, {
    redirect_uris: [REDIRECT],
    grant_types: ['authorization_code', 'refresh_token'],
    post_logout_redirect_uris: [LOGOUT_REDIRECT],
    ...client,
  });
  const config = await oidc.discovery(new URL(issuer()), org.client.client_id, org.client.client_secret, undefined, {
    execute: [oidc.allowInsecureRequests],
  });
  return { ...org, config };
}

/** A valid authorization URL for `clientId` with its PKCE verifier; `extra` overrides or adds parameters. */
async function authorization(clientId: string, extra: Record<string, string | null> = {}) {
  const verifier = oauth.generateRandomCodeVerifier();
  const params: Record<string, string | null> = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    scope: 'openid email',
    state: oauth.generateRandomState(),
    nonce: oauth.generateRandomNonce(),
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    ...extra,
  };
  const url = new URL(`${svc.url}/api/v1/oauth/authorize`);
  for (const [name, value] of Object.entries(params)) if (value !== null) url.searchParams.set(name, value);
  return { url: url.toString(), verifier, state: params.state!, nonce: params.nonce! };
}

/** Where the authorization endpoint sends the browser, without following. */
async function redirectOf(browser: FormBrowser, url: string) {
  const res = await browser.get(url);
  return { status: res.status, location: res.location ? new URL(res.location, svc.url) : null, html: res.html };
}

describe('authorization endpoint refusals', () => {
  it('answers 400 without a redirect for an unknown client or a redirect URI not registered exactly', async () => {
    const org = await setUp({ redirect_uris: ['https://app.example.com/callback'] });
    const browser = new FormBrowser(svc.url);
    const cases: Array<Record<string, string | null>> = [
      { client_id: 'cl_AAAAAAAAAAAAAAAAAAAAAA' },
      { redirect_uri: 'https://app.example.com/callback/extra' },
      { redirect_uri: 'https://app.example.com/callback/' },
      { redirect_uri: 'https://app.example.com:8443/callback' },
      { redirect_uri: 'https://app.example.com/callback#fragment' },
      { redirect_uri: null },
    ];
    for (const extra of cases) {
      const { url } = await authorization(org.client.client_id, {
        redirect_uri: 'https://app.example.com/callback',
        ...extra,
      });
      const res = await redirectOf(browser, url);
      expect(res.status, JSON.stringify(extra)).toBe(400);
      expect(res.location).toBeNull();
      expect(JSON.parse(res.html)).toMatchObject({ error: 'invalid_request' });
    }
  });

  it('redirects the errors of a proven request with the state: plain or missing PKCE, bad prompt or max_age', async () => {
    const org = await setUp();
    const browser = new FormBrowser(svc.url);
    const cases: Array<[Record<string, string | null>, string]> = [
      [{ code_challenge_method: 'plain' }, 'invalid_request'],
      [{ code_challenge_method: null }, 'invalid_request'],
      [{ code_challenge: null }, 'invalid_request'],
      [{ response_type: 'token' }, 'unsupported_response_type'],
      [{ scope: 'openid admin' }, 'invalid_scope'],
      [{ prompt: 'sometimes' }, 'invalid_request'],
      [{ prompt: 'none login' }, 'invalid_request'],
      [{ max_age: '-1' }, 'invalid_request'],
      [{ max_age: '1.5' }, 'invalid_request'],
      [{ resource: 'https://api.unknown.example' }, 'invalid_target'],
      [{ prompt: 'none' }, 'login_required'],
    ];
    for (const [extra, error] of cases) {
      const { url, state } = await authorization(org.client.client_id, extra);
      const res = await redirectOf(browser, url);
      expect(res.status, JSON.stringify(extra)).toBe(302);
      expect(res.location!.origin + res.location!.pathname).toBe(REDIRECT);
      expect(res.location!.searchParams.get('error'), JSON.stringify(extra)).toBe(error);
      expect(res.location!.searchParams.get('error_description')).toBeTruthy();
      expect(res.location!.searchParams.get('state')).toBe(state);
      expect(res.location!.searchParams.get('code')).toBeNull();
    }
  });
});

describe('request objects (OpenID Connect Core 6.1, 6.2)', () => {
  it('refuses request and request_uri instead of ignoring them: on the redirect URI once it is proven', async () => {
    const org = await setUp();
    const browser = new FormBrowser(svc.url);
    const { privateKey } = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign']);
    const verifier = oidc.randomPKCECodeVerifier();
    const inRequestObject = {
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'openid email',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    };
    // openid-client's JAR URL carries only client_id and request: the redirect URI is not proven, no redirect.
    const jar = await oidc.buildAuthorizationUrlWithJAR(org.config, inRequestObject, privateKey);
    expect(jar.searchParams.get('request')).toBeTruthy();
    const unproven = await redirectOf(browser, jar.toString().replace(jar.origin, svc.url));
    expect(unproven.status).toBe(400);
    expect(unproven.location).toBeNull();
    expect(JSON.parse(unproven.html)).toMatchObject({ error: 'request_not_supported' });

    // OIDC Core 6.1: the request parameters are repeated outside the object; now the refusal is redirected, and
    // the relying party reads it as the authorization error it is.
    const state = oidc.randomState();
    const repeated = new URL(jar);
    for (const [name, value] of Object.entries({ ...inRequestObject, state })) repeated.searchParams.set(name, value);
    const refused = await redirectOf(browser, repeated.toString().replace(jar.origin, svc.url));
    expect(refused.status).toBe(302);
    expect(refused.location!.origin + refused.location!.pathname).toBe(REDIRECT);
    expect(refused.location!.searchParams.get('code')).toBeNull();
    const error = await oidc
      .authorizationCodeGrant(org.config, refused.location!, { expectedState: state, pkceCodeVerifier: verifier })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(oidc.AuthorizationResponseError);
    expect(error).toMatchObject({ error: 'request_not_supported' });

    const byReference = await authorization(org.client.client_id, {
      request_uri: 'urn:ietf:params:oauth:request_uri:6esc_11ACC5bwc014ltc14eY22c',
    });
    const referenced = await redirectOf(browser, byReference.url);
    expect(referenced.status).toBe(302);
    expect(referenced.location!.origin + referenced.location!.pathname).toBe(REDIRECT);
    expect(referenced.location!.searchParams.get('error')).toBe('request_uri_not_supported');
    expect(referenced.location!.searchParams.get('state')).toBe(byReference.state);
    expect(referenced.location!.searchParams.get('code')).toBeNull();
  });
});

describe('prompt and max_age', () => {
  it('re-authenticates for prompt=login, max_age=0 and a passed max_age; consent_required and access_denied', async () => {
    const org = await setUp();
    const browser = new FormBrowser(svc.url);
    // Signed in, no consent yet: prompt=none cannot finish silently.
    const first = await authorization(org.client.client_id);
    const denied = await authorizeThroughPages(browser, first.url, org.account, { consent: 'deny' });
    expect(denied.pages).toEqual(['/login', '/consent']);
    expect(denied.url.searchParams.get('error')).toBe('access_denied');
    expect(denied.url.searchParams.get('state')).toBe(first.state);
    const silent = await redirectOf(browser, (await authorization(org.client.client_id, { prompt: 'none' })).url);
    expect(silent.location!.searchParams.get('error')).toBe('consent_required');

    const approved = await authorizeThroughPages(browser, (await authorization(org.client.client_id)).url, org.account);
    expect(approved.pages).toEqual(['/consent']);
    expect(approved.url.searchParams.get('code')).toBeTruthy();
    // Signed in and consented: silent, unless told otherwise.
    const none = await redirectOf(browser, (await authorization(org.client.client_id, { prompt: 'none' })).url);
    expect(none.location!.searchParams.get('code')).toBeTruthy();
    for (const extra of [{ prompt: 'login' }, { max_age: '0' }] as Array<Record<string, string>>) {
      const again = await authorizeThroughPages(
        browser,
        (await authorization(org.client.client_id, extra)).url,
        org.account,
      );
      expect(again.pages, JSON.stringify(extra)).toEqual(['/login']);
      expect(again.url.searchParams.get('code')).toBeTruthy();
    }
    expect(
      (
        await redirectOf(browser, (await authorization(org.client.client_id, { max_age: '60' })).url)
      ).location!.searchParams.get('code'),
    ).toBeTruthy();
    svc.clock.advance(61_000);
    const stale = await authorizeThroughPages(
      browser,
      (await authorization(org.client.client_id, { max_age: '60' })).url,
      org.account,
    );
    expect(stale.pages).toEqual(['/login']);
    // prompt=consent and broader scopes show the consent page again.
    const consent = await authorizeThroughPages(
      browser,
      (await authorization(org.client.client_id, { prompt: 'consent' })).url,
      org.account,
    );
    expect(consent.pages).toEqual(['/consent']);
    const broader = await authorizeThroughPages(
      browser,
      (await authorization(org.client.client_id, { scope: 'openid email profile' })).url,
      org.account,
    );
    expect(broader.pages).toEqual(['/consent']);
  });

  it('refuses a passkey form without a CSRF token, with a malformed assertion or one that does not verify', async () => {
    const org = await setUp();
    const browser = new FormBrowser(svc.url);
    const res = await redirectOf(browser, (await authorization(org.client.client_id)).url);
    const page = await browser.get(res.location!.toString());
    const fields = hiddenFields(page.html);
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'sha256-[^']+'; connect-src 'self'/);
    const forged = await browser.post('/login/passkey', { ...fields, csrf_token: 'x'.repeat(43), assertion: '{}' });
    expect(forged.status).toBe(403);
    const malformed = await browser.post('/login/passkey', { ...fields, assertion: 'not json' });
    expect(malformed.status).toBe(400);
    expect(malformed.html).toContain('The passkey sign-in did not complete');
    const unverified = await browser.post('/login/passkey', {
      ...fields,
      assertion: JSON.stringify({
        id: 'AAAA',
        rawId: 'AAAA',
        type: 'public-key',
        response: { clientDataJSON: 'e30', authenticatorData: 'AAAA', signature: 'AAAA' },
      }),
    });
    expect(unverified.status).toBe(401);
    expect(unverified.html).toContain('Invalid credentials');
    expect(unverified.location).toBeNull();
  });

  it('carries login_hint into the sign-in form', async () => {
    const org = await setUp();
    const browser = new FormBrowser(svc.url);
    const res = await redirectOf(
      browser,
      (await authorization(org.client.client_id, { login_hint: 'hint@example.com' })).url,
    );
    const page = await browser.get(res.location!.toString());
    expect(page.html).toContain('value="hint@example.com"');
    expect(hiddenFields(page.html).csrf_token).toBeTruthy();
  });
});

describe('code exchange', () => {
  it('refuses a replayed code, ends the grant it minted and raises a detection', async () => {
    const org = await setUp();
    const flow = await authorization(org.client.client_id);
    const { url } = await authorizeThroughPages(new FormBrowser(svc.url), flow.url, org.account);
    const tokens = await oidc.authorizationCodeGrant(org.config, url, {
      pkceCodeVerifier: flow.verifier,
      expectedState: flow.state,
      expectedNonce: flow.nonce,
    });
    expect((await oidc.fetchUserInfo(org.config, tokens.access_token, tokens.claims()!.sub)).sub).toBe(
      tokens.claims()!.sub,
    );

    const replay = await oidc
      .authorizationCodeGrant(org.config, url, { pkceCodeVerifier: flow.verifier, expectedState: flow.state })
      .catch((error: unknown) => error);
    expect(replay).toMatchObject({ error: 'invalid_grant' });
    const userinfo = await request(`${svc.url}/api/v1/oauth/userinfo`, { token: tokens.access_token });
    expect(userinfo.status).toBe(401);
    const refresh = await oidc.refreshTokenGrant(org.config, tokens.refresh_token!).catch((error: unknown) => error);
    expect(refresh).toMatchObject({ error: 'invalid_grant' });
    const detections = await rows<{ rule_id: string }>(
      svc.deps.database.db,
      sql`select rule_id from detections where tenant_id = ${org.tenantId}`,
    );
    expect(detections.map((d) => d.rule_id)).toContain('authorization-code-replay');
  });

  it('refuses a wrong PKCE verifier and a different redirect_uri with invalid_grant', async () => {
    const org = await setUp({ redirect_uris: [REDIRECT, 'http://127.0.0.1:9/other'] });
    const browser = new FormBrowser(svc.url);
    for (const wrong of ['verifier', 'redirect'] as const) {
      const flow = await authorization(org.client.client_id);
      const { url } = await authorizeThroughPages(browser, flow.url, org.account);
      const form = new URLSearchParams({
        grant_type: 'authorization_code',
        code: url.searchParams.get('code')!,
        redirect_uri: wrong === 'redirect' ? 'http://127.0.0.1:9/other' : REDIRECT,
        code_verifier: wrong === 'verifier' ? oauth.generateRandomCodeVerifier() : flow.verifier,
        client_id: org.client.client_id,
        client_secret: org.client.client_secret!,
      });
      const res = await request(`${svc.url}/api/v1/oauth/token`, {
        body: form.toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(res.status, wrong).toBe(400);
      expect(res.body.error).toBe('invalid_grant');
      expect(res.body.error_description).toMatch(wrong === 'verifier' ? /PKCE/ : /redirect_uri/);
      // The refused exchange spent the code; it minted nothing, so the right request is refused too, and no
      // replay alarm goes off (whoever saw a code could otherwise raise one by burning it).
      form.set('redirect_uri', REDIRECT);
      form.set('code_verifier', flow.verifier);
      const again = await request(`${svc.url}/api/v1/oauth/token`, {
        body: form.toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect([again.status, again.body.error, again.body.error_description]).toEqual([
        400,
        'invalid_grant',
        'The authorization code is no longer valid',
      ]);
    }
    const detections = await rows(
      svc.deps.database.db,
      sql`select id from detections where tenant_id = ${org.tenantId}`,
    );
    expect(detections).toHaveLength(0);
  });

  it('answers UserInfo 403 insufficient_scope for a token granted without openid', async () => {
    const org = await setUp();
    const flow = await authorization(org.client.client_id, { scope: 'email', nonce: null });
    const { url } = await authorizeThroughPages(new FormBrowser(svc.url), flow.url, org.account);
    const form = new URLSearchParams({
      grant_type: 'authorization_code',
      code: url.searchParams.get('code')!,
      redirect_uri: REDIRECT,
      code_verifier: flow.verifier,
      client_id: org.client.client_id,
      client_secret: org.client.client_secret!,
    });
    const exchanged = await request(`${svc.url}/api/v1/oauth/token`, {
      body: form.toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(exchanged.status, exchanged.text).toBe(200);
    expect(exchanged.body.id_token).toBeUndefined();
    const info = await request(`${svc.url}/api/v1/oauth/userinfo`, { token: exchanged.body.access_token });
    expect(info.status).toBe(403);
    expect(info.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="openid"');
  });
});

describe('refresh re-validates the person', () => {
  it('answers invalid_grant naming the reason once the user is no longer a member', async () => {
    const org = await setUp();
    const member = await addMember(svc, { tenantId: org.tenantId, slug: org.tenantSlug }, 'member');
    const flow = await authorization(org.client.client_id);
    const { url } = await authorizeThroughPages(new FormBrowser(svc.url), flow.url, member);
    const tokens = await oidc.authorizationCodeGrant(org.config, url, {
      pkceCodeVerifier: flow.verifier,
      expectedState: flow.state,
      expectedNonce: flow.nonce,
    });
    const roster = await request(`${svc.url}/api/v1/members`, { token: org.ownerToken });
    const membership = roster.body.find((m: { user_id: string }) => m.user_id === member.userId);
    const removed = await request(`${svc.url}/api/v1/members/${membership.membership_id}`, {
      method: 'DELETE',
      token: org.ownerToken,
    });
    expect(removed.status).toBe(204);
    const refused = await oidc.refreshTokenGrant(org.config, tokens.refresh_token!).catch((error: unknown) => error);
    expect(refused).toMatchObject({ error: 'invalid_grant' });
    expect((refused as { error_description: string }).error_description).toMatch(
      /no longer a member|session of this grant has ended/,
    );
  });
});

describe('resource indicators and DPoP with oauth4webapi', () => {
  it('binds the access token to a registered resource; UserInfo refuses it; refresh keeps the binding', async () => {
    const org = await setUp();
    const resource = 'https://api.example.com/ledger';
    const registered = await request(`${svc.url}/api/v1/oauth/resources`, {
      token: org.ownerToken,
      json: { identifier: resource, name: 'Ledger' },
    });
    expect(registered.status).toBe(201);
    const as = await oauth.processDiscoveryResponse(
      new URL(issuer()),
      await oauth.discoveryRequest(new URL(issuer()), { [oauth.allowInsecureRequests]: true }),
    );
    const client: oauth.Client = { client_id: org.client.client_id };
    const auth = oauth.ClientSecretPost(org.client.client_secret!);
    const flow = await authorization(org.client.client_id, { resource });
    const { url } = await authorizeThroughPages(new FormBrowser(svc.url), flow.url, org.account);
    const params = oauth.validateAuthResponse(as, client, url, flow.state);
    const response = await oauth.authorizationCodeGrantRequest(as, client, auth, params, REDIRECT, flow.verifier, {
      [oauth.allowInsecureRequests]: true,
      additionalParameters: { resource },
    });
    const result = await oauth.processAuthorizationCodeResponse(as, client, response, { expectedNonce: flow.nonce });
    const jwks = createRemoteJWKSet(new URL(`${svc.url}/.well-known/jwks.json`));
    const { payload } = await jwtVerify(result.access_token, jwks, { issuer: 'svc-auth', audience: resource });
    expect(payload.client_id).toBe(org.client.client_id);
    expect((await request(`${svc.url}/api/v1/oauth/userinfo`, { token: result.access_token })).status).toBe(401);
    expect((await request(`${svc.url}/api/v1/me`, { token: result.access_token })).status).toBe(401);

    const other = await oauth.refreshTokenGrantRequest(as, client, auth, result.refresh_token!, {
      [oauth.allowInsecureRequests]: true,
      additionalParameters: { resource: 'https://api.example.com/other' },
    });
    expect(other.status).toBe(400);
    expect(((await other.json()) as { error: string }).error).toBe('invalid_target');
    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, auth, result.refresh_token!, {
        [oauth.allowInsecureRequests]: true,
      }),
    );
    await expect(
      jwtVerify(refreshed.access_token, jwks, { issuer: 'svc-auth', audience: resource }),
    ).resolves.toBeTruthy();
  });

  it('binds a public client’s tokens to its DPoP key: UserInfo needs a proof, bearer use is refused', async () => {
    const org = await setUp({ client_type: 'public' });
    const as = await oauth.processDiscoveryResponse(
      new URL(issuer()),
      await oauth.discoveryRequest(new URL(issuer()), { [oauth.allowInsecureRequests]: true }),
    );
    const client: oauth.Client = { client_id: org.client.client_id };
    const DPoP = oauth.DPoP(client, await oauth.generateKeyPair('ES256'));
    const flow = await authorization(org.client.client_id);
    const { url } = await authorizeThroughPages(new FormBrowser(svc.url), flow.url, org.account);
    const params = oauth.validateAuthResponse(as, client, url, flow.state);
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.None(),
      params,
      REDIRECT,
      flow.verifier,
      {
        DPoP,
        [oauth.allowInsecureRequests]: true,
      },
    );
    const result = await oauth.processAuthorizationCodeResponse(as, client, response, { expectedNonce: flow.nonce });
    expect(result.token_type).toBe('dpop');
    const info = await oauth.userInfoRequest(as, client, result.access_token, {
      DPoP,
      [oauth.allowInsecureRequests]: true,
    });
    expect(info.status).toBe(200);
    expect(((await info.json()) as { sub: string }).sub).toBe(
      (oauth.getValidatedIdTokenClaims(result) as { sub: string }).sub,
    );
    const bearer = await request(`${svc.url}/api/v1/oauth/userinfo`, { token: result.access_token });
    expect(bearer.status).toBe(401);
    // Refresh needs a proof under the same key.
    const otherKey = oauth.DPoP(client, await oauth.generateKeyPair('ES256'));
    const wrongKey = await oauth.refreshTokenGrantRequest(as, client, oauth.None(), result.refresh_token!, {
      DPoP: otherKey,
      [oauth.allowInsecureRequests]: true,
    });
    expect(wrongKey.status).toBe(400);
    const sameKey = await oauth.refreshTokenGrantRequest(as, client, oauth.None(), result.refresh_token!, {
      DPoP,
      [oauth.allowInsecureRequests]: true,
    });
    expect(sameKey.status).toBe(200);
  });
});

describe('end session and back-channel logout', () => {
  it('confirms on the interstitial, ends the session, redirects with the state and sends a valid logout token', async () => {
    const org = await setUp({ backchannel_logout_uri: receiver.url('/backchannel') });
    const browser = new FormBrowser(svc.url);
    const flow = await authorization(org.client.client_id);
    const { url } = await authorizeThroughPages(browser, flow.url, org.account);
    const tokens = await oidc.authorizationCodeGrant(org.config, url, {
      pkceCodeVerifier: flow.verifier,
      expectedState: flow.state,
      expectedNonce: flow.nonce,
    });
    const idToken = tokens.id_token!;
    const sid = tokens.claims()!.sid as string;

    // Refusals never redirect.
    for (const query of [
      '',
      `id_token_hint=${idToken}&post_logout_redirect_uri=${encodeURIComponent(`${LOGOUT_REDIRECT}/x`)}`,
    ]) {
      const refused = await browser.get(`/api/v1/oauth/logout?${query}`);
      expect(refused.status).toBe(400);
      expect(refused.location).toBeNull();
    }

    const endSession = oidc.buildEndSessionUrl(org.config, {
      id_token_hint: idToken,
      post_logout_redirect_uri: LOGOUT_REDIRECT,
      state: 'bye',
    });
    // Someone else's browser holding the ID token cannot end the session: only its own browser confirms.
    const stranger = new FormBrowser(svc.url);
    const strangerPage = await stranger.get((await stranger.get(endSession.toString())).location!);
    const strangerConfirm = await stranger.post('/logout', { ...hiddenFields(strangerPage.html), confirm: '1' });
    expect(strangerConfirm.status).toBe(303);
    expect((await oidc.fetchUserInfo(org.config, tokens.access_token, tokens.claims()!.sub)).sub).toBeTruthy();

    const start = await browser.get(endSession.toString());
    expect(start.status).toBe(303);
    const page = await browser.get(start.location!);
    expect(page.status).toBe(200);
    expect(page.html).toContain('sign you out');
    // Nothing ended before the confirmation.
    expect((await oidc.fetchUserInfo(org.config, tokens.access_token, tokens.claims()!.sub)).sub).toBeTruthy();
    const confirmed = await browser.post('/logout', { ...hiddenFields(page.html), confirm: '1' });
    expect(confirmed.status).toBe(303);
    const back = new URL(confirmed.location!);
    expect(back.origin + back.pathname).toBe(LOGOUT_REDIRECT);
    expect(back.searchParams.get('state')).toBe('bye');

    expect((await request(`${svc.url}/api/v1/oauth/userinfo`, { token: tokens.access_token })).status).toBe(401);
    const refresh = await oidc.refreshTokenGrant(org.config, tokens.refresh_token!).catch((error: unknown) => error);
    expect(refresh).toMatchObject({ error: 'invalid_grant' });
    // The browser is signed out: the next authorization asks for a sign-in.
    const next = await redirectOf(browser, (await authorization(org.client.client_id)).url);
    expect(next.location!.pathname).toBe('/login');

    await svc.deps.openIdProvider.backchannel.sendPending();
    const [delivery] = await receiver.waitFor(1, '/backchannel');
    expect(delivery!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    const logoutToken = new URLSearchParams(delivery!.raw.toString('utf8')).get('logout_token')!;
    expect(decodeProtectedHeader(logoutToken)).toMatchObject({ alg: 'RS256', typ: 'logout+jwt' });
    const jwks = createRemoteJWKSet(new URL(`${svc.url}/.well-known/jwks.json`));
    const { payload } = await jwtVerify(logoutToken, jwks, {
      issuer: issuer(),
      audience: org.client.client_id,
      currentDate: svc.clock.now(),
    });
    expect(payload.sid).toBe(sid);
    expect(payload.sub).toBe(tokens.claims()!.sub);
    expect(payload.events).toEqual({ [BACKCHANNEL_EVENT]: {} });
    expect(payload).not.toHaveProperty('nonce');
    expect(payload.exp! - payload.iat!).toBe(120);
    expect(typeof payload.jti).toBe('string');
  });

  it('sends a logout token when the person signs out everywhere or revokes the app', async () => {
    for (const end of ['sign-out-all', 'connected-app'] as const) {
      const org = await setUp({ backchannel_logout_uri: receiver.url(`/backchannel-${end}`) });
      receiver.respond(`/backchannel-${end}`, 200);
      const flow = await authorization(org.client.client_id);
      const { url } = await authorizeThroughPages(new FormBrowser(svc.url), flow.url, org.account);
      const tokens = await oidc.authorizationCodeGrant(org.config, url, {
        pkceCodeVerifier: flow.verifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
      });
      const res =
        end === 'sign-out-all'
          ? await request(`${svc.url}/api/v1/auth/sign-out-all`, { method: 'POST', token: org.ownerToken })
          : await request(`${svc.url}/api/v1/me/connected-apps/${org.client.client_id}`, {
              method: 'DELETE',
              token: org.ownerToken,
            });
      expect([200, 204], end).toContain(res.status);
      const refused = await oidc.refreshTokenGrant(org.config, tokens.refresh_token!).catch((error: unknown) => error);
      expect(refused, end).toMatchObject({ error: 'invalid_grant' });
      expect(refused).toMatchObject({
        error_description:
          end === 'sign-out-all'
            ? 'The user signed out everywhere after this token was issued'
            : 'The consent for this client was revoked',
      });
      await svc.deps.openIdProvider.backchannel.sendPending();
      const [delivery] = await receiver.waitFor(1, `/backchannel-${end}`);
      const logoutToken = new URLSearchParams(delivery!.raw.toString('utf8')).get('logout_token')!;
      const { payload } = await jwtVerify(
        logoutToken,
        createRemoteJWKSet(new URL(`${svc.url}/.well-known/jwks.json`)),
        {
          issuer: issuer(),
          audience: org.client.client_id,
          currentDate: svc.clock.now(),
        },
      );
      expect(payload.sid).toBe(tokens.claims()!.sid);
    }
  });

  it('refuses a back-channel URI that resolves to a private address without connecting; the logout is not held up', async () => {
    const org = await setUp({ backchannel_logout_uri: 'https://internal.example.test/logout' });
    const flow = await authorization(org.client.client_id);
    const { url } = await authorizeThroughPages(new FormBrowser(svc.url), flow.url, org.account);
    await oidc.authorizationCodeGrant(org.config, url, {
      pkceCodeVerifier: flow.verifier,
      expectedState: flow.state,
      expectedNonce: flow.nonce,
    });
    const signOut = await request(`${svc.url}/api/v1/auth/sign-out-all`, { method: 'POST', token: org.ownerToken });
    expect([200, 204]).toContain(signOut.status);
    await svc.deps.openIdProvider.backchannel.sendPending();
    const failed = await rows<{ data: { error: string | null } }>(
      svc.deps.database.db,
      sql`select data from events where tenant_id = ${org.tenantId} and action = 'oauth.backchannel_logout_failed'`,
    );
    expect(failed).toHaveLength(1);
    expect(failed[0]!.data.error).toBe('blocked');
  });
});
