import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/kernel/db/index.js';
import { hashAgentCredential } from '../../src/modules/agents/credentials.js';
import { KILL_SWITCH_DETECTION } from '../../src/modules/agents/kill-switch.js';
import { mintAgentToken } from '../support/agent-tokens.js';
import { delegate, registerAgent } from '../support/agents.js';
import { request } from '../support/http.js';
import { addMember, signUpOwner } from '../support/organizations.js';
import { startService, type TestService } from '../support/service.js';

// Agent administration (issue 20 item 2; ARCHITECTURE.md "Interfaces the specification leaves out", Agents).

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => {
  await svc?.close();
});

const api = (path: string) => `${svc.url}/api/v1${path}`;
const db = () => svc.deps.database.db;

async function agentRow(agentId: string) {
  const [row] = await rows<{ credential_hash: string; token_epoch: number; status: string }>(
    db(),
    sql`select credential_hash, token_epoch, status from agents where id = ${agentId}`,
  );
  return row!;
}

async function eventsOf(tenantId: string, action: string) {
  return rows<{ data: Record<string, unknown>; actor_id: string; actor_type: string; severity: string }>(
    db(),
    sql`select data, actor_id, actor_type, severity from events
        where tenant_id = ${tenantId} and action = ${action} order by occurred_at, id`,
  );
}

const post = (path: string, token: string, json: unknown = undefined) =>
  request(api(path), { method: 'POST', token, ...(json === undefined ? {} : { json }) });

