import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/kernel/db/index.js';
import { mintAgentToken } from '../support/agent-tokens.js';
import { delegate, registerAgent } from '../support/agents.js';
import { newDpopKey } from '../support/dpop.js';
import { request } from '../support/http.js';
import { addMember, signUpOwner } from '../support/organizations.js';
import { changeDirectly, startSecondNode, startService, type TestService } from '../support/service.js';

// Part B 2.1, 4.1, 5: POST /agents/token, task tokens, the agent principal, DPoP binding and the token epoch.

const BASE = 'https://id.example.test';
let svc: TestService;
let org: Awaited<ReturnType<typeof signUpOwner>>;
let otherOrg: Awaited<ReturnType<typeof signUpOwner>>;
beforeAll(async () => {
  svc = await startService({ BASE_URL: BASE });
  org = await signUpOwner(svc.url, 'agent-tokens');
  otherOrg = await signUpOwner(svc.url, 'agent-tokens-other');
});
afterAll(async () => {
  await svc?.close();
});

const api = (path: string, base = svc.url) => `${base}/api/v1${path}`;
const htu = (path: string) => `${BASE}/api/v1${path}`;
const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
/** A well-formed credential nobody holds. */
const unknownCredential = () => `agt_${randomBytes(32).toString('base64url')}`;

/** Everything a client could compare between two refusals except per-request headers. */
function shape(res: { status: number; headers: Headers; text: string }) {
  const headers = [...res.headers.entries()].filter(([name]) => !['date', 'x-request-id'].includes(name));
  return { status: res.status, body: res.text, headers };
}

/** A new agent of `owner`'s organization holding `permissions`, delegated by `owner` (none: no delegation). */
async function agentHolding(permissions: string[], owner: { token: string } = org) {
  const agent = await registerAgent(svc, owner.token);
  if (permissions.length > 0) {
    const granted = await delegate(svc, owner.token, agent.agent_id, permissions);
    expect(granted.status, granted.text).toBe(201);
    return { ...agent, delegationId: granted.body.delegation_id as string };
  }
  return { ...agent, delegationId: undefined };
}

async function mintedToken(credential: string, body: Record<string, unknown> = {}) {
  const res = await mintAgentToken(svc, credential, body);
  expect(res.status, res.text).toBe(200);
  return res.body.access_token as string;
}

const eventsOf = (tenantId: string, action: string) =>
  rows<{ actor_id: string; actor_type: string; data: Record<string, unknown> }>(
    svc.deps.database.db,
    sql`select actor_id, actor_type, data from events where tenant_id = ${tenantId} and action = ${action}
        order by occurred_at`,
  );

