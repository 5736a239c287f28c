import { randomBytes } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/kernel/db/index.js';
import { request, uniqueEmail } from '../support/http.js';
import { signUpOwner } from '../support/organizations.js';
import {
  PERSISTENT_FORMAT,
  type ResponseTweaks,
  SAML_IDP_CERTIFICATE,
  SAML_ROGUE_CERTIFICATE,
  SamlBrowser,
  type SamlIdp,
  samlId,
  startSamlIdp,
} from '../support/saml-idp.js';
import { startService, type TestService } from '../support/service.js';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp.js';
import { expectSsoFailure, SSO_RETURN_URL, ssoCodeOf } from '../support/sso-return.js';
import { enterpriseSignInSteps, newLogin } from './enterprise-sign-in-support.js';

/**
 * Part A 4.6: SP-initiated sign-in through an organization's SAML 2.0 identity provider, against a test IdP that
 * signs real assertions (xml-crypto) and speaks the HTTP-Redirect and HTTP-POST bindings, with the browser keeping
 * the service's cookies. Every refusal reaches the app as the same `sso_error=true`; the reason is recorded.
 */

let svc: TestService;
let idp: SamlIdp;
/** Most tests share one organization (sign-ups are budgeted per address); refusals are told apart by count. */
let shared: Awaited<ReturnType<typeof samlOrganization>>;
let smtp: TestSmtpServer;

