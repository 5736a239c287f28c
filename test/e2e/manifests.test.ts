import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/kernel/db/index.js';
import { insertCustomRole } from '../../src/modules/roles/index.js';
import { agentAccessToken } from '../support/agent-tokens.js';
import { delegate, registerAgent } from '../support/agents.js';
import { request, uniqueEmail } from '../support/http.js';
import { addMember, signUpOwner } from '../support/organizations.js';
import { startService, type TestService } from '../support/service.js';

// IAM manifests end to end over HTTP (issue 23 item 2; Part B 2.3, 2.4, 3, 4.6, 7): the envelope and every schema
// refusal (422), the plan's create / noop / conflict / invalid, request-approval's binding and the ask's resource
// detail, and apply: no approval, plan-changed (live state and catalogue), approver-authority, blockers, a failing
// step and its resume, two concurrent applies, a re-apply, and another organization's approval.

let svc: TestService;
beforeAll(async () => {
  svc = await startService({ AGENT_APPROVALS_ENABLED: 'true' });
});
afterAll(async () => {
  await svc?.close();
});
afterEach(() => {
  svc.deps.manifests.testHooks.beforeStep = undefined;
  svc.deps.manifests.testHooks.catalogueVersion = undefined;
});

const api = (path: string) => `${svc.url}/api/v1${path}`;
const db = () => svc.deps.database.db;
/** A fresh lowercase token for codes, namespaces and host names. */
const suffix = () => randomBytes(4).toString('hex');

const plan = (token: string, body: unknown) => request(api('/manifest/plan'), { token, json: body });
const ask = (token: string, body: unknown) => request(api('/manifest/request-approval'), { token, json: body });
const apply = (token: string, body: unknown) => request(api('/manifest/apply'), { token, json: body });
const decide = (token: string, id: string, approve = true) =>
  request(api(`/approvals/${id}/decide`), { token, json: { approve } });
const approval = (token: string, id: string) => request(api(`/approvals/${id}`), { token });

/** An organization with its owner, an agent holding manifest:plan and manifest:apply, and an OAuth resource. */
async function organization(label = 'mf', options: { enterprise?: boolean } = {}) {
  const owner = await signUpOwner(svc.url, label);
  if (options.enterprise) {
    await db().execute(sql`update tenants set plan = 'enterprise' where id = ${owner.tenantId}`);
  }
  const agent = await registerAgent(svc, owner.token);
  const granted = await delegate(svc, owner.token, agent.agent_id, ['manifest:plan', 'manifest:apply']);
  expect(granted.status, granted.text).toBe(201);
  const agentToken = await agentAccessToken(svc, agent.credential);
  const identifier = `https://billing-${suffix()}.example.com/api`;
  const resource = await request(api('/oauth/resources'), {
    token: owner.token,
    json: { identifier, name: 'Billing API' },
  });
  expect(resource.status, resource.text).toBe(201);
  return { owner, agentId: agent.agent_id as string, agentToken, identifier };
}

type Org = Awaited<ReturnType<typeof organization>>;

/** A manifest using every kind of step, valid for `org`. */
function fullManifest(org: Org, extra: { sso?: boolean } = {}) {
  const ns = `billing${suffix()}`;
  return {
    manifest_version: 1,
    resources: [
      {
        oauth_resource_identifier: org.identifier,
        namespace: ns,
        permissions: [{ action: 'invoices.read', risk: 10 }, { action: 'invoices.write' }],
      },
    ],
    roles: [
      {
        code: `billing-clerk-${suffix()}`,
        name: 'Billing clerk',
        permissions: [`${ns}:invoices.read`, 'command:read'],
      },
    ],
    invites: [{ email: uniqueEmail('clerk'), role: 'auditor' }],
    ...(extra.sso
      ? { sso: { display_name: 'Corporate IdP', issuer: 'https://idp.example.com', client_id: `client-${suffix()}` } }
      : {}),
  };
}

/** Request approval as the agent and approve it as `approver` (the owner by default); answers the approval id. */
async function approved(org: Org, manifest: unknown, approverToken = org.owner.token) {
  const asked = await ask(org.agentToken, { manifest });
  expect(asked.status, asked.text).toBe(201);
  const decided = await decide(approverToken, asked.body.approval_id);
  expect(decided.status, decided.text).toBe(200);
  expect(decided.body.status).toBe('approved');
  return asked.body.approval_id as string;
}

