import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/kernel/db/index.js';
import { request, uniqueEmail } from '../support/http.js';
import { signUpOwner, verifyDomainDirectly } from '../support/organizations.js';
import { SAML_IDP_CERTIFICATE, SamlBrowser, type SamlIdp, samlId, startSamlIdp } from '../support/saml-idp.js';
import { startService, type TestService } from '../support/service.js';
import { SSO_RETURN_URL } from '../support/sso-return.js';

/**
 * Part A 3 and 4.6: SAML single logout initiated by the organization's identity provider (a signed LogoutRequest
 * over the HTTP-Redirect binding) ends the person's SSO sessions at once and is answered with a LogoutResponse.
 */

let svc: TestService;
let idp: SamlIdp;
let shared: Awaited<ReturnType<typeof samlOrganization>>;

beforeAll(async () => {
  svc = await startService({ SIGN_IN_RETURN_URL: SSO_RETURN_URL }, { baseUrlIsListenAddress: true });
  idp = await startSamlIdp({ clock: () => svc.clock.now() });
  shared = await samlOrganization();
});
afterAll(async () => {
  await svc?.close();
  await idp?.close();
});

const api = (path: string) => `${svc.url}/api/v1${path}`;

async function samlOrganization(overrides: Record<string, unknown> = {}) {
  const owner = await signUpOwner(svc.url, 'samlslo');
  const domain = await verifyDomainDirectly(svc, owner.tenantId);
  await svc.deps.database.db.execute(sql`update tenants set plan = 'enterprise' where id = ${owner.tenantId}`);
  const put = await request(api('/tenants/sso/saml'), {
    method: 'PUT',
    token: owner.token,
    json: {
      idp_entity_id: idp.entityId,
      sso_url: idp.ssoUrl,
      slo_url: idp.sloUrl,
      idp_certificates: [SAML_IDP_CERTIFICATE],
      ...overrides,
    },
  });
  expect(put.status, put.text).toBe(201);
  const sp = await request(api('/tenants/sso/saml/sp'), { token: owner.token });
  return { ...owner, domain, sp: sp.body as { entity_id: string; acs_url: string; slo_url: string } };
}

/** A person signed in through SAML: their tokens, and the NameID and SessionIndex the IdP gave them. */
async function signedIn(org: { slug: string; domain: string }) {
  const email = uniqueEmail('slo', org.domain);
  const login = `login-${samlId()}`;
  idp.people.set(login, { nameId: email, attributes: { email } });
  const browser = new SamlBrowser(svc.url, idp);
  const start = await browser.post('/api/v1/auth/sso/saml/start', { tenant_slug: org.slug });
  expect(start.status, start.text).toBe(200);
  const posted = await browser.submit(await browser.signIn(start.body.authorization_url, login));
  const code = posted.location?.searchParams.get('sso_code');
  expect(code, posted.location?.toString()).toBeTruthy();
  const tokens = await request(api('/auth/sso/complete'), { json: { code } });
  expect(tokens.status, tokens.text).toBe(200);
  return { email, nameId: email, sessionIndex: idp.sessionIndexOf(login)!, tokens: tokens.body, browser };
}

const me = (token: string) => request(api('/me'), { token });
const SHA256 = `SigAlg=${encodeURIComponent('http://www.w3.org/2001/04/xmldsig-more#rsa-sha256')}`;

/** The LogoutResponse a redirect to the IdP carries, decoded. */
function logoutResponseOf(location: string) {
  const url = new URL(location);
  const xml = inflateRawSync(Buffer.from(url.searchParams.get('SAMLResponse')!, 'base64')).toString('utf8');
  return { url, xml };
}

