import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/kernel/crypto/index.js';
import { rows } from '../../src/kernel/db/index.js';
import { newDpopKey } from '../support/dpop.js';
import { request, uniqueEmail } from '../support/http.js';
import { addMember, signUpOwner } from '../support/organizations.js';
import { SAML_IDP_CERTIFICATE } from '../support/saml-idp.js';
import { changeDirectly, startService, type TestService } from '../support/service.js';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp.js';
import { ServiceBrowser } from '../support/social-browser.js';
import { expectSsoFailure, SSO_RETURN_URL, ssoCodeOf } from '../support/sso-return.js';
import { IdpBrowser, startUpstreamIdp, TEST_CA_FILE, type UpstreamIdp } from '../support/upstream-idp.js';
import { enterpriseSignInSteps, newLogin } from './enterprise-sign-in-support.js';

/**
 * Part A 4.6: sign-in through an organization's OpenID Connect identity provider, against a real `oidc-provider`
 * 8 over TLS (reached through the kernel's egress), with the browser on both sides keeping its cookies.
 */

let svc: TestService;
let idp: UpstreamIdp;
let smtp: TestSmtpServer;
/** An organization most tests share (sign-ups are budgeted per address: 20 an hour). */
let shared: Awaited<ReturnType<typeof ssoOrganization>>;

beforeAll(async () => {
  // Scope claims only at UserInfo (oidc-provider's default): the service must ask UserInfo for the address.
  idp = await startUpstreamIdp({ clients: [], claimsInIdToken: false });
  smtp = await startSmtpServer();
  svc = await startService(
    {
      SMTP_URL: smtp.url,
      EGRESS_TEST_ROUTES: idp.route,
      EGRESS_TEST_CA_FILE: TEST_CA_FILE,
      SIGN_IN_RETURN_URL: SSO_RETURN_URL,
      MFA_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    },
    { baseUrlIsListenAddress: true },
  );
  shared = await ssoOrganization();
});
afterAll(async () => {
  await svc?.close();
  await idp?.close();
  await smtp?.close();
});

const api = (path: string) => `${svc.url}/api/v1${path}`;
const sso = enterpriseSignInSteps(
  () => svc,
  () => smtp,
);

/** A person of the identity provider (its login is the account id). */
function person(claims: { email: string; email_verified?: boolean; name?: string }) {
  const login = newLogin();
  idp.people.set(login, claims);
  return login;
}

/**
 * An Enterprise organization with a verified domain of its own, its own client at the identity provider and the
 * OIDC connection configured (`overrides` may depend on the domain).
 */
async function ssoOrganization(
  overrides: Record<string, unknown> | ((domain: string) => Record<string, unknown>) = {},
) {
  const owner = await sso.enterpriseOrganization('ssoorg');
  const client = await idp.registerClient({
    redirect_uris: [`${svc.url}/api/v1/auth/sso/oidc/${owner.tenantId}/callback`],
    backchannel_logout_uri: `${svc.url}/api/v1/auth/sso/oidc/${owner.tenantId}/backchannel-logout`,
    backchannel_logout_session_required: true,
  });
  const put = await request(api('/tenants/sso/oidc'), {
    method: 'PUT',
    token: owner.token,
    json: {
      issuer: idp.issuer,
      client_id: client.client_id,
      client_secret: client.client_secret,
      ...(typeof overrides === 'function' ? overrides(owner.domain) : overrides),
    },
  });
  expect(put.status, put.text).toBe(201);
  return { ...owner, client };
}

/** The whole round trip: start, the provider's sign-in, and the callback in the same browser. */
async function roundTrip(slug: string, login: string, browser = new ServiceBrowser(svc.url)) {
  const start = await browser.post('/api/v1/auth/sso/start', { tenant_slug: slug });
  expect(start.status, start.text).toBe(200);
  const idpBrowser = new IdpBrowser(idp.port);
  const callback = await idpBrowser.signIn(start.body.authorization_url, login);
  const back = await browser.open(callback);
  expect(back.status).toBe(302);
  return { browser, idpBrowser, callback, start, location: back.location! };
}

/** An address on the organization's verified domain (the shared organization's unless said otherwise). */
const corpAddress = (label: string, domain = shared.domain) => uniqueEmail(label, domain);

