import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/kernel/db/index.js';
import { newDpopKey } from '../support/dpop.js';
import { type GithubFake, type GithubUser, startGithubFake } from '../support/github-fake.js';
import { request, uniqueEmail } from '../support/http.js';
import { addMember, addVerifiedMember, type signUpOwner, signUpVerifiedOwner } from '../support/organizations.js';
import { startService, type TestService } from '../support/service.js';
import { ServiceBrowser } from '../support/social-browser.js';
import { IdpBrowser, TEST_CA_FILE } from '../support/upstream-idp.js';

/**
 * Part A 4.5 social login with GitHub (OAuth 2.0 and its REST API), against a GitHub-compatible server over TLS
 * reached through the kernel's egress. Only GitHub is configured on this deployment.
 */
const RETURN_URL = 'https://app.example.test/welcome?from=social';

let svc: TestService;
let github: GithubFake;
/** An organization most tests share (sign-ups are budgeted per address: 20 an hour). */
let shared: Awaited<ReturnType<typeof signUpOwner>>;

beforeAll(async () => {
  github = await startGithubFake();
  svc = await startService(
    {
      EGRESS_TEST_ROUTES: github.route,
      EGRESS_TEST_CA_FILE: TEST_CA_FILE,
      SOCIAL_GITHUB_CLIENT_ID: github.clientId,
      SOCIAL_GITHUB_CLIENT_SECRET: github.clientSecret,
      SOCIAL_GITHUB_URL: 'https://secure.example.test',
      SOCIAL_GITHUB_API_URL: 'https://secure.example.test/',
      SIGN_IN_RETURN_URL: RETURN_URL,
      MFA_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    },
    { baseUrlIsListenAddress: true },
  );
  shared = await signUpVerifiedOwner(svc, 'ghshared');
});
afterAll(async () => {
  await svc?.close();
  await github?.close();
});

const api = (path: string) => `${svc.url}/api/v1${path}`;
let users = 0;

function githubUser(email: string, options: { verified?: boolean; name?: string } = {}): GithubUser {
  users += 1;
  return {
    id: 4_000_000 + users,
    login: `octo${users}`,
    name: options.name ?? null,
    emails: [
      { email: `noreply-${users}@users.noreply.example.test`, primary: false, verified: true },
      { email, primary: true, verified: options.verified ?? true },
    ],
  };
}

async function allowCustomerSignUp(tenantId: string, on = true) {
  await svc.deps.database.db.execute(
    sql`insert into tenant_settings (tenant_id, key, value, updated_at)
        values (${tenantId}, 'auth.ciam_signup_enabled', ${JSON.stringify(on)}::jsonb, ${new Date()})
        on conflict (tenant_id, key) do update set value = excluded.value`,
  );
}

/** A round trip at GitHub: start (sign-in or link), GitHub's redirect, and the callback in the same browser. */
async function roundTrip(
  user: GithubUser,
  start: { slug: string } | { linkToken: string },
  browser = new ServiceBrowser(svc.url),
) {
  const started =
    'slug' in start
      ? await browser.post('/api/v1/auth/social/github/start', { tenant_slug: start.slug })
      : await browser.post('/api/v1/auth/social/github/link/start', {}, { token: start.linkToken });
  expect(started.status, started.text).toBe(200);
  github.signInAs(user);
  const atGithub = await new IdpBrowser(github.port).send(started.body.authorization_url);
  expect(atGithub.status).toBe(302);
  const back = await browser.open(atGithub.location!);
  expect(back.status).toBe(302);
  return { browser, callback: atGithub.location!, location: back.location!, started };
}

function codeOf(location: URL): string {
  expect(location.toString().startsWith('https://app.example.test/welcome?from=social&')).toBe(true);
  expect(location.searchParams.get('social_error'), location.toString()).toBeNull();
  const code = location.searchParams.get('social_code');
  expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
  return code!;
}

