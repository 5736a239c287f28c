import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { days } from '../../src/kernel/clock.js';
import { rows } from '../../src/kernel/db/index.js';
import { agentAccessToken } from '../support/agent-tokens.js';
import { delegate, registerAgent } from '../support/agents.js';
import { request } from '../support/http.js';
import { addMember, signUpOwner } from '../support/organizations.js';
import { privacySteps } from '../support/privacy.js';
import { startService, type TestService } from '../support/service.js';

// Delegations (issue 20 item 3; ARCHITECTURE.md "Interfaces the specification leaves out", Agents; Part A 4.1
// `/me/agents`).

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => {
  await svc?.close();
});

const api = (path: string) => `${svc.url}/api/v1${path}`;
const db = () => svc.deps.database.db;
const myAgents = (token: string) => request(api('/me/agents'), { token });
const revoke = (token: string, delegationId: string) =>
  request(api(`/me/agents/${delegationId}`), { method: 'DELETE', token });

async function eventsOf(tenantId: string, action: string) {
  return rows<{ data: Record<string, unknown>; actor_id: string }>(
    db(),
    sql`select data, actor_id from events where tenant_id = ${tenantId} and action = ${action} order by occurred_at, id`,
  );
}

async function login(who: { email: string; password: string; slug: string }) {
  const res = await request(api('/auth/login'), {
    json: { email: who.email, password: who.password, tenant_slug: who.slug },
  });
  expect(res.status).toBe(200);
  return res.body.access_token as string;
}

describe('granting a delegation', () => {
  it('answers 201, records agent.delegation_granted, and shows it on the agent and in /me/agents', async () => {
    const owner = await signUpOwner(svc.url, 'delegate');
    const agent = await registerAgent(svc, owner.token, { name: 'Reporter' });
    const res = await delegate(svc, owner.token, agent.agent_id, ['members:read', 'agents:read', 'members:read']);
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      delegation_id: expect.any(String),
      agent_id: agent.agent_id,
      permissions: ['members:read', 'agents:read'],
      expires_at: null,
      created_at: svc.clock.now().toISOString(),
    });
    const granted = await eventsOf(owner.tenantId, 'agent.delegation_granted');
    expect(granted).toHaveLength(1);
    expect(granted[0]).toMatchObject({ actor_id: owner.userId });
    expect(granted[0]!.data).toEqual({
      delegation_id: res.body.delegation_id,
      agent_id: agent.agent_id,
      permissions: ['members:read', 'agents:read'],
      expires_at: null,
    });

    const mine = await myAgents(owner.token);
    expect(mine.status).toBe(200);
    expect(mine.body.delegations).toEqual([
      {
        delegation_id: res.body.delegation_id,
        agent_id: agent.agent_id,
        agent_name: 'Reporter',
        agent_status: 'active',
        permissions: ['members:read', 'agents:read'],
        expires_at: null,
        created_at: res.body.created_at,
      },
    ]);
    const read = await request(api(`/agents/${agent.agent_id}`), { token: owner.token });
    expect(read.body.delegations.map((d: { delegation_id: string }) => d.delegation_id)).toEqual([
      res.body.delegation_id,
    ]);
  });

  it('time-boxes with expires_in_days; an expired delegation is no longer live anywhere', async () => {
    const owner = await signUpOwner(svc.url, 'delegatebox');
    const agent = await registerAgent(svc, owner.token);
    const res = await delegate(svc, owner.token, agent.agent_id, ['members:read'], 7);
    expect(res.status).toBe(201);
    expect(res.body.expires_at).toBe(new Date(svc.clock.now().getTime() + days(7)).toISOString());
    expect((await myAgents(owner.token)).body.delegations).toHaveLength(1);

    svc.clock.advance(days(7) + 1000);
    try {
      const token = await login(owner);
      expect((await myAgents(token)).body.delegations).toEqual([]);
      expect((await request(api(`/agents/${agent.agent_id}`), { token })).body.delegations).toEqual([]);
      expect((await revoke(token, res.body.delegation_id)).status).toBe(404);
    } finally {
      svc.clock.advance(-(days(7) + 1000));
    }
  });

  it('refuses unknown codes with 422 naming them, and codes the caller does not hold with 403 naming them', async () => {
    const owner = await signUpOwner(svc.url, 'delegatebad');
    const operator = await addMember(svc, owner, 'security_operator');
    const agent = await registerAgent(svc, owner.token);

    const unknown = await delegate(svc, owner.token, agent.agent_id, ['members:read', 'bogus:thing', 'command:*']);
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail).toBe('permissions: unknown permission codes: bogus:thing, command:*');

    // A security operator holds agents:manage and members:read, not tenant:manage nor members:manage.
    const beyond = await delegate(svc, operator.token, agent.agent_id, [
      'members:read',
      'tenant:manage',
      'members:manage',
    ]);
    expect(beyond.status).toBe(403);
    expect(beyond.body.detail).toBe('Cannot delegate permissions you do not hold: tenant:manage, members:manage');
    const within = await delegate(svc, operator.token, agent.agent_id, ['members:read', 'command:read']);
    expect(within.status, within.text).toBe(201);

    // The owner holds every permission.
    expect((await delegate(svc, owner.token, agent.agent_id, ['tenant:manage', 'operator:manage'])).status).toBe(201);

    for (const [body, field] of [
      [{}, 'permissions: is required'],
      [{ permissions: [] }, 'permissions'],
      [{ permissions: ['members:read'], expires_in_days: 0 }, 'expires_in_days'],
      [{ permissions: ['members:read'], expires_in_days: 2.5 }, 'expires_in_days'],
      [{ permissions: 'members:read' }, 'permissions'],
    ] as const) {
      const res = await request(api(`/agents/${agent.agent_id}/delegations`), { token: owner.token, json: body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.detail).toContain(field);
    }
    const stored = await rows(db(), sql`select id from agent_delegations where agent_id = ${agent.agent_id}`);
    expect(stored).toHaveLength(2);
  });

  it('needs agents:manage, a known agent of the organization, and one that is not retired', async () => {
    const owner = await signUpOwner(svc.url, 'delegatewho');
    const other = await signUpOwner(svc.url, 'delegatewho');
    const auditor = await addMember(svc, owner, 'auditor');
    const agent = await registerAgent(svc, owner.token);
    const theirs = await registerAgent(svc, other.token);

    const byAuditor = await delegate(svc, auditor.token, agent.agent_id, ['members:read']);
    expect(byAuditor.status).toBe(403);
    expect(byAuditor.body.detail).toBe('Missing permission: agents:manage');
    expect((await delegate(svc, owner.token, theirs.agent_id, ['members:read'])).status).toBe(404);
    expect((await delegate(svc, owner.token, '0190d6f2-0000-7000-8000-000000000000', ['members:read'])).status).toBe(
      404,
    );
    expect((await delegate(svc, owner.token, 'nope', ['members:read'])).status).toBe(404);

    expect(
      (await request(api(`/agents/${agent.agent_id}/retire`), { method: 'POST', token: owner.token })).status,
    ).toBe(200);
    const retired = await delegate(svc, owner.token, agent.agent_id, ['members:read']);
    expect(retired.status).toBe(409);
    expect(retired.body.detail).toBe('Cannot delegate to an agent that is retired');
  });
});

