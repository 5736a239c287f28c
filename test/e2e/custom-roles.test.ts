import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/kernel/db/index.js';
import { agentAccessToken } from '../support/agent-tokens.js';
import { delegate, registerAgent } from '../support/agents.js';
import { newAccount, request } from '../support/http.js';
import { addMember, signUpOwner } from '../support/organizations.js';
import { startService, type TestService } from '../support/service.js';
import { extractToken, startSmtpServer, type TestSmtpServer } from '../support/smtp.js';

// Custom roles (Part A 5.9; ARCHITECTURE.md "Custom roles"; issue 23 item 1): the admin API, every refusal,
// holders getting exactly what a role grants from their next request on, invitations and the catalogue.

let svc: TestService;
let smtp: TestSmtpServer;
beforeAll(async () => {
  smtp = await startSmtpServer();
  svc = await startService({ SMTP_URL: smtp.url });
});
afterAll(async () => {
  await svc?.close();
  await smtp?.close();
});

const api = (path: string) => `${svc.url}/api/v1${path}`;
const db = () => svc.deps.database.db;

const createRole = (token: string, json: Record<string, unknown>) => request(api('/authz/roles'), { token, json });
const getRole = (token: string, code: string) => request(api(`/authz/roles/${code}`), { token });
const patchRole = (token: string, code: string, json: Record<string, unknown>) =>
  request(api(`/authz/roles/${code}`), { method: 'PATCH', token, json });
const deleteRole = (token: string, code: string) => request(api(`/authz/roles/${code}`), { method: 'DELETE', token });
const invite = (token: string, email: string, role: string) =>
  request(api('/members/invites'), { token, json: { email, role } });

async function eventsOf(tenantId: string, action: string) {
  return rows<{ data: Record<string, unknown>; actor_id: string }>(
    db(),
    sql`select data, actor_id from events where tenant_id = ${tenantId} and action = ${action} order by occurred_at, id`,
  );
}

/** A new person invited with `role` who accepts over HTTP: their token, membership id and user id. */
async function joinByInvitation(ownerToken: string, role: string) {
  const person = newAccount('joiner');
  const invited = await invite(ownerToken, person.email, role);
  expect(invited.status, invited.text).toBe(201);
  expect(invited.body.role).toBe(role);
  const mail = await smtp.waitFor((m) => m.to.includes(person.email.toLowerCase()) && /invited/i.test(m.subject));
  const accepted = await request(api('/invites/accept'), {
    json: { token: extractToken(mail.text), password: person.password },
  });
  expect(accepted.status, accepted.text).toBe(200);
  const roster = await request(api('/members'), { token: ownerToken });
  const entry = roster.body.find((m: { email: string }) => m.email === person.email);
  return { token: accepted.body.access_token as string, membershipId: entry.membership_id as string };
}

const permissionsOf = async (token: string) => (await request(api('/me/permissions'), { token })).body.permissions;

