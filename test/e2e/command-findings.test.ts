import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/kernel/db/index.js';
import type { EventEnvelope } from '../../src/kernel/events/index.js';
import { agentAccessToken, mintAgentToken } from '../support/agent-tokens.js';
import { delegate, registerAgent } from '../support/agents.js';
import { request } from '../support/http.js';
import { addMember, signUpOwner } from '../support/organizations.js';
import { bootstrapPlatformOwner } from '../support/platform.js';
import { startService, type TestService } from '../support/service.js';

// Findings (issue 22 item 5; Part B 4.8): read only, computed from the records on every read (docs/decisions.md,
// "Command Center findings"): the analyst's adverse activity per principal and action, and open detections.

let svc: TestService;
let platform: Awaited<ReturnType<typeof bootstrapPlatformOwner>>;
let alpha: Owner;
let beta: Owner;
let agentId: string;
let agentToken: string;
beforeAll(async () => {
  svc = await startService();
  platform = await bootstrapPlatformOwner(svc);
  alpha = await signUpOwner(svc.url, 'alpha');
  beta = await signUpOwner(svc.url, 'beta');
  // Real actions: failed sign-ins, a refresh-token replay, an agent's out-of-scope calls.
  for (const who of [alpha, alpha, alpha, beta]) {
    svc.clock.advance(1000);
    const res = await request(api('/auth/login'), {
      json: { email: who.email, password: 'not the password at all', tenant_slug: who.slug },
    });
    expect(res.status).toBe(401);
    await svc.deps.afterAnswer.drain();
  }
  const agent = await registerAgent(svc, alpha.token);
  agentId = agent.agent_id;
  expect((await delegate(svc, alpha.token, agentId, ['command:read', 'members:read', 'tenant:manage'])).status).toBe(
    201,
  );
  const task = await mintAgentToken(svc, agent.credential, {
    task: { task: 'read the roster', permissions: ['members:read'], budget: 5 },
  });
  for (let i = 0; i < 2; i++) {
    svc.clock.advance(1000);
    const refused = await request(api('/tenants/config/auth.social_login_enabled'), {
      method: 'PATCH',
      token: task.body.access_token,
      json: { value: false },
    });
    expect(refused.status).toBe(403);
  }
  agentToken = await agentAccessToken(svc, agent.credential);
  svc.clock.advance(1000);
  expect((await request(api('/auth/refresh'), { json: { refresh_token: alpha.refresh } })).status).toBe(200);
  expect((await request(api('/auth/refresh'), { json: { refresh_token: alpha.refresh } })).status).toBe(401);
  // The replay ended alpha's session: sign in again.
  const login = await request(api('/auth/login'), {
    json: { email: alpha.email, password: alpha.password, tenant_slug: alpha.slug },
  });
  alpha.token = login.body.access_token;
});
afterAll(async () => {
  await svc?.close();
});

type Owner = Awaited<ReturnType<typeof signUpOwner>>;
interface Finding {
  id: string;
  source: string;
  tenant_id: string | null;
  severity: string;
  title: string;
  signal: string;
  subject: string;
  count: number;
  first_seen: string;
  last_seen: string;
  event_ids: string[];
  by_outcome: Record<string, number> | null;
  detection_id: string | null;
  status: string | null;
}
const api = (path: string) => `${svc.url}/api/v1${path}`;
const query = (params: Record<string, string | number>) =>
  new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString();
const findings = (token: string, params: Record<string, string | number> = {}) =>
  request<{ source: string; window_days: number | null; findings: Finding[]; detail?: string }>(
    api(`/command/findings?${query(params)}`),
    { token },
  );
const SEVERITIES = ['info', 'low', 'warn', 'high', 'critical'];

/** The analyst's findings worked out here from the event list: adverse events grouped by actor and action. */
async function expectedAnalystFindings(token: string) {
  const events = (await request(api('/command/events?limit=1000'), { token })).body.events as EventEnvelope[];
  const adverse = events.filter((e) => e.outcome !== 'success' || SEVERITIES.indexOf(e.severity) >= 2);
  const groups = new Map<string, EventEnvelope[]>();
  for (const event of adverse) {
    const key = `${event.tenant_id} ${event.actor.type}:${event.actor.id} ${event.action}`;
    groups.set(key, [...(groups.get(key) ?? []), event]);
  }
  return [...groups.values()].map((group) => ({
    tenant_id: group[0]!.tenant_id,
    signal: group[0]!.action,
    subject: `${group[0]!.actor.type}:${group[0]!.actor.id}`,
    count: group.length,
    severity: SEVERITIES[Math.max(...group.map((e) => SEVERITIES.indexOf(e.severity)))],
    first_seen: group[group.length - 1]!.timestamp,
    last_seen: group[0]!.timestamp,
    event_ids: group.slice(0, 5).map((e) => e.id),
    by_outcome: {
      success: group.filter((e) => e.outcome === 'success').length,
      failure: group.filter((e) => e.outcome === 'failure').length,
      denied: group.filter((e) => e.outcome === 'denied').length,
    },
  }));
}