describe('/me/agents', () => {
  it("lists only the caller's own live delegations; revoking one is 204 then 404", async () => {
    const owner = await signUpOwner(svc.url, 'meagents');
    const operator = await addMember(svc, owner, 'security_operator');
    const agent = await registerAgent(svc, owner.token, { name: 'Shared' });
    const ownerGrant = (await delegate(svc, owner.token, agent.agent_id, ['tenant:read'])).body;
    const operatorGrant = (await delegate(svc, operator.token, agent.agent_id, ['command:read'])).body;

    expect((await myAgents(owner.token)).body.delegations.map((d: any) => d.delegation_id)).toEqual([
      ownerGrant.delegation_id,
    ]);
    expect((await myAgents(operator.token)).body.delegations.map((d: any) => d.delegation_id)).toEqual([
      operatorGrant.delegation_id,
    ]);

    // Not yours: 404, and the delegation stays.
    const notYours = await revoke(owner.token, operatorGrant.delegation_id);
    expect(notYours.status).toBe(404);
    expect(notYours.body.detail).toBe('Delegation not found');
    expect((await myAgents(operator.token)).body.delegations).toHaveLength(1);

    const revoked = await revoke(operator.token, operatorGrant.delegation_id);
    expect(revoked.status).toBe(204);
    expect(revoked.text).toBe('');
    expect((await myAgents(operator.token)).body.delegations).toEqual([]);
    const read = await request(api(`/agents/${agent.agent_id}`), { token: owner.token });
    expect(read.body.delegations.map((d: any) => d.delegation_id)).toEqual([ownerGrant.delegation_id]);
    const events = await eventsOf(owner.tenantId, 'agent.delegation_revoked');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actor_id: operator.userId });
    expect(events[0]!.data).toEqual({
      delegation_id: operatorGrant.delegation_id,
      agent_id: agent.agent_id,
      permissions: ['command:read'],
    });

    // Already revoked, not a delegation to an agent (the agent's own id), or no id at all: the same 404.
    for (const id of [operatorGrant.delegation_id, agent.agent_id, '0190d6f2-0000-7000-8000-000000000000', 'x']) {
      const res = await revoke(operator.token, id);
      expect(res.status, id).toBe(404);
      expect(res.body.detail).toBe('Delegation not found');
    }
    expect(await eventsOf(owner.tenantId, 'agent.delegation_revoked')).toHaveLength(1);
  });

  it('keeps organizations apart: another organization never sees nor revokes a delegation', async () => {
    const mine = await signUpOwner(svc.url, 'meagentsiso');
    const theirs = await signUpOwner(svc.url, 'meagentsiso');
    const agent = await registerAgent(svc, theirs.token);
    const grant = (await delegate(svc, theirs.token, agent.agent_id, ['members:read'])).body;
    expect((await myAgents(mine.token)).body.delegations).toEqual([]);
    expect((await revoke(mine.token, grant.delegation_id)).status).toBe(404);
    expect((await myAgents(theirs.token)).body.delegations).toHaveLength(1);
  });

  it('is for people: API keys and AI agents get 403', async () => {
    const owner = await signUpOwner(svc.url, 'meagentskey');
    const agent = await registerAgent(svc, owner.token);
    const grant = (await delegate(svc, owner.token, agent.agent_id, ['identity:self:write', 'agents:manage'])).body;
    const key = await request(api('/tenants/api-keys'), {
      token: owner.token,
      json: { label: 'self', scopes: ['identity:self:write', 'agents:manage'] },
    });
    const agentToken = await agentAccessToken(svc, agent.credential);
    for (const [token, detail] of [
      [key.body.key as string, 'This route is not open to API keys'],
      [agentToken, 'This route is not open to AI agents'],
    ] as const) {
      for (const res of [
        await myAgents(token),
        await revoke(token, grant.delegation_id),
        await delegate(svc, token, agent.agent_id, ['identity:self:write']),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body.detail).toBe(detail);
      }
    }
    expect((await myAgents(owner.token)).body.delegations).toHaveLength(1);
  });
});