describe('registering an agent', () => {
  it('answers 201 with the agt_ credential once, stores only its hash, and records agent.registered', async () => {
    const owner = await signUpOwner(svc.url, 'agentreg');
    const res = await request(api('/agents'), { token: owner.token, json: { name: 'Release bot' } });
    expect(res.status, res.text).toBe(201);
    const { credential, agent_id } = res.body;
    expect(credential).toMatch(/^agt_[A-Za-z0-9_-]{43}$/);
    expect(res.body).toMatchObject({
      name: 'Release bot',
      description: null,
      status: 'active',
      oversight_mode: 'autonomous',
      risk_ceiling: 100,
      confidence_floor: 0,
      write_budget_per_hour: null,
      kill_switch: { engaged: false, reason: null, engaged_by: null, changed_at: null },
      credential_prefix: credential.slice(0, 12),
      created_by_user_id: owner.userId,
      suspended_at: null,
      retired_at: null,
    });

    const stored = await agentRow(agent_id);
    expect(stored.credential_hash).toBe(hashAgentCredential(credential));
    const everything = await rows(db(), sql`select * from agents where id = ${agent_id}`);
    expect(JSON.stringify(everything)).not.toContain(credential.slice(4));

    const registered = await eventsOf(owner.tenantId, 'agent.registered');
    expect(registered).toHaveLength(1);
    expect(registered[0]).toMatchObject({ actor_id: owner.userId, actor_type: 'human' });
    expect(registered[0]!.data).toMatchObject({ agent_id, name: 'Release bot' });
    expect(JSON.stringify(registered)).not.toContain(credential.slice(4));

    // Reads never show the credential again.
    const one = await request(api(`/agents/${agent_id}`), { token: owner.token });
    expect(one.status).toBe(200);
    expect(one.body).not.toHaveProperty('credential');
    expect(one.text).not.toContain(credential.slice(4));
    const list = await request(api('/agents'), { token: owner.token });
    expect(list.text).not.toContain(credential.slice(4));
  });

  it('takes the governance fields and refuses out-of-range or unknown ones with 422 naming the field', async () => {
    const owner = await signUpOwner(svc.url, 'agentfields');
    const agent = await registerAgent(svc, owner.token, {
      name: 'Supervised',
      description: 'Drafts release notes',
      oversight_mode: 'supervised',
      risk_ceiling: 40,
      confidence_floor: 0.75,
    });
    expect(agent).toMatchObject({
      description: 'Drafts release notes',
      oversight_mode: 'supervised',
      risk_ceiling: 40,
      confidence_floor: 0.75,
    });
    const refusals: Array<[Record<string, unknown>, string]> = [
      [{}, 'name: is required'],
      [{ name: '' }, 'name'],
      [{ name: 'x', oversight_mode: 'yolo' }, 'oversight_mode'],
      [{ name: 'x', risk_ceiling: 101 }, 'risk_ceiling'],
      [{ name: 'x', risk_ceiling: -1 }, 'risk_ceiling'],
      [{ name: 'x', risk_ceiling: 50.5 }, 'risk_ceiling'],
      [{ name: 'x', confidence_floor: 1.5 }, 'confidence_floor'],
      [{ name: 'x', write_budget_per_hour: 10 }, 'write_budget_per_hour: is not a known field'],
    ];
    for (const [body, field] of refusals) {
      const res = await request(api('/agents'), { token: owner.token, json: body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.detail).toContain(field);
    }
    const count = await rows(db(), sql`select id from agents where tenant_id = ${owner.tenantId}`);
    expect(count).toHaveLength(1);
  });
});

describe('listing and reading agents', () => {
  it('lists newest first in pages with next_cursor, and reads one with its live delegations', async () => {
    const owner = await signUpOwner(svc.url, 'agentlist');
    const first = await registerAgent(svc, owner.token, { name: 'first' });
    svc.clock.advance(1000);
    const second = await registerAgent(svc, owner.token, { name: 'second' });
    svc.clock.advance(1000);
    const third = await registerAgent(svc, owner.token, { name: 'third' });

    const page1 = await request(api('/agents?limit=2'), { token: owner.token });
    expect(page1.status).toBe(200);
    expect(page1.body.agents.map((a: { name: string }) => a.name)).toEqual(['third', 'second']);
    expect(page1.body.next_cursor).toEqual(expect.any(String));
    const page2 = await request(api(`/agents?limit=2&cursor=${page1.body.next_cursor}`), { token: owner.token });
    expect(page2.body.agents.map((a: { agent_id: string }) => a.agent_id)).toEqual([first.agent_id]);
    expect(page2.body.next_cursor).toBeNull();
    const whole = await request(api('/agents'), { token: owner.token });
    expect(whole.body.agents).toHaveLength(3);
    expect(whole.body.agents[0]).not.toHaveProperty('delegations');

    const bad = await request(api('/agents?cursor=nonsense'), { token: owner.token });
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toContain('cursor');

    expect((await delegate(svc, owner.token, second.agent_id, ['members:read'])).status).toBe(201);
    const read = await request(api(`/agents/${second.agent_id}`), { token: owner.token });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ agent_id: second.agent_id, name: 'second', status: 'active' });
    expect(read.body.delegations).toEqual([
      {
        delegation_id: expect.any(String),
        delegator_user_id: owner.userId,
        permissions: ['members:read'],
        expires_at: null,
        created_at: svc.clock.now().toISOString(),
      },
    ]);
    expect((await request(api(`/agents/${third.agent_id}`), { token: owner.token })).body.delegations).toEqual([]);
  });

  it('answers 404 for unknown and malformed agent ids', async () => {
    const owner = await signUpOwner(svc.url, 'agent404');
    for (const id of ['0190d6f2-0000-7000-8000-000000000000', 'not-an-id']) {
      const res = await request(api(`/agents/${id}`), { token: owner.token });
      expect(res.status, id).toBe(404);
      expect(res.body.detail).toBe('Agent not found');
      expect((await post(`/agents/${id}/suspend`, owner.token)).status).toBe(404);
    }
  });
});