describe('POST /agents/token', () => {
  it('exchanges the credential for a 15-minute actor=agent bearer token, with no refresh token', async () => {
    const agent = await agentHolding(['members:read']);
    const res = await mintAgentToken(svc, agent.credential);
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['access_token', 'agent_id', 'expires_in', 'token_type']);
    expect(res.body).toMatchObject({ token_type: 'Bearer', expires_in: 900, agent_id: agent.agent_id });
    expect(res.headers.get('cache-control')).toBe('no-store');
    const claims = claimsOf(res.body.access_token);
    expect(claims).toMatchObject({ act: 'agent', sub: agent.agent_id, agent_id: agent.agent_id, tid: org.tenantId });
    expect(claims.exp - claims.iat).toBe(900);
    expect(claims.cnf).toBeUndefined();
    expect(claims.task).toBeUndefined();

    // The event names the agent as its actor; a plain mint is recorded once per agent and hour.
    await mintedToken(agent.credential);
    const minted = (await eventsOf(org.tenantId, 'agent.token_minted')).filter((e) => e.actor_id === agent.agent_id);
    expect(minted).toHaveLength(1);
    expect(minted[0]).toMatchObject({ actor_type: 'agent', data: { via: 'credential', task_id: null } });
  });

  it('the token is an agent principal: reads what its delegations allow in its own organization, never person-only routes', async () => {
    const agent = await agentHolding(['members:read']);
    const token = await mintedToken(agent.credential);
    const roster = await request(api('/members'), { token });
    expect(roster.status, roster.text).toBe(200);
    expect(roster.text).toContain(org.email);
    expect(roster.text).not.toContain(otherOrg.email);
    // Not delegated: refused; person-only: refused; the user resolver does not take it for a person's token.
    expect((await request(api('/members/invites'), { token, method: 'POST', json: {} })).status).toBe(403);
    expect((await request(api('/me'), { token })).status).toBe(403);
    expect((await request(api('/me/sessions'), { token })).status).toBe(403);
    // An agent without any delegation holds nothing.
    const bare = await agentHolding([]);
    expect((await request(api('/members'), { token: await mintedToken(bare.credential) })).status).toBe(403);
  });

  it('answers one identical 401 for unknown, malformed, rotated-away, suspended and retired credentials', async () => {
    const reference = shape(await mintAgentToken(svc, unknownCredential()));
    expect(reference.status).toBe(401);
    expect(JSON.parse(reference.body)).toEqual({ detail: 'Not authenticated' });

    const rotated = await agentHolding([]);
    const rotation = await request(api(`/agents/${rotated.agent_id}/rotate-credential`), {
      token: org.token,
      method: 'POST',
    });
    expect(rotation.status, rotation.text).toBe(200);
    const suspended = await agentHolding([]);
    expect(
      (await request(api(`/agents/${suspended.agent_id}/suspend`), { token: org.token, method: 'POST' })).status,
    ).toBe(200);
    const retired = await agentHolding([]);
    expect(
      (await request(api(`/agents/${retired.agent_id}/retire`), { token: org.token, method: 'POST' })).status,
    ).toBe(200);

    for (const credential of [
      'agt_short',
      'not-an-agent-credential',
      '',
      `${unknownCredential()}x`,
      rotated.credential,
      suspended.credential,
      retired.credential,
    ]) {
      expect(shape(await mintAgentToken(svc, credential)), credential).toEqual(reference);
    }
    // The rotated agent's new credential works; a resumed agent mints again.
    await mintedToken(rotation.body.credential);
    expect(
      (await request(api(`/agents/${suspended.agent_id}/resume`), { token: org.token, method: 'POST' })).status,
    ).toBe(200);
    await mintedToken(suspended.credential);
    // A body without a credential is malformed (422), not a refusal of one.
    expect((await request(api('/agents/token'), { json: {} })).status).toBe(422);
  });

  it('refuses a stopped agent with 403 while its kill switch is engaged', async () => {
    const agent = await agentHolding(['members:read']);
    const engaged = await request(api(`/agents/${agent.agent_id}/kill-switch`), {
      token: org.token,
      json: { engaged: true, reason: 'investigating' },
    });
    expect(engaged.status, engaged.text).toBe(200);
    const refused = await mintAgentToken(svc, agent.credential);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/kill switch/);
    const released = await request(api(`/agents/${agent.agent_id}/kill-switch`), {
      token: org.token,
      json: { engaged: false },
    });
    expect(released.status, released.text).toBe(200);
    await mintedToken(agent.credential);
  });

  it('a held token answers 401 once the credential is rotated (older epoch), on every node', async () => {
    const second = await startSecondNode(svc);
    try {
      const agent = await agentHolding(['members:read']);
      const token = await mintedToken(agent.credential);
      expect((await request(api('/members', second.url), { token })).status).toBe(200);
      const rotation = await request(api(`/agents/${agent.agent_id}/rotate-credential`), {
        token: org.token,
        method: 'POST',
      });
      expect(rotation.status).toBe(200);
      for (const base of [svc.url, second.url]) {
        const held = await request(api('/members', base), { token });
        expect(held.status, base).toBe(401);
        expect(held.body).toEqual({ detail: 'Not authenticated' });
      }
      const fresh = await mintAgentToken(second, rotation.body.credential);
      expect(fresh.status).toBe(200);
      expect(claimsOf(fresh.body.access_token).ep).toBe(claimsOf(token).ep + 1);
      expect((await request(api('/members', second.url), { token: fresh.body.access_token })).status).toBe(200);
      expect((await mintAgentToken(second, agent.credential)).status).toBe(401);
    } finally {
      await second.close();
    }
  });

  it('recomputes authority on every request: a revoked delegation or a delegator who lost the role narrows held tokens', async () => {
    const agent = await agentHolding(['members:read']);
    const token = await mintedToken(agent.credential);
    expect((await request(api('/members'), { token })).status).toBe(200);
    const revoked = await request(api(`/me/agents/${agent.delegationId}`), { token: org.token, method: 'DELETE' });
    expect(revoked.status, revoked.text).toBe(204);
    expect((await request(api('/members'), { token })).status).toBe(403);

    const admin = await addMember(svc, org, 'admin');
    const byAdmin = await registerAgent(svc, org.token);
    expect((await delegate(svc, admin.token, byAdmin.agent_id, ['members:read'])).status).toBe(201);
    const adminsAgentToken = await mintedToken(byAdmin.credential);
    expect((await request(api('/members'), { token: adminsAgentToken })).status).toBe(200);
    await changeDirectly(
      svc,
      sql`update memberships set role = 'member' where tenant_id = ${org.tenantId} and user_id = ${admin.userId}`,
    );
    expect((await request(api('/members'), { token: adminsAgentToken })).status).toBe(403);
    await changeDirectly(
      svc,
      sql`update memberships set role = 'admin' where tenant_id = ${org.tenantId} and user_id = ${admin.userId}`,
    );
    expect((await request(api('/members'), { token: adminsAgentToken })).status).toBe(200);
    await changeDirectly(
      svc,
      sql`update memberships set status = 'suspended' where tenant_id = ${org.tenantId} and user_id = ${admin.userId}`,
    );
    expect((await request(api('/members'), { token: adminsAgentToken })).status).toBe(403);
  });
});

