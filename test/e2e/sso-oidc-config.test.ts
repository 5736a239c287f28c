import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import { type AddressInfo, createServer as createTcpServer } from 'node:net';
import { sql } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/kernel/db/index.js';
import { request } from '../support/http.js';
import { addMember, signUpOwner } from '../support/organizations.js';
import { startService, type TestService } from '../support/service.js';
import { RECEIVER_HOST, TEST_CA_FILE } from '../support/webhook-receiver.js';

/**
 * Part A 4.6: the organization's OIDC identity provider (configuration and connection test) and SSO enforcement,
 * against a real `oidc-provider` 8 served over TLS as `https://secure.example.test` (the test certificate's name),
 * reached through the kernel's egress with a test route.
 */
const testdata = new URL('../../src/kernel/net/testdata/', import.meta.url);
const ISSUER = `https://${RECEIVER_HOST}`;
const CLIENT_ID = 'svc-sso-client';
const CLIENT_SECRET = 'Upstream-Secret-7f3c9a1e5b2d4c6f8a0b';
const CLOSED_HOST = 'closed.example.test';

/** The part of oidc-provider 8 used here (the package ships no type declarations). */
type OidcProvider = new (
  issuer: string,
  configuration: { clients: Array<Record<string, unknown>> },
) => { callback(): (request: IncomingMessage, response: ServerResponse) => void };
const OIDC_PROVIDER = 'oidc-provider';

let svc: TestService;
let idp: Server;
const logLines: string[] = [];

/** A loopback port nothing listens on: taken from the OS, then released. */
async function closedPort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

beforeAll(async () => {
  const { default: Provider } = (await import(OIDC_PROVIDER)) as { default: OidcProvider };
  const provider = new Provider(ISSUER, {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        redirect_uris: ['https://app.example.test/callback'],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
  });
  idp = createServer(
    {
      key: readFileSync(new URL('server-key.pem', testdata)),
      cert: readFileSync(new URL('server-cert.pem', testdata)),
    },
    provider.callback(),
  );
  await new Promise<void>((resolve) => idp.listen(0, '127.0.0.1', resolve));
  const { port } = idp.address() as AddressInfo;
  svc = await startService({
    EGRESS_TEST_ROUTES: `${RECEIVER_HOST}=127.0.0.1:${port},${CLOSED_HOST}=127.0.0.1:${await closedPort()}`,
    EGRESS_TEST_CA_FILE: TEST_CA_FILE,
    TRUST_PROXY: '1',
    LOG_LEVEL: 'trace',
  });
  // Every log line of the service is kept here (and not printed): the secret must never be among them.
  const stream = (svc.deps.logger as unknown as Record<symbol, { write(line: string): boolean }>)[
    pino.symbols.streamSym
  ];
  if (!stream) throw new Error('no logger stream');
  stream.write = (line: string) => {
    logLines.push(line);
    return true;
  };
});
afterAll(async () => {
  await svc?.close();
  await new Promise((resolve) => idp?.close(resolve));
});

const api = (path: string) => `${svc.url}/api/v1${path}`;
const config = (overrides: Record<string, unknown> = {}) => ({
  issuer: ISSUER,
  client_id: CLIENT_ID,
  client_secret: CLIENT_SECRET,
  ...overrides,
});

/** A new organization on the Enterprise plan, set directly as the operator plane would. */
async function enterpriseOrg(label = 'ssoowner') {
  const owner = await signUpOwner(svc.url, label);
  await svc.deps.database.db.execute(sql`update tenants set plan = 'enterprise' where id = ${owner.tenantId}`);
  return owner;
}

async function configured(label?: string, overrides: Record<string, unknown> = {}) {
  const owner = await enterpriseOrg(label);
  const res = await request(api('/tenants/sso/oidc'), { method: 'PUT', token: owner.token, json: config(overrides) });
  expect(res.status, res.text).toBe(201);
  return owner;
}