describe('updating an agent', () => {
  it('changes the governance fields, sets and clears write_budget_per_hour, and records agent.updated', async () => {
    const owner = await signUpOwner(svc.url, 'agentpatch');
    const agent = await registerAgent(svc, owner.token, { name: 'before' });
    const patch = (json: unknown) =>
      request(api(`/agents/${agent.agent_id}`), { method: 'PATCH', token: owner.token, json });

    const changed = await patch({
      name: 'after',
      description: 'now described',
      oversight_mode: 'supervised',
      risk_ceiling: 30,
      confidence_floor: 0.5,
      write_budget_per_hour: 500,
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({
      name: 'after',
      description: 'now described',
      oversight_mode: 'supervised',
      risk_ceiling: 30,
      confidence_floor: 0.5,
      write_budget_per_hour: 500,
    });
    const cleared = await patch({ write_budget_per_hour: null, description: null });
    expect(cleared.body).toMatchObject({ write_budget_per_hour: null, description: null, name: 'after' });
    const read = await request(api(`/agents/${agent.agent_id}`), { token: owner.token });
    expect(read.body).toMatchObject({ name: 'after', risk_ceiling: 30, write_budget_per_hour: null });

    const updates = await eventsOf(owner.tenantId, 'agent.updated');
    expect(updates).toHaveLength(2);
    expect(updates[1]!.data).toEqual({
      agent_id: agent.agent_id,
      changes: { write_budget_per_hour: null, description: null },
    });

    for (const [body, field] of [
      [{}, 'body'],
      [{ write_budget_per_hour: 0 }, 'write_budget_per_hour'],
      [{ write_budget_per_hour: 1.5 }, 'write_budget_per_hour'],
      [{ risk_ceiling: 200 }, 'risk_ceiling'],
      [{ status: 'retired' }, 'status: is not a known field'],
    ] as const) {
      const res = await patch(body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.detail).toContain(field);
    }
  });
});

describe('the lifecycle', () => {
  it('suspends, resumes and retires, with 409 on every transition that does not apply', async () => {
    const owner = await signUpOwner(svc.url, 'agentlife');
    const agent = await registerAgent(svc, owner.token);
    const id = agent.agent_id;

    const suspended = await post(`/agents/${id}/suspend`, owner.token);
    expect(suspended.status, suspended.text).toBe(200);
    expect(suspended.body).toMatchObject({ status: 'suspended', suspended_at: svc.clock.now().toISOString() });
    const again = await post(`/agents/${id}/suspend`, owner.token);
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe('Cannot suspend an agent that is suspended');

    const resumed = await post(`/agents/${id}/resume`, owner.token);
    expect(resumed.status).toBe(200);
    expect(resumed.body).toMatchObject({ status: 'active', suspended_at: null });
    expect((await post(`/agents/${id}/resume`, owner.token)).body.detail).toBe('Cannot resume an agent that is active');

    expect((await delegate(svc, owner.token, id, ['members:read'])).status).toBe(201);
    const epochBefore = (await agentRow(id)).token_epoch;
    const retired = await post(`/agents/${id}/retire`, owner.token);
    expect(retired.status).toBe(200);
    expect(retired.body).toMatchObject({ status: 'retired', retired_at: svc.clock.now().toISOString() });
    // The epoch stays: held tokens get governance's 403 (the credential's 401 is at mint), not an epoch 401.
    expect((await agentRow(id)).token_epoch).toBe(epochBefore);
    // Retirement ends the agent's delegations; the record stays for the audit trail.
    const read = await request(api(`/agents/${id}`), { token: owner.token });
    expect(read.status).toBe(200);
    expect(read.body.delegations).toEqual([]);
    expect((await request(api('/me/agents'), { token: owner.token })).body.delegations).toEqual([]);

    // Retirement is permanent: nothing else applies to a retired agent.
    for (const [path, detail] of [
      ['resume', 'Cannot resume an agent that is retired'],
      ['suspend', 'Cannot suspend an agent that is retired'],
      ['retire', 'Cannot retire an agent that is retired'],
      ['rotate-credential', 'Cannot rotate the credential of an agent that is retired'],
    ] as const) {
      const res = await post(`/agents/${id}/${path}`, owner.token);
      expect(res.status, path).toBe(409);
      expect(res.body.detail).toBe(detail);
    }
    const patch = await request(api(`/agents/${id}`), { method: 'PATCH', token: owner.token, json: { name: 'x' } });
    expect(patch.status).toBe(409);
    expect(patch.body.detail).toBe('Cannot update an agent that is retired');
    const kill = await post(`/agents/${id}/kill-switch`, owner.token, { engaged: true, reason: 'late' });
    expect(kill.status).toBe(409);
    expect((await delegate(svc, owner.token, id, ['members:read'])).status).toBe(409);

    for (const action of ['agent.suspended', 'agent.resumed', 'agent.retired']) {
      expect(await eventsOf(owner.tenantId, action), action).toHaveLength(1);
    }
    expect((await eventsOf(owner.tenantId, 'agent.retired'))[0]!.data).toMatchObject({ agent_id: id });
    // The revocation cascade ended the agent's delegation in the same transaction, and recorded it.
    expect((await eventsOf(owner.tenantId, 'agent.delegation_revoked')).map((event) => event.data)).toEqual([
      expect.objectContaining({ agent_id: id, permissions: ['members:read'], reason: 'agent retired' }),
    ]);
  });

  it('rotates the credential: a new one once, a new hash, the epoch bumped, agent.credential_rotated', async () => {
    const owner = await signUpOwner(svc.url, 'agentrotate');
    const agent = await registerAgent(svc, owner.token);
    const before = await agentRow(agent.agent_id);
    const rotated = await post(`/agents/${agent.agent_id}/rotate-credential`, owner.token);
    expect(rotated.status, rotated.text).toBe(200);
    expect(rotated.body.credential).toMatch(/^agt_[A-Za-z0-9_-]{43}$/);
    expect(rotated.body.credential).not.toBe(agent.credential);
    expect(rotated.body.credential_prefix).toBe(rotated.body.credential.slice(0, 12));
    const after = await agentRow(agent.agent_id);
    expect(after.credential_hash).toBe(hashAgentCredential(rotated.body.credential));
    expect(after.token_epoch).toBe(before.token_epoch + 1);
    const rotations = await eventsOf(owner.tenantId, 'agent.credential_rotated');
    expect(rotations).toHaveLength(1);
    expect(JSON.stringify(rotations)).not.toContain(rotated.body.credential.slice(4));
    // A suspended agent's credential can be rotated too.
    expect((await post(`/agents/${agent.agent_id}/suspend`, owner.token)).status).toBe(200);
    expect((await post(`/agents/${agent.agent_id}/rotate-credential`, owner.token)).status).toBe(200);
  });
});

describe('the kill switch', () => {
  it('engages with agents:manage and a reason, releases with agents:kill, each change a critical detection', async () => {
    const owner = await signUpOwner(svc.url, 'agentkill');
    const auditor = await addMember(svc, owner, 'auditor');
    const operator = await addMember(svc, owner, 'security_operator');
    const agent = await registerAgent(svc, owner.token);
    const kill = (token: string, json: unknown) => post(`/agents/${agent.agent_id}/kill-switch`, token, json);

    const noPermission = await kill(auditor.token, { engaged: true, reason: 'runaway' });
    expect(noPermission.status).toBe(403);
    expect(noPermission.body.detail).toBe('Missing permission: agents:manage');
    const noReason = await kill(operator.token, { engaged: true });
    expect(noReason.status).toBe(422);
    expect(noReason.body.detail).toContain('reason');
    expect((await kill(operator.token, {})).status).toBe(422);

    const engaged = await kill(operator.token, { engaged: true, reason: 'runaway loop' });
    expect(engaged.status, engaged.text).toBe(200);
    expect(engaged.body.kill_switch).toEqual({
      engaged: true,
      reason: 'runaway loop',
      engaged_by: { id: operator.userId, type: 'human' },
      changed_at: svc.clock.now().toISOString(),
    });
    const twice = await kill(owner.token, { engaged: true, reason: 'again' });
    expect(twice.status).toBe(409);
    expect(twice.body.detail).toBe('Kill switch is already engaged');

    const releaseByAuditor = await kill(auditor.token, { engaged: false });
    expect(releaseByAuditor.status).toBe(403);
    expect(releaseByAuditor.body.detail).toBe('Missing permission: agents:kill');
    const released = await kill(owner.token, { engaged: false, reason: 'fixed' });
    expect(released.status).toBe(200);
    expect(released.body.kill_switch).toMatchObject({ engaged: false, engaged_by: null });
    const notEngaged = await kill(owner.token, { engaged: false });
    expect(notEngaged.status).toBe(409);
    expect(notEngaged.body.detail).toBe('Kill switch is not engaged');

    const engagedEvents = await eventsOf(owner.tenantId, 'agent.kill_switch_engaged');
    expect(engagedEvents).toHaveLength(1);
    expect(engagedEvents[0]).toMatchObject({ actor_id: operator.userId, severity: 'critical' });
    expect(engagedEvents[0]!.data).toMatchObject({ agent_id: agent.agent_id, reason: 'runaway loop' });
    expect(await eventsOf(owner.tenantId, 'agent.kill_switch_released')).toHaveLength(1);
    // Each change is its own critical detection.
    const detections = await rows<{ severity: string; data: { engaged: boolean } }>(
      db(),
      sql`select severity, data from detections
          where tenant_id = ${owner.tenantId} and rule_id = ${KILL_SWITCH_DETECTION} order by first_seen, id`,
    );
    expect(detections.map((d) => `${d.severity} ${d.data.engaged}`).sort()).toEqual([
      'critical false',
      'critical true',
    ]);
  });
});

describe('who may administer agents', () => {
  it('needs agents:read to read and agents:manage to change', async () => {
    const owner = await signUpOwner(svc.url, 'agentperm');
    const member = await addMember(svc, owner, 'member');
    const auditor = await addMember(svc, owner, 'auditor');
    const agent = await registerAgent(svc, owner.token);
    const id = agent.agent_id;

    for (const path of ['/agents', `/agents/${id}`]) {
      const res = await request(api(path), { token: member.token });
      expect(res.status, path).toBe(403);
      expect(res.body.detail).toBe('Missing permission: agents:read');
      expect((await request(api(path), { token: auditor.token })).status, path).toBe(200);
    }
    const changes: Array<[string, string, unknown]> = [
      ['POST', '/agents', { name: 'x' }],
      ['PATCH', `/agents/${id}`, { name: 'x' }],
      ['POST', `/agents/${id}/suspend`, undefined],
      ['POST', `/agents/${id}/resume`, undefined],
      ['POST', `/agents/${id}/retire`, undefined],
      ['POST', `/agents/${id}/rotate-credential`, undefined],
      ['POST', `/agents/${id}/delegations`, { permissions: ['identity:self:write'] }],
    ];
    for (const [method, path, json] of changes) {
      const res = await request(api(path), { method, token: auditor.token, ...(json ? { json } : {}) });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.detail).toBe('Missing permission: agents:manage');
    }
    expect((await agentRow(id)).status).toBe('active');
  });

  it("answers 404 for another organization's agent on every route", async () => {
    const mine = await signUpOwner(svc.url, 'agentiso');
    const theirs = await signUpOwner(svc.url, 'agentiso');
    const agent = await registerAgent(svc, theirs.token, { name: 'theirs' });
    const id = agent.agent_id;
    const attempts: Array<[string, string, unknown]> = [
      ['GET', `/agents/${id}`, undefined],
      ['PATCH', `/agents/${id}`, { name: 'mine now' }],
      ['POST', `/agents/${id}/suspend`, undefined],
      ['POST', `/agents/${id}/resume`, undefined],
      ['POST', `/agents/${id}/retire`, undefined],
      ['POST', `/agents/${id}/rotate-credential`, undefined],
      ['POST', `/agents/${id}/kill-switch`, { engaged: true, reason: 'x' }],
      ['POST', `/agents/${id}/delegations`, { permissions: ['members:read'] }],
    ];
    for (const [method, path, json] of attempts) {
      const res = await request(api(path), { method, token: mine.token, ...(json ? { json } : {}) });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.detail).toBe('Agent not found');
    }
    expect((await request(api('/agents'), { token: mine.token })).body.agents).toEqual([]);
    const untouched = await request(api(`/agents/${id}`), { token: theirs.token });
    expect(untouched.body).toMatchObject({ name: 'theirs', status: 'active', kill_switch: { engaged: false } });
    expect(untouched.body.delegations).toEqual([]);
  });

  it('refuses API keys with 403 on every agent administration route, whatever their scopes', async () => {
    const owner = await signUpOwner(svc.url, 'agentkey');
    const agent = await registerAgent(svc, owner.token);
    const key = await request(api('/tenants/api-keys'), {
      token: owner.token,
      json: { label: 'agents', scopes: ['agents:read', 'agents:manage', 'agents:kill', 'identity:self:write'] },
    });
    expect(key.status).toBe(201);
    for (const [method, path, json] of personOnlyRoutes(agent.agent_id)) {
      const res = await request(api(path), { method, token: key.body.key, ...(json ? { json } : {}) });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.detail).toBe('This route is not open to API keys');
    }
    expect((await agentRow(agent.agent_id)).status).toBe('active');
  });

  it('refuses AI agents with 403 on every agent administration route, even with the permissions delegated', async () => {
    const owner = await signUpOwner(svc.url, 'agentself');
    const agent = await registerAgent(svc, owner.token);
    expect(
      (await delegate(svc, owner.token, agent.agent_id, ['agents:read', 'agents:manage', 'identity:self:write']))
        .status,
    ).toBe(201);
    const minted = await mintAgentToken(svc, agent.credential);
    expect(minted.status, minted.text).toBe(200);
    for (const [method, path, json] of personOnlyRoutes(agent.agent_id)) {
      const res = await request(api(path), { method, token: minted.body.access_token, ...(json ? { json } : {}) });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.detail).toBe('This route is not open to AI agents');
    }
    expect((await agentRow(agent.agent_id)).status).toBe('active');
  });
});