const rank = (f: Finding) => SEVERITIES.indexOf(f.severity);
const ordered = (list: Finding[]) =>
  list.every(
    (f, i) =>
      i === 0 ||
      rank(list[i - 1]!) > rank(f) ||
      (rank(list[i - 1]!) === rank(f) && list[i - 1]!.last_seen >= f.last_seen),
  );

describe('GET /command/findings (analyst, the default)', () => {
  it("is the organization's adverse activity per principal and action, computed from its events", async () => {
    const res = await findings(alpha.token);
    expect(res.status, res.text).toBe(200);
    expect(res.body.source).toBe('analyst');
    expect(res.body.window_days).toBe(7);
    const expected = await expectedAnalystFindings(alpha.token);
    expect(expected.length).toBeGreaterThanOrEqual(3);
    expect(res.body.findings).toHaveLength(expected.length);
    expect(res.body.findings).toEqual(
      expect.arrayContaining(
        expected.map((f) =>
          expect.objectContaining({
            ...f,
            source: 'analyst',
            detection_id: null,
            status: null,
            id: expect.stringMatching(/^analyst-[0-9a-f]{32}$/),
          }),
        ),
      ),
    );
    expect(ordered(res.body.findings)).toBe(true);

    const bySignal = (signal: string) => res.body.findings.find((f) => f.signal === signal)!;
    expect(bySignal('user.login_failed')).toMatchObject({
      subject: `human:${alpha.userId}`,
      count: 3,
      severity: 'low',
      by_outcome: { success: 0, failure: 3, denied: 0 },
      title: `user.login_failed by human ${alpha.userId}: 3 times (3 failure)`,
    });
    expect(bySignal('session.refresh_replayed')).toMatchObject({ severity: 'high', count: 1 });
    expect(bySignal('agent.action_refused')).toMatchObject({
      subject: `agent:${agentId}`,
      severity: 'warn',
      by_outcome: { success: 0, failure: 0, denied: 2 },
    });
    // The most severe first.
    expect(res.body.findings[0]!.signal).toBe('session.refresh_replayed');
    // The same activity is the same finding on the next read.
    expect((await findings(alpha.token)).body.findings.map((f) => f.id)).toEqual(res.body.findings.map((f) => f.id));
  });

  it('grows with new activity and keeps to the last 7 days', async () => {
    const before = (await findings(beta.token)).body.findings.find((f) => f.signal === 'user.login_failed')!;
    expect(before.count).toBe(1);
    svc.clock.advance(1000);
    const res = await request(api('/auth/login'), {
      json: { email: beta.email, password: 'still not the password', tenant_slug: beta.slug },
    });
    expect(res.status).toBe(401);
    await svc.deps.afterAnswer.drain();
    const after = (await findings(beta.token)).body.findings.find((f) => f.signal === 'user.login_failed')!;
    expect(after).toMatchObject({ id: before.id, count: 2, first_seen: before.first_seen });
    expect(after.last_seen > before.last_seen).toBe(true);
    expect(after.event_ids).toHaveLength(2);
    expect(after.event_ids[1]).toBe(before.event_ids[0]);

    // Adverse activity older than the window is not a finding.
    const now = svc.clock.now();
    svc.clock.set(new Date(now.getTime() - 8 * 86_400_000));
    await svc.deps.transactions.tenant(beta.tenantId, (tx) =>
      svc.deps.events.emit(tx, {
        tenantId: beta.tenantId,
        actor: { id: 'old-service', type: 'service' },
        category: 'admin',
        action: 'setting.changed',
        severity: 'critical',
        outcome: 'denied',
      }),
    );
    svc.clock.set(now);
    const recent = await findings(beta.token);
    expect(recent.body.findings.some((f) => f.subject === 'service:old-service')).toBe(false);
  });

  it('filters by severity (exactly) and limits', async () => {
    const high = await findings(alpha.token, { severity: 'high' });
    expect(high.body.findings.map((f) => f.signal)).toEqual(['session.refresh_replayed']);
    const low = await findings(alpha.token, { severity: 'low' });
    expect(low.body.findings.length).toBeGreaterThan(0);
    expect(low.body.findings.every((f) => f.severity === 'low')).toBe(true);
    expect((await findings(alpha.token, { severity: 'critical' })).body.findings).toEqual([]);
    const one = await findings(alpha.token, { limit: 1 });
    expect(one.body.findings.map((f) => f.signal)).toEqual(['session.refresh_replayed']);
    expect((await findings(alpha.token, { limit: 500 })).status).toBe(200);
    const refusals: Array<Record<string, string | number>> = [
      { limit: 0 },
      { limit: 501 },
      { source: 'oracle' },
      { severity: 'severe' },
      { tenant_id: 'nope' },
    ];
    for (const params of refusals) {
      expect((await findings(alpha.token, params)).status, JSON.stringify(params)).toBe(422);
    }
  });
});

