import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/kernel/db/index.js';
import { request, uniqueEmail } from '../support/http.js';
import { addVerifiedMember, signUpVerifiedOwner } from '../support/organizations.js';
import { startService, type TestService } from '../support/service.js';
import { ServiceBrowser } from '../support/social-browser.js';
import { IdpBrowser, startUpstreamIdp, TEST_CA_FILE, type UpstreamIdp } from '../support/upstream-idp.js';

/**
 * Part A 4.5 social login with Google (OpenID Connect): a real `oidc-provider` 8 plays Google through the
 * endpoint override (SOCIAL_GOOGLE_ISSUER), over TLS through the kernel's egress, with the scope claims in the ID
 * token as Google sends them. The service's BASE_URL is a public-looking name registered at the provider; the
 * test's browser opens the callback on the loopback port the service listens on.
 */
const BASE_URL = 'https://svc.example.test';
const RETURN_URL = 'https://app.example.test/after-sign-in';
const CLIENT = { client_id: 'svc-google-client.apps.example.test', client_secret: 'Google-Test-Secret-3c1f9a7e2b' };

let svc: TestService;
let idp: UpstreamIdp;

beforeAll(async () => {
  idp = await startUpstreamIdp({
    clients: [
      {
        ...CLIENT,
        redirect_uris: [`${BASE_URL}/api/v1/auth/social/google/callback`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    claimsInIdToken: true,
  });
  svc = await startService({
    BASE_URL,
    EGRESS_TEST_ROUTES: idp.route,
    EGRESS_TEST_CA_FILE: TEST_CA_FILE,
    SOCIAL_GOOGLE_CLIENT_ID: CLIENT.client_id,
    SOCIAL_GOOGLE_CLIENT_SECRET: CLIENT.client_secret,
    SOCIAL_GOOGLE_ISSUER: idp.issuer,
    SIGN_IN_RETURN_URL: RETURN_URL,
  });
});
afterAll(async () => {
  await svc?.close();
  await idp?.close();
});

const api = (path: string) => `${svc.url}/api/v1${path}`;
const local = (url: string) => url.replace(BASE_URL, svc.url);
let people = 0;

function googleAccount(claims: { email: string; email_verified?: boolean; name?: string; given_name?: string }) {
  people += 1;
  const login = `1098${people}${Math.floor(Math.random() * 1e9)}`;
  idp.people.set(login, { email_verified: true, ...claims });
  return login;
}
const gmailAddress = (label: string) => uniqueEmail(label, 'gmail.example.org');

async function roundTrip(slug: string, login: string, browser = new ServiceBrowser(svc.url)) {
  const start = await browser.post('/api/v1/auth/social/google/start', { tenant_slug: slug });
  expect(start.status, start.text).toBe(200);
  const callback = await new IdpBrowser(idp.port).signIn(start.body.authorization_url, login);
  expect(callback.startsWith(`${BASE_URL}/api/v1/auth/social/google/callback?`)).toBe(true);
  const back = await browser.open(local(callback));
  expect(back.status).toBe(302);
  return { start, callback, location: back.location!, browser };
}

function codeOf(location: URL): string {
  expect(`${location.origin}${location.pathname}`).toBe(RETURN_URL);
  expect(location.searchParams.get('social_error')).toBeNull();
  return location.searchParams.get('social_code')!;
}
const expectFailure = (location: URL) => expect(location.toString()).toBe(`${RETURN_URL}?social_error=true`);

async function allowCustomerSignUp(tenantId: string) {
  await svc.deps.database.db.execute(
    sql`insert into tenant_settings (tenant_id, key, value, updated_at)
        values (${tenantId}, 'auth.ciam_signup_enabled', 'true'::jsonb, ${new Date()})`,
  );
}

describe('Google', () => {
  it('is the only provider listed; GitHub routes answer 404', async () => {
    expect((await request(api('/auth/social/providers'))).body).toEqual({ providers: ['google'] });
    expect((await request(api('/auth/social/github/start'), { json: { tenant_slug: 'x' } })).status).toBe(404);
  });

  it('sends the browser to Google with PKCE S256, state and nonce', async () => {
    const owner = await signUpVerifiedOwner(svc, 'gstart');
    const start = await request(api('/auth/social/google/start'), { json: { tenant_slug: owner.slug } });
    const url = new URL(start.body.authorization_url);
    expect(`${url.origin}${url.pathname}`).toBe(`${idp.issuer}/auth`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: CLIENT.client_id,
      redirect_uri: `${BASE_URL}/api/v1/auth/social/google/callback`,
      scope: 'openid email profile',
      state: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      nonce: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      code_challenge_method: 'S256',
    });
  });

  it('signs up a new customer from a verified Google account (the ID token verified), amr social', async () => {
    const owner = await signUpVerifiedOwner(svc, 'gciam');
    await allowCustomerSignUp(owner.tenantId);
    const email = gmailAddress('ada');
    const login = googleAccount({ email, name: 'Ada Lovelace', given_name: 'Ada' });
    const { location } = await roundTrip(owner.slug, login);
    const done = await request(api('/auth/social/complete'), { json: { code: codeOf(location) } });
    expect(done.status, done.text).toBe(200);
    const me = await request(api('/me'), { token: done.body.access_token });
    expect(me.body).toMatchObject({ tenant_id: owner.tenantId, population: 'customer', role: 'customer' });
    const profile = await request(api('/me/profile'), { token: done.body.access_token });
    expect(profile.body).toMatchObject({ email, name: 'Ada Lovelace', given_name: 'Ada' });
    const [identity] = await rows<{ subject: string; provider: string }>(
      svc.deps.database.db,
      sql`select subject, provider from social_identities where user_id = ${me.body.user_id}`,
    );
    expect(identity).toEqual({ subject: login, provider: 'google' });
  });

  it('links an existing member by the verified address, and refuses an unverified one', async () => {
    const owner = await signUpVerifiedOwner(svc, 'glink');
    const member = await addVerifiedMember(svc, owner, 'member');
    const unverified = await roundTrip(owner.slug, googleAccount({ email: member.email, email_verified: false }));
    expectFailure(unverified.location);
    const verified = await roundTrip(owner.slug, googleAccount({ email: member.email }));
    const done = await request(api('/auth/social/complete'), { json: { code: codeOf(verified.location) } });
    const me = await request(api('/me'), { token: done.body.access_token });
    expect(me.body.user_id).toBe(member.userId);
  });

  it('refuses a new person while customer sign-up is off, and a callback without its browser', async () => {
    const owner = await signUpVerifiedOwner(svc, 'gclosed');
    const closed = await roundTrip(owner.slug, googleAccount({ email: gmailAddress('closed') }));
    expectFailure(closed.location);
    const member = await addVerifiedMember(svc, owner, 'member');
    const start = await new ServiceBrowser(svc.url).post('/api/v1/auth/social/google/start', {
      tenant_slug: owner.slug,
    });
    const callback = await new IdpBrowser(idp.port).signIn(
      start.body.authorization_url,
      googleAccount({ email: member.email }),
    );
    expectFailure((await new ServiceBrowser(svc.url).open(local(callback))).location!);
  });
});