async function eventsCorrelated(manifestHash: string) {
  return rows<{ action: string; actor_id: string; data: any }>(
    db(),
    sql`select action, actor_id, data from events where correlation_id = ${manifestHash} order by occurred_at, id`,
  );
}

describe('the envelope and the schema (422)', () => {
  let org: Org;
  beforeAll(async () => {
    org = await organization('schema');
  });

  const refused = async (body: unknown, field: RegExp) => {
    for (const call of [plan, ask, apply]) {
      const res = await call(org.agentToken, body);
      expect(res.status, res.text).toBe(422);
      expect(res.body.detail).toMatch(field);
    }
  };

  it('refuses a document posted at the top level, naming the envelope', async () => {
    await refused({ manifest_version: 1, roles: [] }, /manifest: is required.*envelope.*top level.*manifest_version/);
    await refused({}, /manifest: is required/);
    await refused({ manifest: { manifest_version: 1 }, dry_run: true }, /dry_run: unknown key/);
  });

  it('refuses each schema failure by its field, and changes nothing', async () => {
    const ns = `ns${suffix()}`;
    const cases: Array<[unknown, RegExp]> = [
      [[1], /manifest: must be a JSON object/],
      [{}, /manifest\.manifest_version: required/],
      [{ manifest_version: 2 }, /manifest\.manifest_version: must be the integer 1/],
      [{ manifest_version: 1, groups: [] }, /manifest\.groups: unknown key/],
      [{ manifest_version: 1, roles: {} }, /manifest\.roles: must be an array/],
      [
        { manifest_version: 1, roles: [{ code: 'ops', name: 'Ops', permissions: ['command:read'], colour: 'red' }] },
        /roles\[0\]\.colour: unknown key/,
      ],
      [
        { manifest_version: 1, roles: [{ code: 'ops', name: 'Ops', permissions: ['command:*'] }] },
        /roles\[0\]\.permissions\[0\]: command:\* is a wildcard/,
      ],
      [{ manifest_version: 1, roles: [{ code: 'ops', name: 'Ops', permissions: ['*'] }] }, /wildcard/],
      [
        { manifest_version: 1, roles: [{ code: 'admin', name: 'A', permissions: ['command:read'] }] },
        /roles\[0\]\.code: admin is a system role/,
      ],
      [
        { manifest_version: 1, roles: [{ code: 'Ops!', name: 'A', permissions: ['command:read'] }] },
        /roles\[0\]\.code: must be lowercase/,
      ],
      [
        {
          manifest_version: 1,
          roles: [
            { code: 'ops', name: 'A', permissions: ['command:read'] },
            { code: 'ops', name: 'B', permissions: ['command:read'] },
          ],
        },
        /roles\[1\]\.code: ops appears twice/,
      ],
      [{ manifest_version: 1, roles: [{ code: 'ops', permissions: ['command:read'] }] }, /roles\[0\]\.name: required/],
      [
        { manifest_version: 1, invites: [{ email: 'a@example.com', role: 'owner' }] },
        /invites\[0\]\.role: never owner/,
      ],
      [
        { manifest_version: 1, invites: [{ email: 'a@example.com', role: 'customer' }] },
        /invites\[0\]\.role: never customer/,
      ],
      [
        { manifest_version: 1, invites: [{ email: 'not-an-address', role: 'member' }] },
        /invites\[0\]\.email: must be an email address/,
      ],
      [
        {
          manifest_version: 1,
          resources: [
            { oauth_resource_identifier: org.identifier, namespace: 'b*', permissions: [{ action: 'read' }] },
          ],
        },
        /resources\[0\]\.namespace: wildcards are not allowed/,
      ],
      [
        {
          manifest_version: 1,
          resources: [
            { oauth_resource_identifier: org.identifier, namespace: 'members', permissions: [{ action: 'read' }] },
          ],
        },
        /resources\[0\]\.namespace: members is a domain of the built-in permission catalogue/,
      ],
      [
        {
          manifest_version: 1,
          resources: [
            { oauth_resource_identifier: org.identifier, namespace: ns, permissions: [{ action: 'read', risk: 101 }] },
          ],
        },
        /resources\[0\]\.permissions\[0\]\.risk: must be an integer from 0 to 100/,
      ],
      [
        {
          manifest_version: 1,
          resources: [{ oauth_resource_identifier: org.identifier, namespace: ns, permissions: [{ action: '*' }] }],
        },
        /resources\[0\]\.permissions\[0\]\.action: wildcards are not allowed/,
      ],
      [
        {
          manifest_version: 1,
          sso: { display_name: 'IdP', issuer: 'https://idp.example.com', client_id: 'c', client_secret: 's' },
        },
        /sso\.client_secret: unknown key.*never carries a secret/,
      ],
      [
        { manifest_version: 1, sso: { display_name: 'IdP', issuer: 'http://idp.example.com', client_id: 'c' } },
        /sso\.issuer: must be an https URL/,
      ],
      [
        {
          manifest_version: 1,
          sso: { display_name: 'IdP', issuer: 'https://idp.example.com', client_id: 'c', default_role: 'owner' },
        },
        /sso\.default_role: never owner/,
      ],
    ];
    for (const [manifest, field] of cases) await refused({ manifest }, field);
    // Several failures at once are all named.
    const many = await plan(org.agentToken, { manifest: { manifest_version: 3, extra: 1 } });
    expect(many.status).toBe(422);
    expect(many.body.errors).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/manifest_version/),
        expect.stringMatching(/manifest\.extra: unknown key/),
      ]),
    );
    const asks = await rows(db(), sql`select id from approval_requests where tenant_id = ${org.owner.tenantId}`);
    expect(asks).toHaveLength(0);
  });

  it('needs manifest:plan to plan and manifest:apply to ask or apply', async () => {
    const agent = await registerAgent(svc, org.owner.token);
    expect((await delegate(svc, org.owner.token, agent.agent_id, ['manifest:plan'])).status).toBe(201);
    const token = await agentAccessToken(svc, agent.credential);
    const manifest = { manifest_version: 1 };
    expect((await plan(token, { manifest })).status).toBe(200);
    const asked = await ask(token, { manifest });
    expect(asked.status).toBe(403);
    expect(asked.body.detail).toMatch(/manifest:apply/);
    expect((await apply(token, { manifest })).status).toBe(403);
  });
});