function expectFailure(location: URL) {
  expect(`${location.origin}${location.pathname}`).toBe('https://app.example.test/welcome');
  expect([...location.searchParams]).toEqual([
    ['from', 'social'],
    ['social_error', 'true'],
  ]);
}

const complete = (code: string, json: Record<string, unknown> = {}) =>
  request(api('/auth/social/complete'), { json: { code, ...json } });

async function signIn(user: GithubUser, slug: string) {
  const { location } = await roundTrip(user, { slug });
  const done = await complete(codeOf(location));
  expect(done.status, done.text).toBe(200);
  const me = await request(api('/me'), { token: done.body.access_token });
  return { tokens: done.body, me: me.body };
}

async function refusals(tenantId: string): Promise<string[]> {
  const found = await rows<{ reason: string }>(
    svc.deps.database.db,
    sql`select data->>'reason' as reason from events where tenant_id = ${tenantId}
        and action = 'social.sign_in_refused' order by occurred_at`,
  );
  return found.map((row) => row.reason);
}

describe('providers', () => {
  it('lists only the configured providers; every route of another provider is 404', async () => {
    const list = await request(api('/auth/social/providers'));
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ providers: ['github'] });
    const owner = await signUpVerifiedOwner(svc, 'nogoogle');
    const answers = await Promise.all([
      request(api('/auth/social/google/start'), { json: { tenant_slug: owner.slug } }),
      request(api('/auth/social/google/callback?code=x&state=y')),
      request(api('/auth/social/google/link/start'), { token: owner.token, json: {} }),
      request(api('/auth/social/google/unlink'), { token: owner.token, json: { password: owner.password } }),
      request(api('/auth/social/facebook/start'), { json: { tenant_slug: owner.slug } }),
    ]);
    for (const res of answers) {
      expect(res.status, res.text).toBe(404);
      expect(res.body.detail).toBe('Social provider not configured');
    }
  });

  it('answers GitHub’s authorization URL with PKCE S256 and state, and sets the flow cookie', async () => {
    const owner = shared;
    const browser = new ServiceBrowser(svc.url);
    const start = await browser.post('/api/v1/auth/social/github/start', { tenant_slug: owner.slug });
    expect(start.status).toBe(200);
    const url = new URL(start.body.authorization_url);
    expect(`${url.origin}${url.pathname}`).toBe('https://secure.example.test/login/oauth/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: github.clientId,
      redirect_uri: `${svc.url}/api/v1/auth/social/github/callback`,
      scope: 'read:user user:email',
      state: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      code_challenge_method: 'S256',
    });
    const cookie = browser.lastSetCookie.find((line) => line.startsWith('svc_social_flow='));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/Secure/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\/api\/v1\/auth\/social/);
    // The same answer for an unknown organization: nothing to probe; that round trip ends in the error flag.
    const unknown = await request(api('/auth/social/github/start'), { json: { tenant_slug: 'no-such-org-here' } });
    expect(unknown.status).toBe(200);
    expect(Object.keys(unknown.body)).toEqual(['authorization_url']);
    const browserOfUnknown = new ServiceBrowser(svc.url);
    const started = await browserOfUnknown.post('/api/v1/auth/social/github/start', { tenant_slug: 'no-such-org' });
    github.signInAs(githubUser(uniqueEmail('nobody')));
    const atGithub = await new IdpBrowser(github.port).send(started.body.authorization_url);
    expectFailure((await browserOfUnknown.open(atGithub.location!)).location!);
  });
});