describe('single logout', () => {
  it('ends the person’s SSO sessions, keeps their other sessions, and answers a LogoutResponse', async () => {
    const person = await signedIn(shared);
    const second = await signedIn(shared);
    // A session of the same person begun another way: not the identity provider's to end.
    const userId = (await me(person.tokens.access_token)).body.user_id;
    const [account] = await rows<{ token_epoch: number }>(
      svc.deps.database.db,
      sql`select token_epoch from users where id = ${userId}`,
    );
    const other = await svc.deps.transactions.tenant(shared.tenantId, (tx) =>
      svc.deps.sessions.start(tx, {
        tenantId: shared.tenantId,
        userId,
        population: 'workforce',
        epoch: account!.token_epoch,
        amr: ['pwd'],
      }),
    );
    expect((await me(other.tokens.access_token)).status).toBe(200);

    const requestId = samlId();
    const url = idp.logoutRequestUrl(shared.sp.slo_url, {
      nameId: person.nameId,
      sessionIndex: person.sessionIndex,
      relayState: 'back-to-idp',
      id: requestId,
    });
    const answer = await person.browser.open(url);
    expect(answer.status, JSON.stringify(answer.body)).toBe(302);
    const { url: target, xml } = logoutResponseOf(answer.location!);
    expect(`${target.origin}${target.pathname}`).toBe(idp.sloUrl);
    expect(target.searchParams.get('RelayState')).toBe('back-to-idp');
    expect(xml).toContain(`InResponseTo="${requestId}"`);
    expect(xml).toContain('urn:oasis:names:tc:SAML:2.0:status:Success');
    expect(xml).toContain(`>${shared.sp.entity_id}</saml:Issuer>`);
    // The browser carries the response to the IdP, which reads it.
    const delivered = await person.browser.idpGet(answer.location!);
    expect(delivered.status).toBe(200);
    expect(idp.logoutResponses.at(-1)).toContain(`InResponseTo="${requestId}"`);

    expect((await me(person.tokens.access_token)).status).toBe(401);
    const refresh = await request(api('/auth/refresh'), { json: { refresh_token: person.tokens.refresh_token } });
    expect(refresh.status).toBe(401);
    expect((await me(other.tokens.access_token)).status).toBe(200);
    expect((await me(second.tokens.access_token)).status).toBe(200);
    const [event] = await rows<{ data: Record<string, unknown> }>(
      svc.deps.database.db,
      sql`select data from events where tenant_id = ${shared.tenantId} and action = 'sso.single_logout'
          and subject_user_id = ${userId}`,
    );
    expect(event?.data).toEqual({ user_id: userId, protocol: 'saml', sessions: 1 });
  });

  it('ends nothing when the named SessionIndex is not one the person signed in with, and still answers Success', async () => {
    const person = await signedIn(shared);
    const answer = await person.browser.open(
      idp.logoutRequestUrl(shared.sp.slo_url, { nameId: person.nameId, sessionIndex: samlId() }),
    );
    expect(answer.status).toBe(302);
    expect(logoutResponseOf(answer.location!).xml).toContain('urn:oasis:names:tc:SAML:2.0:status:Success');
    expect((await me(person.tokens.access_token)).status).toBe(200);
    // Without a SessionIndex, every SSO session of the person ends.
    expect((await person.browser.open(idp.logoutRequestUrl(shared.sp.slo_url, { nameId: person.nameId }))).status).toBe(
      302,
    );
    expect((await me(person.tokens.access_token)).status).toBe(401);
  });

  it('ends nothing in another organization: a NameID is known only where it signed in (tenant isolation)', async () => {
    const person = await signedIn(shared);
    const other = await samlOrganization();
    const answer = await person.browser.open(
      idp.logoutRequestUrl(other.sp.slo_url, { nameId: person.nameId, sessionIndex: person.sessionIndex }),
    );
    expect(answer.status).toBe(302);
    expect((await me(person.tokens.access_token)).status).toBe(200);
    // Sent to the person's organization but naming another's endpoint, it is refused.
    const misdirected = await person.browser.open(
      idp.logoutRequestUrl(other.sp.slo_url, { nameId: person.nameId }).replace(other.sp.slo_url, shared.sp.slo_url),
    );
    expect(misdirected.status).toBe(400);
    expect(misdirected.body.detail).toMatch(/Destination/);
    expect((await me(person.tokens.access_token)).status).toBe(200);
  });

  it('refuses unsigned, forged, weak, foreign, stale and replayed logout requests with 400, ending nothing', async () => {
    const person = await signedIn(shared);
    const named = { nameId: person.nameId, sessionIndex: person.sessionIndex };
    const cases: Array<[string, string, RegExp]> = [
      ['unsigned', idp.logoutRequestUrl(shared.sp.slo_url, { ...named, signed: false }), /must be signed/],
      ['another key', idp.logoutRequestUrl(shared.sp.slo_url, { ...named, key: 'rogue' }), /signature does not verify/],
      [
        'SHA-1',
        idp.logoutRequestUrl(shared.sp.slo_url, { ...named, sigAlg: 'http://www.w3.org/2000/09/xmldsig#rsa-sha1' }),
        /SHA-256/,
      ],
      [
        'another issuer',
        idp.logoutRequestUrl(shared.sp.slo_url, { ...named, issuer: 'https://impostor.example.com/saml' }),
        /not issued by the configured identity provider/,
      ],
      [
        'stale',
        idp.logoutRequestUrl(shared.sp.slo_url, {
          ...named,
          issueInstant: new Date(svc.clock.now().getTime() - 7 * 60_000),
        }),
        /expired/,
      ],
      ['a response', `${shared.sp.slo_url}?SAMLResponse=AAAA`, /SAMLRequest is required/],
      ['not deflated', `${shared.sp.slo_url}?SAMLRequest=bm90IGRlZmxhdGVk&${SHA256}&Signature=y`, /DEFLATE/],
      [
        'a DTD',
        `${shared.sp.slo_url}?SAMLRequest=${encodeURIComponent(
          deflateRawSync(
            '<!DOCTYPE x [<!ENTITY e "e">]><samlp:LogoutRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol"/>',
          ).toString('base64'),
        )}&${SHA256}&Signature=y`,
        /DTDs\) are not allowed/,
      ],
    ];
    for (const [name, url, detail] of cases) {
      const res = await person.browser.open(url);
      expect(res.status, name).toBe(400);
      expect(res.body.detail, name).toMatch(detail);
    }
    expect((await me(person.tokens.access_token)).status).toBe(200);

    const once = idp.logoutRequestUrl(shared.sp.slo_url, named);
    expect((await person.browser.open(once)).status).toBe(302);
    const replayed = await person.browser.open(once);
    expect(replayed.status).toBe(400);
    expect(replayed.body.detail).toMatch(/replayed/);
  });

  it('is dormant (404) without an slo_url, with the connection disabled, and without a connection', async () => {
    const noSlo = await samlOrganization({ slo_url: null });
    const disabled = await samlOrganization({ enabled: false });
    const plain = await signUpOwner(svc.url, 'nosamlslo');
    for (const [tenantId, detail] of [
      [noSlo.tenantId, /single logout is not configured/],
      [disabled.tenantId, /SAML is not configured/],
      [plain.tenantId, /SAML is not configured/],
      ['not-a-uuid', /SAML is not configured/],
    ] as const) {
      const url = idp.logoutRequestUrl(`${svc.url}/api/v1/auth/sso/saml/${tenantId}/slo`, { nameId: 'x@example.com' });
      const res = await request(url);
      expect(res.status).toBe(404);
      expect(res.body.detail).toMatch(detail);
    }
  });
});
