import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/kernel/db/index.js';
import { agentAccessToken } from '../support/agent-tokens.js';
import { delegate, registerAgent } from '../support/agents.js';
import { newAccount, request } from '../support/http.js';
import { addMember, signUpOwner } from '../support/organizations.js';
import { bootstrapPlatformOwner } from '../support/platform.js';
import { startService, type TestService } from '../support/service.js';

// Custom roles, the remainder of issue 23 item 1: the roles routes are quarantine-gated like the members family
// (Part B 4.5), codes declared by the organization's bound OAuth resources are grantable (ARCHITECTURE.md, Part B
// 2.4), the seat-cap refusal names the plan, the members API documents custom role codes, and separation of duties
// counts a custom role by the permissions it grants (Part A 4.7).

let svc: TestService;
let platform: Awaited<ReturnType<typeof bootstrapPlatformOwner>>;
beforeAll(async () => {
  svc = await startService({ AGENT_APPROVALS_ENABLED: 'true' });
  platform = await bootstrapPlatformOwner(svc);
});
afterAll(async () => {
  await svc?.close();
});

const api = (path: string) => `${svc.url}/api/v1${path}`;
const db = () => svc.deps.database.db;
const suffix = () => randomBytes(4).toString('hex');

const createRole = (token: string, json: Record<string, unknown>) => request(api('/authz/roles'), { token, json });
const patchRole = (token: string, code: string, json: Record<string, unknown>) =>
  request(api(`/authz/roles/${code}`), { method: 'PATCH', token, json });
const invite = (token: string, email: string, role?: string) =>
  request(api('/members/invites'), { token, json: { email, ...(role ? { role } : {}) } });
const login = async (who: { email: string; password: string }, slug: string) => {
  const res = await request(api('/auth/login'), {
    json: { email: who.email, password: who.password, tenant_slug: slug },
  });
  expect(res.status, res.text).toBe(200);
  return res.body.access_token as string;
};
const membershipOf = async (ownerToken: string, email: string) => {
  const roster = await request(api('/members'), { token: ownerToken });
  expect(roster.status, roster.text).toBe(200);
  return roster.body.find((m: { email: string }) => m.email === email).membership_id as string;
};
const setRole = (token: string, membershipId: string, role: string) =>
  request(api(`/members/${membershipId}`), { method: 'PATCH', token, json: { role } });

describe('quarantine (Part B 4.5): the roles routes belong to the members family', () => {
  it("answers a quarantined organization's owner 403 with the actionable reason on every roles route, changing nothing, until lifted", async () => {
    const owner = await signUpOwner(svc.url, 'quarantined');
    const before = await createRole(owner.token, { code: 'desk', name: 'Desk', permissions: ['members:read'] });
    expect(before.status, before.text).toBe(201);
    // Direct set-up: the organization awaits its onboarding approval (the walk itself is test/e2e/onboarding.test.ts).
    await db().execute(sql`update tenants set quarantined = true where id = ${owner.tenantId}`);
    const token = await login(owner, owner.slug);
    expect((await request(api('/me'), { token })).status).toBe(200);
    const gated = await Promise.all([
      createRole(token, { code: 'reader', name: 'Reader', permissions: ['members:read'] }),
      request(api('/authz/roles'), { token }),
      request(api('/authz/roles/desk'), { token }),
      patchRole(token, 'desk', { permissions: ['members:read', 'agents:read'] }),
      request(api('/authz/roles/desk'), { method: 'DELETE', token }),
      // As the members routes do.
      request(api('/members'), { token }),
    ]);
    for (const res of gated) {
      expect(res.status, res.text).toBe(403);
      expect(res.body.detail).toMatch(/awaiting approval: its owner must confirm their email and approve/);
    }
    const stored = await rows<{ code: string; permissions: string[] }>(
      db(),
      sql`select code, permissions from custom_roles where tenant_id = ${owner.tenantId}`,
    );
    expect(stored).toEqual([{ code: 'desk', permissions: ['members:read'] }]);
    // Without a credential it is still 401, as everywhere.
    expect((await request(api('/authz/roles'))).status).toBe(401);
    // Approval lifts it.
    await db().execute(sql`update tenants set quarantined = false where id = ${owner.tenantId}`);
    const lifted = await login(owner, owner.slug);
    expect((await request(api('/authz/roles'), { token: lifted })).status).toBe(200);
    expect((await createRole(lifted, { code: 'reader', name: 'Reader', permissions: ['members:read'] })).status).toBe(
      201,
    );
  });
});

