import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/kernel/db/index.js';
import { agentAccessToken } from '../support/agent-tokens.js';
import { delegate, registerAgent } from '../support/agents.js';
import { type JsonResponse, request } from '../support/http.js';
import { addMember, signUpOwner } from '../support/organizations.js';
import { startSecondNode, startService, type TestService } from '../support/service.js';

// The blast-radius breaker (issue 20 item 7; Part B 4.2, 8): an agent's hourly write budget (200 on the free plan)
// and refusal allowance (50); exhausting either engages its kill switch with no person named and raises one
// critical detection. Reads and parked changes do not count; people and API keys never trip it.

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

async function agentHolding(owner: Owner, permissions: string[], governance: Record<string, unknown> = {}) {
  const agent = await registerAgent(svc, owner.token, governance);
  expect((await delegate(svc, owner.token, agent.agent_id, permissions)).status).toBe(201);
  return { agentId: agent.agent_id, token: await agentAccessToken(svc, agent.credential) };
}

const readRoster = (token: string) => request(api('/members'), { token });
/** A write (`tenant:manage`): a harmless setting, flipped each time. */
let flip = false;
const changeSetting = (token: string) => {
  flip = !flip;
  return request(api('/tenants/config/auth.social_login_enabled'), {
    method: 'PATCH',
    token,
    json: { value: flip },
  });
};

/** `count` calls, `batch` at a time (fast, yet not all at once). */
async function inBatches(count: number, batch: number, call: () => Promise<JsonResponse>): Promise<JsonResponse[]> {
  const answers: JsonResponse[] = [];
  for (let sent = 0; sent < count; sent += batch) {
    answers.push(...(await Promise.all(Array.from({ length: Math.min(batch, count - sent) }, call))));
  }
  return answers;
}

const statuses = (answers: JsonResponse[]) => [...new Set(answers.map((a) => a.status))];

async function agentRecord(owner: Owner, agentId: string) {
  const res = await request(api(`/agents/${agentId}`), { token: owner.token });
  expect(res.status).toBe(200);
  return res.body;
}

async function detectionsOf(tenantId: string, ruleId: string) {
  return rows<{ group_key: string; severity: string; count: number; data: Record<string, unknown> }>(
    db(),
    sql`select group_key, severity, count, data from detections where tenant_id = ${tenantId} and rule_id = ${ruleId}`,
  );
}

async function killSwitchEvents(agentId: string) {
  return rows<{ action: string; actor_type: string; severity: string; data: Record<string, unknown> }>(
    db(),
    sql`select action, actor_type, severity, data from events
        where action like 'agent.kill_switch_%' and data->>'agent_id' = ${agentId} order by occurred_at, id`,
  );
}

