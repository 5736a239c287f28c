import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/kernel/db/index.js';
import { newId } from '../../src/kernel/ids.js';
import { agentAccessToken, mintAgentToken } from '../support/agent-tokens.js';
import { delegate, registerAgent } from '../support/agents.js';
import { request } from '../support/http.js';
import { addMember, signUpOwner } from '../support/organizations.js';
import { bootstrapPlatformOwner } from '../support/platform.js';
import { changeDirectly, startService, type TestService } from '../support/service.js';

// Command Center detections (issue 22 item 4; Part B 2.7, 4.8): the kernel's deduplicated groups raised by real
// actions (failed sign-ins, a refresh-token replay, an agent's out-of-scope call, the blast-radius breaker and its
// kill switch), read with every filter, summarized, and settled by an operator of their own organization.

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => {
  await svc?.close();
});

const api = (path: string) => `${svc.url}/api/v1${path}`;
const db = () => svc.deps.database.db;
const get = (path: string, token: string) => request(api(path), { token });
const acknowledge = (id: string, token: string, json?: unknown) =>
  request(api(`/command/detections/${id}/acknowledge`), {
    method: 'POST',
    token,
    ...(json === undefined ? {} : { json }),
  });

type Org = Awaited<ReturnType<typeof signUpOwner>>;
type Detection = {
  id: string;
  tenant_id: string | null;
  rule_id: string;
  group_key: string;
  severity: string;
  status: string;
  count: number;
  first_seen: string;
  last_seen: string;
  data: Record<string, unknown>;
  note: string | null;
};

async function signIn(email: string, password: string, slug: string) {
  const res = await request(api('/auth/login'), { json: { email, password, tenant_slug: slug } });
  expect(res.status, res.text).toBe(200);
  return res.body as { access_token: string; refresh_token: string };
}

/** A rotated refresh token presented again: the session ends and `refresh-token-replay` is raised. */
async function replayRefreshToken(tokens: { refresh_token: string }) {
  const refresh = (token: string) => request(api('/auth/refresh'), { json: { refresh_token: token } });
  expect((await refresh(tokens.refresh_token)).status).toBe(200);
  expect((await refresh(tokens.refresh_token)).status).toBe(401);
}

/** Ten wrong passwords, then the eleventh attempt is throttled: `repeated-sign-in-failures` is raised. */
async function failSignIns(person: { email: string }, org: Org) {
  const attempt = () =>
    request(api('/auth/login'), {
      json: { email: person.email, password: 'not the password at all', tenant_slug: org.slug },
    });
  for (let i = 0; i < 10; i++) expect((await attempt()).status).toBe(401);
  expect((await attempt()).status).toBe(429);
}

async function list(token: string, query = ''): Promise<Detection[]> {
  const res = await get(`/command/detections${query}`, token);
  expect(res.status, res.text).toBe(200);
  return res.body.detections;
}

let orgA: Org;
let orgB: Org;
let platform: Awaited<ReturnType<typeof bootstrapPlatformOwner>>;
let operatorA: Awaited<ReturnType<typeof addMember>>;
let auditorA: Awaited<ReturnType<typeof addMember>>;
let memberA: Awaited<ReturnType<typeof addMember>>;
let victimA: Awaited<ReturnType<typeof addMember>>;
let operatorB: Awaited<ReturnType<typeof addMember>>;
let agentId: string;
let taskId: string;
let staleAgentId: string;
let victimSessions: Array<{ refresh_token: string }>;