const runTest = (token: string) => request(api('/tenants/sso/oidc/test'), { method: 'POST', token });
/** Enforcement needs a passed connection test of the current configuration. */
async function proven(token: string) {
  const res = await runTest(token);
  expect(res.body.ok, res.text).toBe(true);
}
const checkOf = (body: { checks: Array<{ name: string; ok: boolean; detail: string }> }, name: string) =>
  body.checks.find((check) => check.name === name);

const login = (who: { email: string; password: string }, slug: string, password = who.password) =>
  request(api('/auth/login'), { json: { email: who.email, password, tenant_slug: slug } });

describe('dormant until configured', () => {
  it('answers 404 on every SSO surface while no identity provider is configured', async () => {
    const owner = await enterpriseOrg();
    const answers = await Promise.all([
      request(api('/tenants/sso/oidc'), { token: owner.token }),
      request(api('/tenants/sso/oidc'), { method: 'DELETE', token: owner.token }),
      runTest(owner.token),
      request(api('/tenants/sso/enforcement'), { token: owner.token }),
      request(api('/tenants/sso/enforcement'), { method: 'PUT', token: owner.token, json: { required: true } }),
    ]);
    for (const res of answers) {
      expect(res.status, res.text).toBe(404);
      expect(res.body.detail).toMatch(/SSO is not configured/);
    }
    const [tenant] = await rows<{ sso_required: boolean }>(
      svc.deps.database.db,
      sql`select sso_required from tenants where id = ${owner.tenantId}`,
    );
    expect(tenant?.sso_required).toBe(false);
  });
});

