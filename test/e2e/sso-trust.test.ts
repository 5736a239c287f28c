import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/kernel/crypto/index.js';
import { rows } from '../../src/kernel/db/index.js';
import { RecordType, startDnsServer, type Zone } from '../support/dns.js';
import { request } from '../support/http.js';
import { addMember } from '../support/organizations.js';
import { SAML_IDP_CERTIFICATE, SamlBrowser, type SamlIdp, startSamlIdp } from '../support/saml-idp.js';
import { startService, type TestService } from '../support/service.js';
import { extractToken, startSmtpServer, type TestSmtpServer } from '../support/smtp.js';
import { expectSsoFailure, SSO_RETURN_URL, ssoCodeOf } from '../support/sso-return.js';
import { SoftwareAuthenticator } from '../support/webauthn-authenticator.js';

/**
 * docs/decisions.md "SSO trust model": an organization's identity provider, chosen by its admin, vouches only for
 * addresses on the organization's verified domains, links an existing account only when its holder confirms,
 * never signs in an owner who did not link personally, and its sessions cannot change the account's own sign-in
 * methods. Each attack of issue 17 item 1 is played against a real SAML IdP, real DNS and real SMTP.
 */

let svc: TestService;
let idp: SamlIdp;
let smtp: TestSmtpServer;
let dns: Awaited<ReturnType<typeof startDnsServer>>;
const zone: Zone = {};

beforeAll(async () => {
  smtp = await startSmtpServer();
  dns = await startDnsServer(zone);
  svc = await startService(
    {
      SIGN_IN_RETURN_URL: SSO_RETURN_URL,
      SMTP_URL: smtp.url,
      DNS_SERVERS: `127.0.0.1:${dns.port}`,
      MFA_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    },
    // WebAuthn needs an RP ID that is a domain name.
    { baseUrlHost: 'localhost' },
  );
  idp = await startSamlIdp({ clock: () => svc.clock.now() });
});
afterAll(async () => {
  await svc?.close();
  await idp?.close();
  await smtp?.close();
  await dns?.close();
});

const api = (path: string) => `${svc.url}/api/v1${path}`;
const base = () => svc.deps.config.baseUrl;
let counter = 0;
const unique = () => `${++counter}${Math.random().toString(36).slice(2, 8)}`;
const newDomain = () => `corp${unique()}.example`;
const addressAt = (domain: string, label = 'person') => `${label}-${unique()}@${domain}`;

/** Signs up with a chosen address: the account owns a new organization. */
async function signUpAt(email: string) {
  const account = { email, password: `correct horse battery ${unique()}`, organization_name: `Org ${unique()}` };
  const res = await request(api('/auth/signup'), { json: account });
  expect(res.status, res.text).toBe(201);
  const me = await request(api('/me'), { token: res.body.access_token });
  return {
    email,
    password: account.password,
    token: res.body.access_token as string,
    userId: me.body.user_id as string,
    tenantId: me.body.tenant_id as string,
    slug: account.organization_name.toLowerCase().replace(/ /g, '-'),
  };
}

/** Claims a domain for the organization and proves it with the TXT record, through the configured DNS. */
async function verifyDomain(token: string, domain: string): Promise<string> {
  const claimed = await request(api('/members/domains'), { token, json: { domain } });
  expect(claimed.status, claimed.text).toBe(201);
  zone[domain] = [{ type: RecordType.TXT, data: claimed.body.txt_record }];
  const verified = await request(api(`/members/domains/${claimed.body.domain_id}/verify`), { method: 'POST', token });
  expect(verified.body).toEqual({ domain, verified: true });
  return claimed.body.domain_id as string;
}

/** Enterprise plan and the test IdP as the organization's SAML connection, configured with `token`. */
async function configureSaml(org: { tenantId: string }, token: string, overrides: Record<string, unknown> = {}) {
  await svc.deps.database.db.execute(sql`update tenants set plan = 'enterprise' where id = ${org.tenantId}`);
  return request(api('/tenants/sso/saml'), {
    method: 'PUT',
    token,
    json: { idp_entity_id: idp.entityId, sso_url: idp.ssoUrl, idp_certificates: [SAML_IDP_CERTIFICATE], ...overrides },
  });
}