describe('task tokens', () => {
  it('carry the task with its patterns expanded to concrete codes, and record it with its budget', async () => {
    const agent = await agentHolding(['members:read', 'command:read', 'tenant:read']);
    const res = await mintAgentToken(svc, agent.credential, {
      task: { task: 'Summarise the roster', permissions: ['members:read', 'tenant:read', 'members:read'], budget: 5 },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ token_type: 'Bearer', expires_in: 900, agent_id: agent.agent_id });
    expect(res.body.task).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      task: 'Summarise the roster',
      permissions: ['tenant:read', 'members:read'],
      budget: 5,
    });
    expect(res.body.refresh_token).toBeUndefined();
    expect(claimsOf(res.body.access_token)).toMatchObject({ act: 'agent', sid: res.body.task.id, task: res.body.task });
    const [recorded] = await rows<{ agent_id: string; remaining: number; budget: number; permissions: string[] }>(
      svc.deps.database.db,
      sql`select agent_id, remaining, budget, permissions from agent_tasks where id = ${res.body.task.id}`,
    );
    expect(recorded).toEqual({
      agent_id: agent.agent_id,
      remaining: 5,
      budget: 5,
      permissions: ['tenant:read', 'members:read'],
    });
    const minted = (await eventsOf(org.tenantId, 'agent.token_minted')).filter((e) => e.actor_id === agent.agent_id);
    expect(minted.at(-1)).toMatchObject({ actor_type: 'agent', data: { task_id: res.body.task.id, budget: 5 } });
    // The task token is usable within its scope.
    expect((await request(api('/members'), { token: res.body.access_token })).status).toBe(200);
  });

  it('expands a pattern and refuses it when it reaches beyond the authority, naming the codes', async () => {
    const narrow = await agentHolding(['members:read']);
    const beyond = await mintAgentToken(svc, narrow.credential, {
      task: { task: 'Manage members', permissions: ['members:*'], budget: 3 },
    });
    expect(beyond.status).toBe(403);
    expect(beyond.body.detail).toContain('members:manage');
    expect(beyond.body.detail).not.toContain('members:read');

    const wide = await agentHolding(['members:read', 'members:manage']);
    const expanded = await mintAgentToken(svc, wide.credential, {
      task: { task: 'Manage members', permissions: ['members:*'], budget: 3 },
    });
    expect(expanded.status, expanded.text).toBe(200);
    expect(expanded.body.task.permissions).toEqual(['members:read', 'members:manage']);

    const exceeding = await mintAgentToken(svc, narrow.credential, {
      task: {
        task: 'Run the organization',
        permissions: ['members:read', 'tenant:manage', 'command:operate'],
        budget: 1,
      },
    });
    expect(exceeding.status).toBe(403);
    expect(exceeding.body.detail).toMatch(/exceed/);
    expect(exceeding.body.detail).toContain('tenant:manage');
    expect(exceeding.body.detail).toContain('command:operate');

    // Each refused request is recorded, and raises the agent's task-scope detection once (counted after).
    const refused = (await eventsOf(org.tenantId, 'agent.task_token_refused')).filter(
      (e) => e.actor_id === narrow.agent_id,
    );
    expect(refused).toHaveLength(2);
    expect(refused.map((e) => [e.actor_type, e.data.task]).sort()).toEqual([
      ['agent', 'Manage members'],
      ['agent', 'Run the organization'],
    ]);
    const [detection] = await rows<{ group_key: string; count: number; severity: string }>(
      svc.deps.database.db,
      sql`select group_key, count, severity from detections
          where tenant_id = ${org.tenantId} and rule_id = 'agent-task-scope-exceeded'
            and group_key = ${`agent:${narrow.agent_id}:task-request`}`,
    );
    expect(detection).toMatchObject({ count: 2, severity: 'high' });
  });

  it('refuses permissions that name nothing known with 403 naming them', async () => {
    const agent = await agentHolding(['members:read']);
    for (const permissions of [['nothing:read'], ['members:read', 'zzz:*'], ['*'], ['members:*:x']]) {
      const res = await mintAgentToken(svc, agent.credential, { task: { task: 'x', permissions, budget: 1 } });
      expect(res.status, permissions.join()).toBe(403);
      for (const unknown of permissions.filter((p) => p !== 'members:read')) expect(res.body.detail).toContain(unknown);
    }
  });

  it('validates the task block (422 naming the field) and writes nothing for a refused one', async () => {
    const agent = await agentHolding(['members:read']);
    const good = { task: 'Read', permissions: ['members:read'], budget: 1 };
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ ...good, budget: 0 }, /budget/],
      [{ ...good, budget: 100_001 }, /budget/],
      [{ ...good, budget: 1.5 }, /budget/],
      [{ ...good, budget: '3' }, /budget/],
      [{ ...good, task: '' }, /task/],
      [{ ...good, task: '   ' }, /task/],
      [{ ...good, task: 'x'.repeat(1001) }, /task/],
      [{ ...good, permissions: [] }, /permissions/],
      [{ task: 'Read', permissions: ['members:read'] }, /budget/],
    ];
    for (const [task, field] of cases) {
      const res = await mintAgentToken(svc, agent.credential, { task });
      expect(res.status, JSON.stringify(task)).toBe(422);
      expect(res.body.detail).toMatch(field);
    }
    const [counted] = await rows<{ count: number }>(
      svc.deps.database.db,
      sql`select count(*)::int as count from agent_tasks where agent_id = ${agent.agent_id}`,
    );
    expect(counted?.count).toBe(0);
    // The largest budget is accepted.
    expect((await mintAgentToken(svc, agent.credential, { task: { ...good, budget: 100_000 } })).status).toBe(200);
  });
});

