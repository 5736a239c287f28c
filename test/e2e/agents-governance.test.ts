import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actionFingerprint } from '../../src/kernel/authz/fingerprint.js';
import { rows } from '../../src/kernel/db/index.js';
import { AGENT_REQUESTS_PER_MINUTE } from '../../src/modules/agents/governance.js';
import { agentAccessToken, mintAgentToken, type TaskBlock } from '../support/agent-tokens.js';
import { delegate, registerAgent } from '../support/agents.js';
import { request } from '../support/http.js';
import { addMember, signUpOwner } from '../support/organizations.js';
import { startService, type TestService } from '../support/service.js';

// Governance of every agent action (issue 20 items 5 and 6; Part B 4.1, 4.2): kill switch, lifecycle, authority,
// risk ceiling, oversight, confidence floor, task scope and budget, rate limit, each on an already-held token.

let svc: TestService;
beforeAll(async () => {
  svc = await startService({ AGENT_APPROVALS_ENABLED: 'true' });
});
afterAll(async () => {
  await svc?.close();
});

const api = (path: string) => `${svc.url}/api/v1${path}`;
const db = () => svc.deps.database.db;

type Owner = Awaited<ReturnType<typeof signUpOwner>>;

/** A registered agent holding `permissions`, delegated by `delegatorToken` (the owner's unless given). */
async function agentHolding(
  owner: Owner,
  permissions: string[],
  governance: Record<string, unknown> = {},
  delegatorToken = owner.token,
) {
  const agent = await registerAgent(svc, owner.token, governance);
  const granted = await delegate(svc, delegatorToken, agent.agent_id, permissions);
  expect(granted.status, granted.text).toBe(201);
  return {
    agentId: agent.agent_id,
    credential: agent.credential,
    delegationId: granted.body.delegation_id as string,
    token: await agentAccessToken(svc, agent.credential),
  };
}

/** A task token of the agent: the access token and the task id. */
async function taskToken(credential: string, task: TaskBlock) {
  const res = await mintAgentToken(svc, credential, { task });
  expect(res.status, res.text).toBe(200);
  return { token: res.body.access_token as string, taskId: res.body.task.id as string };
}

/** A read (`members:read`, risk 15). */
const readRoster = (token: string, headers: Record<string, string> = {}) =>
  request(api('/members'), { token, headers });

/** A write (`tenant:manage`, risk 90): a harmless setting. */
const changeSetting = (token: string, value: boolean, headers: Record<string, string> = {}) =>
  request(api('/tenants/config/auth.social_login_enabled'), { method: 'PATCH', token, json: { value }, headers });

const post = (path: string, token: string, json?: unknown) =>
  request(api(path), { method: 'POST', token, ...(json === undefined ? {} : { json }) });

async function refusalsOf(agentId: string) {
  return rows<{ reason: string; data: Record<string, unknown>; actor_type: string; outcome: string }>(
    db(),
    sql`select data->>'reason' as reason, data, actor_type, outcome from events
        where action = 'agent.action_refused' and actor_id = ${agentId} order by occurred_at, id`,
  );
}

async function detectionsOf(tenantId: string, ruleId: string) {
  return rows<{ group_key: string; severity: string; count: number; data: Record<string, unknown> }>(
    db(),
    sql`select group_key, severity, count, data from detections
        where tenant_id = ${tenantId} and rule_id = ${ruleId} order by first_seen`,
  );
}

async function membershipIdOf(owner: Owner, userId: string): Promise<string> {
  const roster = await readRoster(owner.token);
  expect(roster.status).toBe(200);
  return (roster.body as Array<{ membership_id: string; user_id: string }>).find((m) => m.user_id === userId)!
    .membership_id;
}