describe('the custom roles admin API', () => {
  it('creates, lists, reads, changes and deletes a role, auditing each change', async () => {
    const owner = await signUpOwner(svc.url, 'roles');
    const created = await createRole(owner.token, {
      code: 'support-desk',
      name: 'Support desk',
      description: 'Reads the roster',
      permissions: ['members:read', 'agents:read', 'members:read'],
    });
    expect(created.status, created.text).toBe(201);
    const at = svc.clock.now().toISOString();
    expect(created.body).toEqual({
      code: 'support-desk',
      name: 'Support desk',
      description: 'Reads the roster',
      permissions: ['agents:read', 'members:read'],
      read_only: true,
      created_at: at,
      updated_at: at,
    });
    expect((await request(api('/authz/roles'), { token: owner.token })).body).toEqual([created.body]);
    expect((await getRole(owner.token, 'support-desk')).body).toEqual(created.body);

    const patched = await patchRole(owner.token, 'support-desk', {
      name: 'Helpdesk',
      description: null,
      permissions: ['members:read', 'members:manage'],
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({
      code: 'support-desk',
      name: 'Helpdesk',
      description: null,
      permissions: ['members:manage', 'members:read'],
      read_only: false,
    });
    expect((await getRole(owner.token, 'support-desk')).body).toEqual(patched.body);

    const deleted = await deleteRole(owner.token, 'support-desk');
    expect(deleted.status).toBe(204);
    expect((await getRole(owner.token, 'support-desk')).status).toBe(404);
    expect((await request(api('/authz/roles'), { token: owner.token })).body).toEqual([]);

    expect(await eventsOf(owner.tenantId, 'custom_role.created')).toEqual([
      {
        actor_id: owner.userId,
        data: { code: 'support-desk', name: 'Support desk', permissions: ['agents:read', 'members:read'] },
      },
    ]);
    const updated = await eventsOf(owner.tenantId, 'custom_role.updated');
    expect(updated).toHaveLength(1);
    expect(updated[0]!.data).toMatchObject({ added: ['members:manage'], removed: ['agents:read'] });
    expect(await eventsOf(owner.tenantId, 'custom_role.deleted')).toHaveLength(1);
    // Each change is in the hash-chained audit log too.
    const audited = await rows<{ action: string }>(
      db(),
      sql`select action from audit_log where tenant_id = ${owner.tenantId} and action like 'custom_role.%'`,
    );
    expect(audited.map((a) => a.action).sort()).toEqual([
      'custom_role.created',
      'custom_role.deleted',
      'custom_role.updated',
    ]);
  });

  it('refuses a bad code (422), a system role code or a taken one (409), wildcards and unknown codes (422)', async () => {
    const owner = await signUpOwner(svc.url, 'roles');
    const body = (code: unknown, permissions: unknown = ['members:read']) => ({ code, name: 'R', permissions });
    for (const code of ['A-role', 'x', '1abc', '-abc', 'ab cd', 'a'.repeat(65), 'rôle', '']) {
      const res = await createRole(owner.token, body(code));
      expect(res.status, code).toBe(422);
      expect(res.body.detail, code).toMatch(/code/);
    }
    for (const code of ['owner', 'admin', 'member', 'customer', 'auditor']) {
      const res = await createRole(owner.token, body(code));
      expect(res.status, code).toBe(409);
      expect(res.body.detail).toMatch(/system role/);
    }
    expect((await createRole(owner.token, body('ops'))).status).toBe(201);
    const duplicate = await createRole(owner.token, body('ops', ['agents:read']));
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.detail).toMatch(/already exists/);

    for (const wildcard of ['agents:*', '*', 'members:*:read']) {
      const res = await createRole(owner.token, body('wild', [wildcard]));
      expect(res.status, wildcard).toBe(422);
      expect(res.body.detail).toMatch(/no wildcards/);
    }
    const unknown = await createRole(owner.token, body('unknown', ['members:read', 'payroll:run']));
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail).toBe('permissions: unknown permission codes: payroll:run');
    expect((await createRole(owner.token, { code: 'noname', permissions: [] })).status).toBe(422);
    expect((await createRole(owner.token, { ...body('extra'), extra: true })).status).toBe(422);
    expect((await createRole(owner.token, body('ctl'))).status).toBe(201);
    expect((await patchRole(owner.token, 'ctl', { name: 'bad\u0007name' })).status).toBe(422);
    expect((await patchRole(owner.token, 'ctl', { permissions: ['agents:*'] })).status).toBe(422);
    expect((await patchRole(owner.token, 'ctl', {})).status).toBe(422);
    // Nothing refused was stored.
    const codes = (await request(api('/authz/roles'), { token: owner.token })).body.map(
      (r: { code: string }) => r.code,
    );
    expect(codes).toEqual(['ctl', 'ops']);
  });

  it('grants only permissions the caller holds (403), and needs tenant:manage (403) and a credential (401)', async () => {
    const owner = await signUpOwner(svc.url, 'roles');
    // An admin holds tenant:manage but not compliance:admin (docs: the admin role).
    const admin = await addMember(svc, owner, 'admin');
    const lacking = await createRole(admin.token, { code: 'privacy', name: 'P', permissions: ['compliance:admin'] });
    expect(lacking.status).toBe(403);
    expect(lacking.body.detail).toBe('A role cannot grant permissions you do not hold: compliance:admin');
    expect((await getRole(owner.token, 'privacy')).status).toBe(404);
    // The owner may; the admin can then keep it in place but not add it elsewhere.
    expect(
      (await createRole(owner.token, { code: 'privacy', name: 'P', permissions: ['compliance:admin'] })).status,
    ).toBe(201);
    const kept = await patchRole(admin.token, 'privacy', { permissions: ['compliance:admin', 'compliance:read'] });
    expect(kept.status, kept.text).toBe(200);
    const added = await createRole(admin.token, { code: 'mine', name: 'M', permissions: ['members:read'] });
    expect(added.status).toBe(201);
    expect((await patchRole(admin.token, 'mine', { permissions: ['hipaa:phi:log'] })).status).toBe(403);

    const member = await addMember(svc, owner, 'member');
    for (const res of [
      await request(api('/authz/roles'), { token: member.token }),
      await getRole(member.token, 'mine'),
      await createRole(member.token, { code: 'x1', name: 'X', permissions: [] }),
      await patchRole(member.token, 'mine', { name: 'X' }),
      await deleteRole(member.token, 'mine'),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.detail).toBe('Missing permission: tenant:manage');
    }
    expect((await request(api('/authz/roles'))).status).toBe(401);
    expect((await getRole(owner.token, 'mine')).body.name).toBe('M');
  });

  it('answers 404 for an unknown role and for another organization’s, which it never shows', async () => {
    const a = await signUpOwner(svc.url, 'tenant-a');
    const b = await signUpOwner(svc.url, 'tenant-b');
    expect((await createRole(a.token, { code: 'shared-name', name: 'A', permissions: ['members:read'] })).status).toBe(
      201,
    );
    for (const code of ['shared-name', 'nope', 'owner', 'NOT-VALID']) {
      expect((await getRole(b.token, code)).status, code).toBe(404);
      expect((await patchRole(b.token, code, { name: 'stolen' })).status, code).toBe(404);
      expect((await deleteRole(b.token, code)).status, code).toBe(404);
    }
    expect((await request(api('/authz/roles'), { token: b.token })).body).toEqual([]);
    // B cannot hand out A's role either: it does not exist in B.
    expect((await invite(b.token, newAccount('x').email, 'shared-name')).status).toBe(422);
    // B has its own namespace: the same code is free there.
    const own = await createRole(b.token, { code: 'shared-name', name: 'B', permissions: ['agents:read'] });
    expect(own.status).toBe(201);
    expect((await getRole(a.token, 'shared-name')).body).toMatchObject({ name: 'A', permissions: ['members:read'] });
    // Row-level security backs it: without the tenant setting the app role sees no role at all.
    const hidden = await svc.deps.transactions.tenant(a.tenantId, (tx) =>
      rows<{ n: number }>(tx, sql`select count(*)::int as n from custom_roles where tenant_id = ${b.tenantId}`),
    );
    expect(hidden).toEqual([{ n: 0 }]);
  });
});