describe('GET /command/findings?source=detection', () => {
  it('lists the detections still open or acknowledged, most severe first, and drops a resolved one', async () => {
    const res = await findings(alpha.token, { source: 'detection' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.window_days).toBeNull();
    const stored = await rows<{ id: string; rule_id: string; group_key: string; severity: string; count: number }>(
      svc.deps.database.db,
      sql`select id, rule_id, group_key, severity, count from detections
          where tenant_id = ${alpha.tenantId} and status <> 'resolved'`,
    );
    expect(stored.length).toBeGreaterThanOrEqual(2);
    expect(res.body.findings).toHaveLength(stored.length);
    for (const detection of stored) {
      expect(res.body.findings).toContainEqual(
        expect.objectContaining({
          id: detection.id,
          source: 'detection',
          detection_id: detection.id,
          signal: detection.rule_id,
          subject: detection.group_key,
          severity: detection.severity,
          count: detection.count,
          status: 'open',
          event_ids: [],
          by_outcome: null,
        }),
      );
    }
    expect(ordered(res.body.findings)).toBe(true);
    const replay = res.body.findings.find((f) => f.signal === 'refresh-token-replay')!;
    expect(replay).toMatchObject({ subject: `actor:${alpha.userId}`, severity: 'high' });

    const acknowledged = await request(api(`/command/detections/${replay.id}/acknowledge`), {
      token: alpha.token,
      json: {},
    });
    expect(acknowledged.status, acknowledged.text).toBe(200);
    const afterAck = await findings(alpha.token, { source: 'detection' });
    expect(afterAck.body.findings.find((f) => f.id === replay.id)?.status).toBe('acknowledged');
    const resolved = await request(api(`/command/detections/${replay.id}/acknowledge`), {
      token: alpha.token,
      json: { status: 'resolved' },
    });
    expect(resolved.status, resolved.text).toBe(200);
    const afterResolve = await findings(alpha.token, { source: 'detection' });
    expect(afterResolve.body.findings.map((f) => f.id)).not.toContain(replay.id);
    expect(afterResolve.body.findings).toHaveLength(stored.length - 1);
    // Severity filters detections too.
    const high = await findings(alpha.token, { source: 'detection', severity: 'high' });
    expect(high.body.findings.every((f) => f.severity === 'high')).toBe(true);
  });
});

describe('who reads findings', () => {
  it("confines an organization to its own; the platform operator reads every organization's or one", async () => {
    const own = await findings(beta.token);
    expect(own.body.findings.length).toBeGreaterThan(0);
    expect(own.body.findings.every((f) => f.tenant_id === beta.tenantId)).toBe(true);
    expect((await findings(beta.token, { tenant_id: alpha.tenantId })).status).toBe(403);
    const all = await findings(platform.token, { limit: 500 });
    const tenants = all.body.findings.map((f) => f.tenant_id);
    expect(tenants).toContain(alpha.tenantId);
    expect(tenants).toContain(beta.tenantId);
    const one = await findings(platform.token, { tenant_id: alpha.tenantId, limit: 500 });
    expect(one.body.findings.map((f) => f.id).sort()).toEqual(
      (await findings(alpha.token, { limit: 500 })).body.findings.map((f) => f.id).sort(),
    );
    const detections = await findings(platform.token, { source: 'detection', tenant_id: beta.tenantId });
    expect(detections.body.findings.every((f) => f.tenant_id === beta.tenantId)).toBe(true);
  });

  it('is read by an auditor and by an agent holding command:read; a member without it is refused', async () => {
    const auditor = await addMember(svc, alpha, 'auditor');
    expect((await findings(auditor.token)).status).toBe(200);
    const byAgent = await findings(agentToken);
    expect(byAgent.status, byAgent.text).toBe(200);
    expect(byAgent.body.findings.some((f) => f.subject === `agent:${agentId}`)).toBe(true);
    const member = await addMember(svc, alpha, 'member');
    const refused = await findings(member.token);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toBe('Missing permission: command:read');
    expect((await request(api('/command/findings'))).status).toBe(401);
  });

  it('only reads: nothing is written by reading findings', async () => {
    const count = async () =>
      (
        await rows<{ events: string | number; audit: string | number; detections: string | number }>(
          svc.deps.database.db,
          sql`select (select count(*) from events) as events, (select count(*) from audit_log) as audit,
                     (select count(*) from detections) as detections`,
        )
      )[0];
    const before = await count();
    await findings(alpha.token);
    await findings(alpha.token, { source: 'detection' });
    await findings(platform.token);
    expect(await count()).toEqual(before);
    expect((await request(api('/command/findings'), { method: 'POST', token: alpha.token, json: {} })).status).toBe(
      404,
    );
  });
});
