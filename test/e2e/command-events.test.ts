import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/kernel/db/index.js';
import { type ActorType, type EventEnvelope, envelopeOf } from '../../src/kernel/events/index.js';
import { events as eventsTable } from '../../src/kernel/events/schema.js';
import { agentAccessToken, mintAgentToken } from '../support/agent-tokens.js';
import { delegate, registerAgent } from '../support/agents.js';
import { request } from '../support/http.js';
import { addMember, signUpOwner } from '../support/organizations.js';
import { bootstrapPlatformOwner } from '../support/platform.js';
import { startService, type TestService } from '../support/service.js';

// Command Center events (issue 22 item 1; Part B 2.7, 4.8): the list and its filters, activity by actor, the
// refusals, and confinement to the caller's organization (across organizations for the platform operator).

let svc: TestService;
let platform: Awaited<ReturnType<typeof bootstrapPlatformOwner>>;
let alpha: Owner;
let beta: Owner;
beforeAll(async () => {
  svc = await startService();
  platform = await bootstrapPlatformOwner(svc);
  alpha = await signUpOwner(svc.url, 'alpha');
  beta = await signUpOwner(svc.url, 'beta');
});
afterAll(async () => {
  await svc?.close();
});

type Owner = Awaited<ReturnType<typeof signUpOwner>>;
const api = (path: string) => `${svc.url}/api/v1${path}`;
const query = (params: Record<string, string | number>) =>
  new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString();
const listEvents = (token: string, params: Record<string, string | number> = {}) =>
  request<{ events: EventEnvelope[]; next_cursor: string | null; detail?: string }>(
    api(`/command/events?${query(params)}`),
    {
      token,
    },
  );
const byActor = (token: string, params: Record<string, string | number> = {}) =>
  request(api(`/command/events/by-actor?${query(params)}`), { token });

/** A failed sign-in of `who` (wrong password); its record is written after the answer, so wait for that work. */
async function failSignIn(who: Owner) {
  const res = await request(api('/auth/login'), {
    json: { email: who.email, password: 'not the password at all', tenant_slug: who.slug },
  });
  expect(res.status).toBe(401);
  await svc.deps.afterAnswer.drain();
}

/** Events written directly through the kernel (for records no action produces yet, and volume). */
async function emitDirectly(
  tenantId: string,
  actor: { id: string; type: ActorType },
  extra: { correlationId?: string; severity?: 'info' | 'warn' | 'high'; outcome?: 'success' | 'denied' } = {},
) {
  return svc.deps.transactions.tenant(tenantId, (tx) =>
    svc.deps.events.emit(tx, { tenantId, actor, category: 'admin', action: 'setting.changed', ...extra }),
  );
}

const newestFirst = (events: EventEnvelope[]) =>
  events.every((e, i) => i === 0 || events[i - 1]!.timestamp >= e.timestamp);

