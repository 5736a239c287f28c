import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/kernel/db/index.js';
import { purgeExpiredRecords } from '../../src/modules/privacy/index.js';
import { JOBS } from '../../src/workers.js';
import { request } from '../support/http.js';
import { addMember, signUpOwner } from '../support/organizations.js';
import { startService, type TestService } from '../support/service.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => {
  await svc?.close();
});

const api = (path: string) => `${svc.url}/api/v1${path}`;
const DAY = 86_400_000;

interface Person {
  token: string;
  userId: string;
  email: string;
  password: string;
}

/** Signs in again (after the clock moved past the token and session lifetimes). */
async function logIn(org: { slug: string }, person: Person): Promise<string> {
  const res = await request(api('/auth/login'), {
    json: { email: person.email, password: person.password, tenant_slug: org.slug },
  });
  expect(res.status).toBe(200);
  person.token = res.body.access_token;
  return person.token;
}

const put = (token: string, dataClass: string, json: unknown) =>
  request(api(`/retention/${dataClass}`), { method: 'PUT', token, json });
const preview = async (token: string) => {
  const res = await request(api('/retention/preview'), { token });
  expect(res.status).toBe(200);
  return Object.fromEntries(res.body.policies.map((p: { data_class: string }) => [p.data_class, p]));
};
const count = async (query: ReturnType<typeof sql>) => (await rows<{ n: number }>(svc.deps.database.db, query))[0]!.n;
const auditCount = () => count(sql`select count(*)::int as n from audit_log`);

describe('retention policies', () => {
  it('reads every data class with its default until set: disabled, nothing purged', async () => {
    const org = await signUpOwner(svc.url, 'retention');
    const res = await request(api('/retention'), { token: org.token });
    expect(res.status).toBe(200);
    expect(res.body.policies).toEqual([
      {
        data_class: 'events',
        retention_days: 365,
        enabled: false,
        archive_before_delete: false,
        legal_hold_exempt: false,
        notes: null,
        updated_at: null,
      },
      {
        data_class: 'dsr',
        retention_days: 1095,
        enabled: false,
        archive_before_delete: false,
        legal_hold_exempt: false,
        notes: null,
        updated_at: null,
      },
      {
        data_class: 'consent_events',
        retention_days: 1825,
        enabled: false,
        archive_before_delete: false,
        legal_hold_exempt: false,
        notes: null,
        updated_at: null,
      },
    ]);
  });

  it('sets a policy; fields left out keep their value; the change is audited', async () => {
    const org = await signUpOwner(svc.url, 'retention');
    const body = {
      retention_days: 90,
      enabled: true,
      archive_before_delete: true,
      legal_hold_exempt: false,
      notes: 'SOC 2 minimum',
    };
    const res = await put(org.token, 'events', body);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data_class: 'events', ...body, updated_at: svc.clock.now().toISOString() });
    const partial = await put(org.token, 'events', { retention_days: 120 });
    expect(partial.body).toMatchObject({
      retention_days: 120,
      enabled: true,
      archive_before_delete: true,
      notes: 'SOC 2 minimum',
    });
    const listed = await request(api('/retention'), { token: org.token });
    expect(listed.body.policies[0]).toEqual(partial.body);
    const audited = await count(
      sql`select count(*)::int as n from audit_log where tenant_id = ${org.tenantId} and action = 'retention.policy_updated'`,
    );
    expect(audited).toBe(2);
  });

  it('refuses bad input with 422 (or 404 for an unknown class), changing nothing', async () => {
    const org = await signUpOwner(svc.url, 'retention');
    for (const [body, field] of [
      [{ retention_days: 0 }, /retention_days/],
      [{ retention_days: 1.5 }, /retention_days/],
      [{ retention_days: -5 }, /retention_days/],
      [{}, /retention_days/],
      [{ retention_days: 30, enabled: 'yes' }, /enabled/],
      [{ retention_days: 30, surprise: true }, /surprise/],
    ] as const) {
      const res = await put(org.token, 'dsr', body);
      expect(res.status).toBe(422);
      expect(res.body.detail).toMatch(field);
    }
    expect((await put(org.token, 'audit_log', { retention_days: 30 })).status).toBe(404);
    expect((await put(org.token, 'audit_log', {})).status).toBe(404); // whatever the body
    expect((await put(org.token, 'dsr', { retention_days: 1 })).status).toBe(200);
    const listed = await request(api('/retention'), { token: org.token });
    expect(listed.body.policies.map((p: { retention_days: number }) => p.retention_days)).toEqual([365, 1, 1825]);
  });

  it('needs compliance:read to read and compliance:admin to change', async () => {
    const org = await signUpOwner(svc.url, 'retention');
    const plain = await addMember(svc, org, 'member');
    const auditor = await addMember(svc, org, 'auditor');
    const officer = await addMember(svc, org, 'compliance_officer');
    for (const path of ['/retention', '/retention/preview']) {
      const denied = await request(api(path), { token: plain.token });
      expect(denied.status).toBe(403);
      expect(denied.body.detail).toMatch(/compliance:read/);
      expect((await request(api(path), { token: auditor.token })).status).toBe(200);
    }
    expect((await put(plain.token, 'events', { retention_days: 30 })).status).toBe(403);
    const readOnly = await put(auditor.token, 'events', { retention_days: 30 });
    expect(readOnly.status).toBe(403);
    expect(readOnly.body.detail).toMatch(/compliance:admin/);
    expect((await put(officer.token, 'events', { retention_days: 30 })).status).toBe(200);
    expect((await request(api('/retention'))).status).toBe(401);
  });
});