describe('a held token is refused on its next call', () => {
  it('once the kill switch engages, until a person holding agents:kill releases it', async () => {
    const owner = await signUpOwner(svc.url, 'govkill');
    const agent = await agentHolding(owner, ['members:read']);
    expect((await readRoster(agent.token)).status).toBe(200);

    const engaged = await post(`/agents/${agent.agentId}/kill-switch`, owner.token, {
      engaged: true,
      reason: 'investigating odd reads',
    });
    expect(engaged.status, engaged.text).toBe(200);
    const refused = await readRoster(agent.token);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/kill switch is engaged/);
    expect((await refusalsOf(agent.agentId)).map((r) => r.reason)).toEqual(['kill_switch']);
    const [event] = await refusalsOf(agent.agentId);
    expect(event).toMatchObject({ actor_type: 'agent', outcome: 'denied' });
    expect(event!.data).toMatchObject({ route: '/api/v1/members', method: 'GET', permission: 'members:read' });
    expect(await detectionsOf(owner.tenantId, 'agent-kill-switch-changed')).toEqual([
      expect.objectContaining({ severity: 'critical', count: 1 }),
    ]);

    // Releasing is for a person holding agents:kill: not the agent, not a member without it, not an API key.
    const release = { engaged: false, reason: 'looked fine' };
    expect((await post(`/agents/${agent.agentId}/kill-switch`, agent.token, release)).status).toBe(403);
    const member = await addMember(svc, owner, 'member');
    const byMember = await post(`/agents/${agent.agentId}/kill-switch`, member.token, release);
    expect(byMember.status).toBe(403);
    expect(byMember.body.detail).toBe('Missing permission: agents:kill');
    const key = await post('/tenants/api-keys', owner.token, { label: 'ops', scopes: ['tenant:manage'] });
    expect(key.status, key.text).toBe(201);
    expect((await post(`/agents/${agent.agentId}/kill-switch`, key.body.key, release)).status).toBe(403);
    expect((await readRoster(agent.token)).status).toBe(403);

    const released = await post(`/agents/${agent.agentId}/kill-switch`, owner.token, release);
    expect(released.status, released.text).toBe(200);
    expect((await readRoster(agent.token)).status).toBe(200);
    // Each change is its own critical detection.
    expect(await detectionsOf(owner.tenantId, 'agent-kill-switch-changed')).toHaveLength(2);
  });

  it('while the agent is suspended, and again once it is resumed', async () => {
    const owner = await signUpOwner(svc.url, 'govsuspend');
    const agent = await agentHolding(owner, ['members:read']);
    expect((await post(`/agents/${agent.agentId}/suspend`, owner.token)).status).toBe(200);
    const refused = await readRoster(agent.token);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toBe('This agent is suspended');
    expect((await post(`/agents/${agent.agentId}/resume`, owner.token)).status).toBe(200);
    expect((await readRoster(agent.token)).status).toBe(200);
    expect((await refusalsOf(agent.agentId)).map((r) => r.reason)).toEqual(['suspended']);
  });

  it('once the agent is retired', async () => {
    const owner = await signUpOwner(svc.url, 'govretire');
    const agent = await agentHolding(owner, ['members:read']);
    expect((await readRoster(agent.token)).status).toBe(200);
    expect((await post(`/agents/${agent.agentId}/retire`, owner.token)).status).toBe(200);
    const refused = await readRoster(agent.token);
    expect(refused.status).toBe(403);
    expect((await mintAgentToken(svc, agent.credential)).status).toBe(401);
  });

  it('once the delegation is revoked (DELETE /me/agents/{id}), task tokens included', async () => {
    const owner = await signUpOwner(svc.url, 'govrevoke');
    const agent = await agentHolding(owner, ['members:read']);
    const task = await taskToken(agent.credential, { task: 'count members', permissions: ['members:read'], budget: 5 });
    expect((await readRoster(agent.token)).status).toBe(200);
    expect((await readRoster(task.token)).status).toBe(200);
    const revoked = await request(api(`/me/agents/${agent.delegationId}`), { method: 'DELETE', token: owner.token });
    expect(revoked.status, revoked.text).toBe(204);
    for (const token of [agent.token, task.token]) {
      const refused = await readRoster(token);
      expect(refused.status).toBe(403);
      expect(refused.body.detail).toBe('Missing permission: members:read');
    }
    expect((await refusalsOf(agent.agentId)).map((r) => r.reason)).toEqual(['authority', 'authority']);
  });

  it('once the delegator loses the permission through a role change', async () => {
    const owner = await signUpOwner(svc.url, 'govrole');
    const admin = await addMember(svc, owner, 'admin');
    const agent = await agentHolding(owner, ['members:read'], {}, admin.token);
    expect((await readRoster(agent.token)).status).toBe(200);
    const changed = await request(api(`/members/${await membershipIdOf(owner, admin.userId)}`), {
      method: 'PATCH',
      token: owner.token,
      json: { role: 'member' },
    });
    expect(changed.status, changed.text).toBe(200);
    const refused = await readRoster(agent.token);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toBe('Missing permission: members:read');
  });
});