beforeAll(async () => {
  smtp = await startSmtpServer();
  svc = await startService(
    { SIGN_IN_RETURN_URL: SSO_RETURN_URL, SMTP_URL: smtp.url, MFA_ENCRYPTION_KEY: randomBytes(32).toString('hex') },
    { baseUrlIsListenAddress: true },
  );
  idp = await startSamlIdp({ clock: () => svc.clock.now() });
  shared = await samlOrganization();
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

/** A person of the identity provider; the login is their NameID unless `nameId` says otherwise. */
function person(email: string, attributes: Record<string, string> = {}, nameId?: string) {
  const login = newLogin();
  idp.people.set(login, {
    nameId: nameId ?? email,
    ...(nameId ? { nameIdFormat: PERSISTENT_FORMAT } : {}),
    attributes: { email, ...attributes },
  });
  return login;
}

/** An address on the organization's verified domain (the shared organization's unless said otherwise). */
const corpAddress = (label: string, domain = shared.domain) => uniqueEmail(label, domain);

/**
 * An Enterprise organization with a verified domain of its own (direct set-up; the DNS proof is tested in
 * domains-flow: its provider vouches only for addresses there, docs/decisions.md "SSO trust model") and the test IdP
 * configured as its SAML connection (`overrides` may depend on the domain).
 */
async function samlOrganization(
  overrides: Record<string, unknown> | ((domain: string) => Record<string, unknown>) = {},
) {
  const owner = await sso.enterpriseOrganization('samlorg');
  const put = await request(api('/tenants/sso/saml'), {
    method: 'PUT',
    token: owner.token,
    json: {
      idp_entity_id: idp.entityId,
      sso_url: idp.ssoUrl,
      slo_url: idp.sloUrl,
      idp_certificates: [SAML_IDP_CERTIFICATE],
      ...(typeof overrides === 'function' ? overrides(owner.domain) : overrides),
    },
  });
  expect(put.status, put.text).toBe(201);
  const sp = await request(api('/tenants/sso/saml/sp'), { token: owner.token });
  expect(sp.status).toBe(200);
  return { ...owner, sp: sp.body as { entity_id: string; acs_url: string; slo_url: string } };
}

/**
 * The provider's first assertion of an existing account's address links nothing; its holder confirms by the
 * link mailed to the account (docs/decisions.md "SSO trust model").
 */
async function linkByMail(org: { slug: string }, login: string, email: string) {
  expectSsoFailure((await roundTrip(org, login)).location);
  await sso.confirmLinkMail(email);
}

/** Start, the IdP's sign-in and its form post to the ACS, in one browser. */
async function roundTrip(org: { slug: string }, login: string, tweaks?: ResponseTweaks, browser?: SamlBrowser) {
  const b = browser ?? new SamlBrowser(svc.url, idp);
  const start = await b.post('/api/v1/auth/sso/saml/start', { tenant_slug: org.slug });
  expect(start.status, start.text).toBe(200);
  idp.next = tweaks;
  const form = await b.signIn(start.body.authorization_url, login);
  const posted = await b.submit(form);
  expect(posted.status, posted.text).toBe(303);
  return { browser: b, form, location: posted.location!, start: start.body as { authorization_url: string } };
}

async function refusals(tenantId: string): Promise<string[]> {
  const found = await sso.refusalsOf(tenantId);
  for (const row of found) expect(row.protocol).toBe('saml');
  return found.map((row) => row.reason);
}

/** Runs `action` and answers the refusal reasons it recorded for the organization. */
async function refusedBy(tenantId: string, action: () => Promise<unknown>): Promise<string[]> {
  const before = await refusals(tenantId);
  await action();
  const after = await refusals(tenantId);
  for (const reason of before) after.splice(after.indexOf(reason), 1);
  return after;
}

async function signInThroughSaml(org: { slug: string }, login: string) {
  return sso.completeSignIn((await roundTrip(org, login)).location);
}

describe('start', () => {
  it('answers the IdP URL with an unsigned, deflated AuthnRequest for this ACS and sets the flow cookie', async () => {
    const org = shared;
    const browser = new SamlBrowser(svc.url, idp);
    const start = await browser.post('/api/v1/auth/sso/saml/start', { tenant_slug: org.slug.toUpperCase() });
    expect(start.status, start.text).toBe(200);
    const url = new URL(start.body.authorization_url);
    expect(`${url.origin}${url.pathname}`).toBe(idp.ssoUrl);
    expect([...url.searchParams.keys()]).toEqual(['SAMLRequest']);
    const xml = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest')!, 'base64')).toString('utf8');
    expect(xml).toContain(`AssertionConsumerServiceURL="${org.sp.acs_url}"`);
    expect(xml).toContain(`Destination="${idp.ssoUrl}"`);
    expect(xml).toContain(`>${org.sp.entity_id}</saml:Issuer>`);
    expect(xml).toContain('ProtocolBinding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST"');
    expect(xml).not.toContain('RequestedAuthnContext');
    const id = /ID="([^"]+)"/.exec(xml)![1]!;
    expect(id).toMatch(/^_[0-9a-f]{40}$/);
    const stored = await rows<{ id: string; browser_hash: string }>(
      svc.deps.database.db,
      sql`select id, browser_hash from saml_requests where tenant_id = ${org.tenantId} and id = ${id}`,
    );
    expect(stored).toHaveLength(1);
    const cookie = browser.lastSetCookie.find((line) => line.startsWith('svc_saml_flow='));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/Secure/i);
    expect(cookie).toMatch(/SameSite=None/i);
    expect(cookie).toMatch(/Path=\/api\/v1\/auth\/sso\/saml/);
    // The browser's secret is stored only as a hash.
    expect(stored[0]!.browser_hash).not.toContain(browser.cookies.get('svc_saml_flow'));
  });

  it('starts through the protocol-agnostic POST /auth/sso/start when the organization has SAML only', async () => {
    const browser = new SamlBrowser(svc.url, idp);
    const start = await browser.post('/api/v1/auth/sso/start', { tenant_slug: shared.slug });
    expect(start.status, start.text).toBe(200);
    expect(new URL(start.body.authorization_url).origin).toBe(new URL(idp.ssoUrl).origin);
    expect(browser.lastSetCookie.some((line) => line.startsWith('svc_saml_flow='))).toBe(true);
    const posted = await browser.submit(await browser.signIn(start.body.authorization_url, person(corpAddress('any'))));
    expect((await sso.complete(ssoCodeOf(posted.location!))).status).toBe(200);
  });

  it('is dormant (404, one answer) for an unknown organization, one without SAML and a disabled connection', async () => {
    const plain = await signUpOwner(svc.url, 'nosaml');
    const disabled = await samlOrganization({ enabled: false });
    const answer = await sso.expectOneDormantAnswer('/auth/sso/saml/start', [
      'no-such-organization-anywhere',
      plain.slug,
      disabled.slug,
    ]);
    expect(answer.detail).toMatch(/SAML is not configured/);
    // The ACS is dormant too: 404 before anything is read.
    for (const tenant of [plain.tenantId, disabled.tenantId, 'not-a-uuid']) {
      const res = await fetch(api(`/auth/sso/saml/${tenant}/acs`), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'SAMLResponse=AAAA',
      });
      expect(res.status).toBe(404);
    }
  });
});