async function refusals(tenantId: string): Promise<string[]> {
  return (await sso.refusalsOf(tenantId)).map((row) => row.reason);
}

async function signInThroughSso(org: { slug: string }, login: string) {
  return sso.completeSignIn((await roundTrip(org.slug, login)).location);
}

describe('start', () => {
  it('answers the provider’s authorization URL with PKCE S256, state and nonce, and sets the flow cookie', async () => {
    const org = await ssoOrganization({ scopes: ['openid', 'email', 'profile'] });
    const browser = new ServiceBrowser(svc.url);
    const start = await browser.post('/api/v1/auth/sso/start', { tenant_slug: org.slug.toUpperCase() });
    expect(start.status, start.text).toBe(200);
    expect(start.headers.get('cache-control')).toBe('no-store');
    const url = new URL(start.body.authorization_url);
    expect(`${url.origin}${url.pathname}`).toBe(`${idp.issuer}/auth`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: org.client.client_id,
      redirect_uri: `${svc.url}/api/v1/auth/sso/oidc/${org.tenantId}/callback`,
      scope: 'openid email profile',
      state: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      nonce: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      code_challenge_method: 'S256',
    });
    const cookie = browser.lastSetCookie.find((line) => line.startsWith('svc_sso_flow='));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/Secure/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\/api\/v1\/auth\/sso/);
    // The state is stored only as a hash.
    const state = url.searchParams.get('state')!;
    const stored = await rows<{ state_hash: string }>(
      svc.deps.database.db,
      sql`select state_hash from sso_oidc_flows where tenant_id = ${org.tenantId}`,
    );
    expect(stored.some((row) => row.state_hash === state)).toBe(false);
    expect(stored).toHaveLength(1);
  });

  it('is dormant (404, one answer) for an unknown organization, one without SSO and a disabled connection', async () => {
    const plain = await signUpOwner(svc.url, 'nosso');
    const disabled = await ssoOrganization({ enabled: false });
    const answer = await sso.expectOneDormantAnswer('/auth/sso/start', [
      'no-such-organization-anywhere',
      plain.slug,
      disabled.slug,
    ]);
    expect(answer.detail).toMatch(/SSO is not configured/);
  });
  it('is protocol-agnostic: SAML when the organization has no enabled OIDC connection, OIDC first otherwise', async () => {
    const org = await ssoOrganization();
    const saml = await request(api('/tenants/sso/saml'), {
      method: 'PUT',
      token: org.token,
      json: {
        idp_entity_id: 'https://saml-idp.example.test/metadata',
        sso_url: 'https://saml-idp.example.test/sso',
        idp_certificates: [SAML_IDP_CERTIFICATE],
      },
    });
    expect(saml.status, saml.text).toBe(201);
    const both = await request(api('/auth/sso/start'), { json: { tenant_slug: org.slug } });
    expect(new URL(both.body.authorization_url).origin).toBe(idp.issuer);
    expect(both.headers.get('set-cookie')).toMatch(/^svc_sso_flow=/);

    const disabled = await request(api('/tenants/sso/oidc'), {
      method: 'PUT',
      token: org.token,
      json: { issuer: idp.issuer, client_id: org.client.client_id, enabled: false },
    });
    expect(disabled.status, disabled.text).toBe(200);
    const browser = new ServiceBrowser(svc.url);
    const viaSaml = await browser.post('/api/v1/auth/sso/start', { tenant_slug: org.slug });
    expect(viaSaml.status, viaSaml.text).toBe(200);
    const url = new URL(viaSaml.body.authorization_url);
    expect(`${url.origin}${url.pathname}`).toBe('https://saml-idp.example.test/sso');
    expect(url.searchParams.get('SAMLRequest')).toBeTruthy();
    // The SAML flow's own cookie (its ACS is a cross-site POST), not the OIDC one.
    expect(browser.lastSetCookie).toHaveLength(1);
    expect(browser.lastSetCookie[0]).toMatch(/^svc_saml_flow=.*Path=\/api\/v1\/auth\/sso\/saml/i);
  });
});