describe('where an agent may act', () => {
  it('never on person-only routes, whatever it was delegated', async () => {
    const owner = await signUpOwner(svc.url, 'govwhere');
    const agent = await agentHolding(owner, ['tenant:manage', 'agents:manage', 'members:read']);
    const mintKey = await post('/tenants/api-keys', agent.token, { label: 'agent key', scopes: ['members:read'] });
    expect(mintKey.status).toBe(403);
    expect((await post('/agents', agent.token, { name: 'child' })).status).toBe(403);
    expect((await request(api('/me'), { token: agent.token })).status).toBe(403);
    expect((await readRoster(agent.token)).status).toBe(200);
  });
});

describe('risk ceiling', () => {
  it('refuses an action whose permission scores above the ceiling, and lets lower ones through', async () => {
    const owner = await signUpOwner(svc.url, 'govrisk');
    const agent = await agentHolding(owner, ['members:read', 'tenant:manage'], { risk_ceiling: 50 });
    expect((await readRoster(agent.token)).status).toBe(200);
    const refused = await changeSetting(agent.token, false);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toBe("Permission tenant:manage has risk 90, above this agent's risk ceiling of 50");
    expect((await refusalsOf(agent.agentId)).map((r) => r.reason)).toEqual(['risk_ceiling']);
    // The owner (a person) is not governed: the same change goes through.
    expect((await changeSetting(owner.token, false)).status).toBe(200);
  });
});

