import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/kernel/crypto/index.js';
import { rows } from '../../src/kernel/db/index.js';
import { agentAccessToken } from '../support/agent-tokens.js';
import { delegate, registerAgent } from '../support/agents.js';
import { request, uniqueEmail } from '../support/http.js';
import { signUpOwner, verifyDomainDirectly } from '../support/organizations.js';
import { startService, type TestService } from '../support/service.js';
import { extractToken, startSmtpServer, type TestSmtpServer } from '../support/smtp.js';
import { ServiceBrowser } from '../support/social-browser.js';
import { expectSsoFailure, SSO_RETURN_URL, ssoCodeOf } from '../support/sso-return.js';
import { IdpBrowser, startUpstreamIdp, TEST_CA_FILE, type UpstreamIdp } from '../support/upstream-idp.js';

// A manifest's `sso` section (Part B 2.4; issue 23 item 2) is the organization's real OIDC connection (the SSO
// module's), scaffolded disabled and without a secret: GET shows it, it signs nobody in, cannot be required or
// enabled, and its connection test does not run the credentials check, until an admin gives it its secret through
// PUT /tenants/sso/oidc (guarded like every connection change). Then it signs people in with the manifest's
// default role. Plans compare against it: identical is `noop`, any other connection a `conflict`. Against a real
// `oidc-provider` over TLS reached through the kernel's egress.

let svc: TestService;
let idp: UpstreamIdp;
let smtp: TestSmtpServer;

beforeAll(async () => {
  idp = await startUpstreamIdp({ clients: [], claimsInIdToken: true });
  smtp = await startSmtpServer();
  svc = await startService(
    {
      AGENT_APPROVALS_ENABLED: 'true',
      SMTP_URL: smtp.url,
      EGRESS_TEST_ROUTES: idp.route,
      EGRESS_TEST_CA_FILE: TEST_CA_FILE,
      SIGN_IN_RETURN_URL: SSO_RETURN_URL,
    },
    { baseUrlIsListenAddress: true },
  );
});
afterAll(async () => {
  await svc?.close();
  await idp?.close();
  await smtp?.close();
});

const api = (path: string) => `${svc.url}/api/v1${path}`;
const db = () => svc.deps.database.db;

const plan = (token: string, manifest: unknown) => request(api('/manifest/plan'), { token, json: { manifest } });
const apply = (token: string, manifest: unknown) => request(api('/manifest/apply'), { token, json: { manifest } });
const oidc = (token: string, json?: Record<string, unknown>) =>
  json
    ? request(api('/tenants/sso/oidc'), { method: 'PUT', token, json })
    : request(api('/tenants/sso/oidc'), { token });

/**
 * An Enterprise organization with a verified domain, its own client at the identity provider, and an agent holding
 * manifest:plan and manifest:apply.
 */
async function organization(label = 'mfsso') {
  const owner = await signUpOwner(svc.url, label);
  await db().execute(sql`update tenants set plan = 'enterprise' where id = ${owner.tenantId}`);
  const domain = await verifyDomainDirectly(svc, owner.tenantId);
  const client = await idp.registerClient({
    redirect_uris: [`${svc.url}/api/v1/auth/sso/oidc/${owner.tenantId}/callback`],
  });
  const agent = await registerAgent(svc, owner.token);
  const granted = await delegate(svc, owner.token, agent.agent_id, ['manifest:plan', 'manifest:apply']);
  expect(granted.status, granted.text).toBe(201);
  const agentToken = await agentAccessToken(svc, agent.credential);
  return { owner, domain, client, agentId: agent.agent_id as string, agentToken };
}

type Org = Awaited<ReturnType<typeof organization>>;

const ssoManifest = (org: Org, sso: Record<string, unknown> = {}) => ({
  manifest_version: 1,
  sso: { display_name: 'Corporate IdP', issuer: idp.issuer, client_id: org.client.client_id, ...sso },
});

/** The agent asks, the owner approves. */
async function approve(org: Org, manifest: unknown): Promise<string> {
  const asked = await request(api('/manifest/request-approval'), { token: org.agentToken, json: { manifest } });
  expect(asked.status, asked.text).toBe(201);
  const decided = await request(api(`/approvals/${asked.body.approval_id}/decide`), {
    token: org.owner.token,
    json: { approve: true },
  });
  expect(decided.status, decided.text).toBe(200);
  return asked.body.approval_id;
}

/** An organization whose connection a manifest with default role `auditor` scaffolded. */
async function scaffolded(label?: string) {
  const org = await organization(label);
  const manifest = ssoManifest(org, { default_role: 'auditor' });
  await approve(org, manifest);
  const applied = await apply(org.agentToken, manifest);
  expect(applied.status, applied.text).toBe(200);
  return { org, manifest, hash: applied.body.manifest_hash as string };
}

