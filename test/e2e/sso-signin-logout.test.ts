import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { exportJWK, generateKeyPair, importJWK, type JWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/kernel/db/index.js';
import { request } from '../support/http.js';
import { addProvisionedMember, signUpOwner, verifyDomainDirectly } from '../support/organizations.js';
import { startService, type TestService } from '../support/service.js';
import { ServiceBrowser } from '../support/social-browser.js';
import { SSO_RETURN_URL } from '../support/sso-return.js';
import { IdpBrowser, startUpstreamIdp, TEST_CA_FILE, type UpstreamIdp } from '../support/upstream-idp.js';

/**
 * Part A 3 and 4.6: an organization's identity provider ends sessions (OpenID Connect Back-Channel Logout 1.0),
 * and requiring SSO ends the sessions members began another way. Against a real `oidc-provider` 8 over TLS.
 */
const BCL_EVENT = 'http://schemas.openid.net/event/backchannel-logout';

let svc: TestService;
let idp: UpstreamIdp;

beforeAll(async () => {
  // Scope claims in the ID token this time (as most enterprise providers send them).
  idp = await startUpstreamIdp({ clients: [], claimsInIdToken: true });
  svc = await startService(
    { EGRESS_TEST_ROUTES: idp.route, EGRESS_TEST_CA_FILE: TEST_CA_FILE, SIGN_IN_RETURN_URL: SSO_RETURN_URL },
    { baseUrlIsListenAddress: true },
  );
});
afterAll(async () => {
  await svc?.close();
  await idp?.close();
});

const api = (path: string) => `${svc.url}/api/v1${path}`;

async function ssoOrganization() {
  const owner = await signUpOwner(svc.url, 'bclorg');
  const domain = await verifyDomainDirectly(svc, owner.tenantId);
  await svc.deps.database.db.execute(sql`update tenants set plan = 'enterprise' where id = ${owner.tenantId}`);
  const client = await idp.registerClient({
    redirect_uris: [`${svc.url}/api/v1/auth/sso/oidc/${owner.tenantId}/callback`],
    backchannel_logout_uri: `${svc.url}/api/v1/auth/sso/oidc/${owner.tenantId}/backchannel-logout`,
    backchannel_logout_session_required: true,
  });
  const put = await request(api('/tenants/sso/oidc'), {
    method: 'PUT',
    token: owner.token,
    json: { issuer: idp.issuer, client_id: client.client_id, client_secret: client.client_secret },
  });
  expect(put.status, put.text).toBe(201);
  return { ...owner, client, domain };
}

/** A member of the organization with a password session, known to the identity provider by `login`. */
async function memberWithLogin(org: { tenantId: string; slug: string; domain: string }, role = 'member') {
  const member = await addProvisionedMember(svc, org, role, org.domain);
  const login = `idp-${randomUUID()}`;
  idp.people.set(login, { email: member.email });
  return { ...member, login };
}

async function ssoSignIn(slug: string, login: string) {
  const browser = new ServiceBrowser(svc.url);
  const start = await browser.post('/api/v1/auth/sso/start', { tenant_slug: slug });
  expect(start.status, start.text).toBe(200);
  const idpBrowser = new IdpBrowser(idp.port);
  const back = await browser.open(await idpBrowser.signIn(start.body.authorization_url, login));
  const code = back.location!.searchParams.get('sso_code');
  expect(code, back.location!.toString()).toBeTruthy();
  const done = await request(api('/auth/sso/complete'), { json: { code } });
  expect(done.status, done.text).toBe(200);
  return { token: done.body.access_token as string, idpBrowser };
}

const meStatus = async (token: string) => (await request(api('/me'), { token })).status;

async function eventually(check: () => Promise<boolean>, what: string) {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** A logout token as the identity provider signs it; `claims` and `header` override (undefined removes). */
async function logoutToken(
  audience: string,
  claims: Record<string, unknown>,
  options: { header?: Record<string, unknown>; key?: JWK } = {},
) {
  const jwk = options.key ?? idp.signingJwk;
  const payload: Record<string, unknown> = {
    iss: idp.issuer,
    aud: audience,
    iat: Math.floor(svc.clock.now().getTime() / 1000),
    jti: randomUUID(),
    events: { [BCL_EVENT]: {} },
    ...claims,
  };
  for (const [name, value] of Object.entries(payload)) if (value === undefined) delete payload[name];
  return new SignJWT(payload)
    .setProtectedHeader({ alg: 'RS256', kid: jwk.kid ?? 'upstream-key-1', typ: 'logout+jwt', ...options.header })
    .sign(await importJWK(jwk, 'RS256'));
}

const postLogout = (tenantId: string, token: string | undefined) =>
  request(api(`/auth/sso/oidc/${tenantId}/backchannel-logout`), {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: token === undefined ? '' : new URLSearchParams({ logout_token: token }).toString(),
  });

describe('back-channel logout', () => {
  it('the provider’s own logout ends the person’s SSO sessions and leaves their other sessions', async () => {
    const org = await ssoOrganization();
    const member = await memberWithLogin(org);
    const { token, idpBrowser } = await ssoSignIn(org.slug, member.login);
    expect(await meStatus(token)).toBe(200);
    await idpBrowser.logOut();
    await eventually(async () => (await meStatus(token)) === 401, 'the SSO session to end');
    expect(await meStatus(member.token)).toBe(200);
    const [event] = await rows<{ data: { user_id: string; sessions: number } }>(
      svc.deps.database.db,
      sql`select data from events where tenant_id = ${org.tenantId} and action = 'sso.backchannel_logout'`,
    );
    expect(event?.data).toMatchObject({ user_id: member.userId, sessions: 1 });
  });

  it('validates the logout token (400 invalid_request) and ends nothing until one is valid', async () => {
    const org = await ssoOrganization();
    const member = await memberWithLogin(org);
    const { token } = await ssoSignIn(org.slug, member.login);
    const aud = org.client.client_id;
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    const strangerKey = { ...(await exportJWK(privateKey)), kid: 'upstream-key-1' };
    const now = Math.floor(svc.clock.now().getTime() / 1000);
    const invalid: Array<[string, string | undefined]> = [
      ['no token', undefined],
      ['not a JWT', 'not.a.jwt'],
      ['another key', await logoutToken(aud, { sub: member.login }, { key: strangerKey })],
      ['another issuer', await logoutToken(aud, { sub: member.login, iss: 'https://other.example.test' })],
      ['another audience', await logoutToken('someone-else', { sub: member.login })],
      ['no events', await logoutToken(aud, { sub: member.login, events: undefined })],
      ['events without the member', await logoutToken(aud, { sub: member.login, events: { other: {} } })],
      ['event not an object', await logoutToken(aud, { sub: member.login, events: { [BCL_EVENT]: 'yes' } })],
      ['a nonce (an ID token)', await logoutToken(aud, { sub: member.login, nonce: 'n' })],
      ['neither sub nor sid', await logoutToken(aud, {})],
      ['no jti', await logoutToken(aud, { sub: member.login, jti: undefined })],
      ['too old', await logoutToken(aud, { sub: member.login, iat: now - 3600 })],
      ['wrong typ', await logoutToken(aud, { sub: member.login }, { header: { typ: 'JWT+id' } })],
    ];
    for (const [why, logout] of invalid) {
      const res = await postLogout(org.tenantId, logout);
      expect(res.status, why).toBe(400);
      expect(res.body.error, why).toBe('invalid_request');
    }
    expect(await meStatus(token)).toBe(200);

    const valid = await postLogout(org.tenantId, await logoutToken(aud, { sub: member.login }));
    expect(valid.status, valid.text).toBe(200);
    expect(await meStatus(token)).toBe(401);
    expect(await meStatus(member.token)).toBe(200);
  });

  it('by `sid` alone ends the sessions of the person who signed in with that provider session', async () => {
    const org = await ssoOrganization();
    const member = await memberWithLogin(org);
    const { token } = await ssoSignIn(org.slug, member.login);
    const [record] = await rows<{ sid: string | null }>(
      svc.deps.database.db,
      sql`select provider_session_id as sid from sso_sign_ins where tenant_id = ${org.tenantId}
          and user_id = ${member.userId}`,
    );
    expect(record?.sid).toBeTruthy();
    const unknown = await postLogout(org.tenantId, await logoutToken(org.client.client_id, { sid: 'unknown-sid' }));
    expect(unknown.status).toBe(200);
    expect(await meStatus(token)).toBe(200);
    const bySid = await postLogout(org.tenantId, await logoutToken(org.client.client_id, { sid: record!.sid }));
    expect(bySid.status).toBe(200);
    expect(await meStatus(token)).toBe(401);
  });

  it('never reaches another organization’s sessions (tenant isolation)', async () => {
    const first = await ssoOrganization();
    const second = await ssoOrganization();
    const member = await memberWithLogin(second);
    const { token } = await ssoSignIn(second.slug, member.login);
    // The first organization's client, naming the person, at its own endpoint: not its person.
    const own = await postLogout(first.tenantId, await logoutToken(first.client.client_id, { sub: member.login }));
    expect(own.status).toBe(200);
    // At the second organization's endpoint, a token for the first organization's client is refused.
    const foreign = await postLogout(second.tenantId, await logoutToken(first.client.client_id, { sub: member.login }));
    expect(foreign.status).toBe(400);
    expect(await meStatus(token)).toBe(200);
  });

  it('is dormant (404) without an enabled OIDC connection', async () => {
    const plain = await signUpOwner(svc.url, 'nobcl');
    const token = await logoutToken('x', { sub: 'y' });
    for (const tenant of [plain.tenantId, '00000000-0000-7000-8000-000000000000', 'not-a-uuid']) {
      const res = await postLogout(tenant, token);
      expect(res.status, tenant).toBe(404);
    }
  });
});

describe('requiring SSO', () => {
  it('ends the sessions members who are not owners began another way; SSO sessions and owners keep theirs', async () => {
    const org = await ssoOrganization();
    const member = await memberWithLogin(org);
    const admin = await memberWithLogin(org, 'admin');
    const { token: ssoToken } = await ssoSignIn(org.slug, member.login);
    const tested = await request(api('/tenants/sso/oidc/test'), { method: 'POST', token: org.token });
    expect(tested.body.ok, tested.text).toBe(true);
    const required = await request(api('/tenants/sso/enforcement'), {
      method: 'PUT',
      token: org.token,
      json: { required: true },
    });
    expect(required.status, required.text).toBe(200);

    expect(await meStatus(member.token)).toBe(401);
    expect(await meStatus(admin.token)).toBe(401);
    expect(await meStatus(ssoToken)).toBe(200);
    expect(await meStatus(org.token)).toBe(200);
    const [event] = await rows<{ data: { required: boolean; sessions_ended: number } }>(
      svc.deps.database.db,
      sql`select data from events where tenant_id = ${org.tenantId} and action = 'sso.enforcement_changed'`,
    );
    expect(event?.data).toEqual({ required: true, sessions_ended: 2 });

    // From now on members sign in through SSO only; the owner still may with a password (break-glass).
    const password = await request(api('/auth/login'), {
      json: { email: member.email, password: member.password, tenant_slug: org.slug },
    });
    expect(password.status).toBe(403);
    const again = await ssoSignIn(org.slug, member.login);
    expect(await meStatus(again.token)).toBe(200);
    const owner = await request(api('/auth/login'), {
      json: { email: org.email, password: org.password, tenant_slug: org.slug },
    });
    expect(owner.status).toBe(200);
  });
});