/** The IdP asserts `email` (as NameID and attribute): the round trip's return address. */
async function assertAs(org: { slug: string }, email: string): Promise<URL> {
  const login = `login-${unique()}`;
  idp.people.set(login, { nameId: email, attributes: { email } });
  const browser = new SamlBrowser(svc.url, idp);
  const start = await browser.post('/api/v1/auth/sso/saml/start', { tenant_slug: org.slug });
  expect(start.status, start.text).toBe(200);
  const form = await browser.signIn(start.body.authorization_url, login);
  // The ACS is named under BASE_URL (localhost); the service listens on 127.0.0.1.
  const posted = await browser.submit({ ...form, action: form.action.replace(base(), svc.url) });
  expect(posted.status, posted.text).toBe(303);
  return posted.location!;
}

async function ssoSignIn(org: { slug: string }, email: string) {
  const signedIn = await request(api('/auth/sso/complete'), { json: { code: ssoCodeOf(await assertAs(org, email)) } });
  expect(signedIn.status, signedIn.text).toBe(200);
  const me = await request(api('/me'), { token: signedIn.body.access_token });
  return { token: signedIn.body.access_token as string, me: me.body };
}

async function refusals(tenantId: string): Promise<string[]> {
  const found = await rows<{ reason: string }>(
    svc.deps.database.db,
    sql`select data->>'reason' as reason from events where tenant_id = ${tenantId}
        and action = 'sso.sign_in_refused' order by occurred_at`,
  );
  return found.map((row) => row.reason);
}

const linkMail = (email: string) =>
  smtp.waitFor((mail) => mail.to.includes(email.toLowerCase()) && /single sign-on/i.test(mail.subject));

/** A passkey registered by the session `token` (the software authenticator holds it). */
async function registerPasskey(token: string) {
  const authenticator = new SoftwareAuthenticator(base());
  const options = await request(api('/webauthn/credentials/options'), { method: 'POST', token });
  expect(options.status, options.text).toBe(200);
  const created = await request(api('/webauthn/credentials'), {
    token,
    json: authenticator.createCredential(options.body),
  });
  expect(created.status, created.text).toBe(201);
  return authenticator;
}

async function passkeySignIn(authenticator: SoftwareAuthenticator, slug: string) {
  const options = await request(api('/webauthn/login/options'), { method: 'POST' });
  const assertion = authenticator.getAssertion(options.body);
  return request(api('/webauthn/login/verify'), { json: { ...assertion, tenant_slug: slug } });
}