describe('configuration', () => {
  it('needs a plan with Enterprise SSO: 403 naming the plan', async () => {
    const owner = await signUpOwner(svc.url, 'freeowner');
    const res = await request(api('/tenants/sso/oidc'), { method: 'PUT', token: owner.token, json: config() });
    expect(res.status).toBe(403);
    expect(res.body.detail).toMatch(/not included in the Free plan \(Enterprise\)/);
    expect((await request(api('/tenants/sso/oidc'), { token: owner.token })).status).toBe(404);
  });

  it('refuses an unusable configuration with 422 naming the field', async () => {
    const owner = await enterpriseOrg();
    const put = (body: Record<string, unknown>) =>
      request(api('/tenants/sso/oidc'), { method: 'PUT', token: owner.token, json: body });
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [config({ issuer: 'http://secure.example.test' }), /^issuer: must use https/],
      [config({ issuer: 'https://10.0.0.1' }), /^issuer: host must be a name, not an IP address/],
      [config({ issuer: 'https://192.168.1.20/realms/x' }), /^issuer: host must be a name/],
      [config({ issuer: 'https://localhost' }), /^issuer: host must be a fully-qualified public host name/],
      [config({ issuer: 'https://secure.example.test:8443' }), /^issuer: port must be 443/],
      [config({ issuer: 'https://secure.example.test/?tenant=1' }), /^issuer: must not carry a query/],
      [{ issuer: ISSUER, client_id: CLIENT_ID }, /^client_secret: required when the connection is first configured/],
      [config({ scopes: ['email', 'profile'] }), /^scopes: must include openid/],
      [config({ allowed_domains: ['not a domain'] }), /^allowed_domains: "not a domain" is not a domain name/],
    ];
    for (const [body, detail] of cases) {
      const res = await put(body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.detail).toMatch(detail);
    }
    const unknownField = await put({ ...config(), client_secret_sealed: 'x' });
    expect(unknownField.status).toBe(422);
    expect((await request(api('/tenants/sso/oidc'), { token: owner.token })).status).toBe(404);
  });

  it('creates (201), replaces (200), keeps an omitted secret, and never answers, logs or records the secret', async () => {
    const owner = await enterpriseOrg();
    const created = await request(api('/tenants/sso/oidc'), {
      method: 'PUT',
      token: owner.token,
      json: config({ allowed_domains: ['Example.COM', 'example.com', 'corp.example.org.'] }),
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toEqual({
      issuer: ISSUER,
      client_id: CLIENT_ID,
      client_secret_set: true,
      display_name: null,
      default_role: null,
      scopes: ['openid', 'email', 'profile'],
      allowed_domains: ['corp.example.org', 'example.com'],
      enabled: true,
      last_test: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });

    svc.clock.advance(1000);
    const replaced = await request(api('/tenants/sso/oidc'), {
      method: 'PUT',
      token: owner.token,
      json: { issuer: ISSUER, client_id: CLIENT_ID, scopes: ['openid', 'email'] },
    });
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.body).toMatchObject({ scopes: ['openid', 'email'], allowed_domains: [], enabled: true });
    expect(replaced.body.created_at).toBe(created.body.created_at);
    expect(replaced.body.updated_at).not.toBe(created.body.updated_at);

    // The kept secret still authenticates at the identity provider.
    const tested = await runTest(owner.token);
    expect(tested.body.ok, tested.text).toBe(true);

    const got = await request(api('/tenants/sso/oidc'), { token: owner.token });
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ client_secret_set: true, last_test: { ok: true, tested_at: expect.any(String) } });
    for (const res of [created, replaced, tested, got]) expect(res.text).not.toContain(CLIENT_SECRET);

    // Stored sealed (AES-256-GCM, `v1.` format), not the plaintext.
    const [stored] = await rows<{ client_secret_sealed: string }>(
      svc.deps.database.db,
      sql`select client_secret_sealed from sso_oidc_connections where tenant_id = ${owner.tenantId}`,
    );
    expect(stored?.client_secret_sealed).toMatch(/^v1\./);
    expect(stored?.client_secret_sealed).not.toContain(CLIENT_SECRET);

    const events = await rows<{ action: string; data: unknown }>(
      svc.deps.database.db,
      sql`select action, data from events where tenant_id = ${owner.tenantId} and action like 'sso.%' order by occurred_at`,
    );
    expect(events.map((event) => event.action)).toEqual([
      'sso.oidc_configured',
      'sso.oidc_configured',
      'sso.oidc_tested',
    ]);
    expect(events[0]?.data).toMatchObject({ created: true, client_secret_changed: true, issuer: ISSUER });
    expect(events[1]?.data).toMatchObject({ created: false, client_secret_changed: false });
    const audit = await rows<{ data: unknown }>(
      svc.deps.database.db,
      sql`select data from audit_log where tenant_id = ${owner.tenantId} and action like 'sso.%'`,
    );
    expect(audit).toHaveLength(3);
    const recorded = JSON.stringify([events, audit]);
    expect(recorded).not.toContain(CLIENT_SECRET);
    expect(recorded).not.toContain(stored?.client_secret_sealed);
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.join('\n')).not.toContain(CLIENT_SECRET);
  });
});

describe('the kept secret stays with its provider', () => {
  it('refuses a new issuer or client id without the secret (422), so the stored one cannot be sent elsewhere', async () => {
    const owner = await configured('keeper');
    const put = (body: Record<string, unknown>) =>
      request(api('/tenants/sso/oidc'), { method: 'PUT', token: owner.token, json: body });
    // Another issuer: its discovery names the token endpoint the next test would send the kept secret to.
    const elsewhere = await put({ issuer: `https://${CLOSED_HOST}`, client_id: CLIENT_ID });
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.body.detail).toBe('client_secret: required when the issuer or client_id changes');
    // The exact issuer counts: a trailing slash is another issuer (OIDC Discovery 4.3).
    expect((await put({ issuer: `${ISSUER}/`, client_id: CLIENT_ID })).status).toBe(422);
    const otherClient = await put({ issuer: ISSUER, client_id: 'another-client' });
    expect(otherClient.status).toBe(422);
    expect(otherClient.body.detail).toMatch(/^client_secret: /);

    const kept = await request(api('/tenants/sso/oidc'), { token: owner.token });
    expect(kept.body).toMatchObject({ issuer: ISSUER, client_id: CLIENT_ID });
    const events = await rows<{ action: string }>(
      svc.deps.database.db,
      sql`select action from events where tenant_id = ${owner.tenantId} and action = 'sso.oidc_configured'`,
    );
    expect(events).toHaveLength(1);

    // With the secret for the new issuer, the change is accepted; the same issuer and client keep theirs.
    expect(
      (await put({ issuer: `https://${CLOSED_HOST}`, client_id: CLIENT_ID, client_secret: 'theirs' })).status,
    ).toBe(200);
    expect((await put({ issuer: `https://${CLOSED_HOST}`, client_id: CLIENT_ID })).status).toBe(200);
  });
});