describe('sign-in', () => {
  it('makes a new person a customer when the organization takes customer sign-up, with amr social', async () => {
    const owner = await signUpVerifiedOwner(svc, 'ghciam');
    await allowCustomerSignUp(owner.tenantId);
    const email = uniqueEmail('newcustomer');
    const user = githubUser(email, { name: 'Mona Lisa' });
    const { tokens, me } = await signIn(user, owner.slug);
    expect(tokens.token_type).toBe('bearer');
    // GitHub verified the address (an unverified one is refused).
    expect(me).toMatchObject({
      tenant_id: owner.tenantId,
      role: 'customer',
      population: 'customer',
      email_verified: true,
    });
    const profile = await request(api('/me/profile'), { token: tokens.access_token });
    expect(profile.body).toMatchObject({ email, name: 'Mona Lisa', editable: true });
    const [session] = await rows<{ amr: string[] }>(
      svc.deps.database.db,
      sql`select amr from sessions where user_id = ${me.user_id}`,
    );
    expect(session?.amr).toEqual(['social']);
    const identities = await request(api('/auth/social/identities'), { token: tokens.access_token });
    expect(identities.body).toEqual({
      identities: [{ provider: 'github', email, linked_at: expect.any(String), last_used_at: expect.any(String) }],
    });
    // Signing in again finds the same person by GitHub's id, whatever address GitHub sends now.
    user.emails[1]!.email = uniqueEmail('renamed');
    const again = await signIn(user, owner.slug);
    expect(again.me.user_id).toBe(me.user_id);
    const signedUp = await rows<{ n: number }>(
      svc.deps.database.db,
      sql`select count(*)::int as n from events where tenant_id = ${owner.tenantId} and action = 'user.signed_up'
          and subject_user_id = ${me.user_id}`,
    );
    expect(signedUp[0]?.n).toBe(1);
  });

  it('refuses a new person while customer sign-up is off, and creates nothing', async () => {
    const owner = await signUpVerifiedOwner(svc, 'ghclosed');
    const email = uniqueEmail('closed');
    const { location } = await roundTrip(githubUser(email), { slug: owner.slug });
    expectFailure(location);
    expect(await refusals(owner.tenantId)).toEqual(['customer sign-up is turned off']);
    const accounts = await rows(svc.deps.database.db, sql`select id from users where email_key = ${email}`);
    expect(accounts).toHaveLength(0);
  });

  it('links an existing member automatically by a verified matching address', async () => {
    const owner = await signUpVerifiedOwner(svc, 'ghlink');
    const member = await addVerifiedMember(svc, owner, 'admin');
    const { me } = await signIn(githubUser(member.email.toUpperCase()), owner.slug);
    expect(me).toMatchObject({ user_id: member.userId, role: 'admin', population: 'workforce' });
    const [linked] = await rows<{ data: { by: string } }>(
      svc.deps.database.db,
      sql`select data from events where tenant_id = ${owner.tenantId} and action = 'social.identity_linked'`,
    );
    expect(linked?.data.by).toBe('sign_in');
  });

  it('does not link an account whose own address was never verified: whoever signed up with it may not own it', async () => {
    const owner = await signUpVerifiedOwner(svc, 'ghsquat');
    await allowCustomerSignUp(owner.tenantId);
    const squatted = await addMember(svc, owner, 'member');
    const { location } = await roundTrip(githubUser(squatted.email), { slug: owner.slug });
    expectFailure(location);
    expect(await refusals(owner.tenantId)).toEqual(['the account’s address is not verified']);
    const linked = await rows(
      svc.deps.database.db,
      sql`select id from social_identities where tenant_id = ${owner.tenantId}`,
    );
    expect(linked).toHaveLength(0);
    // Once the address is verified, the same round trip links and signs in.
    await svc.deps.database.db.execute(sql`update users set email_verified = true where id = ${squatted.userId}`);
    const { me } = await signIn(githubUser(squatted.email), owner.slug);
    expect(me.user_id).toBe(squatted.userId);
  });

  it('refuses an unverified provider address, even for an existing member', async () => {
    const owner = await signUpVerifiedOwner(svc, 'ghunverified');
    await allowCustomerSignUp(owner.tenantId);
    const member = await addVerifiedMember(svc, owner, 'member');
    const { location } = await roundTrip(githubUser(member.email, { verified: false }), { slug: owner.slug });
    expectFailure(location);
    expect(await refusals(owner.tenantId)).toEqual(['the provider email is missing or not verified']);
    const linked = await rows(
      svc.deps.database.db,
      sql`select id from social_identities where tenant_id = ${owner.tenantId}`,
    );
    expect(linked).toHaveLength(0);
  });

  it('refuses a round trip while the organization turned social sign-in off', async () => {
    const owner = await signUpVerifiedOwner(svc, 'ghoff');
    await allowCustomerSignUp(owner.tenantId);
    const off = await request(api('/tenants/config/auth.social_login_enabled'), {
      method: 'PATCH',
      token: owner.token,
      json: { value: false },
    });
    expect(off.status, off.text).toBe(200);
    const { location } = await roundTrip(githubUser(uniqueEmail('off')), { slug: owner.slug });
    expectFailure(location);
    const link = await request(api('/auth/social/github/link/start'), { token: owner.token, json: {} });
    expect(link.status).toBe(403);
  });

  it('answers 403 to a member who is not an owner once the organization requires SSO', async () => {
    const owner = await signUpVerifiedOwner(svc, 'ghsso');
    const member = await addVerifiedMember(svc, owner, 'member');
    const { location } = await roundTrip(githubUser(member.email), { slug: owner.slug });
    await svc.deps.database.db.execute(sql`update tenants set sso_required = true where id = ${owner.tenantId}`);
    const refused = await complete(codeOf(location));
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toBe('This organization requires single sign-on');
    // The owner passes (break-glass).
    const ownerTrip = await roundTrip(githubUser(owner.email), { slug: owner.slug });
    expect((await complete(codeOf(ownerTrip.location))).status).toBe(200);
  });

  it('does not bypass an enrolled TOTP factor', async () => {
    const owner = await signUpVerifiedOwner(svc, 'ghmfa');
    const setup = await request(api('/mfa/setup'), { token: owner.token, json: {} });
    expect(setup.status, setup.text).toBe(200);
    const codeNow = () =>
      new TOTP({ secret: Secret.fromBase32(setup.body.secret) }).generate({ timestamp: svc.clock.now().getTime() });
    expect((await request(api('/mfa/setup/verify'), { token: owner.token, json: { code: codeNow() } })).status).toBe(
      200,
    );
    svc.clock.advance(30_000);
    try {
      const { location } = await roundTrip(githubUser(owner.email), { slug: owner.slug });
      const challenged = await complete(codeOf(location));
      expect(challenged.body).toEqual({ mfa_required: true, mfa_token: expect.any(String) });
      const answered = await request(api('/mfa/challenge'), {
        json: { mfa_token: challenged.body.mfa_token, code: codeNow() },
      });
      expect(answered.status, answered.text).toBe(200);
      const [session] = await rows<{ amr: string[] }>(
        svc.deps.database.db,
        sql`select amr from sessions where user_id = ${owner.userId} order by created_at desc limit 1`,
      );
      expect(session?.amr).toEqual(['social', 'mfa']);
    } finally {
      svc.clock.set(new Date());
    }
  });
});