describe('(a) an admin of organization B asserts the address of a member of B who owns organization A', () => {
  it('is refused when the address is not on a domain B verified, even when allowed_domains names it', async () => {
    const victimDomain = newDomain();
    const victim = await signUpAt(addressAt(victimDomain, 'victim'));
    await verifyDomain(victim.token, victimDomain);
    const mallory = await signUpAt(addressAt(newDomain(), 'mallory'));
    await verifyDomain(mallory.token, newDomain());
    await addMember(svc, mallory, 'member', victim);
    const configured = await configureSaml(mallory, mallory.token, { allowed_domains: [victimDomain] });
    expect(configured.status, configured.text).toBe(201);

    expectSsoFailure(await assertAs(mallory, victim.email));
    expect(await refusals(mallory.tenantId)).toEqual(['domain_not_verified']);
    // No session of the victim was made through B's provider, so nothing can be planted and A is out of reach.
    const ssoSessions = await rows(
      svc.deps.database.db,
      sql`select id from sessions where user_id = ${victim.userId} and amr @> '["sso"]'::jsonb`,
    );
    expect(ssoSessions).toEqual([]);
  });

  it('on B’s own verified domain, links the account only when its holder confirms the mailed link', async () => {
    const domain = newDomain();
    const mallory = await signUpAt(addressAt(domain, 'mallory'));
    await verifyDomain(mallory.token, domain);
    // The victim works at B (address on B's domain) and owns a side organization A.
    const victim = await signUpAt(addressAt(domain, 'victim'));
    await addMember(svc, mallory, 'member', victim);
    expect((await configureSaml(mallory, mallory.token)).status).toBe(201);

    expectSsoFailure(await assertAs(mallory, victim.email));
    expect(await refusals(mallory.tenantId)).toEqual(['link_needs_confirmation']);
    const mail = await linkMail(victim.email);
    expect(mail.text).toContain(`${base()}/sso/link?token=`);
    // Asserting again sends no second mail while the first link is pending, and still signs nobody in.
    expectSsoFailure(await assertAs(mallory, victim.email));
    const identities = await rows(
      svc.deps.database.db,
      sql`select user_id from sso_identities where user_id = ${victim.userId}`,
    );
    expect(identities).toEqual([]);
    // The mailed link opens a page whose button confirms; opening it (as mail scanners do) links nothing.
    const page = await fetch(`${svc.url}/sso/link?token=${extractToken(mail.text)}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<form method="post" action="/sso/link">');
    // The holder confirms (a click on the mailed link): from then on B's provider signs them in to B, confined.
    const confirmed = await request(api('/auth/sso/link/confirm'), { json: { token: extractToken(mail.text) } });
    expect(confirmed.status, confirmed.text).toBe(204);
    const { token, me } = await ssoSignIn(mallory, victim.email);
    expect(me).toMatchObject({ user_id: victim.userId, tenant_id: mallory.tenantId });
    const options = await request(api('/webauthn/credentials/options'), { method: 'POST', token });
    expect(options.status).toBe(403);
    expect(options.body.detail).toMatch(/own sign-in methods/);
  });
});

describe('(b) pre-registration: B’s provider asserts an address nobody registered', () => {
  it('refuses an address outside B’s verified domains and creates no account', async () => {
    const org = await signUpAt(addressAt(newDomain(), 'owner'));
    await verifyDomain(org.token, newDomain());
    expect((await configureSaml(org, org.token)).status).toBe(201);
    const address = addressAt(newDomain(), 'future');
    expectSsoFailure(await assertAs(org, address));
    expect(await refusals(org.tenantId)).toEqual(['domain_not_verified']);
    const created = await rows(
      svc.deps.database.db,
      sql`select id from users where email_key = ${address.toLowerCase()}`,
    );
    expect(created).toEqual([]);
  });

  it('on a verified domain, provisions an account owned by B that another organization’s SSO cannot sign in', async () => {
    const domain = newDomain();
    const b = await signUpAt(addressAt(newDomain(), 'owner-b'));
    const domainId = await verifyDomain(b.token, domain);
    expect((await configureSaml(b, b.token)).status).toBe(201);
    const address = addressAt(domain, 'newcomer');
    const { me } = await ssoSignIn(b, address);
    const [account] = await rows<{ owner_tenant_id: string }>(
      svc.deps.database.db,
      sql`select owner_tenant_id from users where id = ${me.user_id}`,
    );
    expect(account?.owner_tenant_id).toBe(b.tenantId);
    // The domain moves to organization C, whose provider asserts the same address: B owns that account.
    expect((await request(api(`/members/domains/${domainId}`), { method: 'DELETE', token: b.token })).status).toBe(204);
    const c = await signUpAt(addressAt(newDomain(), 'owner-c'));
    await verifyDomain(c.token, domain);
    expect((await configureSaml(c, c.token)).status).toBe(201);
    expectSsoFailure(await assertAs(c, address));
    expect(await refusals(c.tenantId)).toEqual(['account_owned_elsewhere']);
  });

  it('binds a passkey sign-in of an account B owns to B, never to another organization it is a member of', async () => {
    const domain = newDomain();
    const b = await signUpAt(addressAt(newDomain(), 'owner-b'));
    await verifyDomain(b.token, domain);
    expect((await configureSaml(b, b.token)).status).toBe(201);
    const address = addressAt(domain, 'managed');
    const { me } = await ssoSignIn(b, address);
    const a = await signUpAt(addressAt(newDomain(), 'owner-a'));
    // Test set-up: the person set a password (a reset link) and is also a member of A.
    const password = `a long password ${unique()}`;
    await svc.deps.database.db.execute(
      sql`update users set password_hash = ${await hashPassword(password)} where id = ${me.user_id}`,
    );
    await addMember(svc, a, 'member', { userId: me.user_id, email: address, password });
    const own = await request(api('/auth/login'), { json: { email: address, password, tenant_slug: b.slug } });
    expect(own.status, own.text).toBe(200);
    const authenticator = await registerPasskey(own.body.access_token);
    expect((await passkeySignIn(authenticator, b.slug)).status).toBe(200);
    const elsewhere = await passkeySignIn(authenticator, a.slug);
    expect(elsewhere.status).toBe(401);
    expect(elsewhere.body.detail).toBe('Invalid credentials');
  });
});

describe('a session through an organization’s provider is confined to it', () => {
  it('cannot add, remove or reset the account’s own sign-in methods (403 naming what to do)', async () => {
    const domain = newDomain();
    const org = await signUpAt(addressAt(newDomain(), 'owner'));
    await verifyDomain(org.token, domain);
    expect((await configureSaml(org, org.token)).status).toBe(201);
    const { token } = await ssoSignIn(org, addressAt(domain, 'sso-only'));
    const attempts = [
      request(api('/webauthn/credentials/options'), { method: 'POST', token }),
      request(api('/webauthn/credentials/00000000-0000-7000-8000-000000000000/remove'), { token, json: {} }),
      request(api('/auth/change-password'), {
        token,
        json: { current_password: 'whatever it is', new_password: `a brand new password ${unique()}` },
      }),
      request(api('/mfa/setup'), { method: 'POST', token }),
      request(api('/mfa/setup/verify'), { token, json: { code: '123456' } }),
      request(api('/mfa/disable'), { token, json: { code: '123456' } }),
      request(api('/mfa/recovery-codes/regenerate'), { token, json: { code: '123456' } }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status, res.text).toBe(403);
      expect(res.body.detail).toMatch(/own sign-in methods/);
    }
  });
});

describe('(c) within one organization, an admin’s provider asserts the owner’s address', () => {
  it('is refused unless the owner linked personally; the owner keeps password sign-in', async () => {
    const domain = newDomain();
    const owner = await signUpAt(addressAt(domain, 'owner'));
    await verifyDomain(owner.token, domain);
    const admin = await addMember(svc, owner, 'admin');
    const configured = await configureSaml(owner, admin.token);
    expect(configured.status, configured.text).toBe(201);
    // The change is a detection, mailed to the owner.
    const notice = await smtp.waitFor(
      (mail) => mail.to.includes(owner.email.toLowerCase()) && /Single sign-on of .* changed/.test(mail.subject),
    );
    expect(notice.text).toContain(admin.email);
    const detections = await rows<{ severity: string }>(
      svc.deps.database.db,
      sql`select severity from detections where tenant_id = ${owner.tenantId} and rule_id = 'sso-connection-changed'`,
    );
    expect(detections).toEqual([{ severity: 'high' }]);

    expectSsoFailure(await assertAs(owner, owner.email));
    expect(await refusals(owner.tenantId)).toEqual(['owner_not_linked']);
    const login = await request(api('/auth/login'), {
      json: { email: owner.email, password: owner.password, tenant_slug: owner.slug },
    });
    expect(login.status).toBe(200);

    // The owner links the identity personally (the mailed link): SSO then signs them in, as owner.
    const token = extractToken((await linkMail(owner.email)).text);
    expect((await request(api('/auth/sso/link/confirm'), { json: { token } })).status).toBe(204);
    expect((await request(api('/auth/sso/link/confirm'), { json: { token } })).status).toBe(400);
    const linked = await ssoSignIn(owner, owner.email);
    expect(linked.me).toMatchObject({ user_id: owner.userId, tenant_id: owner.tenantId });
    // Even the owner's SSO session cannot change the SSO connection: that needs their own factors.
    const change = await configureSaml(owner, linked.token, { enabled: false });
    expect(change.status).toBe(403);
    expect(change.body.detail).toMatch(/own sign-in methods/);
  });

  it('changing the connection needs a sign-in with the account’s own factors within 10 minutes', async () => {
    const owner = await signUpAt(addressAt(newDomain(), 'owner'));
    const admin = await addMember(svc, owner, 'admin');
    expect((await configureSaml(owner, admin.token)).status).toBe(201);
    svc.clock.advance(11 * 60_000);
    const stale = [
      await configureSaml(owner, admin.token, { enabled: false }),
      await request(api('/tenants/sso/saml'), { method: 'DELETE', token: admin.token }),
      await request(api('/tenants/sso/saml/import-metadata'), {
        token: admin.token,
        body: idp.metadata(),
        headers: { 'content-type': 'application/samlmetadata+xml' },
      }),
    ];
    for (const res of stale) {
      expect(res.status, res.text).toBe(403);
      expect(res.body.detail).toMatch(/within the last 10 minutes/);
    }
    // An API key holding tenant:manage is no person's sign-in.
    const key = await request(api('/tenants/api-keys'), {
      token: owner.token,
      json: { label: 'automation', scopes: ['tenant:manage'] },
    });
    expect(key.status, key.text).toBe(201);
    const byKey = await configureSaml(owner, key.body.key, { enabled: false });
    expect(byKey.status).toBe(403);
    expect(byKey.body.detail).toMatch(/needs a person signed in/);
    const fresh = await request(api('/auth/login'), {
      json: { email: admin.email, password: admin.password, tenant_slug: owner.slug },
    });
    expect((await configureSaml(owner, fresh.body.access_token, { enabled: false })).status).toBe(200);
  });
});

describe('accounts an organization’s SCIM creates', () => {
  it('are owned by it only on its verified domains: an address elsewhere stays reachable by its own domain’s SSO', async () => {
    const domain = newDomain();
    const a = await signUpAt(addressAt(newDomain(), 'owner-a'));
    await verifyDomain(a.token, domain);
    expect((await configureSaml(a, a.token)).status).toBe(201);
    // B's SCIM client pushes an address on A's domain before its holder ever signed up (attack review).
    const b = await signUpAt(addressAt(newDomain(), 'owner-b'));
    await svc.deps.database.db.execute(sql`update tenants set plan = 'enterprise' where id = ${b.tenantId}`);
    const minted = await request(api('/tenants/scim/token'), { method: 'POST', token: b.token });
    expect(minted.status, minted.text).toBe(201);
    const address = addressAt(domain, 'squatted');
    const pushed = await request(api('/scim/v2/Users'), {
      method: 'POST',
      token: minted.body.token,
      headers: { 'content-type': 'application/scim+json' },
      body: JSON.stringify({
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        userName: address,
        emails: [{ value: address, primary: true }],
        active: true,
      }),
    });
    expect(pushed.status, pushed.text).toBe(201);
    const [account] = await rows<{ owner_tenant_id: string | null }>(
      svc.deps.database.db,
      sql`select owner_tenant_id from users where email_key = ${address.toLowerCase()}`,
    );
    expect(account?.owner_tenant_id).toBeNull();
    // A answers for the domain: its provider reaches the account once the holder confirms, as for anyone's.
    expectSsoFailure(await assertAs(a, address));
    expect(await refusals(a.tenantId)).toEqual(['link_needs_confirmation']);
    expect((await linkMail(address)).text).toContain('/sso/link?token=');
  });

  it('stop being owned by it when SCIM moves their address off its verified domains', async () => {
    const domain = newDomain();
    const a = await signUpAt(addressAt(newDomain(), 'owner-a'));
    await verifyDomain(a.token, domain);
    expect((await configureSaml(a, a.token)).status).toBe(201);
    const b = await signUpAt(addressAt(newDomain(), 'owner-b'));
    const bDomain = newDomain();
    await verifyDomain(b.token, bDomain);
    await svc.deps.database.db.execute(sql`update tenants set plan = 'enterprise' where id = ${b.tenantId}`);
    const minted = await request(api('/tenants/scim/token'), { method: 'POST', token: b.token });
    const scimCall = (method: string, path: string, body: unknown) =>
      request(api(`/scim/v2/Users${path}`), {
        method,
        token: minted.body.token,
        headers: { 'content-type': 'application/scim+json' },
        body: JSON.stringify(body),
      });
    const own = addressAt(bDomain, 'managed');
    const pushed = await scimCall('POST', '', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName: own,
      emails: [{ value: own, primary: true }],
    });
    expect(pushed.status, pushed.text).toBe(201);
    // Then B's SCIM client renames the account it owns to an address on A's domain.
    const address = addressAt(domain, 'renamed');
    const renamed = await scimCall('PATCH', `/${pushed.body.id}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'replace', value: { userName: address, emails: [{ value: address, primary: true }] } }],
    });
    expect(renamed.status, renamed.text).toBe(200);
    const [account] = await rows<{ owner_tenant_id: string | null }>(
      svc.deps.database.db,
      sql`select owner_tenant_id from users where email_key = ${address.toLowerCase()}`,
    );
    expect(account?.owner_tenant_id).toBeNull();
    expectSsoFailure(await assertAs(a, address));
    expect(await refusals(a.tenantId)).toEqual(['link_needs_confirmation']);
  });
});

describe('what the provider asserts is judged at every sign-in (attack review)', () => {
  it('finds the same account for the address in another case, and refuses it once the domain is unverified', async () => {
    const domain = newDomain();
    const b = await signUpAt(addressAt(newDomain(), 'owner-b'));
    const domainId = await verifyDomain(b.token, domain);
    expect((await configureSaml(b, b.token)).status).toBe(201);
    const address = addressAt(domain, 'linked');
    const first = await ssoSignIn(b, address);
    const shouted = await ssoSignIn(b, address.toUpperCase());
    expect(shouted.me.user_id).toBe(first.me.user_id);
    // The domain's root form (a trailing dot) is the same address, not a look-alike account of its own.
    const rooted = await ssoSignIn(b, `${address}.`);
    expect(rooted.me.user_id).toBe(first.me.user_id);
    expect((await request(api(`/members/domains/${domainId}`), { method: 'DELETE', token: b.token })).status).toBe(204);
    expectSsoFailure(await assertAs(b, address));
    expect(await refusals(b.tenantId)).toEqual(['domain_not_verified']);
  });
});