describe('provisioning', () => {
  it('provisions a new person just in time (workforce member) and signs them in with amr sso', async () => {
    const org = shared;
    const email = corpAddress('jit');
    const login = person({ email, name: 'Jit Person' });
    const { tokens, me } = await signInThroughSso(org, login);
    expect(tokens.token_type).toBe('bearer');
    // The organization's identity provider vouches for the address.
    expect(me).toMatchObject({
      tenant_id: org.tenantId,
      role: 'member',
      population: 'workforce',
      email_verified: true,
    });
    const [session] = await rows<{ amr: string[] }>(
      svc.deps.database.db,
      sql`select amr from sessions where user_id = ${me.user_id} and tenant_id = ${org.tenantId}`,
    );
    expect(session?.amr).toEqual(['sso']);
    const profile = await request(api('/me/profile'), { token: tokens.access_token });
    expect(profile.body).toMatchObject({ email, name: 'Jit Person', editable: false });
    const provisioned = await rows<{ action: string }>(
      svc.deps.database.db,
      sql`select action from events where tenant_id = ${org.tenantId} and subject_user_id = ${me.user_id}
          and action in ('sso.user_provisioned', 'user.logged_in') order by occurred_at`,
    );
    expect(provisioned.map((row) => row.action)).toEqual(['sso.user_provisioned', 'user.logged_in']);
  });

  it('links an existing member once they confirm the mailed link, then finds them by the provider’s subject even when the address changes', async () => {
    const org = shared;
    const member = await sso.memberAt(org, 'admin');
    const login = person({ email: member.email.toUpperCase() });
    // The asserted address alone links nothing: the account's holder confirms by the link mailed to it.
    expectSsoFailure((await roundTrip(org.slug, login)).location);
    expect(await refusals(org.tenantId)).toContain('link_needs_confirmation');
    await sso.confirmLinkMail(member.email);
    const first = await signInThroughSso(org, login);
    expect(first.me).toMatchObject({ user_id: member.userId, role: 'admin' });
    idp.people.set(login, { email: corpAddress('renamed') });
    const again = await signInThroughSso(org, login);
    expect(again.me.user_id).toBe(member.userId);
  });

  it('links an account of another organization only on a domain this organization verified, once its holder confirms', async () => {
    const org = await ssoOrganization();
    const elsewhere = await signUpOwner(svc.url, 'elsewhere');
    const domain = `elsewhere-${Math.random().toString(36).slice(2, 8)}.example.com`;
    await svc.deps.database.db.execute(
      sql`update users set email = ${`${elsewhere.userId}@${domain}`}, email_key = ${`${elsewhere.userId}@${domain}`}
          where id = ${elsewhere.userId}`,
    );
    const email = `${elsewhere.userId}@${domain}`;
    const login = person({ email });
    const refused = await roundTrip(org.slug, login);
    expectSsoFailure(refused.location);
    expect(await refusals(org.tenantId)).toContain('domain_not_verified');
    const memberships = await rows<{ n: number }>(
      svc.deps.database.db,
      sql`select count(*)::int as n from memberships where tenant_id = ${org.tenantId} and user_id = ${elsewhere.userId}`,
    );
    expect(memberships[0]?.n).toBe(0);

    await sso.verifyDomain(org.tenantId, domain);
    expectSsoFailure((await roundTrip(org.slug, login)).location);
    expect(await refusals(org.tenantId)).toContain('link_needs_confirmation');
    await sso.confirmLinkMail(email);
    const linked = await signInThroughSso(org, login);
    expect(linked.me).toMatchObject({ user_id: elsewhere.userId, tenant_id: org.tenantId, role: 'member' });
  });

  it('refuses an address outside allowed_domains, and an address the provider says is not verified', async () => {
    const org = await ssoOrganization((domain) => ({ allowed_domains: [domain] }));
    const outsider = await roundTrip(org.slug, person({ email: corpAddress('out', 'gmail.example.org') }));
    expectSsoFailure(outsider.location);
    const unverified = await roundTrip(
      org.slug,
      person({ email: corpAddress('unv', org.domain), email_verified: false }),
    );
    expectSsoFailure(unverified.location);
    const reasons = await refusals(org.tenantId);
    expect(reasons).toContain('domain_not_allowed');
    expect(reasons).toContain('the provider says the email is not verified');
    const inside = await signInThroughSso(org, person({ email: corpAddress('in', org.domain) }));
    expect(inside.me.tenant_id).toBe(org.tenantId);
  });

  it('takes a seat of the plan for a new member: refused once the seats are taken', async () => {
    const org = await ssoOrganization();
    // A downgrade after configuring (the Free plan has 5 seats): sign-in keeps working, seats are counted.
    await svc.deps.database.db.execute(sql`update tenants set plan = 'free' where id = ${org.tenantId}`);
    for (let seat = 0; seat < 3; seat += 1) await addMember(svc, org, 'member');
    const fifth = await signInThroughSso(org, person({ email: corpAddress('fifth', org.domain) }));
    expect(fifth.me.tenant_id).toBe(org.tenantId);
    const { location } = await roundTrip(org.slug, person({ email: corpAddress('sixth', org.domain) }));
    expectSsoFailure(location);
    expect(await refusals(org.tenantId)).toContain('seat_limit_reached');
  });

  it('does not re-open a suspended membership', async () => {
    const org = await ssoOrganization();
    const member = await sso.memberAt(org, 'member');
    await svc.deps.database.db.execute(
      sql`update memberships set status = 'suspended' where tenant_id = ${org.tenantId} and user_id = ${member.userId}`,
    );
    const { location } = await roundTrip(org.slug, person({ email: member.email }));
    expectSsoFailure(location);
    expect(await refusals(org.tenantId)).toContain('membership_inactive');
  });
});