describe('what a delegation is worth to the agent', () => {
  it('an agent acts with its delegation, and loses it on its next call once it is revoked', async () => {
    const owner = await signUpOwner(svc.url, 'delegateuse');
    const agent = await registerAgent(svc, owner.token);
    const grant = (await delegate(svc, owner.token, agent.agent_id, ['members:read'])).body;
    const token = await agentAccessToken(svc, agent.credential);
    const before = await request(api('/members'), { token });
    expect(before.status, before.text).toBe(200);
    expect((await revoke(owner.token, grant.delegation_id)).status).toBe(204);
    const after = await request(api('/members'), { token });
    expect(after.status).toBe(403);
  });

  it("a person's data export lists the agents they registered and their delegations; their erasure ends them", async () => {
    const owner = await signUpOwner(svc.url, 'deleg-erasure');
    const admin = await addMember(svc, owner, 'admin');
    const agent = await registerAgent(svc, admin.token);
    const grant = (await delegate(svc, admin.token, agent.agent_id, ['members:read'])).body;
    const token = await agentAccessToken(svc, agent.credential);
    expect((await request(api('/members'), { token })).status).toBe(200);

    const exported = await request(api('/gdpr/my-data'), { token: admin.token });
    expect(exported.status).toBe(200);
    expect(exported.body.sections.agents).toMatchObject({
      registered: [{ agent_id: agent.agent_id, status: 'active' }],
      delegations: [{ delegation_id: grant.delegation_id, permissions: ['members:read'], revoked_at: null }],
    });
    expect(JSON.stringify(exported.body.sections.agents)).not.toContain(agent.credential);

    const { file, admin: step } = privacySteps(() => svc);
    const filed = (await file(admin.token, { request_type: 'erasure' })).body;
    expect((await step(owner.token, filed.id, 'verify')).status).toBe(200);
    const erased = await step(owner.token, filed.id, 'process');
    expect(erased.status).toBe(200);
    expect(erased.body.erased_sections).toContain('agents');

    const [delegation] = await rows<{ revoked_reason: string | null }>(
      db(),
      sql`select revoked_reason from agent_delegations where id = ${grant.delegation_id}`,
    );
    expect(delegation?.revoked_reason).toBe('delegator erased');
    const [row] = await rows<{ created_by_user_id: string | null; status: string }>(
      db(),
      sql`select created_by_user_id, status from agents where id = ${agent.agent_id}`,
    );
    expect(row).toEqual({ created_by_user_id: null, status: 'active' });
    // The agent keeps nothing of the erased person's authority, on its next call.
    expect((await request(api('/members'), { token })).status).toBe(403);
  });
});