describe('connection test', () => {
  it('is limited to 10 calls a minute per organization (429 with Retry-After), not across organizations', async () => {
    // A closed port: each call fails fast at discovery, yet would be an outbound connection.
    const owner = await configured('limited', { issuer: `https://${CLOSED_HOST}` });
    for (let call = 1; call <= 10; call += 1) {
      const res = await runTest(owner.token);
      expect(res.status, `call ${call}: ${res.text}`).toBe(200);
    }
    const refused = await runTest(owner.token);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get('ratelimit-limit')).toBe('10');
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    const tested = await rows<{ n: number }>(
      svc.deps.database.db,
      sql`select count(*)::int as n from events where tenant_id = ${owner.tenantId} and action = 'sso.oidc_tested'`,
    );
    expect(tested[0]?.n).toBe(10);

    const other = await configured('unlimited', { issuer: `https://${CLOSED_HOST}` });
    expect((await runTest(other.token)).status).toBe(200);
  });

  it('proves discovery, the key set and the credentials against the real identity provider', async () => {
    const owner = await configured();
    const res = await runTest(owner.token);
    expect(res.status).toBe(200);
    expect(res.body.ok, res.text).toBe(true);
    expect(res.body.checks.map((check: { name: string; ok: boolean }) => [check.name, check.ok])).toEqual([
      ['discovery', true],
      ['jwks', true],
      ['credentials', true],
    ]);
    expect(checkOf(res.body, 'credentials')?.detail).toMatch(/client_secret_basic.*invalid_grant/);
  });

  it('reports rejected credentials (invalid_client) as a failed check, not an error', async () => {
    const owner = await configured(undefined, { client_secret: 'not-the-secret' });
    const res = await runTest(owner.token);
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(false);
    expect(checkOf(res.body, 'discovery')?.ok).toBe(true);
    expect(checkOf(res.body, 'jwks')?.ok).toBe(true);
    expect(checkOf(res.body, 'credentials')).toEqual({
      name: 'credentials',
      ok: false,
      detail: expect.stringMatching(/rejected the client id or secret \(HTTP 401, invalid_client/),
    });
    const got = await request(api('/tenants/sso/oidc'), { token: owner.token });
    expect(got.body.last_test).toMatchObject({ ok: false });
  });

  it('reports an unreachable issuer in the discovery check, and does not run the others', async () => {
    const owner = await configured(undefined, { issuer: `https://${CLOSED_HOST}` });
    const res = await runTest(owner.token);
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(false);
    expect(checkOf(res.body, 'discovery')?.ok).toBe(false);
    expect(checkOf(res.body, 'discovery')?.detail).toBe(
      `discovery document https://${CLOSED_HOST}/.well-known/openid-configuration could not be fetched: ` +
        'connection (ECONNREFUSED)',
    );
    expect(checkOf(res.body, 'jwks')).toEqual({ name: 'jwks', ok: false, detail: 'not run: discovery failed' });
    expect(checkOf(res.body, 'credentials')?.ok).toBe(false);
  });

  it('fails discovery when the provider names another issuer (exact match, OIDC Discovery 4.3)', async () => {
    // A trailing slash is a classic mistake: the document is found, but names `https://secure.example.test`.
    const owner = await configured(undefined, { issuer: `${ISSUER}/` });
    const res = await runTest(owner.token);
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(false);
    expect(checkOf(res.body, 'discovery')?.detail).toBe(
      `the discovery document names issuer "${ISSUER}", not the configured "${ISSUER}/" ` +
        '(OpenID Connect Discovery 4.3 requires them to be identical)',
    );
  });

  it('needs the plan: 403 after a downgrade', async () => {
    const owner = await configured();
    await svc.deps.database.db.execute(sql`update tenants set plan = 'pro' where id = ${owner.tenantId}`);
    const res = await runTest(owner.token);
    expect(res.status).toBe(403);
    expect(res.body.detail).toMatch(/Pro plan/);
    // The configuration can still be read and removed.
    expect((await request(api('/tenants/sso/oidc'), { token: owner.token })).status).toBe(200);
    expect((await request(api('/tenants/sso/oidc'), { method: 'DELETE', token: owner.token })).status).toBe(204);
  });
});