describe('the round trip is bound to its browser and its time', () => {
  it('refuses a callback opened in another browser, a tampered state, and a replayed callback', async () => {
    const org = shared;
    const login = person({ email: corpAddress('bound') });
    const browser = new ServiceBrowser(svc.url);
    const start = await browser.post('/api/v1/auth/sso/start', { tenant_slug: org.slug });
    const callback = await new IdpBrowser(idp.port).signIn(start.body.authorization_url, login);

    // Login CSRF: the callback URL lured into another browser signs nobody in there.
    const other = await new ServiceBrowser(svc.url).open(callback);
    expectSsoFailure(other.location!);
    const tampered = new URL(callback);
    tampered.searchParams.set('state', `${tampered.searchParams.get('state')!.slice(0, -2)}AA`);
    expectSsoFailure((await browser.open(tampered.toString())).location!);

    // The right browser: works once, and the state is spent.
    ssoCodeOf((await browser.open(callback)).location!);
    expectSsoFailure((await browser.open(callback)).location!);
  });

  it('refuses another organization’s callback for the flow (tenant isolation)', async () => {
    const org = shared;
    const other = await ssoOrganization();
    const browser = new ServiceBrowser(svc.url);
    const start = await browser.post('/api/v1/auth/sso/start', { tenant_slug: org.slug });
    const callback = new URL(
      await new IdpBrowser(idp.port).signIn(start.body.authorization_url, person({ email: corpAddress('iso') })),
    );
    const elsewhere = new URL(callback.toString().replace(org.tenantId, other.tenantId));
    expectSsoFailure((await browser.open(elsewhere.toString())).location!);
    expectSsoFailure((await browser.open(callback.toString().replace(org.tenantId, 'not-a-uuid'))).location!);
    ssoCodeOf((await browser.open(callback.toString())).location!);
  });

  it('refuses a round trip that took longer than 10 minutes', async () => {
    const org = shared;
    const browser = new ServiceBrowser(svc.url);
    const start = await browser.post('/api/v1/auth/sso/start', { tenant_slug: org.slug });
    const callback = await new IdpBrowser(idp.port).signIn(
      start.body.authorization_url,
      person({ email: corpAddress('slow') }),
    );
    svc.clock.advance(10 * 60_000 + 1000);
    try {
      expectSsoFailure((await browser.open(callback)).location!);
      expect(await refusals(org.tenantId)).toContain('round trip took longer than 10 minutes');
    } finally {
      svc.clock.set(new Date());
    }
  });

  it('turns a provider error (the person declined) into the same failure', async () => {
    const org = shared;
    const browser = new ServiceBrowser(svc.url);
    const start = await browser.post('/api/v1/auth/sso/start', { tenant_slug: org.slug });
    const state = new URL(start.body.authorization_url).searchParams.get('state')!;
    const back = await browser.open(
      `${svc.url}/api/v1/auth/sso/oidc/${org.tenantId}/callback?error=access_denied&state=${state}`,
    );
    expectSsoFailure(back.location!);
  });
});