describe('oversight: a supervised agent', () => {
  async function asks(agentId: string) {
    return rows<{
      id: string;
      status: string;
      resource_type: string;
      fingerprint: string;
      resource: Record<string, unknown>;
      required_permission: string;
      justification: string | null;
      created_at: string;
      expires_at: string;
    }>(db(), sql`select * from approval_requests where agent_id = ${agentId} order by created_at, id`);
  }

  it('has its changes parked as pending approval requests (403 with approval_request_id); reads go ahead', async () => {
    const owner = await signUpOwner(svc.url, 'govpark');
    const agent = await agentHolding(owner, ['members:read', 'tenant:manage'], { oversight_mode: 'supervised' });
    const task = await taskToken(agent.credential, {
      task: 'turn social sign-in off',
      permissions: ['tenant:manage', 'members:read'],
      budget: 10,
    });
    expect((await readRoster(task.token)).status).toBe(200);

    const parked = await changeSetting(task.token, false);
    expect(parked.status).toBe(403);
    expect(parked.body.detail, parked.text).toMatch(/awaits a person’s approval/);
    const id = parked.body.approval_request_id as string;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const resource = {
      method: 'PATCH',
      route: '/api/v1/tenants/config/:key',
      params: { key: 'auth.social_login_enabled' },
      body: { value: false },
    };
    const [ask] = await asks(agent.agentId);
    expect(ask).toMatchObject({
      id,
      status: 'pending',
      resource_type: 'action',
      fingerprint: actionFingerprint(resource),
      resource,
      required_permission: 'tenant:manage',
      justification: 'turn social sign-in off',
    });
    expect(new Date(ask!.expires_at).getTime() - new Date(ask!.created_at).getTime()).toBe(24 * 3600 * 1000);
    // Nothing changed.
    const schema = await request(api('/tenants/config/schema'), { token: owner.token });
    expect(schema.body.find((s: { key: string }) => s.key === 'auth.social_login_enabled').value).toBe(true);

    // The identical ask is reused.
    const again = await Promise.all(Array.from({ length: 5 }, () => changeSetting(task.token, false)));
    for (const answer of again) expect([answer.status, answer.body.approval_request_id]).toEqual([403, id]);
    // Another action is another ask, created once however many identical calls race for it.
    const others = await Promise.all(Array.from({ length: 3 }, () => changeSetting(task.token, true)));
    const other = others[0]!;
    expect(other.status).toBe(403);
    expect(other.body.approval_request_id).not.toBe(id);
    for (const answer of others) expect(answer.body.approval_request_id).toBe(other.body.approval_request_id);
    expect((await asks(agent.agentId)).map((a) => a.status)).toEqual(['pending', 'pending']);
    const requested = await rows(
      db(),
      sql`select 1 from events where action = 'approval.requested' and actor_id = ${agent.agentId}`,
    );
    expect(requested).toHaveLength(2);
    expect((await refusalsOf(agent.agentId)).map((r) => r.reason)).toEqual(Array(9).fill('awaiting_approval'));

    // Once approved (the approvals queue decides; here set directly), the exact retry goes through once.
    await svc.deps.database.db.execute(
      sql`update approval_requests set status = 'approved', decided_at = ${svc.clock.now()} where id = ${id}`,
    );
    const retried = await changeSetting(task.token, false);
    expect(retried.status, retried.text).toBe(200);
    expect((await asks(agent.agentId)).find((a) => a.id === id)!.status).toBe('consumed');
    const afterSpent = await changeSetting(task.token, false);
    expect(afterSpent.status).toBe(403);
    expect(afterSpent.body.approval_request_id).not.toBe(id);

    // A denial is answered again for the same action.
    const deniedId = other.body.approval_request_id as string;
    await svc.deps.database.db.execute(
      sql`update approval_requests set status = 'denied', decided_at = ${svc.clock.now()} where id = ${deniedId}`,
    );
    const denied = await changeSetting(task.token, true);
    expect([denied.status, denied.body.detail, denied.body.approval_request_id]).toEqual([
      403,
      'A person denied this action',
      deniedId,
    ]);
  });
});

describe('confidence floor', () => {
  it('refuses a missing, malformed or lower Agent-Confidence, like an out-of-scope action', async () => {
    const owner = await signUpOwner(svc.url, 'govconfidence');
    const agent = await agentHolding(owner, ['members:read'], { confidence_floor: 0.7 });
    const missing = await readRoster(agent.token);
    expect(missing.status).toBe(403);
    expect(missing.body.detail).toMatch(/must state its confidence/);
    for (const stated of ['high', '1.5', '-0.1', '']) {
      expect((await readRoster(agent.token, { 'agent-confidence': stated })).status).toBe(403);
    }
    const low = await readRoster(agent.token, { 'agent-confidence': '0.69' });
    expect(low.status).toBe(403);
    expect(low.body.detail).toBe("Stated confidence 0.69 is below this agent's confidence floor of 0.7");
    expect((await readRoster(agent.token, { 'agent-confidence': '0.7' })).status).toBe(200);
    expect((await readRoster(agent.token, { 'agent-confidence': '1' })).status).toBe(200);
    expect(new Set((await refusalsOf(agent.agentId)).map((r) => r.reason))).toEqual(new Set(['confidence']));

    // With no floor the header is not needed.
    const free = await agentHolding(owner, ['members:read']);
    expect((await readRoster(free.token)).status).toBe(200);
  });
});