const ownerNotice = (org: Org, text: RegExp) =>
  smtp.waitFor((mail) => mail.to.includes(org.owner.email.toLowerCase()) && text.test(mail.text));

describe('a manifest scaffolds the SSO module’s connection', () => {
  it('creates it disabled without a secret: GET shows it; recorded, detected and mailed like any connection change', async () => {
    const org = await organization();
    const manifest = ssoManifest(org, { default_role: 'auditor' });
    const planned = await plan(org.agentToken, manifest);
    expect(planned.status, planned.text).toBe(200);
    expect(planned.body.steps).toEqual([
      {
        index: 0,
        kind: 'sso',
        target: idp.issuer,
        would: 'create',
        detail: {
          display_name: 'Corporate IdP',
          issuer: idp.issuer,
          client_id: org.client.client_id,
          default_role: 'auditor',
          enabled: false,
        },
      },
    ]);
    // Before: SSO is dormant.
    expect((await oidc(org.owner.token)).status).toBe(404);

    await approve(org, manifest);
    const applied = await apply(org.agentToken, manifest);
    expect(applied.status, applied.text).toBe(200);
    expect(applied.body).toMatchObject({ applied: 1, resumed: false });
    const hash = applied.body.manifest_hash;

    const shown = await oidc(org.owner.token);
    expect(shown.status, shown.text).toBe(200);
    expect(shown.body).toEqual({
      issuer: idp.issuer,
      client_id: org.client.client_id,
      client_secret_set: false,
      display_name: 'Corporate IdP',
      default_role: 'auditor',
      scopes: ['openid', 'email', 'profile'],
      allowed_domains: [],
      enabled: false,
      last_test: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const [stored] = await rows<{ client_secret_sealed: string | null }>(
      db(),
      sql`select client_secret_sealed from sso_oidc_connections where tenant_id = ${org.owner.tenantId}`,
    );
    expect(stored?.client_secret_sealed).toBeNull();
    // The SSO module's own record, correlated with the manifest, by the applying agent; and its detection.
    const [event] = await rows<{ actor_id: string; severity: string; data: Record<string, unknown> }>(
      db(),
      sql`select actor_id, severity, data from events where tenant_id = ${org.owner.tenantId}
          and action = 'sso.oidc_configured' and correlation_id = ${hash}`,
    );
    expect(event).toMatchObject({
      actor_id: org.agentId,
      severity: 'high',
      data: { scaffolded: true, created: true, enabled: false, client_secret_changed: false, manifest_hash: hash },
    });
    const [detection] = await rows<{ data: Record<string, unknown> }>(
      db(),
      sql`select data from detections where tenant_id = ${org.owner.tenantId} and rule_id = 'sso-connection-changed'`,
    );
    expect(detection?.data).toMatchObject({
      action: 'sso.oidc_scaffolded',
      actor_id: org.agentId,
      approved_by: org.owner.userId,
      manifest_hash: hash,
    });
    const mail = await ownerNotice(org, /IAM manifest/);
    expect(mail.subject).toMatch(/Single sign-on of .* changed/);
    expect(mail.text).toContain(hash);
    expect(mail.text).toContain(`${idp.issuer} (client ${org.client.client_id}), disabled and without a client secret`);
    expect(mail.text).toContain(`approved by ${org.owner.email}`);

    // Planned again: the same connection (noop); applied again: nothing.
    const again = await plan(org.agentToken, manifest);
    expect(again.body.steps.map((s: { would: string }) => s.would)).toEqual(['noop']);
    const reapplied = await apply(org.agentToken, manifest);
    expect(reapplied.body).toMatchObject({ resumed: true, applied: 0 });
  });

  it('signs nobody in, cannot be required or enabled without a secret, and tests without the credentials check', async () => {
    const { org } = await scaffolded();
    // Sign-in: dormant, one answer alike.
    const start = await request(api('/auth/sso/start'), { json: { tenant_slug: org.owner.slug } });
    expect(start.status, start.text).toBe(404);
    expect(start.body.detail).toMatch(/SSO is not configured/);
    // Enforcement: the connection is disabled.
    const required = await request(api('/tenants/sso/enforcement'), {
      method: 'PUT',
      token: org.owner.token,
      json: { required: true },
    });
    expect(required.status, required.text).toBe(409);
    expect(required.body.detail).toMatch(/disabled/);
    // The test reaches the provider but cannot prove credentials it does not have.
    const tested = await request(api('/tenants/sso/oidc/test'), { method: 'POST', token: org.owner.token });
    expect(tested.status, tested.text).toBe(200);
    expect(tested.body.ok).toBe(false);
    expect(tested.body.checks.map((c: { name: string; ok: boolean }) => [c.name, c.ok])).toEqual([
      ['discovery', true],
      ['jwks', true],
      ['credentials', false],
    ]);
    expect(tested.body.checks[2].detail).toMatch(/not run: the connection has no client secret yet/);
    expect((await oidc(org.owner.token)).body.last_test).toEqual({ tested_at: expect.any(String), ok: false });
    // Enabling without the secret: 422, nothing changed.
    const before = (await oidc(org.owner.token)).body;
    const enable = await oidc(org.owner.token, { issuer: idp.issuer, client_id: org.client.client_id });
    expect(enable.status, enable.text).toBe(422);
    expect(enable.body.detail).toMatch(/^client_secret: required to enable a connection that has none yet/);
    expect((await oidc(org.owner.token)).body).toEqual(before);
    // Kept disabled, the admin may still set what needs no secret.
    const narrowed = await oidc(org.owner.token, {
      issuer: idp.issuer,
      client_id: org.client.client_id,
      allowed_domains: [org.domain],
      enabled: false,
    });
    expect(narrowed.status, narrowed.text).toBe(200);
    expect(narrowed.body).toMatchObject({
      client_secret_set: false,
      enabled: false,
      allowed_domains: [org.domain],
      display_name: 'Corporate IdP',
      default_role: 'auditor',
    });
    // The database refuses an enabled connection without a secret too.
    await expect(
      db().execute(sql`update sso_oidc_connections set enabled = true where tenant_id = ${org.owner.tenantId}`),
    ).rejects.toThrow();
    expect((await oidc(org.owner.token)).body.enabled).toBe(false);
  });

  it('an admin completes it with the secret through PUT (own-factor sign-in, owners mailed); it then signs people in with the default role', async () => {
    const { org, manifest } = await scaffolded();
    const complete = { issuer: idp.issuer, client_id: org.client.client_id, client_secret: org.client.client_secret };
    // The connection-change guard holds: a sign-in older than 10 minutes is refused.
    svc.clock.advance(11 * 60_000);
    try {
      const stale = await oidc(org.owner.token, complete);
      expect(stale.status, stale.text).toBe(403);
      expect(stale.body.detail).toMatch(/within the last 10 minutes/);
    } finally {
      svc.clock.set(new Date());
    }
    const fresh = await request(api('/auth/login'), {
      json: { email: org.owner.email, password: org.owner.password, tenant_slug: org.owner.slug },
    });
    expect(fresh.status, fresh.text).toBe(200);
    const token = fresh.body.access_token as string;
    const completed = await oidc(token, complete);
    expect(completed.status, completed.text).toBe(200);
    expect(completed.body).toMatchObject({
      client_secret_set: true,
      enabled: true,
      display_name: 'Corporate IdP',
      default_role: 'auditor',
      last_test: null,
    });
    expect(JSON.stringify(completed.body)).not.toContain(org.client.client_secret);
    const notice = await ownerNotice(org, /a manifest scaffolded was given its client secret and enabled/);
    expect(notice.text).not.toContain(org.client.client_secret);
    const [event] = await rows<{ data: Record<string, unknown> }>(
      db(),
      sql`select data from events where tenant_id = ${org.owner.tenantId} and action = 'sso.oidc_configured'
          and data->>'client_secret_changed' = 'true'`,
    );
    expect(event?.data).toMatchObject({ created: false, enabled: true });
    // Now the credentials are proven.
    const tested = await request(api('/tenants/sso/oidc/test'), { method: 'POST', token });
    expect(tested.body.ok, tested.text).toBe(true);
    // Still the connection the manifest declares.
    expect((await plan(org.agentToken, manifest)).body.steps[0].would).toBe('noop');

    // A new person signs in just in time with the manifest's default role.
    const email = uniqueEmail('jit', org.domain);
    const login = `person-${Math.random().toString(36).slice(2, 10)}`;
    idp.people.set(login, { email, name: 'Jit Auditor' });
    const browser = new ServiceBrowser(svc.url);
    const start = await browser.post('/api/v1/auth/sso/start', { tenant_slug: org.owner.slug });
    expect(start.status, start.text).toBe(200);
    const back = await browser.open(await new IdpBrowser(idp.port).signIn(start.body.authorization_url, login));
    const signedIn = await request(api('/auth/sso/complete'), { json: { code: ssoCodeOf(back.location!) } });
    expect(signedIn.status, signedIn.text).toBe(200);
    const me = await request(api('/me'), { token: signedIn.body.access_token });
    expect(me.body).toMatchObject({ tenant_id: org.owner.tenantId, role: 'auditor' });
    const [provisioned] = await rows<{ data: Record<string, unknown> }>(
      db(),
      sql`select data from events where tenant_id = ${org.owner.tenantId} and action = 'sso.user_provisioned'`,
    );
    expect(provisioned?.data).toMatchObject({ user_id: me.body.user_id, role: 'auditor' });

    // An existing account on the domain joins with the default role once its holder confirms the link.
    const holder = uniqueEmail('holder', org.domain);
    const holderId = await svc.deps.transactions.system(async (tx) =>
      svc.deps.accounts.createAccount(tx, holder, await hashPassword('a long password for the holder')),
    );
    const holderLogin = `person-${Math.random().toString(36).slice(2, 10)}`;
    idp.people.set(holderLogin, { email: holder });
    const second = new ServiceBrowser(svc.url);
    const started = await second.post('/api/v1/auth/sso/start', { tenant_slug: org.owner.slug });
    const refused = await second.open(
      await new IdpBrowser(idp.port).signIn(started.body.authorization_url, holderLogin),
    );
    expectSsoFailure(refused.location!);
    const link = await smtp.waitFor((mail) => mail.to.includes(holder.toLowerCase()));
    const confirmed = await request(api('/auth/sso/link/confirm'), { json: { token: extractToken(link.text) } });
    expect(confirmed.status, confirmed.text).toBe(204);
    const [membership] = await rows<{ role: string }>(
      db(),
      sql`select role from memberships where tenant_id = ${org.owner.tenantId} and user_id = ${holderId}`,
    );
    expect(membership?.role).toBe('auditor');
  });
});

describe('plans against the connection', () => {
  it('another connection is a conflict (409 blockers at apply, nothing spent); identical fields are a noop', async () => {
    // An admin configured a connection: the manifest's differs (no display name from a manifest).
    const org = await organization('mfconf');
    const put = await oidc(org.owner.token, {
      issuer: idp.issuer,
      client_id: org.client.client_id,
      client_secret: org.client.client_secret,
    });
    expect(put.status, put.text).toBe(201);
    const manifest = ssoManifest(org);
    const planned = await plan(org.agentToken, manifest);
    expect(planned.body.appliable).toBe(false);
    expect(planned.body.steps[0]).toMatchObject({
      would: 'conflict',
      detail: { reason: expect.stringMatching(/another SSO connection already .*never update in place/) },
    });
    const approvalId = await approve(org, manifest);
    const blocked = await apply(org.agentToken, manifest);
    expect(blocked.status, blocked.text).toBe(409);
    expect(blocked.body.blockers).toEqual([
      { index: 0, kind: 'sso', target: idp.issuer, would: 'conflict', reason: expect.any(String) },
    ]);
    const ask = await request(api(`/approvals/${approvalId}`), { token: org.owner.token });
    expect(ask.body.status).toBe('approved');
    // The admin's connection is untouched.
    expect((await oidc(org.owner.token)).body).toMatchObject({ client_secret_set: true, display_name: null });

    // A scaffolded connection against a manifest naming another client or display name: conflicts too.
    const { org: other, manifest: original } = await scaffolded('mfconf2');
    for (const changed of [
      { ...original, sso: { ...original.sso, client_id: 'another-client' } },
      { ...original, sso: { ...original.sso, display_name: 'Other IdP' } },
      { ...original, sso: { ...original.sso, default_role: 'member' } },
    ]) {
      expect((await plan(other.agentToken, changed)).body.steps[0].would).toBe('conflict');
    }
    expect((await plan(other.agentToken, original)).body.steps[0].would).toBe('noop');
  });

  it('an issuer the SSO module refuses is invalid, by its rule', async () => {
    const org = await organization('mfinv');
    for (const [issuer, reason] of [
      ['https://10.0.0.1', /^issuer: host must be a name, not an IP address/],
      ['https://localhost', /^issuer: host must be a fully-qualified public host name/],
      ['https://secure.example.test:8443', /^issuer: port must be 443/],
    ] as const) {
      const planned = await plan(org.agentToken, ssoManifest(org, { issuer }));
      expect(planned.status, planned.text).toBe(200);
      expect(planned.body.steps[0]).toMatchObject({
        would: 'invalid',
        detail: { reason: expect.stringMatching(reason) },
      });
    }
    expect((await oidc(org.owner.token)).status).toBe(404);
  });

  it('a connection configured after the approval blocks the apply (409), nothing spent, the admin’s connection kept', async () => {
    const org = await organization('mfmoved');
    const manifest = ssoManifest(org);
    const approvalId = await approve(org, manifest);
    const put = await oidc(org.owner.token, {
      issuer: idp.issuer,
      client_id: org.client.client_id,
      client_secret: org.client.client_secret,
    });
    expect(put.status, put.text).toBe(201);
    const res = await apply(org.agentToken, manifest);
    expect(res.status, res.text).toBe(409);
    expect(res.body.blockers[0]).toMatchObject({ kind: 'sso', would: 'conflict' });
    expect((await request(api(`/approvals/${approvalId}`), { token: org.owner.token })).body.status).toBe('approved');
    expect((await oidc(org.owner.token)).body).toMatchObject({ client_secret_set: true, display_name: null });
  });
});