describe('complete', () => {
  it('is single use: a replayed code is 401, like an unknown one', async () => {
    const org = shared;
    const { location } = await roundTrip(org.slug, person({ email: corpAddress('once') }));
    const code = ssoCodeOf(location);
    expect((await sso.complete(code)).status).toBe(200);
    const replayed = await sso.complete(code);
    expect(replayed.status).toBe(401);
    const unknown = await sso.complete('A'.repeat(43));
    expect(unknown.status).toBe(401);
    expect(replayed.body).toEqual(unknown.body);
    expect(unknown.body.detail).toBe('Invalid or expired code');
  });

  it('expires after 60 seconds', async () => {
    const org = shared;
    const { location } = await roundTrip(org.slug, person({ email: corpAddress('late') }));
    svc.clock.advance(61_000);
    try {
      expect((await sso.complete(ssoCodeOf(location))).status).toBe(401);
    } finally {
      svc.clock.set(new Date());
    }
  });

  it('binds the tokens to a DPoP key, and sets the refresh cookie in cookie mode', async () => {
    const org = shared;
    const key = await newDpopKey();
    const first = await roundTrip(org.slug, person({ email: corpAddress('dpop') }));
    const url = api('/auth/sso/complete');
    const bound = await request(url, {
      json: { code: ssoCodeOf(first.location) },
      headers: { dpop: await key.proof('POST', url, { now: svc.clock.now() }) },
    });
    expect(bound.status, bound.text).toBe(200);
    expect(bound.body.token_type).toBe('DPoP');
    const asBearer = await request(api('/me'), { token: bound.body.access_token });
    expect(asBearer.status).toBe(401);

    const second = await roundTrip(org.slug, person({ email: corpAddress('cookie') }));
    const cookie = await sso.complete(ssoCodeOf(second.location), { use_cookie: true });
    expect(cookie.status).toBe(200);
    expect(cookie.body.refresh_token).toBeNull();
    expect(cookie.headers.get('set-cookie')).toMatch(/svc_refresh=.*HttpOnly/i);
  });

  it('does not bypass an enrolled TOTP factor: an MFA challenge, then amr sso and mfa, also while SSO is required', async () => {
    const org = shared;
    const email = corpAddress('mfa');
    const login = person({ email });
    const { tokens, me: provisioned } = await signInThroughSso(org, login);
    // An SSO session cannot enroll a factor of the account (docs/decisions.md "SSO trust model")...
    expect((await request(api('/mfa/setup'), { token: tokens.access_token, json: {} })).status).toBe(403);
    // ...a sign-in with the account's own password can (test set-up: the person set one by the reset link).
    const password = `a long password ${Math.random().toString(36).slice(2)}`;
    await svc.deps.database.db.execute(
      sql`update users set password_hash = ${await hashPassword(password)} where id = ${provisioned.user_id}`,
    );
    const own = await request(api('/auth/login'), { json: { email, password, tenant_slug: org.slug } });
    expect(own.status, own.text).toBe(200);
    const setup = await request(api('/mfa/setup'), { token: own.body.access_token, json: {} });
    expect(setup.status, setup.text).toBe(200);
    const codeAt = (at: number) =>
      new TOTP({ secret: Secret.fromBase32(setup.body.secret) }).generate({ timestamp: at });
    const verify = await request(api('/mfa/setup/verify'), {
      token: own.body.access_token,
      json: { code: codeAt(svc.clock.now().getTime()) },
    });
    expect(verify.status, verify.text).toBe(200);
    svc.clock.advance(30_000);
    // Enforcement refuses password sign-ins of members, never the challenge an SSO sign-in started.
    await svc.deps.database.db.execute(sql`update tenants set sso_required = true where id = ${org.tenantId}`);
    try {
      const { location } = await roundTrip(org.slug, login);
      const challenged = await sso.complete(ssoCodeOf(location));
      expect(challenged.status).toBe(200);
      expect(challenged.body).toEqual({ mfa_required: true, mfa_token: expect.any(String) });
      const answered = await request(api('/mfa/challenge'), {
        json: { mfa_token: challenged.body.mfa_token, code: codeAt(svc.clock.now().getTime()) },
      });
      expect(answered.status, answered.text).toBe(200);
      const me = await request(api('/me'), { token: answered.body.access_token });
      const [session] = await rows<{ amr: string[] }>(
        svc.deps.database.db,
        sql`select amr from sessions where user_id = ${me.body.user_id} and tenant_id = ${org.tenantId}
            order by created_at desc limit 1`,
      );
      expect(session?.amr).toEqual(['sso', 'mfa']);
    } finally {
      svc.clock.set(new Date());
      await svc.deps.database.db.execute(sql`update tenants set sso_required = false where id = ${org.tenantId}`);
    }
  });

  it('refuses a code whose membership was suspended since the callback', async () => {
    const org = shared;
    const email = corpAddress('suspended');
    await signInThroughSso(org, person({ email }));
    const { location } = await roundTrip(org.slug, person({ email }));
    await svc.deps.database.db.execute(
      sql`update memberships set status = 'suspended' where tenant_id = ${org.tenantId}
          and user_id = (select id from users where email_key = ${email.toLowerCase()})`,
    );
    expect((await sso.complete(ssoCodeOf(location))).status).toBe(401);
  });
});

