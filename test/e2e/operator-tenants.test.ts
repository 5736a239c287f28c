import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/kernel/db/index.js';
import { mintAgentToken } from '../support/agent-tokens.js';
import { registerAgent } from '../support/agents.js';
import { request } from '../support/http.js';
import { addMember, signUpOwner } from '../support/organizations.js';
import { bootstrapPlatformOwner } from '../support/platform.js';
import { startSecondNode, startService, type TestService } from '../support/service.js';

// The operator plane's tenant administration over HTTP (issue 27 items 1-4; Part B 4.10; ARCHITECTURE.md "Operator
// tenant administration"): confinement to the platform-operator organization, organizations and their plans (a
// downgrade keeps what Part A lets an organization keep), the tenant operator settings and what they govern (API-key
// lifetimes, stale agent credentials), pricing live on every node, and the licence endpoint without a signing key.

const DAY = 86_400_000;
let svc: TestService;
let operator: Awaited<ReturnType<typeof bootstrapPlatformOwner>>;
type Owner = Awaited<ReturnType<typeof signUpOwner>>;

beforeAll(async () => {
  svc = await startService();
  operator = await bootstrapPlatformOwner(svc);
});
afterAll(async () => {
  await svc?.close();
});

const api = (path: string) => `${svc.url}/api/v1${path}`;
const asOperator = (path: string, options: { method?: string; json?: unknown } = {}) =>
  request(api(path), { token: operator.token, ...options });
const setPlan = (tenantId: string, plan_code: string) =>
  asOperator(`/operator/tenants/${tenantId}/plan`, { method: 'PUT', json: { plan_code } });
const setConfig = (tenantId: string, key: string, value: unknown) =>
  asOperator(`/operator/tenants/${tenantId}/config/${key}`, { method: 'PATCH', json: { value } });
const auditOf = (tenantId: string, action: string) =>
  rows<{ actor_id: string; data: Record<string, unknown> }>(
    svc.deps.database.db,
    sql`select actor_id, data from audit_log where tenant_id = ${tenantId} and action = ${action} order by seq`,
  );