describe('preview and purge', () => {
  it('purges a backlog larger than one batch in short transactions, each batch with its event', async () => {
    const org = await signUpOwner(svc.url, 'backlog');
    const longAgo = new Date(svc.clock.now().getTime() - 400 * DAY);
    await svc.deps.database.db.execute(
      sql`insert into events (id, tenant_id, occurred_at, actor_id, actor_type, category, action, severity, outcome, data)
          select gen_random_uuid(), ${org.tenantId}, ${longAgo}, 'backlog', 'system', 'admin', 'test.backlog',
                 'info', 'success', '{}'::jsonb
          from generate_series(1, 2500)`,
    );
    await put(org.token, 'events', { retention_days: 30, enabled: true });
    expect(await purgeExpiredRecords(svc.deps, { tenantId: org.tenantId })).toEqual([
      { tenant_id: org.tenantId, data_class: 'events', purged: 2500, archived: false },
    ]);
    expect(await count(sql`select count(*)::int as n from events where action = 'test.backlog'`)).toBe(0);
    const batches = await rows<{ purged: number }>(
      svc.deps.database.db,
      sql`select (data->>'purged')::int as purged from events
          where tenant_id = ${org.tenantId} and action = 'retention.records_purged' order by occurred_at, id`,
    );
    expect(batches.map((b) => b.purged).sort((a, b) => b - a)).toEqual([1000, 1000, 500]);
  });

  it('counts events made old by the clock, purges exactly those, and leaves the audit log intact', async () => {
    const org = await signUpOwner(svc.url, 'retention');
    const bystander = await signUpOwner(svc.url, 'retention');
    const old = await rows<{ id: string }>(
      svc.deps.database.db,
      sql`select id from events where tenant_id = ${org.tenantId} order by id`,
    );
    expect(old.length).toBeGreaterThan(0);
    const bystanderEvents = await count(
      sql`select count(*)::int as n from events where tenant_id = ${bystander.tenantId}`,
    );

    svc.clock.advance(31 * DAY);
    await logIn(org, org);
    expect((await preview(org.token)).events).toMatchObject({ records_past_retention: 0, enabled: false });
    await put(org.token, 'events', { retention_days: 30 });
    const before = await preview(org.token);
    expect(before.events).toMatchObject({
      retention_days: 30,
      enabled: false,
      cutoff: new Date(svc.clock.now().getTime() - 30 * DAY).toISOString(),
      records_past_retention: old.length,
      held_records: 0,
      purgeable_records: old.length,
    });

    // A disabled policy purges nothing, whether called directly or as the worker job.
    expect(await purgeExpiredRecords(svc.deps, { tenantId: org.tenantId })).toEqual([]);
    const job = JOBS.find((j) => j.name === 'retention-purge');
    await job!.run(svc.deps);
    expect(await count(sql`select count(*)::int as n from events where id = ${old[0]!.id}`)).toBe(1);
    await put(org.token, 'events', { retention_days: 30, enabled: true });
    const auditBefore = await auditCount();
    const recentIds = await rows<{ id: string }>(
      svc.deps.database.db,
      sql`select id from events where tenant_id = ${org.tenantId} and occurred_at >= ${new Date(svc.clock.now().getTime() - DAY)}`,
    );

    const result = await purgeExpiredRecords(svc.deps);
    expect(result).toContainEqual({
      tenant_id: org.tenantId,
      data_class: 'events',
      purged: old.length,
      archived: false,
    });
    const remaining = await rows<{ id: string }>(
      svc.deps.database.db,
      sql`select id from events where tenant_id = ${org.tenantId} and action <> 'retention.records_purged'`,
    );
    expect(remaining.map((r) => r.id).sort()).toEqual(recentIds.map((r) => r.id).sort());
    expect(remaining.some((r) => old.some((o) => o.id === r.id))).toBe(false);
    expect(await count(sql`select count(*)::int as n from events where tenant_id = ${bystander.tenantId}`)).toBe(
      bystanderEvents,
    );

    // The audit log lost nothing: it only gained the purge's own entry, and the chain verifies.
    expect(await auditCount()).toBe(auditBefore + 1);
    const oldAudit = await count(
      sql`select count(*)::int as n from audit_log where event_id in (${sql.join(
        old.map((o) => sql`${o.id}::uuid`),
        sql`, `,
      )})`,
    );
    expect(oldAudit).toBe(old.length);
    expect(await svc.deps.events.verifyAudit()).toMatchObject({ verified: true });
    expect((await preview(org.token)).events.records_past_retention).toBe(0);
    expect(await purgeExpiredRecords(svc.deps, { tenantId: org.tenantId })).toEqual([]);
  });

  it('archives before deleting when asked, holds subjects with open requests, and purges resolved requests', async () => {
    const org = await signUpOwner(svc.url, 'retention');
    const held = await addMember(svc, org, 'member');
    await request(api('/consent/newsletter/grant'), { method: 'POST', token: org.token });
    await request(api('/consent/analytics/grant'), { method: 'POST', token: held.token });
    const open = await request(api('/gdpr/requests'), { token: held.token, json: { request_type: 'access' } });
    const closed = await request(api('/gdpr/requests'), { token: org.token, json: { request_type: 'export' } });
    await request(api(`/gdpr/requests/${closed.body.id}/cancel`), { method: 'POST', token: org.token });
    const [ownerEvent] = await rows<{ id: string }>(
      svc.deps.database.db,
      sql`select id from consent_events where user_id = ${org.userId} and tenant_id = ${org.tenantId}`,
    );

    svc.clock.advance(40 * DAY);
    await logIn(org, org);
    await put(org.token, 'consent_events', { retention_days: 30, enabled: true, archive_before_delete: true });
    await put(org.token, 'dsr', { retention_days: 30, enabled: true });
    const before = await preview(org.token);
    expect(before.consent_events).toMatchObject({ records_past_retention: 2, held_records: 1, purgeable_records: 1 });
    expect(before.dsr).toMatchObject({ records_past_retention: 1, held_records: 0, purgeable_records: 1 });

    const result = await purgeExpiredRecords(svc.deps, { tenantId: org.tenantId });
    expect(result).toEqual(
      expect.arrayContaining([
        { tenant_id: org.tenantId, data_class: 'consent_events', purged: 1, archived: true },
        { tenant_id: org.tenantId, data_class: 'dsr', purged: 1, archived: false },
      ]),
    );
    const archived = await rows<{ data_class: string; record_id: string; user_id: string; consent_type: string }>(
      svc.deps.database.db,
      sql`select data_class, record_id, user_id, record->>'consent_type' as consent_type from retention_archive
          where tenant_id = ${org.tenantId}`,
    );
    expect(archived).toEqual([
      { data_class: 'consent_events', record_id: ownerEvent!.id, user_id: org.userId, consent_type: 'newsletter' },
    ]);
    const requestsLeft = await rows<{ id: string }>(
      svc.deps.database.db,
      sql`select id from data_subject_requests where tenant_id = ${org.tenantId}`,
    );
    expect(requestsLeft.map((r) => r.id)).toEqual([open.body.id]);
    // The current state outlives its purged history; the archived copy is part of the owner's export.
    const consents = await request(api('/consent'), { token: org.token });
    expect(consents.body.consents).toMatchObject([{ consent_type: 'newsletter', state: 'granted' }]);
    const mine = await request(api('/gdpr/my-data'), { token: org.token });
    expect(mine.body.sections.archived_records).toMatchObject([
      { data_class: 'consent_events', record_id: ownerEvent!.id, record: { consent_type: 'newsletter' } },
    ]);

    // Released from the hold, the held subject's history goes too.
    await put(org.token, 'consent_events', {
      retention_days: 30,
      legal_hold_exempt: true,
      archive_before_delete: false,
    });
    expect((await preview(org.token)).consent_events).toMatchObject({ records_past_retention: 1, held_records: 0 });
    expect(await purgeExpiredRecords(svc.deps, { tenantId: org.tenantId })).toEqual([
      { tenant_id: org.tenantId, data_class: 'consent_events', purged: 1, archived: false },
    ]);
    expect(await count(sql`select count(*)::int as n from consent_events where tenant_id = ${org.tenantId}`)).toBe(0);
    expect(await svc.deps.events.verifyAudit()).toMatchObject({ verified: true });
  });
});