describe('GET /command/events', () => {
  it('lists failed sign-ins, newest first, each with the full envelope; every filter narrows it', async () => {
    const start = svc.clock.now().toISOString();
    await failSignIn(alpha);
    svc.clock.advance(1000);
    await failSignIn(alpha);
    const all = await listEvents(alpha.token, { action: 'user.login_failed' });
    expect(all.status, all.text).toBe(200);
    expect(all.body.events).toHaveLength(2);
    expect(newestFirst(all.body.events)).toBe(true);
    expect(all.body.events[0]!.timestamp > all.body.events[1]!.timestamp).toBe(true);
    const [latest] = all.body.events;
    expect(latest).toEqual({
      id: expect.any(String),
      tenant_id: alpha.tenantId,
      timestamp: expect.any(String),
      actor: { id: alpha.userId, type: 'human' },
      category: 'auth',
      action: 'user.login_failed',
      severity: 'low',
      outcome: 'failure',
      correlation_id: null,
      data: { user_id: alpha.userId },
    });
    expect(all.body.next_cursor).toBeNull();

    // Each filter alone keeps only matching events, and filters compose.
    const checks: Array<[Record<string, string>, (e: EventEnvelope) => boolean]> = [
      [{ category: 'auth' }, (e) => e.category === 'auth'],
      [{ severity: 'low' }, (e) => e.severity === 'low'],
      [{ actor_id: alpha.userId }, (e) => e.actor.id === alpha.userId],
      [{ actor_type: 'human' }, (e) => e.actor.type === 'human'],
      [{ since: start }, (e) => e.timestamp >= start],
    ];
    for (const [filter, holds] of checks) {
      const res = await listEvents(alpha.token, filter);
      expect(res.status, res.text).toBe(200);
      expect(res.body.events.length, JSON.stringify(filter)).toBeGreaterThan(0);
      expect(res.body.events.every(holds), JSON.stringify(filter)).toBe(true);
      expect(newestFirst(res.body.events)).toBe(true);
    }
    const everything = await listEvents(alpha.token, { limit: 1000 });
    expect(everything.body.events.some((e) => e.action === 'user.signed_up')).toBe(true);
    const composed = await listEvents(alpha.token, {
      since: latest!.timestamp,
      category: 'auth',
      action: 'user.login_failed',
      severity: 'low',
      actor_id: alpha.userId,
      actor_type: 'human',
    });
    expect(composed.body.events.map((e) => e.id)).toEqual([latest!.id]);
    // A filter that matches nothing answers an empty list, not an error.
    expect((await listEvents(alpha.token, { action: 'user.login_failed', severity: 'critical' })).body.events).toEqual(
      [],
    );
    expect((await listEvents(alpha.token, { actor_type: 'agent', action: 'user.login_failed' })).body.events).toEqual(
      [],
    );
  });

  it('answers each envelope as the kernel maps its row, data exactly as stored, in the shape the route declares', async () => {
    // The page is written as text (events-store), `data` as PostgreSQL sends it: odd contents must survive.
    const data = {
      quote: 'say "hi"\\ and \u2028 then',
      unicode: 'Zürich ✓ 🌍',
      control: 'tab\there\nnewline\u0001',
      nested: { list: [1, 2.5, -0, true, null, { deep: 'x' }], empty: {} },
      html: '</script><script>alert(1)</script>',
    };
    const emitted = await svc.deps.transactions.tenant(beta.tenantId, (tx) =>
      svc.deps.events.emit(tx, {
        tenantId: beta.tenantId,
        actor: { id: beta.userId, type: 'human' },
        category: 'admin',
        action: 'setting.changed',
        correlationId: 'corr "quoted"',
        data,
      }),
    );
    const page = await listEvents(beta.token, { limit: 1000 });
    expect(page.status, page.text).toBe(200);
    expect(page.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const listed = page.body.events.find((event) => event.id === emitted.id);
    expect(listed).toEqual({ ...emitted, data: JSON.parse(JSON.stringify(data)) });
    // Every listed envelope is the kernel's mapping of its row.
    const stored = await svc.deps.transactions.tenantRead(beta.tenantId, (tx) =>
      tx.select().from(eventsTable).where(eq(eventsTable.tenantId, beta.tenantId)),
    );
    const byId = new Map(stored.map((row) => [row.id, envelopeOf(row)]));
    expect(page.body.events.length).toBe(stored.length);
    for (const event of page.body.events) expect(event).toEqual(byId.get(event.id));
    // And the page is what the OpenAPI document declares for this answer.
    const openapi = (await request(api('/openapi.json'))).body;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addSchema(openapi, 'openapi');
    const validate = ajv.compile({
      $ref: 'openapi#/paths/~1api~1v1~1command~1events/get/responses/200/content/application~1json/schema',
    });
    expect(validate(page.body), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...page.body, events: [{ ...listed, actor: { id: 1 } }] })).toBe(false);
  });

  it('shows a refresh-token replay as a high, denied event of the person', async () => {
    const owner = await signUpOwner(svc.url, 'replay');
    const first = await request(api('/auth/refresh'), { json: { refresh_token: owner.refresh } });
    expect(first.status).toBe(200);
    const replay = await request(api('/auth/refresh'), { json: { refresh_token: owner.refresh } });
    expect(replay.status).toBe(401);
    // The replay ended the session: sign in again to read.
    const login = await request(api('/auth/login'), {
      json: { email: owner.email, password: owner.password, tenant_slug: owner.slug },
    });
    const res = await listEvents(login.body.access_token, { severity: 'high' });
    expect(res.status).toBe(200);
    expect(res.body.events).toEqual([
      expect.objectContaining({
        action: 'session.refresh_replayed',
        actor: { id: owner.userId, type: 'human' },
        severity: 'high',
        outcome: 'denied',
        tenant_id: owner.tenantId,
      }),
    ]);
  });

  it('filters by correlation_id', async () => {
    const owner = await signUpOwner(svc.url, 'correlate');
    const actor = { id: owner.userId, type: 'human' as const };
    const tagged = await emitDirectly(owner.tenantId, actor, { correlationId: 'manifest-abc' });
    await emitDirectly(owner.tenantId, actor, { correlationId: 'manifest-other' });
    await emitDirectly(owner.tenantId, actor);
    const res = await listEvents(owner.token, { correlation_id: 'manifest-abc' });
    expect(res.status).toBe(200);
    expect(res.body.events.map((e) => [e.id, e.correlation_id])).toEqual([[tagged.id, 'manifest-abc']]);
  });

  it('pages with limit and next_cursor, newest first, without gaps or repeats', async () => {
    const owner = await signUpOwner(svc.url, 'pages');
    const actor = { id: owner.userId, type: 'human' as const };
    const emitted: string[] = [];
    for (let i = 0; i < 5; i++) {
      // Two events share each instant: the id breaks the tie.
      emitted.push((await emitDirectly(owner.tenantId, actor)).id, (await emitDirectly(owner.tenantId, actor)).id);
      svc.clock.advance(10);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await listEvents(owner.token, {
        action: 'setting.changed',
        limit: 3,
        ...(cursor ? { cursor } : {}),
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body.events.length).toBeLessThanOrEqual(3);
      seen.push(...res.body.events.map((e) => e.id));
      cursor = res.body.next_cursor;
      pages += 1;
    } while (cursor && pages < 10);
    expect(pages).toBe(4);
    expect(new Set(seen).size).toBe(10);
    expect(new Set(seen)).toEqual(new Set(emitted));
    const whole = await listEvents(owner.token, { action: 'setting.changed', limit: 10 });
    expect(whole.body.events.map((e) => e.id)).toEqual(seen);
    expect(whole.body.next_cursor).toBeNull();
    // The default is 100 events.
    for (let i = 0; i < 95; i++) await emitDirectly(owner.tenantId, actor);
    const defaulted = await listEvents(owner.token, { action: 'setting.changed' });
    expect(defaulted.body.events).toHaveLength(100);
    expect(defaulted.body.next_cursor).not.toBeNull();
    expect((await listEvents(owner.token, { action: 'setting.changed', limit: 1000 })).body.events).toHaveLength(105);
  });

  it('refuses a bad actor_id, actor_type, severity, since, tenant_id, cursor or limit with 422', async () => {
    const refused: Array<Record<string, string | number>> = [
      { actor_id: '' },
      { actor_id: 'x'.repeat(65) },
      { actor_type: 'robot' },
      { actor_type: 'Human' },
      { severity: 'severe' },
      { since: 'yesterday' },
      { tenant_id: 'not-a-uuid' },
      { cursor: 'bm90IGEgY3Vyc29y' },
      // A cursor of the right shape whose instant is not one the list writes.
      { cursor: Buffer.from(JSON.stringify(['1', '00000000-0000-4000-8000-000000000000'])).toString('base64url') },
      { limit: 0 },
      { limit: 1001 },
      { limit: 'many' },
    ];
    for (const params of refused) {
      const res = await listEvents(alpha.token, params);
      expect(res.status, JSON.stringify(params)).toBe(422);
      expect(res.body.detail, JSON.stringify(params)).toEqual(expect.any(String));
    }
    // The edges are accepted.
    expect((await listEvents(alpha.token, { actor_id: 'x'.repeat(64) })).status).toBe(200);
    expect((await listEvents(alpha.token, { actor_id: 'x' })).status).toBe(200);
    expect((await listEvents(alpha.token, { limit: 1000 })).status).toBe(200);
    for (const type of ['human', 'agent', 'service', 'system']) {
      expect((await listEvents(alpha.token, { actor_type: type })).status).toBe(200);
    }
  });
});