/** Every `/operator` route with a body that would pass validation. */
const OPERATOR_ROUTES = (tenantId: string) =>
  [
    ['GET', '/operator/tenants', undefined],
    ['PUT', `/operator/tenants/${tenantId}/plan`, { plan_code: 'enterprise' }],
    ['GET', `/operator/tenants/${tenantId}/config`, undefined],
    ['PATCH', `/operator/tenants/${tenantId}/config/security.api_key_max_lifetime_days`, { value: 1 }],
    ['GET', '/operator/pricing', undefined],
    ['PUT', '/operator/pricing', { currency: 'USD', note: '', plans: [] }],
    ['GET', '/operator/licences', undefined],
    ['POST', '/operator/licences', { licensee: 'x', install_id: 'x', plan_code: 'free', term_days: 1 }],
    ['POST', '/operator/licences/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b/revoke', {}],
    ['GET', '/operator/distribution-credentials', undefined],
    ['POST', '/operator/distribution-credentials', { licence_pk: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b', label: 'x' }],
    ['POST', '/operator/distribution-credentials/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b/revoke', {}],
    ['GET', '/operator/releases', undefined],
    [
      'POST',
      '/operator/releases',
      {
        version: 'v1.0.0',
        object_key: 'a.tgz',
        checksum_sha256: 'a'.repeat(64),
        size_bytes: 1,
        published_at: '2026-01-01T00:00:00Z',
      },
    ],
    ['POST', '/operator/releases/v1.0.0/yank', {}],
  ] as const;

describe('confinement', () => {
  it('refuses every /operator route to an owner of another organization (403), changing nothing', async () => {
    const owner = await signUpOwner(svc.url, 'not-platform');
    for (const [method, path, json] of OPERATOR_ROUTES(owner.tenantId)) {
      const res = await request(api(path), { method, token: owner.token, ...(json ? { json } : {}) });
      expect(res.status, `${method} ${path} ${res.text}`).toBe(403);
      expect(res.body.detail).toBe('Only members of the platform-operator organization may call this route');
    }
    const tenant = await asOperator(`/operator/tenants?q=${owner.slug}`);
    expect(tenant.body.tenants[0].plan_code).toBe('free');
    const config = await asOperator(`/operator/tenants/${owner.tenantId}/config`);
    const cap = config.body.settings.find((s: { key: string }) => s.key === 'security.api_key_max_lifetime_days');
    expect(cap.value).toBe(0);
  });

  it('refuses a member of the platform organization without operator permissions (403 naming it)', async () => {
    const admin = await addMember(svc, { tenantId: operator.tenantId, slug: operator.slug }, 'admin');
    for (const [method, path, json] of OPERATOR_ROUTES(operator.tenantId)) {
      const res = await request(api(path), { method, token: admin.token, ...(json ? { json } : {}) });
      expect(res.status, `${method} ${path} ${res.text}`).toBe(403);
      expect(res.body.detail).toMatch(/^Missing permission: operator:(read|manage)$/);
    }
    expect((await request(api('/operator/tenants'))).status).toBe(401);
  });

  it('answers 503 for a licence while no signing key is provisioned, recording nothing', async () => {
    const res = await asOperator('/operator/licences', {
      json: { licensee: 'Example', install_id: 'i-1', plan_code: 'pro', term_days: 30 },
    });
    expect(res.status, res.text).toBe(503);
    expect(res.body.detail).toMatch(/LICENCE_SIGNING_KEY_FILE/);
    expect((await asOperator('/operator/licences')).body).toEqual([]);
  });
});

describe('organizations and plans', () => {
  let owners: Owner[];
  beforeAll(async () => {
    owners = [await signUpOwner(svc.url, 'zeta-list'), await signUpOwner(svc.url, 'zeta-list')];
  });

  it('lists organizations by slug, filtered and paged', async () => {
    const all = await asOperator('/operator/tenants?limit=200');
    expect(all.status).toBe(200);
    const slugs = all.body.tenants.map((t: { slug: string }) => t.slug);
    expect(slugs).toEqual([...slugs].sort());
    expect(slugs).toContain(operator.slug);
    const platform = all.body.tenants.find((t: { id: string }) => t.id === operator.tenantId);
    expect(platform).toEqual({
      id: operator.tenantId,
      slug: operator.slug,
      name: 'Platform Ops',
      plan_code: 'free',
      created_at: expect.any(String),
      quarantined: false,
    });

    const first = await asOperator('/operator/tenants?q=ZETA-LIST&limit=1');
    expect(first.body.tenants).toHaveLength(1);
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const second = await asOperator(`/operator/tenants?q=zeta-list&limit=1&cursor=${first.body.next_cursor}`);
    expect(second.body.tenants).toHaveLength(1);
    expect(second.body.next_cursor).toBeNull();
    expect([first.body.tenants[0].id, second.body.tenants[0].id].sort()).toEqual(owners.map((o) => o.tenantId).sort());
    expect((await asOperator('/operator/tenants?cursor=not-a-cursor')).status).toBe(422);
    expect((await asOperator('/operator/tenants?q=%25')).body.tenants).toEqual([]);
  });

  it('sets a plan (422 for anything but a tier, 404 for no such organization), audited in that organization', async () => {
    const [owner] = owners as [Owner];
    const unknown = await setPlan(owner.tenantId, 'gold');
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail).toBe(
      'plan_code: unknown plan_code "gold"; the entitlement tiers are free, pro, enterprise',
    );
    expect((await setPlan('0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b', 'pro')).status).toBe(404);

    const set = await setPlan(owner.tenantId, 'pro');
    expect(set.status, set.text).toBe(200);
    expect(set.body).toMatchObject({ id: owner.tenantId, plan_code: 'pro' });
    const entitlements = await request(api('/entitlements'), { token: owner.token });
    expect(entitlements.body.plan_code).toBe('pro');
    expect(entitlements.body.caps.seats).toBe(50);
    const audited = await auditOf(owner.tenantId, 'tenant.plan_changed');
    expect(audited).toHaveLength(1);
    expect(audited[0]).toMatchObject({ actor_id: operator.userId, data: { old_plan: 'free', new_plan: 'pro' } });
  });

  it('downgrades: what the organization has stays readable and removable, and the new plan refuses the rest', async () => {
    const [, owner] = owners as [Owner, Owner];
    expect((await setPlan(owner.tenantId, 'enterprise')).status).toBe(200);
    const minted = await request(api('/tenants/scim/token'), { token: owner.token, json: {} });
    expect(minted.status, minted.text).toBe(201);

    expect((await setPlan(owner.tenantId, 'free')).status).toBe(200);
    const again = await request(api('/tenants/scim/token'), { token: owner.token, json: {} });
    expect(again.status).toBe(403);
    expect(again.body.detail).toBe('SCIM provisioning is not included in the Free plan (Enterprise)');
    const sso = await request(api('/tenants/sso/oidc'), {
      method: 'PUT',
      token: owner.token,
      json: { issuer: 'https://idp.example.com', client_id: 'x', client_secret: 'y' },
    });
    expect(sso.status, sso.text).toBe(403);
    expect(sso.body.detail).toBe('Enterprise SSO is not included in the Free plan (Enterprise)');
    // Kept: the configuration reads, and removing it works.
    expect((await request(api('/tenants/scim'), { token: owner.token })).status).toBe(200);
    expect((await request(api('/tenants/scim/token'), { method: 'DELETE', token: owner.token })).status).toBe(204);

    // Seats follow at once: the free plan's five seats are full, the pro plan's are not.
    for (let i = 0; i < 4; i++) await addMember(svc, owner, 'member');
    const invite = () =>
      request(api('/members/invites'), {
        token: owner.token,
        json: { email: `seat-${Math.random().toString(36).slice(2)}@example.com`, role: 'member' },
      });
    const full = await invite();
    expect(full.status, full.text).toBe(403);
    expect(full.body.detail).toMatch(/Seat cap reached/);
    expect((await setPlan(owner.tenantId, 'pro')).status).toBe(200);
    const seated = await invite();
    expect(seated.status, seated.text).toBe(201);
  });
});

describe('tenant operator settings', () => {
  let owner: Owner;
  beforeAll(async () => {
    owner = await signUpOwner(svc.url, 'settings');
  });

  it('lists every setting of the organization with risk and editable', async () => {
    const res = await asOperator(`/operator/tenants/${owner.tenantId}/config`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.tenant_id).toBe(owner.tenantId);
    const byKey = Object.fromEntries(res.body.settings.map((s: { key: string }) => [s.key, s]));
    expect(byKey['security.api_key_max_lifetime_days']).toMatchObject({
      type: 'integer',
      default: 0,
      value: 0,
      overridden: false,
      risk: 'medium',
      editable: true,
      bounds: { min: 0, max: 3650 },
    });
    expect(byKey['security.agent_max_credential_age_days']).toMatchObject({ editable: true, risk: 'low' });
    expect(byKey['auth.magic_link_enabled']).toMatchObject({ editable: false, type: 'boolean', value: true });
    expect(byKey['autonomy.level_revoke_access']).toMatchObject({ editable: false, risk: 'high' });
    for (const setting of res.body.settings) expect(['low', 'medium', 'high']).toContain(setting.risk);
    expect((await asOperator('/operator/tenants/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b/config')).status).toBe(404);
  });

  it('refuses out-of-bounds values, unknown keys and the organization’s own settings, changing nothing', async () => {
    for (const value of [3651, -1, 1.5, '30', null, true]) {
      const res = await setConfig(owner.tenantId, 'security.api_key_max_lifetime_days', value);
      expect(res.status, `${JSON.stringify(value)} ${res.text}`).toBe(400);
      expect(res.body.detail).toBe('value: security.api_key_max_lifetime_days takes an integer from 0 to 3650');
    }
    expect((await setConfig(owner.tenantId, 'security.no_such_setting', 1)).status).toBe(404);
    const own = await setConfig(owner.tenantId, 'auth.magic_link_enabled', false);
    expect(own.status).toBe(403);
    expect(
      (await setConfig('0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b', 'security.agent_max_credential_age_days', 5)).status,
    ).toBe(404);
    const config = await asOperator(`/operator/tenants/${owner.tenantId}/config`);
    expect(config.body.settings.every((s: { overridden: boolean }) => !s.overridden)).toBe(true);
    expect(await auditOf(owner.tenantId, 'operator_setting.changed')).toEqual([]);
  });

  it('caps API key lifetimes in that organization: creation refuses longer and non-expiring keys, rotation inherits', async () => {
    const createKey = (expires_in_days: number | null | undefined) =>
      request(api('/tenants/api-keys'), {
        token: owner.token,
        json: { label: 'k', scopes: ['members:read'], ...(expires_in_days === undefined ? {} : { expires_in_days }) },
      });
    // 0 (shipped): no cap.
    const forever = await createKey(null);
    expect(forever.status, forever.text).toBe(201);
    expect(forever.body.expires_at).toBeNull();

    const set = await setConfig(owner.tenantId, 'security.api_key_max_lifetime_days', 30);
    expect(set.status, set.text).toBe(200);
    expect(set.body).toMatchObject({ key: 'security.api_key_max_lifetime_days', value: 30, overridden: true });
    const now = svc.clock.now().getTime();
    for (const asked of [31, null]) {
      const refused = await createKey(asked);
      expect(refused.status, refused.text).toBe(400);
      expect(refused.body.detail).toBe('expires_in_days: this organization allows API keys of at most 30 days');
    }
    const capped = await createKey(undefined);
    expect(capped.status).toBe(201);
    expect(Date.parse(capped.body.expires_at)).toBe(now + 30 * DAY);
    expect((await createKey(30)).status).toBe(201);

    // A rotated key inherits the cap: the non-expiring key's successor expires in 30 days.
    const keyId = forever.body.api_key_id ?? forever.body.id;
    const rotated = await request(api(`/tenants/api-keys/${keyId}/rotate`), { token: owner.token, json: {} });
    expect(rotated.status, rotated.text).toBe(201);
    expect(Date.parse(rotated.body.expires_at)).toBe(now + 30 * DAY);

    // Another organization is not capped.
    const other = await signUpOwner(svc.url, 'uncapped');
    const theirs = await request(api('/tenants/api-keys'), {
      token: other.token,
      json: { label: 'k', scopes: ['members:read'], expires_in_days: null },
    });
    expect(theirs.status).toBe(201);

    const audited = await auditOf(owner.tenantId, 'operator_setting.changed');
    expect(audited).toHaveLength(1);
    expect(audited[0]).toMatchObject({
      actor_id: operator.userId,
      data: { key: 'security.api_key_max_lifetime_days', old_value: 0, new_value: 30 },
    });
    // Back to the default: the override is dropped.
    const reset = await setConfig(owner.tenantId, 'security.api_key_max_lifetime_days', 0);
    expect(reset.body).toMatchObject({ value: 0, overridden: false });
    expect((await createKey(null)).status).toBe(201);
  });

  it('honours the maximum agent credential age: a stale credential still mints and raises agent-credential-stale', async () => {
    const agent = await registerAgent(svc, owner.token);
    expect((await setConfig(owner.tenantId, 'security.agent_max_credential_age_days', 2)).status).toBe(200);
    const detections = () =>
      rows<{ data: Record<string, unknown> }>(
        svc.deps.database.db,
        sql`select data from detections where tenant_id = ${owner.tenantId} and rule_id = 'agent-credential-stale'`,
      );
    expect((await mintAgentToken(svc, agent.credential)).status).toBe(200);
    expect(await detections()).toEqual([]);
    svc.clock.advance(3 * DAY);
    expect((await mintAgentToken(svc, agent.credential)).status).toBe(200);
    const raised = await detections();
    expect(raised).toHaveLength(1);
    expect(raised[0]!.data).toMatchObject({ agent_id: agent.agent_id, max_age_days: 2, age_days: 3 });
    // The operator's token aged too.
    const login = await request(api('/auth/login'), {
      json: { email: operator.email, password: operator.password, tenant_slug: operator.slug },
    });
    operator.token = login.body.access_token;
  });
});

describe('pricing', () => {
  it('serves the full editable document, refuses an unknown plan code, and is live at once on every node', async () => {
    const current = await asOperator('/operator/pricing');
    expect(current.status).toBe(200);
    expect(current.body.plans.map((p: { plan_code: string }) => p.plan_code)).toEqual(['free', 'pro', 'enterprise']);

    const unknown = await asOperator('/operator/pricing', {
      method: 'PUT',
      json: { ...current.body, plans: [...current.body.plans, { ...current.body.plans[0], plan_code: 'gold' }] },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail).toBe(
      'plans.3.plan_code: unknown plan_code "gold"; the entitlement tiers are free, pro, enterprise',
    );
    const missing = await asOperator('/operator/pricing', {
      method: 'PUT',
      json: { ...current.body, plans: [{ ...current.body.plans[0], name: undefined }] },
    });
    expect(missing.status).toBe(422);
    expect(missing.body.detail).toBe('plans.0.name: is required');
    expect((await asOperator('/operator/pricing')).body).toEqual(current.body);

    const second = await startSecondNode(svc);
    try {
      const [free, pro, enterprise] = current.body.plans;
      const replacement = {
        currency: 'EUR',
        note: 'Prices in euros.',
        plans: [
          { ...free, name: 'Starter', price: 0 },
          { ...pro, price: 59 },
          { ...enterprise, published: false },
        ],
      };
      const put = await asOperator('/operator/pricing', { method: 'PUT', json: replacement });
      expect(put.status, put.text).toBe(200);
      expect(put.body).toEqual(replacement);
      const publicDocument = await request(`${second.url}/api/v1/pricing`);
      expect(publicDocument.body.currency).toBe('EUR');
      expect(publicDocument.body.plans.map((p: { plan_code: string; name: string }) => [p.plan_code, p.name])).toEqual([
        ['free', 'Starter'],
        ['pro', 'Pro'],
      ]);
      expect(publicDocument.body.plans[1].price).toBe(59);
      // The operator still sees (and can publish again) the unpublished plan.
      const editable = await request(`${second.url}/api/v1/operator/pricing`, { token: operator.token });
      expect(editable.body.plans[2]).toMatchObject({ plan_code: 'enterprise', published: false });
    } finally {
      await second.close();
    }
    expect((await auditOf(operator.tenantId, 'pricing.updated')).length).toBe(1);
  });
});