/** An Enterprise organization whose OAuth resource is bound by an applied manifest to a namespace of its own. */
async function boundOrganization(label: string) {
  const owner = await signUpOwner(svc.url, label);
  await db().execute(sql`update tenants set plan = 'enterprise' where id = ${owner.tenantId}`);
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
  const ns = `billing${suffix()}`;
  const manifest = {
    manifest_version: 1,
    resources: [
      {
        oauth_resource_identifier: identifier,
        namespace: ns,
        permissions: [{ action: 'invoices.read', risk: 10 }, { action: 'invoices.write' }],
      },
    ],
  };
  const asked = await request(api('/manifest/request-approval'), { token: agentToken, json: { manifest } });
  expect(asked.status, asked.text).toBe(201);
  const decided = await request(api(`/approvals/${asked.body.approval_id}/decide`), {
    token: owner.token,
    json: { approve: true },
  });
  expect(decided.status, decided.text).toBe(200);
  const applied = await request(api('/manifest/apply'), { token: agentToken, json: { manifest } });
  expect(applied.status, applied.text).toBe(200);
  return { owner, ns };
}

describe('codes declared by bound OAuth resources (Part B 2.4)', () => {
  it('are grantable in custom roles as exact codes, only where declared, with tenant:manage', async () => {
    const { owner, ns } = await boundOrganization('declared');
    const read = `${ns}:invoices.read`;
    const write = `${ns}:invoices.write`;
    const created = await createRole(owner.token, {
      code: 'clerk',
      name: 'Clerk',
      permissions: [read, 'members:read'],
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ permissions: ['members:read', read].sort(), read_only: false });
    // Exact codes only; an action the resource does not declare is unknown.
    const wildcard = await createRole(owner.token, { code: 'wild', name: 'Wild', permissions: [`${ns}:*`] });
    expect(wildcard.status).toBe(422);
    expect(wildcard.body.detail).toContain('no wildcards');
    const undeclared = await createRole(owner.token, {
      code: 'undeclared',
      name: 'Undeclared',
      permissions: [`${ns}:invoices.delete`],
    });
    expect(undeclared.status).toBe(422);
    expect(undeclared.body.detail).toBe(`permissions: unknown permission codes: ${ns}:invoices.delete`);
    // Another organization's declared codes are not this one's.
    const other = await signUpOwner(svc.url, 'undeclared');
    const foreign = await createRole(other.token, { code: 'clerk', name: 'Clerk', permissions: [read] });
    expect(foreign.status).toBe(422);
    expect((await patchRole(other.token, 'clerk', { permissions: [read] })).status).toBe(404);
    // An admin holds tenant:manage but no system role holds a declared code: tenant:manage suffices for them.
    const admin = await addMember(svc, owner, 'admin');
    const byAdmin = await createRole(admin.token, { code: 'writer', name: 'Writer', permissions: [write] });
    expect(byAdmin.status, byAdmin.text).toBe(201);
    expect((await patchRole(admin.token, 'clerk', { permissions: [read, write] })).status).toBe(200);
    // A holder gets exactly the declared codes the role grants.
    const clerk = await addMember(svc, owner, 'clerk');
    const perms = (await request(api('/me/permissions'), { token: clerk.token })).body.permissions as string[];
    expect(perms).toEqual(expect.arrayContaining([read, write]));
    expect(perms).not.toContain('members:read');
    const stored = await rows<{ code: string; permissions: string[] }>(
      db(),
      sql`select code, permissions from custom_roles where tenant_id = ${owner.tenantId} order by code`,
    );
    expect(stored).toEqual([
      { code: 'clerk', permissions: [read, write].sort() },
      { code: 'writer', permissions: [write] },
    ]);
  });

  it('are given with a role only by someone holding them or tenant:manage', async () => {
    const { owner, ns } = await boundOrganization('giver');
    const read = `${ns}:invoices.read`;
    expect((await createRole(owner.token, { code: 'clerk', name: 'Clerk', permissions: [read] })).status).toBe(201);
    const hrCodes = ['members:manage', 'members:read'];
    expect((await createRole(owner.token, { code: 'hr', name: 'HR', permissions: hrCodes })).status).toBe(201);
    const plus = [...hrCodes, read];
    expect((await createRole(owner.token, { code: 'hr-plus', name: 'HR+', permissions: plus })).status).toBe(201);
    const hr = await addMember(svc, owner, 'hr');
    const refused = await invite(hr.token, newAccount('clerk').email, 'clerk');
    expect(refused.status, refused.text).toBe(403);
    expect(refused.body.detail).toBe(`Role clerk holds permissions you do not hold: ${read}`);
    const hrPlus = await addMember(svc, owner, 'hr-plus');
    const allowed = await invite(hrPlus.token, newAccount('clerk').email, 'clerk');
    expect(allowed.status, allowed.text).toBe(201);
    expect(allowed.body.role).toBe('clerk');
    const admin = await addMember(svc, owner, 'admin');
    expect((await invite(admin.token, newAccount('clerk').email, 'clerk')).status).toBe(201);
    const invites = await request(api('/members/invites'), { token: owner.token });
    expect(invites.body.filter((i: { role: string }) => i.role === 'clerk')).toHaveLength(2);
  });
});