describe('the round trip and its code', () => {
  it('refuses a callback in another browser, a tampered state and a replayed callback', async () => {
    const owner = { ...shared, ...(await addVerifiedMember(svc, shared, 'member')) };
    const browser = new ServiceBrowser(svc.url);
    const started = await browser.post('/api/v1/auth/social/github/start', { tenant_slug: owner.slug });
    github.signInAs(githubUser(owner.email));
    const callback = (await new IdpBrowser(github.port).send(started.body.authorization_url)).location!;
    expectFailure((await new ServiceBrowser(svc.url).open(callback)).location!);
    const tampered = new URL(callback);
    tampered.searchParams.set('state', randomBytes(32).toString('base64url'));
    expectFailure((await browser.open(tampered.toString())).location!);
    codeOf((await browser.open(callback)).location!);
    expectFailure((await browser.open(callback)).location!);
    // Spent already: the right browser replaying GitHub's code gets nothing more.
    expect(github.requests.filter((r) => r.path === '/login/oauth/access_token').length).toBeGreaterThan(0);
  });

  it('refuses a round trip that took longer than 10 minutes', async () => {
    const owner = { ...shared, ...(await addVerifiedMember(svc, shared, 'member')) };
    const browser = new ServiceBrowser(svc.url);
    const started = await browser.post('/api/v1/auth/social/github/start', { tenant_slug: owner.slug });
    github.signInAs(githubUser(owner.email));
    const callback = (await new IdpBrowser(github.port).send(started.body.authorization_url)).location!;
    svc.clock.advance(10 * 60_000 + 1000);
    try {
      expectFailure((await browser.open(callback)).location!);
      expect(await refusals(owner.tenantId)).toContain('round trip took longer than 10 minutes');
    } finally {
      svc.clock.set(new Date());
    }
  });

  it('the completion code works once and for 60 seconds; every refusal is the same 401', async () => {
    const owner = { ...shared, ...(await addVerifiedMember(svc, shared, 'member')) };
    const user = githubUser(owner.email);
    const first = codeOf((await roundTrip(user, { slug: owner.slug })).location);
    expect((await complete(first)).status).toBe(200);
    const replayed = await complete(first);
    const unknown = await complete(randomBytes(32).toString('base64url'));
    expect(replayed.status).toBe(401);
    expect(replayed.body).toEqual(unknown.body);
    expect(unknown.body).toEqual({ detail: 'Invalid or expired code' });
    const late = codeOf((await roundTrip(user, { slug: owner.slug })).location);
    svc.clock.advance(61_000);
    try {
      expect((await complete(late)).status).toBe(401);
    } finally {
      svc.clock.set(new Date());
    }
  });

  it('binds the tokens to a DPoP key and supports cookie mode', async () => {
    const owner = { ...shared, ...(await addVerifiedMember(svc, shared, 'member')) };
    const key = await newDpopKey();
    const url = api('/auth/social/complete');
    const user = githubUser(owner.email);
    const code = codeOf((await roundTrip(user, { slug: owner.slug })).location);
    const bound = await request(url, {
      json: { code },
      headers: { dpop: await key.proof('POST', url, { now: svc.clock.now() }) },
    });
    expect(bound.status, bound.text).toBe(200);
    expect(bound.body.token_type).toBe('DPoP');
    expect((await request(api('/me'), { token: bound.body.access_token })).status).toBe(401);
    const cookieCode = codeOf((await roundTrip(user, { slug: owner.slug })).location);
    const cookie = await complete(cookieCode, { use_cookie: true });
    expect(cookie.body.refresh_token).toBeNull();
    expect(cookie.headers.get('set-cookie')).toMatch(/svc_refresh=.*HttpOnly/i);
  });
});