describe('enforcement', () => {
  it('once required, password login is 403 for a member, 200 for the owner, and a wrong password stays 401', async () => {
    const owner = await configured('enforcer');
    const member = await addMember(svc, owner, 'member');
    const enforcement = api('/tenants/sso/enforcement');
    expect((await request(enforcement, { token: owner.token })).body).toEqual({ required: false });
    await proven(owner.token);

    const required = await request(enforcement, { method: 'PUT', token: owner.token, json: { required: true } });
    expect(required.status, required.text).toBe(200);
    expect(required.body).toEqual({ required: true });
    expect((await request(enforcement, { token: owner.token })).body).toEqual({ required: true });

    const refused = await login(member, owner.slug);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toBe('This organization requires single sign-on');
    expect((await login(owner, owner.slug)).status).toBe(200);
    const wrong = await login(member, owner.slug, 'Wrong-password-123!');
    expect(wrong.status).toBe(401);
    expect(wrong.text).not.toMatch(/single sign-on/);

    // Idempotent: requiring again changes nothing and records nothing new.
    await request(enforcement, { method: 'PUT', token: owner.token, json: { required: true } });
    const changes = await rows<{ data: { required: boolean } }>(
      svc.deps.database.db,
      sql`select data from events where tenant_id = ${owner.tenantId} and action = 'sso.enforcement_changed'`,
    );
    expect(changes.map((change) => change.data.required)).toEqual([true]);

    const released = await request(enforcement, { method: 'PUT', token: owner.token, json: { required: false } });
    expect(released.body).toEqual({ required: false });
    expect((await login(member, owner.slug)).status).toBe(200);
  });

  it('removing the connection turns enforcement off: members sign in again, and SSO is dormant', async () => {
    const owner = await configured('remover');
    const member = await addMember(svc, owner, 'member');
    await proven(owner.token);
    await request(api('/tenants/sso/enforcement'), { method: 'PUT', token: owner.token, json: { required: true } });
    expect((await login(member, owner.slug)).status).toBe(403);

    const removed = await request(api('/tenants/sso/oidc'), { method: 'DELETE', token: owner.token });
    expect(removed.status).toBe(204);
    expect((await login(member, owner.slug)).status).toBe(200);
    expect((await request(api('/tenants/sso/oidc'), { token: owner.token })).status).toBe(404);
    expect((await request(api('/tenants/sso/enforcement'), { token: owner.token })).status).toBe(404);
    expect((await request(api('/tenants/sso/oidc'), { method: 'DELETE', token: owner.token })).status).toBe(404);
    const events = await rows<{ action: string; data: Record<string, unknown> }>(
      svc.deps.database.db,
      sql`select action, data from events where tenant_id = ${owner.tenantId}
          and action in ('sso.enforcement_changed', 'sso.oidc_removed') order by occurred_at, action`,
    );
    expect(events).toEqual([
      // The member's password session ended with the switch (sso-signin-logout.test.ts tests it in full).
      { action: 'sso.enforcement_changed', data: { required: true, sessions_ended: 1 } },
      { action: 'sso.enforcement_changed', data: { required: false, reason: 'connection_removed' } },
      { action: 'sso.oidc_removed', data: expect.objectContaining({ enforcement_turned_off: true }) },
    ]);
  });

  it('disabling the connection turns enforcement off, and a disabled connection cannot be required (409)', async () => {
    const owner = await configured('disabler');
    const member = await addMember(svc, owner, 'member');
    const enforcement = api('/tenants/sso/enforcement');
    await proven(owner.token);
    const required = await request(enforcement, { method: 'PUT', token: owner.token, json: { required: true } });
    expect(required.status, required.text).toBe(200);
    const disabled = await request(api('/tenants/sso/oidc'), {
      method: 'PUT',
      token: owner.token,
      json: { issuer: ISSUER, client_id: CLIENT_ID, enabled: false },
    });
    expect(disabled.status).toBe(200);
    expect(disabled.body.enabled).toBe(false);
    expect((await request(enforcement, { token: owner.token })).body).toEqual({ required: false });
    expect((await login(member, owner.slug)).status).toBe(200);
    // The passed test still stands (only `enabled` changed), yet a disabled connection cannot be required.
    expect(disabled.body.last_test).toMatchObject({ ok: true });
    const refused = await request(enforcement, { method: 'PUT', token: owner.token, json: { required: true } });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatch(/disabled/);
  });

  it('requiring needs a passed connection test of the current configuration (409 untested or failed)', async () => {
    const owner = await configured('prover', { client_secret: 'not-the-secret' });
    const member = await addMember(svc, owner, 'member');
    const enforcement = api('/tenants/sso/enforcement');
    const require = () => request(enforcement, { method: 'PUT', token: owner.token, json: { required: true } });

    const untested = await require();
    expect(untested.status).toBe(409);
    expect(untested.body.detail).toMatch(/has not been tested since it last changed/);

    expect((await runTest(owner.token)).body.ok).toBe(false);
    const failed = await require();
    expect(failed.status).toBe(409);
    expect(failed.body.detail).toMatch(/last connection test of the OIDC connection failed/);
    expect((await request(enforcement, { token: owner.token })).body).toEqual({ required: false });
    expect((await login(member, owner.slug)).status).toBe(200);

    // The right secret, tested: now it may be required.
    const fixed = await request(api('/tenants/sso/oidc'), { method: 'PUT', token: owner.token, json: config() });
    expect(fixed.body.last_test).toBeNull();
    await proven(owner.token);
    expect((await require()).status).toBe(200);
    expect((await login(member, owner.slug)).status).toBe(403);
  });

  it('changing issuer, client id or secret resets the test and turns enforcement off; other fields keep both', async () => {
    const owner = await configured('changer');
    const member = await addMember(svc, owner, 'member');
    const enforcement = api('/tenants/sso/enforcement');
    const put = (body: Record<string, unknown>) =>
      request(api('/tenants/sso/oidc'), { method: 'PUT', token: owner.token, json: body });
    const require = async () => {
      await proven(owner.token);
      const res = await request(enforcement, { method: 'PUT', token: owner.token, json: { required: true } });
      expect(res.status, res.text).toBe(200);
    };
    const required = async () => (await request(enforcement, { token: owner.token })).body.required;

    await require();
    // Scopes and domains are not what the test proves: the test stands and SSO stays required.
    const narrowed = await put({ issuer: ISSUER, client_id: CLIENT_ID, allowed_domains: ['example.com'] });
    expect(narrowed.status).toBe(200);
    expect(narrowed.body.last_test).toMatchObject({ ok: true });
    expect(await required()).toBe(true);
    // The same secret sent again is no change either.
    expect((await put(config())).body.last_test).toMatchObject({ ok: true });
    expect(await required()).toBe(true);

    // A rotated secret is unproven.
    const rotated = await put(config({ client_secret: 'Rotated-Secret-0000' }));
    expect(rotated.status).toBe(200);
    expect(rotated.body.last_test).toBeNull();
    expect(await required()).toBe(false);
    expect((await login(member, owner.slug)).status).toBe(200);

    await put(config());
    await require();
    // A new issuer (with its secret) is unproven too.
    const moved = await put(config({ issuer: `https://${CLOSED_HOST}` }));
    expect(moved.status).toBe(200);
    expect(moved.body.last_test).toBeNull();
    expect(await required()).toBe(false);

    const events = await rows<{ action: string; data: Record<string, unknown> }>(
      svc.deps.database.db,
      // The audit log's sequence keeps the order of events recorded in one transaction at one instant.
      sql`select action, data from audit_log where tenant_id = ${owner.tenantId}
          and action in ('sso.enforcement_changed', 'sso.oidc_configured') order by seq`,
    );
    const offs = events.filter((event) => event.action === 'sso.enforcement_changed' && !event.data.required);
    expect(offs.map((event) => event.data)).toEqual([
      { required: false, reason: 'connection_changed' },
      { required: false, reason: 'connection_changed' },
    ]);
    const configuredEvents = events.filter((event) => event.action === 'sso.oidc_configured').map((e) => e.data);
    expect(configuredEvents.map((data) => [data.client_secret_changed, data.enforcement_turned_off])).toEqual([
      [true, false], // created
      [false, false], // domains
      [false, false], // the same secret again
      [true, true], // rotated
      [true, false], // back to the right secret (enforcement already off)
      [false, true], // new issuer, same secret
    ]);
  });

  it('requiring needs the plan (403), turning off does not', async () => {
    const owner = await configured();
    const enforcement = api('/tenants/sso/enforcement');
    await proven(owner.token);
    const required = await request(enforcement, { method: 'PUT', token: owner.token, json: { required: true } });
    expect(required.status, required.text).toBe(200);
    await svc.deps.database.db.execute(sql`update tenants set plan = 'free' where id = ${owner.tenantId}`);
    const refused = await request(enforcement, { method: 'PUT', token: owner.token, json: { required: true } });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/Free plan/);
    const off = await request(enforcement, { method: 'PUT', token: owner.token, json: { required: false } });
    expect(off.status).toBe(200);
    expect(off.body).toEqual({ required: false });
  });
});