describe('the seat cap (Part A 4.7)', () => {
  it('refuses with a 403 naming the plan', async () => {
    const owner = await signUpOwner(svc.url, 'seats');
    // Free plan: 5 seats; the owner holds one, four pending invitations the rest.
    for (let i = 0; i < 4; i++) expect((await invite(owner.token, newAccount('seat').email)).status).toBe(201);
    const refused = await invite(owner.token, newAccount('seat').email);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toBe(
      'Seat cap reached: the Free plan allows 5 seats (members and pending invitations count); ' +
        'revoke a pending invitation, remove a member or upgrade the plan',
    );
    await db().execute(sql`update tenants set plan = 'pro' where id = ${owner.tenantId}`);
    expect((await invite(owner.token, newAccount('seat').email)).status).toBe(201);
  });
});

describe('the members API documents custom role codes', () => {
  it('describes `role` as a system role or a custom role code', async () => {
    const doc = (await request(api('/openapi.json'))).body;
    const schemaOf = (path: string, method: string) =>
      doc.paths[path][method].requestBody.content['application/json'].schema.properties.role;
    for (const [path, method] of [
      ['/api/v1/members/{membership_id}', 'patch'],
      ['/api/v1/members/invites', 'post'],
    ] as const) {
      expect(schemaOf(path, method).description, path).toMatch(/custom roles/);
    }
    expect(doc.paths['/api/v1/authz/roles'].post.description).toMatch(/declared by a bound OAuth resource/);
  });
});

describe('separation of duties counts a custom role by what it grants (Part A 4.7)', () => {
  it('refuses a platform custom role granting operator:manage to an auditor elsewhere, and auditor to its holder', async () => {
    const opsCode = `ops-${suffix()}`;
    const readerCode = `reader-${suffix()}`;
    const ops = await createRole(platform.token, { code: opsCode, name: 'Ops', permissions: ['operator:manage'] });
    expect(ops.status, ops.text).toBe(201);
    expect(
      (await createRole(platform.token, { code: readerCode, name: 'Reader', permissions: ['members:read'] })).status,
    ).toBe(201);
    const platformOrg = { tenantId: platform.tenantId, slug: platform.slug };

    // An auditor of an organization, also a member of the platform-operator organization.
    const org = await signUpOwner(svc.url, 'audited');
    const auditor = await addMember(svc, org, 'auditor');
    await addMember(svc, platformOrg, 'member', auditor);
    const onPlatform = await membershipOf(platform.token, auditor.email);
    const refused = await setRole(platform.token, onPlatform, opsCode);
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body.rule).toBe('auditor-independence');
    expect(refused.body.detail).toMatch(/^Separation of duties \(auditor-independence\)/);
    // A custom role granting nothing on the rule's other side is given.
    const given = await setRole(platform.token, onPlatform, readerCode);
    expect(given.status, given.text).toBe(200);
    expect(given.body.role).toBe(readerCode);

    // The other way round: the holder of the custom role on the platform cannot be made an auditor elsewhere.
    const operatorPerson = await addMember(svc, platformOrg, opsCode);
    const other = await signUpOwner(svc.url, 'audited2');
    await addMember(svc, other, 'member', operatorPerson);
    const inOrg = await membershipOf(other.token, operatorPerson.email);
    const asAuditor = await setRole(other.token, inOrg, 'auditor');
    expect(asAuditor.status, asAuditor.text).toBe(409);
    expect(asAuditor.body.rule).toBe('auditor-independence');
    const stored = await rows<{ role: string }>(
      db(),
      sql`select role from memberships where tenant_id = ${other.tenantId} and user_id = ${operatorPerson.userId}`,
    );
    expect(stored).toEqual([{ role: 'member' }]);
    // Narrowed, the role no longer counts: the same change now passes (read on every check, not remembered).
    expect((await patchRole(platform.token, opsCode, { permissions: ['members:read'] })).status).toBe(200);
    expect((await setRole(other.token, inOrg, 'auditor')).status).toBe(200);
  });
});