describe('credentials that die', () => {
  it('a rotated credential and a retired agent credential are refused at mint with 401', async () => {
    const owner = await signUpOwner(svc.url, 'agentdie');
    const agent = await registerAgent(svc, owner.token);
    expect((await mintAgentToken(svc, agent.credential)).status).toBe(200);
    const rotated = await post(`/agents/${agent.agent_id}/rotate-credential`, owner.token);
    expect((await mintAgentToken(svc, agent.credential)).status).toBe(401);
    expect((await mintAgentToken(svc, rotated.body.credential)).status).toBe(200);
    expect((await post(`/agents/${agent.agent_id}/retire`, owner.token)).status).toBe(200);
    expect((await mintAgentToken(svc, rotated.body.credential)).status).toBe(401);
  });
});

/** Every route of agent administration and /me/agents, as [method, path, body]. */
function personOnlyRoutes(agentId: string): Array<[string, string, unknown]> {
  return [
    ['GET', '/agents', undefined],
    ['POST', '/agents', { name: 'by a machine' }],
    ['GET', `/agents/${agentId}`, undefined],
    ['PATCH', `/agents/${agentId}`, { name: 'x' }],
    ['POST', `/agents/${agentId}/suspend`, undefined],
    ['POST', `/agents/${agentId}/resume`, undefined],
    ['POST', `/agents/${agentId}/retire`, undefined],
    ['POST', `/agents/${agentId}/rotate-credential`, undefined],
    ['POST', `/agents/${agentId}/kill-switch`, { engaged: true, reason: 'x' }],
    ['POST', `/agents/${agentId}/delegations`, { permissions: ['agents:read'] }],
    ['GET', '/me/agents', undefined],
    ['DELETE', '/me/agents/0190d6f2-0000-7000-8000-000000000000', undefined],
  ];
}