beforeAll(async () => {
  platform = await bootstrapPlatformOwner(svc);
  orgA = await signUpOwner(svc.url, 'detectA');
  orgB = await signUpOwner(svc.url, 'detectB');
  operatorA = await addMember(svc, orgA, 'security_operator');
  auditorA = await addMember(svc, orgA, 'auditor');
  memberA = await addMember(svc, orgA, 'member');
  victimA = await addMember(svc, orgA, 'member');
  operatorB = await addMember(svc, orgB, 'security_operator');

  // Organization A: failed sign-ins, then a replayed refresh token, of the same person. The throttle then refuses
  // their sign-ins for 15 minutes, so the sessions whose refresh tokens are replayed are opened first.
  victimSessions = [
    await signIn(victimA.email, victimA.password, orgA.slug),
    await signIn(victimA.email, victimA.password, orgA.slug),
  ];
  await failSignIns(victimA, orgA);
  // The throttle's event is written after the answer: wait for its detection.
  for (let i = 0; (await list(operatorA.token, '?rule_id=repeated-sign-in-failures')).length === 0; i++) {
    if (i > 400) throw new Error('repeated-sign-in-failures was never raised');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  svc.clock.advance(1000);
  await replayRefreshToken(victimSessions[0]!);
  svc.clock.advance(1000);

  // An agent's call outside its task token's scope, then the blast-radius breaker (which engages its kill switch).
  const agent = await registerAgent(svc, orgA.token);
  agentId = agent.agent_id;
  expect((await delegate(svc, orgA.token, agentId, ['members:read', 'tenant:manage'])).status).toBe(201);
  const minted = await mintAgentToken(svc, agent.credential, {
    task: { task: 'read the roster', permissions: ['members:read'], budget: 5 },
  });
  expect(minted.status, minted.text).toBe(200);
  taskId = minted.body.task.id;
  const changeSetting = (token: string, value: boolean) =>
    request(api('/tenants/config/auth.social_login_enabled'), { method: 'PATCH', token, json: { value } });
  expect((await changeSetting(minted.body.access_token, false)).status).toBe(403);
  svc.clock.advance(1000);
  const budget = await request(api(`/agents/${agentId}`), {
    method: 'PATCH',
    token: orgA.token,
    json: { write_budget_per_hour: 1 },
  });
  expect(budget.status, budget.text).toBe(200);
  const plain = await agentAccessToken(svc, agent.credential);
  expect((await changeSetting(plain, false)).status).toBe(200);
  expect((await changeSetting(plain, true)).status).toBe(403);
  svc.clock.advance(1000);

  // A stale credential: minting with one older than the organization's maximum age (direct set-up of the operator
  // setting and the credential's age, as in agents-token-limits).
  const stale = await registerAgent(svc, orgA.token);
  staleAgentId = stale.agent_id;
  await changeDirectly(
    svc,
    sql`insert into operator_settings (tenant_id, key, value, updated_at)
        values (${orgA.tenantId}, 'security.agent_max_credential_age_days', '30'::jsonb, ${svc.clock.now()})`,
  );
  await changeDirectly(
    svc,
    sql`update agents set credential_issued_at = ${new Date(svc.clock.now().getTime() - 40 * 86_400_000)}
        where id = ${staleAgentId}`,
  );
  expect((await mintAgentToken(svc, stale.credential)).status).toBe(200);
  svc.clock.advance(1000);

  // Organization B: a replayed refresh token.
  const victimB = await addMember(svc, orgB, 'member');
  await replayRefreshToken(await signIn(victimB.email, victimB.password, orgB.slug));
}, 60_000);

describe('GET /command/detections', () => {
  it('lists the deduplicated groups raised by real actions, newest first', async () => {
    const found = await list(operatorA.token);
    expect(found.map((d) => d.rule_id).sort()).toEqual(
      [
        'agent-blast-radius-breaker',
        'agent-credential-stale',
        'agent-kill-switch-changed',
        'agent-task-scope-exceeded',
        'refresh-token-replay',
        'repeated-sign-in-failures',
      ].sort(),
    );
    for (const detection of found) expect(detection.tenant_id).toBe(orgA.tenantId);
    const byRule = (rule: string) => found.find((d) => d.rule_id === rule)!;
    expect(byRule('repeated-sign-in-failures')).toMatchObject({
      group_key: `actor:${victimA.userId}`,
      severity: 'high',
      status: 'open',
      count: 1,
      note: null,
    });
    expect(byRule('refresh-token-replay')).toMatchObject({ group_key: `actor:${victimA.userId}`, severity: 'high' });
    expect(byRule('agent-task-scope-exceeded')).toMatchObject({
      group_key: `agent:${agentId}:task:${taskId}:tenant:manage`,
      severity: 'high',
      data: { agent_id: agentId, task_id: taskId, permission: 'tenant:manage' },
    });
    expect(byRule('agent-blast-radius-breaker')).toMatchObject({ group_key: `agent:${agentId}`, severity: 'critical' });
    expect(byRule('agent-kill-switch-changed')).toMatchObject({ severity: 'critical', data: { engaged: true } });
    // Newest first: last_seen descending, ties broken by id descending.
    const order = found.map((d) => [d.last_seen, d.id].join('|'));
    expect(order).toEqual([...order].sort().reverse());
    expect(found[found.length - 1]!.rule_id).toBe('repeated-sign-in-failures');
    // The list answers exactly what the table holds for the organization.
    const stored = await rows<{ id: string }>(db(), sql`select id from detections where tenant_id = ${orgA.tenantId}`);
    expect(found.map((d) => d.id).sort()).toEqual(stored.map((r) => r.id).sort());
  });

  it('filters by severity, rule, actor (actor:<id> and agent:<id>), status and limit, composing them', async () => {
    const critical = await list(operatorA.token, '?severity=critical');
    expect(critical.map((d) => d.rule_id).sort()).toEqual(['agent-blast-radius-breaker', 'agent-kill-switch-changed']);
    expect(await list(operatorA.token, '?severity=info')).toEqual([]);
    const byRule = await list(operatorA.token, '?rule_id=refresh-token-replay');
    expect(byRule).toHaveLength(1);
    expect(byRule[0]!.group_key).toBe(`actor:${victimA.userId}`);
    const person = await list(operatorA.token, `?actor_id=${victimA.userId}`);
    expect(person.map((d) => d.rule_id).sort()).toEqual(['refresh-token-replay', 'repeated-sign-in-failures']);
    const agent = await list(operatorA.token, `?actor_id=${agentId}`);
    // Every detection about the agent: the breaker's, the kill switch's it engaged, and the task scope's.
    expect(agent.map((d) => d.rule_id).sort()).toEqual([
      'agent-blast-radius-breaker',
      'agent-kill-switch-changed',
      'agent-task-scope-exceeded',
    ]);
    for (const detection of agent) expect(detection.group_key.startsWith(`agent:${agentId}`)).toBe(true);
    // A group key narrowed by a further part (one group per credential) is still the agent's.
    const stale = await list(operatorA.token, `?actor_id=${staleAgentId}`);
    expect(stale.map((d) => d.rule_id)).toEqual(['agent-credential-stale']);
    expect(stale[0]!.group_key).toMatch(new RegExp(`^agent:${staleAgentId}:credential:`));
    expect(stale[0]).toMatchObject({ severity: 'warn', data: { agent_id: staleAgentId, max_age_days: 30 } });
    // actor_id is matched literally: LIKE wildcards and a partial id match nothing.
    for (const literal of ['%', '_', agentId.slice(0, 8), encodeURIComponent('%:')]) {
      expect(await list(operatorA.token, `?actor_id=${literal}`), literal).toEqual([]);
    }
    expect(await list(operatorA.token, `?actor_id=${victimA.userId}&severity=critical`)).toEqual([]);
    expect(
      (await list(operatorA.token, `?actor_id=${victimA.userId}&rule_id=refresh-token-replay`)).map((d) => d.rule_id),
    ).toEqual(['refresh-token-replay']);
    expect(await list(operatorA.token, `?actor_id=${newId()}`)).toEqual([]);
    const newest = await list(operatorA.token, '?limit=1');
    expect(newest).toHaveLength(1);
    expect(newest[0]!.id).toBe((await list(operatorA.token))[0]!.id);
    expect((await list(operatorA.token, '?status=open')).length).toBe(6);
    expect(await list(operatorA.token, '?status=resolved&rule_id=refresh-token-replay')).toEqual([]);
  });

  it('refuses bad filters with 422 naming the field', async () => {
    for (const query of [
      '?actor_id=',
      `?actor_id=${'x'.repeat(65)}`,
      '?severity=urgent',
      '?limit=0',
      '?limit=1001',
      '?status=closed',
      '?tenant_id=not-a-uuid',
    ]) {
      const res = await get(`/command/detections${query}`, operatorA.token);
      expect(res.status, query).toBe(422);
      const field = query.slice(1).split('=')[0]!;
      expect(res.body.detail, query).toMatch(new RegExp(field));
    }
    expect((await get(`/command/detections?actor_id=${'x'.repeat(64)}`, operatorA.token)).status).toBe(200);
    expect((await get('/command/detections?limit=1000', operatorA.token)).status).toBe(200);
  });

  it('confines a member to their organization; the platform operator reads across organizations', async () => {
    const inB = await list(operatorB.token);
    expect(inB.map((d) => d.rule_id)).toEqual(['refresh-token-replay']);
    expect(inB[0]!.tenant_id).toBe(orgB.tenantId);
    const asked = await get(`/command/detections?tenant_id=${orgB.tenantId}`, operatorA.token);
    expect(asked.status).toBe(403);
    expect((await get(`/command/detections?tenant_id=${orgA.tenantId}`, operatorA.token)).status).toBe(200);

    const everything = await list(platform.token, '?limit=1000');
    const tenants = new Set(everything.map((d) => d.tenant_id));
    expect(tenants.has(orgA.tenantId)).toBe(true);
    expect(tenants.has(orgB.tenantId)).toBe(true);
    const onlyB = await list(platform.token, `?tenant_id=${orgB.tenantId}`);
    expect(onlyB.map((d) => d.id)).toEqual(inB.map((d) => d.id));
    const replays = await list(platform.token, '?rule_id=refresh-token-replay');
    expect(new Set(replays.map((d) => d.tenant_id))).toEqual(new Set([orgA.tenantId, orgB.tenantId]));
  });

  it('needs command:read: a member without it gets 403, the auditor reads', async () => {
    expect((await get('/command/detections', memberA.token)).status).toBe(403);
    expect((await get('/command/detections/summary', memberA.token)).status).toBe(403);
    expect((await get('/command/detections', auditorA.token)).status).toBe(200);
    expect((await get('/command/detections/summary', auditorA.token)).status).toBe(200);
    expect((await get('/command/detections', '')).status).toBe(401);
  });
});

describe('GET /command/detections/summary', () => {
  it('rolls up by severity and by rule with open counts', async () => {
    const res = await get('/command/detections/summary', operatorA.token);
    expect(res.status, res.text).toBe(200);
    const summary = res.body;
    expect(summary).toMatchObject({ tenant_id: orgA.tenantId, days: 7, groups: 6, open: 6 });
    expect(new Date(summary.since).getTime()).toBe(svc.clock.now().getTime() - 7 * 86_400_000);
    expect(summary.by_severity.map((s: { severity: string }) => s.severity)).toEqual([
      'critical',
      'high',
      'warn',
      'low',
      'info',
    ]);
    const severity = (name: string) => summary.by_severity.find((s: { severity: string }) => s.severity === name);
    expect(severity('critical')).toMatchObject({ groups: 2, open: 2, occurrences: 2 });
    expect(severity('high')).toMatchObject({ groups: 3, open: 3 });
    expect(severity('warn')).toMatchObject({ groups: 1, open: 1, occurrences: 1 });
    expect(severity('info')).toMatchObject({ groups: 0, open: 0, occurrences: 0 });
    const rules = summary.by_rule.map((r: { rule_id: string }) => r.rule_id);
    expect([...rules].sort()).toEqual(
      [
        'agent-blast-radius-breaker',
        'agent-credential-stale',
        'agent-kill-switch-changed',
        'agent-task-scope-exceeded',
        'refresh-token-replay',
        'repeated-sign-in-failures',
      ].sort(),
    );
    // Ties on open and groups are ordered by rule id.
    expect(rules).toEqual([...rules].sort());
    expect(summary.by_rule.find((r: { rule_id: string }) => r.rule_id === 'agent-blast-radius-breaker')).toMatchObject({
      severity: 'critical',
      groups: 1,
      open: 1,
      occurrences: 1,
    });

    const inB = (await get('/command/detections/summary', operatorB.token)).body;
    expect(inB).toMatchObject({ tenant_id: orgB.tenantId, groups: 1, open: 1 });
    const all = (await get('/command/detections/summary', platform.token)).body;
    expect(all.tenant_id).toBeNull();
    expect(all.groups).toBeGreaterThanOrEqual(6);
    expect((await get(`/command/detections/summary?tenant_id=${orgB.tenantId}`, operatorA.token)).status).toBe(403);
  });

  it('refuses days outside 1 to 90', async () => {
    for (const days of ['0', '91', 'week']) {
      const res = await get(`/command/detections/summary?days=${days}`, operatorA.token);
      expect(res.status).toBe(422);
      expect(res.body.detail).toMatch(/days/);
    }
    expect((await get('/command/detections/summary?days=90', operatorA.token)).status).toBe(200);
  });
});

describe('POST /command/detections/{id}/acknowledge', () => {
  it('acknowledges (the default), then resolves, each audited; a resolved detection is final (409)', async () => {
    const [replay] = await list(operatorA.token, '?rule_id=refresh-token-replay');
    const acknowledged = await acknowledge(replay!.id, operatorA.token);
    expect(acknowledged.status, acknowledged.text).toBe(200);
    expect(acknowledged.body).toMatchObject({ id: replay!.id, status: 'acknowledged', note: null, count: 1 });
    const again = await acknowledge(replay!.id, operatorA.token, { status: 'acknowledged' });
    expect(again.status).toBe(409);
    const resolved = await acknowledge(replay!.id, operatorA.token, { status: 'resolved', note: 'user re-enrolled' });
    expect(resolved.status, resolved.text).toBe(200);
    expect(resolved.body).toMatchObject({ status: 'resolved', note: 'user re-enrolled' });
    expect((await acknowledge(replay!.id, operatorA.token, { status: 'resolved' })).status).toBe(409);
    expect((await acknowledge(replay!.id, operatorA.token, {})).status).toBe(409);

    const recorded = await rows<{
      action: string;
      actor_id: string;
      actor_type: string;
      data: Record<string, unknown>;
      compliance_tags: string[];
      entry_hash: string;
    }>(
      db(),
      sql`select e.action, e.actor_id, e.actor_type, e.data, a.compliance_tags, a.entry_hash
          from events e join audit_log a on a.event_id = e.id
          where e.tenant_id = ${orgA.tenantId} and e.action like 'detection.%' and e.data->>'detection_id' = ${replay!.id}
          order by a.seq`,
    );
    expect(recorded.map((r) => [r.action, r.actor_id, r.actor_type, r.data.status])).toEqual([
      ['detection.acknowledged', operatorA.userId, 'human', 'acknowledged'],
      ['detection.resolved', operatorA.userId, 'human', 'resolved'],
    ]);
    expect(recorded[1]!.data).toMatchObject({ rule_id: 'refresh-token-replay', note: 'user re-enrolled' });
    expect(recorded[0]!.compliance_tags).toEqual(['soc2:CC7.3', 'iso27001:A.5.25']);

    // Settled groups are not deduplicated into: the same replay again opens a new detection.
    await replayRefreshToken(victimSessions[1]!);
    const replays = await list(operatorA.token, '?rule_id=refresh-token-replay');
    expect(replays.map((d) => d.status)).toEqual(['open', 'resolved']);
  });

  it('resolves an open detection directly, with a note', async () => {
    const [scope] = await list(operatorA.token, '?rule_id=agent-task-scope-exceeded');
    const res = await acknowledge(scope!.id, operatorA.token, { status: 'resolved', note: 'task was mis-scoped' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ status: 'resolved', note: 'task was mis-scoped' });
    expect(
      (await list(operatorA.token, '?status=resolved&rule_id=agent-task-scope-exceeded')).map((d) => d.id),
    ).toEqual([scope!.id]);
    const summary = (await get('/command/detections/summary', operatorA.token)).body;
    const rule = summary.by_rule.find((r: { rule_id: string }) => r.rule_id === 'agent-task-scope-exceeded');
    expect(rule).toMatchObject({ groups: 1, open: 0 });
  });

  it('is 404 for an unknown id and for another organization’s detection, for everyone including the platform operator', async () => {
    const [inB] = await list(operatorB.token);
    const [inA] = await list(operatorA.token, '?status=open');
    expect((await acknowledge(newId(), operatorA.token)).status).toBe(404);
    expect((await acknowledge('not-a-detection', operatorA.token)).status).toBe(404);
    const foreign = await acknowledge(inB!.id, operatorA.token);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual((await acknowledge(newId(), operatorA.token)).body);
    // The platform operator reads B's detections but acts only on its own organization's.
    expect((await acknowledge(inB!.id, platform.token)).status).toBe(404);
    expect((await acknowledge(inA!.id, platform.token)).status).toBe(404);
    const untouched = await rows<{ status: string }>(db(), sql`select status from detections where id = ${inB!.id}`);
    expect(untouched).toEqual([{ status: 'open' }]);
  });

  it('needs command:operate: the auditor and a member get 403, and nothing changes', async () => {
    const [open] = await list(operatorA.token, '?status=open');
    for (const who of [auditorA, memberA]) {
      const res = await acknowledge(open!.id, who.token);
      expect(res.status).toBe(403);
      expect(res.body.detail).toBe('Missing permission: command:operate');
    }
    expect((await list(operatorA.token, `?status=open&rule_id=${open!.rule_id}`)).map((d) => d.id)).toContain(open!.id);
  });

  it('refuses a bad body with 422', async () => {
    const [open] = await list(operatorA.token, '?status=open');
    for (const body of [{ status: 'open' }, { note: 'x'.repeat(2001) }, { verdict: 'fine' }]) {
      expect((await acknowledge(open!.id, operatorA.token, body)).status).toBe(422);
    }
  });

  it('lets the platform operator settle platform-level detections, which no organization sees', async () => {
    await svc.deps.transactions.system((tx) =>
      svc.deps.events.detect(tx, {
        tenantId: null,
        ruleId: 'platform-test-signal',
        groupKey: `probe:${newId()}`,
        severity: 'warn',
      }),
    );
    const [platformLevel] = await list(platform.token, '?rule_id=platform-test-signal');
    expect(platformLevel).toMatchObject({ tenant_id: null, status: 'open' });
    expect(await list(operatorA.token, '?rule_id=platform-test-signal')).toEqual([]);
    expect((await acknowledge(platformLevel!.id, operatorA.token)).status).toBe(404);
    const settled = await acknowledge(platformLevel!.id, platform.token);
    expect(settled.status, settled.text).toBe(200);
    expect(settled.body).toMatchObject({ status: 'acknowledged', tenant_id: null });
    const recorded = await rows<{ tenant_id: string | null; actor_id: string }>(
      db(),
      sql`select tenant_id, actor_id from events where action = 'detection.acknowledged'
          and data->>'detection_id' = ${platformLevel!.id}`,
    );
    expect(recorded).toEqual([{ tenant_id: null, actor_id: platform.userId }]);
  });
});

describe('the summary window', () => {
  it('counts groups last seen within `days`', async () => {
    const before = (await get('/command/detections/summary?days=1', operatorA.token)).body;
    expect(before.groups).toBeGreaterThan(0);
    svc.clock.advance(2 * 86_400_000);
    const operator = await signIn(operatorA.email, operatorA.password, orgA.slug);
    const later = (await get('/command/detections/summary?days=1', operator.access_token)).body;
    expect(later).toMatchObject({ groups: 0, open: 0, by_rule: [] });
    const wider = (await get('/command/detections/summary?days=3', operator.access_token)).body;
    expect(wider.groups).toBe(before.groups);
    expect(wider.open).toBe(before.open);
  });
});