describe('holding a custom role', () => {
  it('gives a member exactly what the role grants, and a change holds from their next request', async () => {
    const owner = await signUpOwner(svc.url, 'holder');
    expect(
      (await createRole(owner.token, { code: 'roster-reader', name: 'Roster reader', permissions: ['members:read'] }))
        .status,
    ).toBe(201);
    const member = await addMember(svc, owner, 'member');
    const membershipId = (await request(api('/members'), { token: owner.token })).body.find(
      (m: { email: string }) => m.email === member.email,
    ).membership_id;
    const changed = await request(api(`/members/${membershipId}`), {
      method: 'PATCH',
      token: owner.token,
      json: { role: 'roster-reader' },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.role).toBe('roster-reader');

    // The same token, next request: exactly the role plus the baseline.
    expect((await request(api('/me'), { token: member.token })).body.role).toBe('roster-reader');
    expect((await permissionsOf(member.token)).sort()).toEqual(['identity:self:write', 'members:read']);
    expect((await request(api('/members'), { token: member.token })).status).toBe(200);
    for (const res of [
      await request(api('/members/invites'), { token: member.token, json: { email: newAccount('y').email } }),
      await request(api('/agents'), { token: member.token }),
      await request(api('/authz/roles'), { token: member.token }),
    ]) {
      expect(res.status).toBe(403);
    }

    // Removing the permission: refused on the member's very next request, no new sign-in.
    expect((await patchRole(owner.token, 'roster-reader', { permissions: ['agents:read'] })).status).toBe(200);
    expect((await request(api('/members'), { token: member.token })).status).toBe(403);
    expect((await request(api('/agents'), { token: member.token })).status).toBe(200);
    expect((await permissionsOf(member.token)).sort()).toEqual(['agents:read', 'identity:self:write']);

    // While the member holds it the role is not deleted; once they hold another, it is.
    const held = await deleteRole(owner.token, 'roster-reader');
    expect(held.status).toBe(409);
    expect(held.body.detail).toMatch(/in use \(1 member/);
    expect((await getRole(owner.token, 'roster-reader')).status).toBe(200);
    await request(api(`/members/${membershipId}`), { method: 'PATCH', token: owner.token, json: { role: 'member' } });
    expect((await deleteRole(owner.token, 'roster-reader')).status).toBe(204);
    expect((await request(api('/agents'), { token: member.token })).status).toBe(403);
  });

  it('is given by an accepted invitation; a pending invitation keeps the role from being deleted', async () => {
    const owner = await signUpOwner(svc.url, 'inviter');
    await createRole(owner.token, { code: 'analyst', name: 'Analyst', permissions: ['command:read', 'members:read'] });
    const pending = newAccount('pending');
    const invited = await invite(owner.token, pending.email, 'analyst');
    expect(invited.status).toBe(201);
    const blocked = await deleteRole(owner.token, 'analyst');
    expect(blocked.status).toBe(409);
    expect(blocked.body.detail).toMatch(/1 pending invitation/);
    const revoked = await request(api(`/members/invites/${invited.body.invite_id}`), {
      method: 'DELETE',
      token: owner.token,
    });
    expect(revoked.status).toBe(204);

    const joined = await joinByInvitation(owner.token, 'analyst');
    expect((await request(api('/me'), { token: joined.token })).body.role).toBe('analyst');
    expect((await permissionsOf(joined.token)).sort()).toEqual(['command:read', 'identity:self:write', 'members:read']);
    expect((await request(api('/members'), { token: joined.token })).status).toBe(200);
    expect((await deleteRole(owner.token, 'analyst')).status).toBe(409);
  });

  it('is granted only by someone holding all it grants; an unknown code is an unknown role', async () => {
    const owner = await signUpOwner(svc.url, 'granter');
    await createRole(owner.token, { code: 'privacy-ops', name: 'Privacy', permissions: ['compliance:admin'] });
    await createRole(owner.token, { code: 'readers', name: 'Readers', permissions: ['members:read'] });
    const admin = await addMember(svc, owner, 'admin');
    const refused = await invite(admin.token, newAccount('z').email, 'privacy-ops');
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toBe('Role privacy-ops holds permissions you do not hold: compliance:admin');
    expect((await invite(admin.token, newAccount('z').email, 'readers')).status).toBe(201);
    const unknown = await invite(owner.token, newAccount('z').email, 'ghost-role');
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail).toBe('role: unknown role "ghost-role"');
    const member = await addMember(svc, owner, 'member');
    const membershipId = (await request(api('/members'), { token: owner.token })).body.find(
      (m: { email: string }) => m.email === member.email,
    ).membership_id;
    const patch = (token: string, role: string) =>
      request(api(`/members/${membershipId}`), { method: 'PATCH', token, json: { role } });
    expect((await patch(admin.token, 'privacy-ops')).status).toBe(403);
    expect((await patch(owner.token, 'ghost-role')).status).toBe(422);
    expect((await patch(admin.token, 'readers')).status).toBe(200);
  });

  it('bounds an agent delegated by a holder to the role’s current permissions', async () => {
    const owner = await signUpOwner(svc.url, 'agents');
    await createRole(owner.token, {
      code: 'agent-keeper',
      name: 'Agent keeper',
      permissions: ['agents:manage', 'agents:read', 'members:read'],
    });
    const keeper = await addMember(svc, owner, 'agent-keeper');
    const agent = await registerAgent(svc, keeper.token);
    const granted = await delegate(svc, keeper.token, agent.agent_id, ['members:read']);
    expect(granted.status, granted.text).toBe(201);
    // A permission the keeper's role lacks is not theirs to delegate.
    expect((await delegate(svc, keeper.token, agent.agent_id, ['tenant:manage'])).status).toBe(403);
    const token = await agentAccessToken(svc, agent.credential);
    expect((await request(api('/members'), { token })).status).toBe(200);
    expect(
      (await patchRole(owner.token, 'agent-keeper', { permissions: ['agents:manage', 'agents:read'] })).status,
    ).toBe(200);
    expect((await request(api('/members'), { token })).status).toBe(403);
    expect(
      (await patchRole(owner.token, 'agent-keeper', { permissions: ['agents:read', 'members:read'] })).status,
    ).toBe(200);
    expect((await request(api('/members'), { token })).status).toBe(200);
  });
});

describe('GET /authz/catalog', () => {
  it('lists the caller’s organization’s custom roles beside the system roles, nobody else’s', async () => {
    const a = await signUpOwner(svc.url, 'catalog-a');
    const b = await signUpOwner(svc.url, 'catalog-b');
    await createRole(a.token, { code: 'auditor-lite', name: 'Auditor lite', permissions: ['command:read'] });
    const catalogue = (token?: string) => request(api('/authz/catalog'), token ? { token } : {});
    const mine = await catalogue(a.token);
    expect(mine.status).toBe(200);
    const custom = mine.body.roles.filter((r: { custom: boolean }) => r.custom);
    expect(custom).toEqual([
      {
        code: 'auditor-lite',
        name: 'Auditor lite',
        description: '',
        grantable: true,
        read_only: true,
        custom: true,
        permissions: ['command:read', 'identity:self:write'],
      },
    ]);
    expect(mine.body.roles.filter((r: { custom: boolean }) => !r.custom).map((r: { code: string }) => r.code)).toEqual(
      (await catalogue()).body.roles.map((r: { code: string }) => r.code),
    );
    expect((await catalogue(b.token)).body.roles.some((r: { custom: boolean }) => r.custom)).toBe(false);
    expect((await catalogue()).body.roles.some((r: { custom: boolean }) => r.custom)).toBe(false);
    expect((await catalogue('not-a-token')).status).toBe(401);
    // Deleted: gone from the catalogue at once.
    await deleteRole(a.token, 'auditor-lite');
    expect((await catalogue(a.token)).body.roles.some((r: { custom: boolean }) => r.custom)).toBe(false);
  });
});