describe('trust model (docs/decisions.md "SSO trust model")', () => {
  it('never signs in the owner by the asserted address: only once the owner linked the identity personally', async () => {
    const org = await ssoOrganization();
    const email = corpAddress('owner', org.domain);
    // Test set-up: the owner's account address is on the organization's verified domain.
    await svc.deps.database.db.execute(
      sql`update users set email = ${email}, email_key = ${email.toLowerCase()} where id = ${org.userId}`,
    );
    const login = person({ email });
    expectSsoFailure((await roundTrip(org.slug, login)).location);
    expect(await refusals(org.tenantId)).toContain('owner_not_linked');
    await sso.confirmLinkMail(email);
    const linked = await signInThroughSso(org, login);
    expect(linked.me).toMatchObject({ user_id: org.userId, role: 'owner' });
  });

  it('changing the OIDC connection or enforcement needs a sign-in with the account’s own factors within 10 minutes', async () => {
    const org = await ssoOrganization();
    const sso = await signInThroughSso(org, person({ email: corpAddress('confined', org.domain) }));
    // Even with tenant:manage, a session through SSO cannot change who vouches for the organization's people.
    // A direct update reaches the session caches by the database's notification: wait until they heard it.
    await changeDirectly(
      svc,
      sql`update memberships set role = 'admin' where tenant_id = ${org.tenantId} and user_id = ${sso.me.user_id}`,
    );
    const bySso = await request(api('/tenants/sso/enforcement'), {
      method: 'PUT',
      token: sso.tokens.access_token,
      json: { required: false },
    });
    expect(bySso.status).toBe(403);
    expect(bySso.body.detail).toMatch(/own sign-in methods/);
    svc.clock.advance(11 * 60_000);
    try {
      const stale = [
        await request(api('/tenants/sso/oidc'), {
          method: 'PUT',
          token: org.token,
          json: { issuer: idp.issuer, client_id: org.client.client_id, enabled: false },
        }),
        await request(api('/tenants/sso/enforcement'), { method: 'PUT', token: org.token, json: { required: false } }),
        await request(api('/tenants/sso/oidc'), { method: 'DELETE', token: org.token }),
      ];
      for (const res of stale) {
        expect(res.status, res.text).toBe(403);
        expect(res.body.detail).toMatch(/within the last 10 minutes/);
      }
    } finally {
      svc.clock.set(new Date());
    }
  });
});

describe('privacy', () => {
  it('exports what SSO keeps about a person (the provider and its id of them)', async () => {
    const org = shared;
    const { tokens } = await signInThroughSso(org, person({ email: corpAddress('privacy') }));
    const data = await request(api('/gdpr/my-data'), { token: tokens.access_token });
    expect(data.status, data.text).toBe(200);
    expect(JSON.stringify(data.body)).toContain(idp.issuer);
  });
});