describe('who reads which organization', () => {
  it("confines a member to their organization: another organization's tenant_id is 403", async () => {
    await failSignIn(beta);
    const own = await listEvents(beta.token, { limit: 1000 });
    expect(own.status).toBe(200);
    expect(own.body.events.length).toBeGreaterThan(0);
    expect(own.body.events.every((e) => e.tenant_id === beta.tenantId)).toBe(true);
    expect((await listEvents(beta.token, { tenant_id: beta.tenantId })).body.events).toEqual(own.body.events);
    // Filtering on another organization's actor finds nothing rather than leaking it.
    expect((await listEvents(beta.token, { actor_id: alpha.userId })).body.events).toEqual([]);

    const other = await listEvents(beta.token, { tenant_id: alpha.tenantId });
    expect(other.status).toBe(403);
    expect(other.body.detail).toBe('Only the platform operator reads another organization');
    expect((await byActor(beta.token, { tenant_id: alpha.tenantId })).status).toBe(403);
    // An organization that does not exist is refused the same way.
    expect((await listEvents(beta.token, { tenant_id: '00000000-0000-4000-8000-000000000000' })).status).toBe(403);
  });

  it('lets the platform operator read every organization, or the one it names', async () => {
    const all = await listEvents(platform.token, { action: 'user.login_failed', limit: 1000 });
    expect(all.status).toBe(200);
    const tenants = new Set(all.body.events.map((e) => e.tenant_id));
    expect(tenants.has(alpha.tenantId)).toBe(true);
    expect(tenants.has(beta.tenantId)).toBe(true);
    const one = await listEvents(platform.token, { action: 'user.login_failed', tenant_id: alpha.tenantId });
    expect(one.body.events.length).toBe(2);
    expect(one.body.events.every((e) => e.tenant_id === alpha.tenantId)).toBe(true);
    // The platform operator's by-actor spans organizations too.
    const humans = await byActor(platform.token, { actor_type: 'human' });
    const ids = humans.body.principals.map((p: { actor_id: string }) => p.actor_id);
    expect(ids).toEqual(expect.arrayContaining([alpha.userId, beta.userId]));
  });

  it('needs command:read: an auditor and a security operator read, a plain member and an anonymous caller do not', async () => {
    const auditor = await addMember(svc, alpha, 'auditor');
    const operator = await addMember(svc, alpha, 'security_operator');
    const member = await addMember(svc, alpha, 'member');
    for (const reader of [auditor, operator]) {
      const res = await listEvents(reader.token, { action: 'user.login_failed' });
      expect(res.status).toBe(200);
      expect(res.body.events).toHaveLength(2);
      expect((await byActor(reader.token)).status).toBe(200);
    }
    const refused = await listEvents(member.token);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toBe('Missing permission: command:read');
    expect((await byActor(member.token)).status).toBe(403);
    expect((await request(api('/command/events'))).status).toBe(401);
    expect((await request(api('/command/events/by-actor'))).status).toBe(401);
  });

  it("lets an agent holding a delegated command:read read its organization's events, where its refusals show as agent", async () => {
    const owner = await signUpOwner(svc.url, 'agentic');
    const agent = await registerAgent(svc, owner.token);
    expect((await delegate(svc, owner.token, agent.agent_id, ['command:read', 'members:read'])).status).toBe(201);
    // An out-of-scope call: a task token scoped to members:read tries a tenant:manage write.
    const task = await mintAgentToken(svc, agent.credential, {
      task: { task: 'read the roster', permissions: ['members:read'], budget: 5 },
    });
    expect(task.status).toBe(200);
    const outOfScope = await request(api('/tenants/config/auth.social_login_enabled'), {
      method: 'PATCH',
      token: task.body.access_token,
      json: { value: false },
    });
    expect(outOfScope.status).toBe(403);

    const token = await agentAccessToken(svc, agent.credential);
    const res = await listEvents(token, { actor_type: 'agent' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.events.length).toBeGreaterThan(0);
    expect(res.body.events.every((e) => e.actor.type === 'agent' && e.actor.id === agent.agent_id)).toBe(true);
    expect(res.body.events.every((e) => e.tenant_id === owner.tenantId)).toBe(true);
    expect(res.body.events.map((e) => [e.action, e.outcome])).toContainEqual(['agent.action_refused', 'denied']);
    // The agent is confined like a person.
    expect((await listEvents(token, { tenant_id: alpha.tenantId })).status).toBe(403);
    // An agent without command:read is refused by governance.
    const reader = await registerAgent(svc, owner.token);
    expect((await delegate(svc, owner.token, reader.agent_id, ['members:read'])).status).toBe(201);
    expect((await listEvents(await agentAccessToken(svc, reader.credential))).status).toBe(403);
  });
});

describe('GET /command/events/by-actor', () => {
  it('counts per agent: total, by outcome, elevated, first and last seen, matching the event list', async () => {
    const owner = await signUpOwner(svc.url, 'byactor');
    const agent = await registerAgent(svc, owner.token);
    expect((await delegate(svc, owner.token, agent.agent_id, ['members:read', 'tenant:manage'])).status).toBe(201);
    const task = await mintAgentToken(svc, agent.credential, {
      task: { task: 'read', permissions: ['members:read'], budget: 5 },
    });
    for (let i = 0; i < 3; i++) {
      svc.clock.advance(1000);
      const refused = await request(api('/tenants/config/auth.social_login_enabled'), {
        method: 'PATCH',
        token: task.body.access_token,
        json: { value: false },
      });
      expect(refused.status).toBe(403);
    }
    const res = await byActor(owner.token);
    expect(res.status, res.text).toBe(200);
    const events = (await listEvents(owner.token, { actor_type: 'agent', limit: 1000 })).body.events;
    const mine = events.filter((e) => e.actor.id === agent.agent_id);
    expect(mine.length).toBeGreaterThanOrEqual(3);
    const count = (outcome: string) => mine.filter((e) => e.outcome === outcome).length;
    expect(res.body).toEqual({
      actor_type: 'agent',
      days: 7,
      since: expect.any(String),
      principals: [
        {
          actor_id: agent.agent_id,
          total: mine.length,
          by_outcome: { success: count('success'), failure: count('failure'), denied: count('denied') },
          elevated: mine.filter((e) => ['warn', 'high', 'critical'].includes(e.severity)).length,
          first_seen: mine[mine.length - 1]!.timestamp,
          last_seen: mine[0]!.timestamp,
        },
      ],
      total: 1,
      shown: 1,
      hidden: 0,
    });
    expect(res.body.principals[0].by_outcome.denied).toBeGreaterThanOrEqual(3);
    expect(new Date(res.body.since).getTime()).toBe(svc.clock.now().getTime() - 7 * 86_400_000);
    // People are another actor type.
    const humans = await byActor(owner.token, { actor_type: 'human' });
    expect(humans.body.principals.map((p: { actor_id: string }) => p.actor_id)).toEqual([owner.userId]);
  });

  it('orders by volume then actor_id, shows the 100 busiest and counts the rest as hidden', async () => {
    const owner = await signUpOwner(svc.url, 'volume');
    // 103 service principals: s-000 with 3 events, s-001 and s-002 with 2, the rest with 1.
    const ids = Array.from({ length: 103 }, (_, i) => `s-${String(i).padStart(3, '0')}`);
    for (const [i, id] of ids.entries()) {
      const times = i === 0 ? 3 : i < 3 ? 2 : 1;
      for (let n = 0; n < times; n++) await emitDirectly(owner.tenantId, { id, type: 'service' });
    }
    const res = await byActor(owner.token, { actor_type: 'service' });
    expect(res.status).toBe(200);
    expect([res.body.total, res.body.shown, res.body.hidden]).toEqual([103, 100, 3]);
    const shown = res.body.principals.map((p: { actor_id: string; total: number }) => [p.actor_id, p.total]);
    expect(shown.slice(0, 4)).toEqual([
      ['s-000', 3],
      ['s-001', 2],
      ['s-002', 2],
      ['s-003', 1],
    ]);
    // Ties by actor_id ascending: the last three (s-100..s-102) are the hidden ones.
    expect(shown[99]).toEqual(['s-099', 1]);
  });

  it('counts only the window: days 1 to 90, default 7', async () => {
    const owner = await signUpOwner(svc.url, 'window');
    const now = svc.clock.now();
    svc.clock.set(new Date(now.getTime() - 10 * 86_400_000));
    await emitDirectly(owner.tenantId, { id: 'old-service', type: 'service' }, { severity: 'high', outcome: 'denied' });
    svc.clock.set(now);
    await emitDirectly(owner.tenantId, { id: 'new-service', type: 'service' }, { severity: 'warn' });
    const week = await byActor(owner.token, { actor_type: 'service' });
    expect(week.body.principals.map((p: { actor_id: string }) => p.actor_id)).toEqual(['new-service']);
    expect(week.body.principals[0]).toMatchObject({ elevated: 1, by_outcome: { success: 1, failure: 0, denied: 0 } });
    const month = await byActor(owner.token, { actor_type: 'service', days: 30 });
    expect(month.body.principals).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          actor_id: 'old-service',
          elevated: 1,
          by_outcome: { success: 0, failure: 0, denied: 1 },
        }),
      ]),
    );
    expect(month.body.total).toBe(2);
    const oneDay = await byActor(owner.token, { actor_type: 'service', days: 1 });
    expect(oneDay.status).toBe(200);
    expect((await byActor(owner.token, { actor_type: 'service', days: 90 })).status).toBe(200);
    const refusals: Array<Record<string, string | number>> = [
      { days: 0 },
      { days: 91 },
      { days: 'week' },
      { actor_type: 'robot' },
    ];
    for (const params of refusals) {
      expect((await byActor(owner.token, params)).status, JSON.stringify(params)).toBe(422);
    }
    // No agent has acted in this organization: the default answers an empty roll-up.
    expect((await byActor(owner.token)).body).toMatchObject({ principals: [], total: 0, shown: 0, hidden: 0 });
  });
});

describe('attribution', () => {
  it('gives every event the service emitted one of the four actor types', async () => {
    const found = await rows<{ actor_type: string }>(svc.deps.database.db, sql`select distinct actor_type from events`);
    expect(found.length).toBeGreaterThan(0);
    for (const { actor_type } of found) expect(['human', 'agent', 'service', 'system']).toContain(actor_type);
    const listed = await listEvents(platform.token, { limit: 1000 });
    expect(listed.body.events.length).toBeGreaterThan(0);
    for (const event of listed.body.events) {
      expect(['human', 'agent', 'service', 'system']).toContain(event.actor.type);
    }
  });
});