describe('sign-in', () => {
  it('provisions a new person just in time and signs them in with amr sso through POST /auth/sso/complete', async () => {
    const org = shared;
    const email = corpAddress('jit');
    const login = person(email, { givenName: 'Ada', sn: 'Lovelace', displayName: 'Ada Lovelace' });
    const { tokens, me } = await signInThroughSaml(org, login);
    expect(tokens.token_type).toBe('bearer');
    expect(me).toMatchObject({ tenant_id: org.tenantId, role: 'member', population: 'workforce' });
    const [session] = await rows<{ amr: string[] }>(
      svc.deps.database.db,
      sql`select amr from sessions where user_id = ${me.user_id} and tenant_id = ${org.tenantId}`,
    );
    expect(session?.amr).toEqual(['sso']);
    const profile = await request(api('/me/profile'), { token: tokens.access_token });
    expect(profile.body).toMatchObject({
      email,
      name: 'Ada Lovelace',
      given_name: 'Ada',
      family_name: 'Lovelace',
      editable: false,
    });
    expect(me.email_verified).toBe(true);
    const recorded = await rows<{ protocol: string; issuer: string; subject: string; provider_session_id: string }>(
      svc.deps.database.db,
      sql`select protocol, issuer, subject, provider_session_id from sso_sign_ins
          where tenant_id = ${org.tenantId} and user_id = ${me.user_id}`,
    );
    expect(recorded).toEqual([
      { protocol: 'saml', issuer: idp.entityId, subject: email, provider_session_id: idp.sessionIndexOf(login) },
    ]);
    const actions = await rows<{ action: string }>(
      svc.deps.database.db,
      sql`select action from events where tenant_id = ${org.tenantId} and subject_user_id = ${me.user_id}
          and action in ('sso.user_provisioned', 'user.logged_in')`,
    );
    expect(actions.map((row) => row.action).sort()).toEqual(['sso.user_provisioned', 'user.logged_in']);
  });

  it('links an existing member once they confirm the mailed link, and finds them again by NameID', async () => {
    const member = await sso.memberAt(shared, 'admin');
    const login = person(member.email, {}, `persistent-${samlId()}`);
    await linkByMail(shared, login, member.email);
    const first = await signInThroughSaml(shared, login);
    expect(first.me).toMatchObject({ user_id: member.userId, role: 'admin' });
    idp.people.get(login)!.attributes = { email: corpAddress('renamed') };
    const again = await signInThroughSaml(shared, login);
    expect(again.me.user_id).toBe(member.userId);
  });

  it('still asks for the second factor when the account has TOTP enrolled', async () => {
    const member = await sso.memberAt(shared, 'member');
    const setup = await request(api('/mfa/setup'), { method: 'POST', token: member.token });
    expect(setup.status, setup.text).toBe(200);
    const totp = new TOTP({ secret: Secret.fromBase32(setup.body.secret) });
    const code = () => totp.generate({ timestamp: svc.clock.now().getTime() });
    const verify = await request(api('/mfa/setup/verify'), { token: member.token, json: { code: code() } });
    expect(verify.status, verify.text).toBe(200);
    const login = person(member.email);
    await linkByMail(shared, login, member.email);
    const { location } = await roundTrip(shared, login);
    const answer = await sso.complete(ssoCodeOf(location));
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual({ mfa_required: true, mfa_token: expect.any(String) });
    svc.clock.advance(30_000);
    const challenge = await request(api('/mfa/challenge'), {
      json: { mfa_token: answer.body.mfa_token, code: code() },
    });
    expect(challenge.status, challenge.text).toBe(200);
    expect(challenge.body.access_token).toEqual(expect.any(String));
  });

  it('spends the completion code once', async () => {
    const { location } = await roundTrip(shared, person(corpAddress('once')));
    const code = ssoCodeOf(location);
    expect((await sso.complete(code)).status).toBe(200);
    const again = await sso.complete(code);
    expect(again.status).toBe(401);
    expect(again.body).toEqual({ detail: 'Invalid or expired code' });
  });

  it('refuses an address outside allowed_domains, recording why', async () => {
    const org = await samlOrganization((domain) => ({ allowed_domains: [domain] }));
    const reasons = await refusedBy(org.tenantId, async () => {
      const { location } = await roundTrip(org, person(corpAddress('outside', 'elsewhere.example.com')));
      expectSsoFailure(location);
    });
    expect(reasons).toEqual(['domain_not_allowed']);
    const inside = await roundTrip(org, person(corpAddress('inside', org.domain)));
    expect((await sso.complete(ssoCodeOf(inside.location))).status).toBe(200);
  });
});