describe('access', () => {
  it('is 403 for a member without tenant:manage, and another organization sees 404', async () => {
    const owner = await configured('accessowner');
    const member = await addMember(svc, owner, 'member');
    const calls = (token: string) =>
      Promise.all([
        request(api('/tenants/sso/oidc'), { token }),
        request(api('/tenants/sso/oidc'), { method: 'PUT', token, json: config() }),
        request(api('/tenants/sso/oidc'), { method: 'DELETE', token }),
        runTest(token),
        request(api('/tenants/sso/enforcement'), { token }),
        request(api('/tenants/sso/enforcement'), { method: 'PUT', token, json: { required: true } }),
      ]);
    for (const res of await calls(member.token)) expect(res.status, res.text).toBe(403);

    // Another organization reaches only its own, unconfigured, SSO: 404 everywhere, never ours.
    const other = await enterpriseOrg('otherowner');
    const theirs = [
      await request(api('/tenants/sso/oidc'), { token: other.token }),
      await runTest(other.token),
      await request(api('/tenants/sso/enforcement'), { token: other.token }),
      await request(api('/tenants/sso/enforcement'), { method: 'PUT', token: other.token, json: { required: true } }),
      await request(api('/tenants/sso/oidc'), { method: 'DELETE', token: other.token }),
    ];
    for (const res of theirs) expect(res.status, res.text).toBe(404);
    const ours = await request(api('/tenants/sso/oidc'), { token: owner.token });
    expect(ours.status).toBe(200);
    const [tenant] = await rows<{ sso_required: boolean }>(
      svc.deps.database.db,
      sql`select sso_required from tenants where id = ${owner.tenantId}`,
    );
    expect(tenant?.sso_required).toBe(false);
  });
});