describe('DPoP-bound agent tokens (RFC 9449, as for people)', () => {
  it('a proof at mint binds the token; it then works only as DPoP with a fresh proof', async () => {
    const agent = await agentHolding(['members:read']);
    const key = await newDpopKey();
    const proof = await key.proof('POST', htu('/agents/token'), { now: svc.clock.now() });
    const res = await mintAgentToken(svc, agent.credential, {}, { dpop: proof });
    expect(res.status, res.text).toBe(200);
    expect(res.body.token_type).toBe('DPoP');
    const token = res.body.access_token as string;
    expect(claimsOf(token).cnf.jkt).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const asBearer = await request(api('/members'), { token });
    expect(asBearer.status).toBe(401);
    expect(asBearer.headers.get('www-authenticate')).toMatch(/^DPoP /);
    const withoutProof = await request(api('/members'), { headers: { authorization: `DPoP ${token}` } });
    expect(withoutProof.status).toBe(401);
    const other = await newDpopKey();
    const otherKey = await request(api('/members'), {
      headers: {
        authorization: `DPoP ${token}`,
        dpop: await other.proof('GET', htu('/members'), { accessToken: token, now: svc.clock.now() }),
      },
    });
    expect(otherKey.status).toBe(401);
    const good = await request(api('/members'), {
      headers: {
        authorization: `DPoP ${token}`,
        dpop: await key.proof('GET', htu('/members'), { accessToken: token, now: svc.clock.now() }),
      },
    });
    expect(good.status, good.text).toBe(200);

    // An unbound agent token is not accepted under the DPoP scheme.
    const plain = await mintedToken(agent.credential);
    const plainAsDpop = await request(api('/members'), {
      headers: {
        authorization: `DPoP ${plain}`,
        dpop: await key.proof('GET', htu('/members'), { accessToken: plain, now: svc.clock.now() }),
      },
    });
    expect(plainAsDpop.status).toBe(401);
  });

  it('refuses a broken proof at mint with 400, and a replayed one', async () => {
    const agent = await agentHolding(['members:read']);
    const key = await newDpopKey();
    const wrongMethod = await key.proof('GET', htu('/agents/token'), { now: svc.clock.now() });
    const refused = await mintAgentToken(svc, agent.credential, {}, { dpop: wrongMethod });
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toMatch(/DPoP/);
    const proof = await key.proof('POST', htu('/agents/token'), { now: svc.clock.now() });
    expect((await mintAgentToken(svc, agent.credential, {}, { dpop: proof })).status).toBe(200);
    expect((await mintAgentToken(svc, agent.credential, {}, { dpop: proof })).status).toBe(400);
  });
});

// Last: it moves the clock a day, past every person's token of this file.
describe('time-boxed delegations', () => {
  it('a time-boxed delegation ends on time for held tokens', async () => {
    const agent = await registerAgent(svc, org.token);
    expect((await delegate(svc, org.token, agent.agent_id, ['members:read'], 1)).status).toBe(201);
    const token = await mintedToken(agent.credential);
    expect((await request(api('/members'), { token })).status).toBe(200);
    // A token minted a second before the delegation ends works until the delegation ends, not until it expires.
    svc.clock.advance(24 * 3_600_000 - 1000);
    const late = await mintedToken(agent.credential);
    expect((await request(api('/members'), { token: late })).status).toBe(200);
    svc.clock.advance(2000);
    expect((await request(api('/members'), { token: late })).status).toBe(403);
  });
});