describe('plan', () => {
  it('answers create, noop, conflict and invalid steps, read-only', async () => {
    const org = await organization('plan');
    const manifest = fullManifest(org);
    const roleCode = manifest.roles[0]!.code;
    // Live state: a role with the same code exists identically (noop) ... and one that differs (conflict).
    const taken = `taken-${suffix()}`;
    await svc.deps.transactions.tenant(org.owner.tenantId, async (tx) => {
      await insertCustomRole(tx, org.owner.tenantId, { code: taken, name: 'Taken', permissions: ['command:read'] });
    });
    const pending = uniqueEmail('pending');
    const invited = await request(api('/members/invites'), {
      token: org.owner.token,
      json: { email: pending, role: 'auditor' },
    });
    expect(invited.status, invited.text).toBe(201);
    const document = {
      ...manifest,
      resources: [
        ...manifest.resources,
        {
          oauth_resource_identifier: 'https://nowhere.example.com/api',
          namespace: `nowhere${suffix()}`,
          permissions: [{ action: 'read' }],
        },
      ],
      roles: [
        ...manifest.roles,
        { code: taken, name: 'Taken', permissions: ['members:read'] },
        { code: `ghost-${suffix()}`, name: 'Ghost', permissions: ['unknownthing:read'] },
      ],
      invites: [
        ...manifest.invites,
        { email: pending, role: 'auditor' },
        { email: org.owner.email, role: 'auditor' },
        { email: uniqueEmail('x'), role: `missing-${suffix()}` },
      ],
      sso: { display_name: 'IdP', issuer: 'https://idp.example.com', client_id: 'c' },
    };
    const res = await plan(org.agentToken, { manifest: document });
    expect(res.status, res.text).toBe(200);
    const body = res.body;
    expect(body.manifest_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(body.plan_hash).toMatch(/^[0-9a-f]{64}$/);
    const woulds = body.steps.map((s: any) => [s.index, s.kind, s.would]);
    expect(woulds).toEqual([
      [0, 'resource', 'create'],
      [1, 'resource', 'invalid'],
      [2, 'role', 'create'],
      [3, 'role', 'conflict'],
      [4, 'role', 'invalid'],
      [5, 'invite', 'create'],
      [6, 'invite', 'noop'],
      [7, 'invite', 'conflict'],
      [8, 'invite', 'invalid'],
      [9, 'sso', 'invalid'],
    ]);
    expect(body.steps[1].detail.reason).toMatch(/binds existing resources only/);
    expect(body.steps[3].detail.reason).toMatch(/never update in place/);
    expect(body.steps[4].detail.reason).toMatch(/unknown permission codes: unknownthing:read/);
    expect(body.steps[7].detail.reason).toMatch(/already a member.*owner/);
    expect(body.steps[8].detail.reason).toMatch(/neither a system role nor a custom role/);
    expect(body.steps[9].detail.reason).toMatch(/Enterprise SSO is not included/);
    expect(body.steps[2].target).toBe(roleCode);
    expect(body.summary).toEqual({ steps: 10, create: 3, noop: 1, conflict: 2, invalid: 4 });
    expect(body.appliable).toBe(false);
    // The role's own declared code is grantable; the invite's auditor permissions are grants too.
    expect(body.grants).toEqual(
      expect.arrayContaining([manifest.roles[0]!.permissions[0], 'command:read', 'members:read']),
    );
    // Identical manifest, same answer; key order does not matter.
    const again = await plan(org.agentToken, { manifest: Object.fromEntries(Object.entries(document).reverse()) });
    expect(again.body.manifest_hash).toBe(body.manifest_hash);
    expect(again.body.plan_hash).toBe(body.plan_hash);
    // A plan is a read: nothing was created.
    const bound = await rows(
      db(),
      sql`select 1 from manifest_resource_bindings where tenant_id = ${org.owner.tenantId}`,
    );
    expect(bound).toHaveLength(0);
  });
});

describe('request-approval', () => {
  it('creates a pending ask bound to the content, the plan and the catalogue, with its resource detail', async () => {
    const org = await organization('ask');
    const manifest = fullManifest(org);
    const planned = (await plan(org.agentToken, { manifest })).body;
    const first = await ask(org.agentToken, { manifest });
    expect(first.status, first.text).toBe(201);
    expect(first.body).toEqual({
      manifest_hash: planned.manifest_hash,
      approval_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      approval_status: 'pending',
      created: true,
      appliable: true,
    });
    const repeat = await ask(org.agentToken, { manifest });
    expect(repeat.status).toBe(200);
    expect(repeat.body).toEqual({ ...first.body, created: false });

    const read = await approval(org.owner.token, first.body.approval_id);
    expect(read.status, read.text).toBe(200);
    expect(read.body).toMatchObject({
      status: 'pending',
      agent_id: org.agentId,
      resource_type: 'manifest',
      required_permission: 'manifest:apply',
      requested_by: org.agentId,
    });
    expect(read.body.resource).toEqual({
      manifest_hash: planned.manifest_hash,
      plan_hash: planned.plan_hash,
      catalogue_version: planned.catalogue_version,
      appliable: true,
      steps: planned.steps.map((s: any) => ({
        index: s.index,
        kind: s.kind,
        target: s.target,
        would: s.would,
        detail: s.detail,
      })),
      grants: planned.grants,
    });
    expect(read.body.resource.grants).toEqual([...read.body.resource.grants].sort());
    // The agent reads its own ask; the queue lists it by resource type.
    expect((await approval(org.agentToken, first.body.approval_id)).status).toBe(200);
    const queue = await request(api('/approvals?resource_type=manifest'), { token: org.owner.token });
    expect(queue.body.approvals.map((a: any) => a.id)).toEqual([first.body.approval_id]);

    // Once the live state resolves the document differently, the repeat is a new ask bound to the new plan.
    await svc.deps.transactions.tenant(org.owner.tenantId, (tx) =>
      insertCustomRole(tx, org.owner.tenantId, manifest.roles[0]!),
    );
    const moved = await ask(org.agentToken, { manifest });
    expect(moved.status).toBe(201);
    expect(moved.body.approval_id).not.toBe(first.body.approval_id);
    // The agent may not decide, nor may the requester.
    const byAgent = await decide(org.agentToken, moved.body.approval_id);
    expect(byAgent.status).toBe(403);
  });
});

describe('apply', () => {
  it('refuses without an approval (403 no-approval) and while the ask is pending, spending nothing', async () => {
    const org = await organization('noappr');
    const manifest = fullManifest(org);
    const none = await apply(org.agentToken, { manifest });
    expect(none.status, none.text).toBe(403);
    expect(none.body).toMatchObject({ approval_state: 'no-approval', approval_status: 'none', approval_id: null });
    const asked = await ask(org.agentToken, { manifest });
    const pending = await apply(org.agentToken, { manifest });
    expect(pending.status).toBe(403);
    expect(pending.body).toMatchObject({
      approval_state: 'no-approval',
      approval_status: 'pending',
      approval_id: asked.body.approval_id,
    });
    // A denied ask does not cover it either.
    expect((await decide(org.owner.token, asked.body.approval_id, false)).status).toBe(200);
    const denied = await apply(org.agentToken, { manifest });
    expect(denied.body).toMatchObject({ approval_state: 'no-approval', approval_status: 'denied' });
  });

  it('applies an approved manifest: roles, invites, resource binding and a disabled SSO scaffold, audited under the manifest hash', async () => {
    const org = await organization('apply', { enterprise: true });
    const manifest = fullManifest(org, { sso: true });
    const approvalId = await approved(org, manifest);
    const res = await apply(org.agentToken, { manifest });
    expect(res.status, res.text).toBe(200);
    const hash = res.body.manifest_hash;
    expect(res.body).toEqual({
      manifest_hash: hash,
      approval_id: approvalId,
      approved_by: org.owner.userId,
      resumed: false,
      applied: 4,
      skipped: 0,
    });
    // The approval is spent.
    expect((await approval(org.owner.token, approvalId)).body.status).toBe('consumed');
    // The role.
    const [role] = await rows<{ code: string; permissions: string[] }>(
      db(),
      sql`select code, permissions from custom_roles where tenant_id = ${org.owner.tenantId} and code = ${manifest.roles[0]!.code}`,
    );
    expect(role?.permissions.sort()).toEqual([...manifest.roles[0]!.permissions].sort());
    // The invitation, through the members module.
    const invites = await request(api('/members/invites'), { token: org.owner.token });
    expect(
      invites.body.map?.((i: any) => [i.email, i.role]) ?? invites.body.invites.map((i: any) => [i.email, i.role]),
    ).toContainEqual([manifest.invites[0]!.email, 'auditor']);
    // The resource binding.
    const [binding] = await rows<{ identifier: string; namespace: string }>(
      db(),
      sql`select identifier, namespace from manifest_resource_bindings where tenant_id = ${org.owner.tenantId}`,
    );
    expect(binding).toEqual({ identifier: org.identifier, namespace: manifest.resources[0]!.namespace });
    // The SSO scaffold: the SSO module's connection, disabled and without a secret (test/e2e/manifests-sso.test.ts).
    const connection = await request(api('/tenants/sso/oidc'), { token: org.owner.token });
    expect(connection.status, connection.text).toBe(200);
    expect(connection.body).toMatchObject({
      issuer: 'https://idp.example.com',
      enabled: false,
      client_secret_set: false,
    });
    // Every step audited with the manifest hash as correlation id, by the applying agent.
    const audited = await eventsCorrelated(hash);
    const steps = audited.filter((e) => e.action === 'manifest.step_applied');
    expect(steps.map((e) => e.data.kind)).toEqual(['resource', 'role', 'invite', 'sso']);
    expect(steps.every((e) => e.actor_id === org.agentId)).toBe(true);
    expect(audited.map((e) => e.action)).toContain('manifest.applied');
    const chain = await rows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from audit_log where correlation_id = ${hash} and action = 'manifest.step_applied'`,
    );
    expect(chain[0]!.n).toBe(4);
    // The plan now reads every step as a no-op.
    const after = await plan(org.agentToken, { manifest });
    expect(after.body.steps.map((s: any) => s.would)).toEqual(['noop', 'noop', 'noop', 'noop']);
    // Re-applying answers resumed, nothing applied.
    const again = await apply(org.agentToken, { manifest });
    expect(again.status, again.text).toBe(200);
    expect(again.body).toEqual({ ...res.body, resumed: true, applied: 0, skipped: 4 });
  });

  it('an invite may carry a custom role the same manifest defines, with codes its resource declares', async () => {
    const org = await organization('custom');
    const manifest = fullManifest(org);
    const code = manifest.roles[0]!.code;
    const email = uniqueEmail('custom');
    const document = { ...manifest, invites: [{ email, role: code }] };
    const planned = await plan(org.agentToken, { manifest: document });
    expect(planned.body.steps.map((s: any) => s.would)).toEqual(['create', 'create', 'create']);
    expect(planned.body.grants).toEqual([...manifest.roles[0]!.permissions].sort());
    await approved(org, document);
    const res = await apply(org.agentToken, { manifest: document });
    expect(res.status, res.text).toBe(200);
    const [invitation] = await rows<{ role: string; invited_by: string }>(
      db(),
      sql`select role, invited_by from invitations where tenant_id = ${org.owner.tenantId} and email = ${email}`,
    );
    expect(invitation).toEqual({ role: code, invited_by: org.agentId });
  });

  it('409 with blockers before spending when a step conflicts', async () => {
    const org = await organization('blocked');
    const manifest = fullManifest(org);
    const approvalId = await approved(org, manifest);
    await svc.deps.transactions.tenant(org.owner.tenantId, (tx) =>
      insertCustomRole(tx, org.owner.tenantId, {
        code: manifest.roles[0]!.code,
        name: 'Other',
        permissions: ['command:read'],
      }),
    );
    const res = await apply(org.agentToken, { manifest });
    expect(res.status, res.text).toBe(409);
    expect(res.body.blockers).toEqual([
      {
        index: 1,
        kind: 'role',
        target: manifest.roles[0]!.code,
        would: 'conflict',
        reason: expect.stringMatching(/never update in place/),
      },
    ]);
    expect((await approval(org.owner.token, approvalId)).body.status).toBe('approved');
  });

  it('403 plan-changed without spending when the live state resolves differently after approval', async () => {
    const org = await organization('moved');
    const manifest = fullManifest(org);
    const approvalId = await approved(org, manifest);
    // Someone creates the same role (identically): the step would now be a no-op, so the plan is another one.
    await svc.deps.transactions.tenant(org.owner.tenantId, (tx) =>
      insertCustomRole(tx, org.owner.tenantId, manifest.roles[0]!),
    );
    const res = await apply(org.agentToken, { manifest });
    expect(res.status, res.text).toBe(403);
    expect(res.body).toMatchObject({ approval_state: 'plan-changed', approval_id: approvalId });
    expect((await approval(org.owner.token, approvalId)).body.status).toBe('approved');
    // An edited document has no approval at all.
    const edited = { ...manifest, invites: [{ email: uniqueEmail('other'), role: 'auditor' }] };
    expect((await apply(org.agentToken, { manifest: edited })).body.approval_state).toBe('no-approval');
  });

  it('403 plan-changed when the permission catalogue changed since the approval', async () => {
    const org = await organization('catalogue');
    const manifest = fullManifest(org);
    const approvalId = await approved(org, manifest);
    svc.deps.manifests.testHooks.catalogueVersion = () => 'a-later-catalogue';
    const res = await apply(org.agentToken, { manifest });
    expect(res.status, res.text).toBe(403);
    expect(res.body.approval_state).toBe('plan-changed');
    svc.deps.manifests.testHooks.catalogueVersion = undefined;
    expect((await approval(org.owner.token, approvalId)).body.status).toBe('approved');
    expect((await apply(org.agentToken, { manifest })).status).toBe(200);
  });

  it('403 approver-authority without spending when the approving person lacks a permission the manifest mints', async () => {
    const org = await organization('authority');
    const admin = await addMember(svc, org.owner, 'admin');
    // An admin holds neither compliance:admin nor hipaa:phi:log.
    const manifest = {
      manifest_version: 1,
      roles: [{ code: `privacy-${suffix()}`, name: 'Privacy', permissions: ['compliance:admin', 'compliance:read'] }],
      invites: [{ email: uniqueEmail('officer'), role: 'compliance_officer' }],
    };
    const approvalId = await approved(org, manifest, admin.token);
    const res = await apply(org.agentToken, { manifest });
    expect(res.status, res.text).toBe(403);
    expect(res.body.approval_state).toBe('approver-authority');
    expect(res.body.missing).toEqual(['compliance:admin', 'hipaa:phi:log']);
    expect(res.body.detail).toMatch(/compliance:admin, hipaa:phi:log/);
    expect((await approval(org.owner.token, approvalId)).body.status).toBe('approved');
  });

  it('a failing step answers 502; applying again resumes after the finished steps', async () => {
    const org = await organization('resume');
    const manifest = fullManifest(org);
    await approved(org, manifest);
    svc.deps.manifests.testHooks.beforeStep = (step) => {
      if (step.kind === 'invite') throw new Error('injected fault');
    };
    const failed = await apply(org.agentToken, { manifest });
    expect(failed.status, failed.text).toBe(502);
    expect(failed.body).toMatchObject({ failed_step: 2, applied: 2 });
    const hash = failed.body.manifest_hash;
    expect((await eventsCorrelated(hash)).map((e) => e.action)).toContain('manifest.step_failed');
    // Nothing of the failed step happened.
    const invites = await rows(db(), sql`select 1 from invitations where tenant_id = ${org.owner.tenantId}`);
    expect(invites).toHaveLength(0);
    svc.deps.manifests.testHooks.beforeStep = undefined;
    const resumed = await apply(org.agentToken, { manifest });
    expect(resumed.status, resumed.text).toBe(200);
    expect(resumed.body).toMatchObject({ resumed: true, applied: 1, skipped: 2 });
    const steps = (await eventsCorrelated(hash)).filter((e) => e.action === 'manifest.step_applied');
    expect(steps.map((e) => e.data.index)).toEqual([0, 1, 2]);
    const again = await apply(org.agentToken, { manifest });
    expect(again.body).toMatchObject({ resumed: true, applied: 0 });
  });

  it('two concurrent applies of the same manifest: one runs, the other is 409', async () => {
    const org = await organization('race');
    const manifest = fullManifest(org);
    await approved(org, manifest);
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => {
      entered = resolve;
    });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    svc.deps.manifests.testHooks.beforeStep = async (step) => {
      if (step.index === 0) {
        entered();
        await gate;
      }
    };
    const first = apply(org.agentToken, { manifest });
    await inside;
    const second = await apply(org.agentToken, { manifest });
    expect(second.status, second.text).toBe(409);
    expect(second.body.blockers).toEqual([expect.objectContaining({ reason: 'concurrent apply' })]);
    release();
    const done = await first;
    expect(done.status, done.text).toBe(200);
    expect(done.body).toMatchObject({ resumed: false, applied: 3 });
  });

  it('two applies racing from the start: exactly one applies, and the approval is spent once', async () => {
    const org = await organization('race2');
    const manifest = fullManifest(org);
    const approvalId = await approved(org, manifest);
    const answers = await Promise.all([apply(org.agentToken, { manifest }), apply(org.agentToken, { manifest })]);
    const statuses = answers.map((a) => a.status).sort();
    // Either the second met the running apply (409) or arrived once it had finished (resumed, nothing applied).
    const appliedNow = answers.filter((a) => a.status === 200 && a.body.resumed === false);
    expect(appliedNow).toHaveLength(1);
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
    const consumed = await rows(
      db(),
      sql`select 1 from events where action = 'approval.consumed' and data->>'approval_request_id' = ${approvalId}`,
    );
    expect(consumed).toHaveLength(1);
  });

  it("another organization's approval cannot be used", async () => {
    const a = await organization('tenant-a');
    const b = await organization('tenant-b');
    const manifest = {
      manifest_version: 1,
      roles: [{ code: `shared-${suffix()}`, name: 'Shared', permissions: ['command:read'] }],
    };
    const approvalId = await approved(a, manifest);
    const res = await apply(b.agentToken, { manifest });
    expect(res.status, res.text).toBe(403);
    expect(res.body).toMatchObject({ approval_state: 'no-approval', approval_id: null });
    expect((await approval(b.owner.token, approvalId)).status).toBe(404);
    expect((await decide(b.owner.token, approvalId)).status).toBe(404);
    // Another agent of the same organization cannot spend this agent's ask either.
    const other = await registerAgent(svc, a.owner.token);
    expect((await delegate(svc, a.owner.token, other.agent_id, ['manifest:plan', 'manifest:apply'])).status).toBe(201);
    const otherToken = await agentAccessToken(svc, other.credential);
    expect((await apply(otherToken, { manifest })).body.approval_state).toBe('no-approval');
    expect((await apply(a.agentToken, { manifest })).status).toBe(200);
  });
});