describe('task tokens', () => {
  it('refuse a permission outside the scope (403, recorded, one detection per task and permission)', async () => {
    const owner = await signUpOwner(svc.url, 'govscope');
    const agent = await agentHolding(owner, ['members:read', 'tenant:manage']);
    const task = await taskToken(agent.credential, {
      task: 'read the roster',
      permissions: ['members:read'],
      budget: 3,
    });
    for (let i = 0; i < 2; i++) {
      const refused = await changeSetting(task.token, false);
      expect(refused.status).toBe(403);
      expect(refused.body.detail).toBe("Permission tenant:manage is outside this task token's scope");
    }
    // A permission beyond the agent's authority is the other refusal.
    const beyond = await request(api('/members/invites'), {
      token: task.token,
      json: { email: 'someone@example.com' },
    });
    expect(beyond.status).toBe(403);
    expect(beyond.body.detail).toBe('Missing permission: members:manage');
    const refusals = await refusalsOf(agent.agentId);
    expect(refusals.map((r) => r.reason)).toEqual(['task_scope', 'task_scope', 'authority']);
    expect(refusals[0]!.data).toMatchObject({ task_id: task.taskId, permission: 'tenant:manage' });
    expect(await detectionsOf(owner.tenantId, 'agent-task-scope-exceeded')).toEqual([
      expect.objectContaining({ group_key: `agent:${agent.agentId}:task:${task.taskId}:tenant:manage`, count: 2 }),
    ]);

    // Refused requests spent nothing: the whole budget of 3 is still there, then it is spent.
    for (let i = 0; i < 3; i++) expect((await readRoster(task.token)).status).toBe(200);
    const spent = await readRoster(task.token);
    expect(spent.status).toBe(403);
    expect(spent.body.detail).toMatch(/budget is spent/);
    // The plain token of the same agent is not bound by the task.
    expect((await changeSetting(agent.token, false)).status).toBe(200);
  });

  it('authorize exactly `budget` requests of 20 sent at once', async () => {
    const owner = await signUpOwner(svc.url, 'govbudget');
    const agent = await agentHolding(owner, ['members:read']);
    const task = await taskToken(agent.credential, { task: 'poll', permissions: ['members:read'], budget: 10 });
    const answers = await Promise.all(Array.from({ length: 20 }, () => readRoster(task.token)));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([...Array(10).fill(200), ...Array(10).fill(403)]);
    for (const refused of answers.filter((a) => a.status === 403))
      expect(refused.body.detail).toMatch(/budget is spent/);
    const [row] = await rows<{ remaining: number }>(
      db(),
      sql`select remaining from agent_tasks where id = ${task.taskId}`,
    );
    expect(row!.remaining).toBe(0);
  });
});

describe('rate limit per agent', () => {
  it('answers 429 with Retry-After and the RateLimit headers once the agent has spent its minute', async () => {
    const owner = await signUpOwner(svc.url, 'govrate');
    const agent = await agentHolding(owner, ['members:read']);
    const policy = AGENT_REQUESTS_PER_MINUTE.free;
    // Spend the minute directly (as 600 requests would), then one more request.
    await svc.deps.limiter.consume(policy, `${owner.tenantId}:${agent.agentId}`, policy.points);
    const throttled = await readRoster(agent.token);
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(throttled.headers.get('ratelimit-limit')).toBe(String(policy.points));
    expect(throttled.headers.get('ratelimit-remaining')).toBe('0');
    // Another agent of the organization is not held back.
    const other = await agentHolding(owner, ['members:read']);
    expect((await readRoster(other.token)).status).toBe(200);
    expect((await refusalsOf(agent.agentId)).map((r) => r.reason)).toEqual(['rate_limit']);
  });
});