describe('linking and unlinking', () => {
  it('links the GitHub account to the signed-in person who started it; then it signs them in', async () => {
    const owner = await signUpVerifiedOwner(svc, 'ghlinker');
    const user = githubUser(uniqueEmail('different-address'));
    const linked = await roundTrip(user, { linkToken: owner.token });
    expect(linked.location.toString()).toBe(`${RETURN_URL}&social_linked=github`);
    const list = await request(api('/auth/social/identities'), { token: owner.token });
    expect(list.body.identities).toEqual([
      { provider: 'github', email: user.emails[1]!.email, linked_at: expect.any(String), last_used_at: null },
    ]);
    const { me } = await signIn(user, owner.slug);
    expect(me.user_id).toBe(owner.userId);
  });

  it('needs a recent sign-in, and the session that asked must still be live at the callback', async () => {
    const owner = await signUpVerifiedOwner(svc, 'ghstale');
    svc.clock.advance(11 * 60_000);
    try {
      const stale = await request(api('/auth/social/github/link/start'), { token: owner.token, json: {} });
      expect(stale.status).toBe(403);
    } finally {
      svc.clock.set(new Date());
    }
    const login = await request(api('/auth/login'), {
      json: { email: owner.email, password: owner.password, tenant_slug: owner.slug },
    });
    const browser = new ServiceBrowser(svc.url);
    const started = await browser.post('/api/v1/auth/social/github/link/start', {}, { token: login.body.access_token });
    expect(started.status).toBe(200);
    await request(api('/auth/logout'), { token: login.body.access_token, json: {} });
    github.signInAs(githubUser(uniqueEmail('late-link')));
    const callback = (await new IdpBrowser(github.port).send(started.body.authorization_url)).location!;
    expectFailure((await browser.open(callback)).location!);
    expect(await refusals(owner.tenantId)).toEqual(['the session that asked to link has ended']);
  });

  it('refuses a second GitHub account for a person who has one linked', async () => {
    const owner = { ...shared, ...(await addVerifiedMember(svc, shared, 'member')) };
    await signIn(githubUser(owner.email), owner.slug);
    const { location } = await roundTrip(githubUser(owner.email), { slug: owner.slug });
    expectFailure(location);
    expect(await refusals(owner.tenantId)).toContain('another account of this provider is linked to this person');
  });

  it('refuses to link a GitHub account already linked to another person', async () => {
    const owner = await signUpVerifiedOwner(svc, 'ghtaken');
    const member = await addVerifiedMember(svc, owner, 'member');
    const user = githubUser(member.email);
    await signIn(user, owner.slug);
    const { location } = await roundTrip(user, { linkToken: owner.token });
    expectFailure(location);
    expect(await refusals(owner.tenantId)).toEqual(['the provider account is linked to another person']);
  });

  it('unlinks with the password (400 without or wrong, 404 when not linked)', async () => {
    const owner = await signUpVerifiedOwner(svc, 'ghunlink');
    const unlink = (json: Record<string, unknown>) =>
      request(api('/auth/social/github/unlink'), { token: owner.token, json });
    expect((await unlink({ password: owner.password })).status).toBe(404);
    await roundTrip(githubUser(uniqueEmail('tolink')), { linkToken: owner.token });
    expect((await unlink({})).status).toBe(400);
    expect((await unlink({ password: 'not the password at all' })).status).toBe(400);
    const done = await unlink({ password: owner.password });
    expect(done.status, done.text).toBe(204);
    expect((await request(api('/auth/social/identities'), { token: owner.token })).body).toEqual({ identities: [] });
    expect((await unlink({ password: owner.password })).status).toBe(404);
  });

  it('keeps the last way in of a passwordless account (409)', async () => {
    const owner = await signUpVerifiedOwner(svc, 'ghlast');
    await allowCustomerSignUp(owner.tenantId);
    const { tokens } = await signIn(githubUser(uniqueEmail('passwordless')), owner.slug);
    const res = await request(api('/auth/social/github/unlink'), { token: tokens.access_token, json: {} });
    expect(res.status).toBe(409);
    expect(res.body.detail).toMatch(/last way to sign in/);
  });

  it('keeps each organization’s links to itself (tenant isolation)', async () => {
    const first = await signUpVerifiedOwner(svc, 'ghfirst');
    const second = await signUpVerifiedOwner(svc, 'ghsecond');
    const person = await addVerifiedMember(svc, first, 'member');
    const inSecond = await addVerifiedMember(svc, second, 'member', person);
    await roundTrip(githubUser(uniqueEmail('iso')), { linkToken: person.token });
    expect((await request(api('/auth/social/identities'), { token: person.token })).body.identities).toHaveLength(1);
    expect((await request(api('/auth/social/identities'), { token: inSecond.token })).body).toEqual({
      identities: [],
    });
    const unlinkElsewhere = await request(api('/auth/social/github/unlink'), {
      token: inSecond.token,
      json: { password: person.password },
    });
    expect(unlinkElsewhere.status).toBe(404);
    expect((await request(api('/auth/social/identities'), { token: person.token })).body.identities).toHaveLength(1);
  });
});