describe('blast-radius breaker', () => {
  it("lets a free-tier agent's 200 writes of the hour through and stops it at the 201st", async () => {
    const owner = await signUpOwner(svc.url, 'breaker');
    const agent = await agentHolding(owner, ['tenant:manage', 'members:read']);
    // Reads never count.
    expect(statuses(await inBatches(30, 15, () => readRoster(agent.token)))).toEqual([200]);
    expect(statuses(await inBatches(200, 25, () => changeSetting(agent.token)))).toEqual([200]);
    expect((await agentRecord(owner, agent.agentId)).kill_switch.engaged).toBe(false);

    // The writes over the budget, sent at once: every one refused, the breaker trips once.
    const over = await Promise.all(Array.from({ length: 5 }, () => changeSetting(agent.token)));
    expect(statuses(over)).toEqual([403]);
    expect(over.some((a) => /blast-radius breaker/.test(a.body.detail))).toBe(true);

    const record = await agentRecord(owner, agent.agentId);
    expect(record.kill_switch).toMatchObject({ engaged: true, engaged_by: null });
    expect(record.kill_switch.reason).toBe('blast-radius breaker: more than 200 writes in an hour');
    // Every surface is closed now, reads included.
    const read = await readRoster(agent.token);
    expect(read.status).toBe(403);
    expect(read.body.detail).toMatch(/kill switch is engaged/);

    expect(await detectionsOf(owner.tenantId, 'agent-blast-radius-breaker')).toEqual([
      expect.objectContaining({ group_key: `agent:${agent.agentId}`, severity: 'critical', count: 1 }),
    ]);
    const changes = await killSwitchEvents(agent.agentId);
    expect(changes).toEqual([
      expect.objectContaining({ action: 'agent.kill_switch_engaged', actor_type: 'system', severity: 'critical' }),
    ]);
    expect(changes[0]!.data).toMatchObject({ by: null });
    expect(await detectionsOf(owner.tenantId, 'agent-kill-switch-changed')).toHaveLength(1);
  });

  // Without Redis each node counts alone (docs/operating.md: several API nodes need REDIS_URL).
  it.skipIf(!process.env.REDIS_URL)(
    'counts the writes of every node into one budget (Redis): the first write over it trips, on either node',
    async () => {
      const owner = await signUpOwner(svc.url, 'breakernodes');
      const agent = await agentHolding(owner, ['tenant:manage']);
      const budget = await request(api(`/agents/${agent.agentId}`), {
        method: 'PATCH',
        token: owner.token,
        json: { write_budget_per_hour: 10 },
      });
      expect(budget.status, budget.text).toBe(200);
      const second = await startSecondNode(svc);
      try {
        const onSecond = () => {
          flip = !flip;
          return request(`${second.url}/api/v1/tenants/config/auth.social_login_enabled`, {
            method: 'PATCH',
            token: agent.token,
            json: { value: flip },
          });
        };
        const writes: JsonResponse[] = [];
        for (let i = 0; i < 5; i++) writes.push(await changeSetting(agent.token), await onSecond());
        expect(statuses(writes)).toEqual([200]);
        const over = await onSecond();
        expect(over.status).toBe(403);
        expect(over.body.detail).toMatch(/blast-radius breaker/);
        expect((await agentRecord(owner, agent.agentId)).kill_switch.reason).toBe(
          'blast-radius breaker: more than 10 writes in an hour',
        );
      } finally {
        await second.close();
      }
    },
  );

  it('stops an agent at its 51st refused action of the hour', async () => {
    const owner = await signUpOwner(svc.url, 'breakerrefusals');
    const agent = await agentHolding(owner, ['members:read']);
    const refused = await inBatches(50, 10, () => changeSetting(agent.token));
    expect(statuses(refused)).toEqual([403]);
    expect(refused[0]!.body.detail).toBe('Missing permission: tenant:manage');
    expect((await readRoster(agent.token)).status).toBe(200);

    expect((await changeSetting(agent.token)).status).toBe(403);
    const record = await agentRecord(owner, agent.agentId);
    expect(record.kill_switch).toMatchObject({
      engaged: true,
      engaged_by: null,
      reason: 'blast-radius breaker: more than 50 refused actions in an hour',
    });
    expect((await readRoster(agent.token)).status).toBe(403);
    expect(await detectionsOf(owner.tenantId, 'agent-blast-radius-breaker')).toEqual([
      expect.objectContaining({ severity: 'critical', count: 1 }),
    ]);
  });

  it("takes the agent's own write budget; reads and parked changes never count", async () => {
    const owner = await signUpOwner(svc.url, 'breakerown');
    const supervised = await agentHolding(owner, ['tenant:manage', 'members:read'], { oversight_mode: 'supervised' });
    const autonomous = await agentHolding(owner, ['tenant:manage', 'members:read']);
    for (const agent of [supervised, autonomous]) {
      const patched = await request(api(`/agents/${agent.agentId}`), {
        method: 'PATCH',
        token: owner.token,
        json: { write_budget_per_hour: 2 },
      });
      expect(patched.status, patched.text).toBe(200);
    }
    // Parked: 403 with an approval request each time, and nothing counted.
    const parked = await inBatches(6, 3, () => changeSetting(supervised.token));
    expect(statuses(parked)).toEqual([403]);
    for (const answer of parked) expect(answer.body.approval_request_id).toBeDefined();
    expect((await agentRecord(owner, supervised.agentId)).kill_switch.engaged).toBe(false);

    expect(statuses(await inBatches(10, 5, () => readRoster(autonomous.token)))).toEqual([200]);
    expect((await changeSetting(autonomous.token)).status).toBe(200);
    expect((await changeSetting(autonomous.token)).status).toBe(200);
    const third = await changeSetting(autonomous.token);
    expect(third.status).toBe(403);
    expect((await agentRecord(owner, autonomous.agentId)).kill_switch.reason).toBe(
      'blast-radius breaker: more than 2 writes in an hour',
    );
  });

  it('is released only by a person holding agents:kill, and the agent then starts a fresh hour', async () => {
    const owner = await signUpOwner(svc.url, 'breakerrelease');
    const agent = await agentHolding(owner, ['tenant:manage', 'members:read']);
    await request(api(`/agents/${agent.agentId}`), {
      method: 'PATCH',
      token: owner.token,
      json: { write_budget_per_hour: 1 },
    });
    expect((await changeSetting(agent.token)).status).toBe(200);
    expect((await changeSetting(agent.token)).status).toBe(403);

    const release = { engaged: false, reason: 'reviewed: a runaway loop, fixed' };
    const path = `/agents/${agent.agentId}/kill-switch`;
    expect((await request(api(path), { token: agent.token, json: release })).status).toBe(403);
    const member = await addMember(svc, owner, 'member');
    const byMember = await request(api(path), { token: member.token, json: release });
    expect([byMember.status, byMember.body.detail]).toEqual([403, 'Missing permission: agents:kill']);
    const key = await request(api('/tenants/api-keys'), {
      token: owner.token,
      json: { label: 'ops', scopes: ['tenant:manage', 'agents:kill'] },
    });
    expect((await request(api(path), { token: key.body.key, json: release })).status).toBe(403);
    expect((await agentRecord(owner, agent.agentId)).kill_switch.engaged).toBe(true);

    const released = await request(api(path), { token: owner.token, json: release });
    expect(released.status, released.text).toBe(200);
    expect(released.body.kill_switch.engaged).toBe(false);
    expect((await changeSetting(agent.token)).status).toBe(200);
    const changes = await killSwitchEvents(agent.agentId);
    expect(changes.map((c) => [c.action, c.actor_type])).toEqual([
      ['agent.kill_switch_engaged', 'system'],
      ['agent.kill_switch_released', 'human'],
    ]);
    expect(await detectionsOf(owner.tenantId, 'agent-kill-switch-changed')).toHaveLength(2);
  });

  it('never trips for people or API keys', async () => {
    const owner = await signUpOwner(svc.url, 'breakerpeople');
    const key = await request(api('/tenants/api-keys'), {
      token: owner.token,
      json: { label: 'sync', scopes: ['tenant:manage'] },
    });
    expect(key.status, key.text).toBe(201);
    expect(statuses(await inBatches(205, 41, () => changeSetting(owner.token)))).toEqual([200]);
    expect(statuses(await inBatches(205, 41, () => changeSetting(key.body.key)))).toEqual([200]);
    expect(await detectionsOf(owner.tenantId, 'agent-blast-radius-breaker')).toEqual([]);
  });
});