describe('refusals', () => {
  const refusalCases: Array<[string, () => ResponseTweaks, string]> = [
    ['an unsigned assertion', () => ({ signAssertion: false }), 'assertion_not_signed'],
    [
      'a signed response around an unsigned assertion',
      () => ({ signAssertion: false, signResponse: true }),
      'assertion_not_signed',
    ],
    ['an assertion signed with a key not configured', () => ({ key: 'rogue' }), 'signature_invalid'],
    [
      'a tampered assertion',
      () => ({ tamper: (xml) => xml.replace(/(<saml:AttributeValue>)[^<]+/, '$1intruder@corp.example.com') }),
      'signature_invalid',
    ],
    ['a SHA-1 signature', () => ({ weakAlgorithm: true }), 'weak_signature_algorithm'],
    ['another audience', () => ({ audience: 'https://other-sp.example.com/metadata' }), 'audience_mismatch'],
    ['another recipient', () => ({ recipient: 'https://other-sp.example.com/acs' }), 'recipient_mismatch'],
    ['another destination', () => ({ destination: 'https://other-sp.example.com/acs' }), 'destination_mismatch'],
    ['another issuer', () => ({ issuer: 'https://impostor.example.com/saml' }), 'issuer_mismatch'],
    ['an expired assertion', () => ({ notOnOrAfter: new Date(svc.clock.now().getTime() - 61_000) }), 'expired'],
    [
      'an assertion not yet valid',
      () => ({ notBefore: new Date(svc.clock.now().getTime() + 5 * 60_000) }),
      'not_yet_valid',
    ],
  ];

  it.each(refusalCases)('refuses %s', async (_name, tweaks, reason) => {
    const email = corpAddress('refused');
    const reasons = await refusedBy(shared.tenantId, async () => {
      const { location } = await roundTrip(shared, person(email), tweaks());
      expectSsoFailure(location);
    });
    expect(reasons).toEqual([reason]);
    const provisioned = await rows(svc.deps.database.db, sql`select 1 from users where email = ${email}`);
    expect(provisioned).toHaveLength(0);
  });

  it('refuses the identity provider’s own refusal, recording its status codes', async () => {
    const denied = 'urn:oasis:names:tc:SAML:2.0:status:RequestDenied';
    const reasons = await refusedBy(shared.tenantId, async () => {
      expectSsoFailure((await roundTrip(shared, person(corpAddress('denied')), { failStatus: denied })).location);
    });
    expect(reasons).toEqual(['idp_status_not_success']);
    const [event] = await rows<{ detail: string }>(
      svc.deps.database.db,
      sql`select data->>'detail' as detail from events where tenant_id = ${shared.tenantId}
          and action = 'sso.sign_in_refused' and data->>'reason' = 'idp_status_not_success'`,
    );
    expect(event?.detail).toBe(`urn:oasis:names:tc:SAML:2.0:status:Responder ${denied}`);
  });

  it('refuses a response with two assertions', async () => {
    const reasons = await refusedBy(shared.tenantId, async () => {
      const tamper = (xml: string) => {
        const assertion = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(xml)![0];
        return xml.replace(assertion, assertion + assertion.replace(/ID="[^"]+"/, `ID="${samlId()}"`));
      };
      expectSsoFailure((await roundTrip(shared, person(corpAddress('double')), { tamper })).location);
    });
    expect(reasons).toEqual(['multiple_assertions']);
  });

  it('accepts an assertion within the 60 s skew, and a signed response around a signed assertion', async () => {
    const late = await roundTrip(shared, person(corpAddress('skew')), {
      notOnOrAfter: new Date(svc.clock.now().getTime() - 30_000),
      signResponse: true,
    });
    expect((await sso.complete(ssoCodeOf(late.location))).status).toBe(200);
  });

  it('refuses a response posted twice (its request is answered)', async () => {
    const { browser, form, location } = await roundTrip(shared, person(corpAddress('twice')));
    ssoCodeOf(location);
    const reasons = await refusedBy(shared.tenantId, async () => {
      expectSsoFailure((await browser.submit(form)).location!);
    });
    expect(reasons).toEqual(['unknown_request']);
  });

  it('refuses an assertion id seen before, even in answer to a new request', async () => {
    const login = person(corpAddress('replay'));
    const assertionId = samlId();
    ssoCodeOf((await roundTrip(shared, login, { assertionId })).location);
    const reasons = await refusedBy(shared.tenantId, async () => {
      expectSsoFailure((await roundTrip(shared, login, { assertionId })).location);
    });
    expect(reasons).toEqual(['assertion_replayed']);
  });

  it('refuses a response to a request it never issued, and an unsolicited one', async () => {
    const reasons = await refusedBy(shared.tenantId, async () => {
      expectSsoFailure((await roundTrip(shared, person(corpAddress('unknown')), { inResponseTo: samlId() })).location);
      expectSsoFailure((await roundTrip(shared, person(corpAddress('unsolicited')), { inResponseTo: null })).location);
    });
    expect(reasons.sort()).toEqual(['unknown_request', 'unsolicited_response']);
  });

  it('refuses a response lured into another browser (no flow cookie, or another one)', async () => {
    const starter = new SamlBrowser(svc.url, idp);
    const start = await starter.post('/api/v1/auth/sso/saml/start', { tenant_slug: shared.slug });
    const form = await starter.signIn(start.body.authorization_url, person(corpAddress('lured')));
    const victim = new SamlBrowser(svc.url, idp);
    const reasons = await refusedBy(shared.tenantId, async () => {
      expectSsoFailure((await victim.submit(form)).location!);
      await victim.post('/api/v1/auth/sso/saml/start', { tenant_slug: shared.slug });
      expectSsoFailure((await victim.submit(form)).location!);
    });
    expect(reasons.sort()).toEqual(['browser_not_bound', 'unknown_request']);
    // The request is still open for the browser that started it.
    expect((await sso.complete(ssoCodeOf((await starter.submit(form)).location!))).status).toBe(200);
  });

  it('refuses a response to a request older than 10 minutes', async () => {
    const browser = new SamlBrowser(svc.url, idp);
    const start = await browser.post('/api/v1/auth/sso/saml/start', { tenant_slug: shared.slug });
    svc.clock.advance(10 * 60_000 + 1_000);
    const form = await browser.signIn(start.body.authorization_url, person(corpAddress('slow')));
    const reasons = await refusedBy(shared.tenantId, async () => {
      expectSsoFailure((await browser.submit(form)).location!);
    });
    expect(reasons).toEqual(['unknown_request']);
  });

  it('refuses another organization’s response at its own ACS (tenant isolation)', async () => {
    const beta = await samlOrganization();
    const browser = new SamlBrowser(svc.url, idp);
    const start = await browser.post('/api/v1/auth/sso/saml/start', { tenant_slug: shared.slug });
    const login = person(corpAddress('crossed'));
    const form = await browser.signIn(start.body.authorization_url, login);
    expect(form.action).toBe(shared.sp.acs_url);
    const crossed = await refusedBy(beta.tenantId, async () => {
      expectSsoFailure((await browser.submit({ ...form, action: beta.sp.acs_url })).location!);
    });
    expect(crossed).toEqual(['unknown_request']);
    // Even in answer to one of beta's own requests, an assertion made for the shared organization is refused.
    const betaStart = await browser.post('/api/v1/auth/sso/saml/start', { tenant_slug: beta.slug });
    const betaRequestId = /ID="([^"]+)"/.exec(
      inflateRawSync(
        Buffer.from(new URL(betaStart.body.authorization_url).searchParams.get('SAMLRequest')!, 'base64'),
      ).toString('utf8'),
    )![1]!;
    const forAlpha = {
      id: betaRequestId,
      acsUrl: shared.sp.acs_url,
      issuer: shared.sp.entity_id,
      destination: idp.ssoUrl,
      xml: '',
      relayState: undefined,
    };
    const misdirected = await refusedBy(beta.tenantId, async () => {
      const samlResponse = idp.responseFor(forAlpha, login, { destination: null });
      expectSsoFailure(
        (await browser.submit({ action: beta.sp.acs_url, fields: { SAMLResponse: samlResponse } })).location!,
      );
    });
    expect(misdirected).toEqual(['audience_mismatch']);
    // The shared organization's request is untouched by all this.
    expect((await sso.complete(ssoCodeOf((await browser.submit(form)).location!))).status).toBe(200);
  });

  it('refuses a response carrying a DTD before parsing it', async () => {
    const browser = new SamlBrowser(svc.url, idp);
    await browser.post('/api/v1/auth/sso/saml/start', { tenant_slug: shared.slug });
    const xml =
      '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]>' +
      '<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol">&x;</samlp:Response>';
    const reasons = await refusedBy(shared.tenantId, async () => {
      const posted = await browser.submit({
        action: shared.sp.acs_url,
        fields: { SAMLResponse: Buffer.from(xml).toString('base64') },
      });
      expectSsoFailure(posted.location!);
    });
    expect(reasons).toEqual(['dtd_refused']);
  });

  it('refuses a RelayState over 80 bytes and a SAMLResponse over the size limit with 422', async () => {
    const post = (fields: Record<string, string>) =>
      fetch(shared.sp.acs_url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
      });
    expect((await post({ SAMLResponse: 'AAAA', RelayState: 'r'.repeat(81) })).status).toBe(422);
    expect((await post({ SAMLResponse: 'A'.repeat(400_000) })).status).toBe(422);
  });
});

describe('certificates', () => {
  it('accepts either certificate during a rotation, and only the new one once the old is removed', async () => {
    const org = await samlOrganization({ idp_certificates: [SAML_IDP_CERTIFICATE, SAML_ROGUE_CERTIFICATE] });
    for (const key of ['idp', 'rogue'] as const) {
      const { location } = await roundTrip(org, person(corpAddress(`rotation-${key}`, org.domain)), { key });
      expect((await sso.complete(ssoCodeOf(location))).status).toBe(200);
    }
    const rotated = await request(api('/tenants/sso/saml'), {
      method: 'PUT',
      token: org.token,
      json: { idp_entity_id: idp.entityId, sso_url: idp.ssoUrl, idp_certificates: [SAML_ROGUE_CERTIFICATE] },
    });
    expect(rotated.status, rotated.text).toBe(200);
    const reasons = await refusedBy(org.tenantId, async () => {
      expectSsoFailure((await roundTrip(org, person(corpAddress('retired', org.domain)), { key: 'idp' })).location);
    });
    expect(reasons).toEqual(['signature_invalid']);
  });
});
