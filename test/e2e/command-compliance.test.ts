import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/kernel/db/index.js';
import { auditEntryHash, isKnownEventType } from '../../src/kernel/events/index.js';
import { request } from '../support/http.js';
import { addMember, signUpOwner } from '../support/organizations.js';
import { bootstrapPlatformOwner } from '../support/platform.js';
import { startService, type TestService } from '../support/service.js';

// Command Center compliance (issue 22 item 7; Part B 4.8): the one control catalogue, and evidence computed from
// the organization's real audit chain and settings: readiness, gaps, per-control samples whose hashes are the
// audit entries' own, the export, the report and its posture; confined like every Command Center read.

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

type Org = Awaited<ReturnType<typeof signUpOwner>>;
type Member = Awaited<ReturnType<typeof addMember>>;
type Sample = {
  seq: number;
  entry_hash: string;
  event_id: string;
  action: string;
  occurred_at: string;
  actor: { id: string; type: string };
  compliance_tags: string[];
};
type ControlEvidence = {
  id: string;
  tag: string;
  satisfied: boolean;
  evidence_count: number;
  samples: Sample[];
  settings: Array<{
    key: string;
    expected: unknown;
    value: unknown;
    holds: boolean;
    last_change: { seq: number; entry_hash: string } | null;
  }>;
  gaps: string[];
};

async function evidence(token: string, query: string) {
  const res = await get(`/command/compliance/evidence${query}`, token);
  expect(res.status, res.text).toBe(200);
  return res.body as {
    tenant_id: string;
    readiness_pct: number;
    controls_total: number;
    satisfied: number;
    since: string;
    gaps: Array<{ control: string; tag: string; reasons: string[] }>;
    controls: ControlEvidence[];
  };
}

const control = (found: { controls: ControlEvidence[] }, id: string) => found.controls.find((c) => c.id === id)!;

async function signIn(person: { email: string; password: string }, org: { slug: string }) {
  const res = await request(api('/auth/login'), {
    json: { email: person.email, password: person.password, tenant_slug: org.slug },
  });
  expect(res.status, res.text).toBe(200);
  return res.body as { access_token: string; refresh_token: string };
}

const changeSetting = (token: string, key: string, value: unknown) =>
  request(api(`/tenants/config/${key}`), { method: 'PATCH', token, json: { value } });

/** Audit entries of the organization since `since` carrying `tag` or of one of `actions`: what a control counts. */
async function evidencingEntries(tenantId: string, since: string, tag: string, actions: string[]) {
  return rows<{ seq: string }>(
    db(),
    sql`select seq from audit_log where tenant_id = ${tenantId} and occurred_at >= ${since}
        and (compliance_tags @> ${JSON.stringify([tag])}::jsonb or action = any(${`{${actions.join(',')}}`}::text[]))
        order by seq desc`,
  );
}

let orgA: Org;
let orgB: Org;
let platform: Awaited<ReturnType<typeof bootstrapPlatformOwner>>;
let operatorA: Member;
let auditorA: Member;
let memberA: Member;
let catalogue: Array<{ framework: string; controls: Array<{ id: string; tag: string; evidence: any }> }>;

beforeAll(async () => {
  platform = await bootstrapPlatformOwner(svc);
  orgA = await signUpOwner(svc.url, 'complianceA');
  orgB = await signUpOwner(svc.url, 'complianceB');
  operatorA = await addMember(svc, orgA, 'security_operator');
  auditorA = await addMember(svc, orgA, 'auditor');
  memberA = await addMember(svc, orgA, 'member');
  // Real activity in A: sign-ins (auth), a role change (admin), a replayed refresh token (security, a detection).
  await signIn(memberA, orgA);
  const roster = await get('/members', orgA.token);
  const membership = roster.body.find((m: { user_id: string }) => m.user_id === memberA.userId);
  const promoted = await request(api(`/members/${membership.membership_id}`), {
    method: 'PATCH',
    token: orgA.token,
    json: { role: 'admin' },
  });
  expect(promoted.status, promoted.text).toBe(200);
  const replayed = await signIn(memberA, orgA);
  const refresh = (token: string) => request(api('/auth/refresh'), { json: { refresh_token: token } });
  expect((await refresh(replayed.refresh_token)).status).toBe(200);
  expect((await refresh(replayed.refresh_token)).status).toBe(401);
  catalogue = (await get('/command/compliance/controls', auditorA.token)).body.frameworks;
}, 60_000);

describe('GET /command/compliance/controls', () => {
  it('is one catalogue for SOC 2, ISO 27001 and GDPR, each control mapped to known events and settings', () => {
    expect(catalogue.map((f) => f.framework)).toEqual(['soc2', 'iso27001', 'gdpr']);
    const tags = catalogue.flatMap((f) => f.controls.map((c) => c.tag));
    expect(new Set(tags).size).toBe(tags.length);
    for (const framework of catalogue) {
      expect(framework.controls.length).toBeGreaterThan(3);
      for (const entry of framework.controls) {
        expect(entry.tag).toBe(`${framework.framework}:${entry.id}`);
        expect(entry.evidence.tag).toBe(entry.tag);
        for (const action of entry.evidence.actions) expect(isKnownEventType(action), action).toBe(true);
      }
    }
    const cc62 = catalogue[0]!.controls.find((c) => c.id === 'CC6.2')!;
    expect(cc62.evidence.settings).toEqual([
      expect.objectContaining({ key: 'members.domain_join_enabled', expected: false }),
    ]);
  });

  it('names every compliance tag the kernel writes on audit entries', async () => {
    const written = await rows<{ tag: string }>(
      db(),
      sql`select distinct jsonb_array_elements_text(compliance_tags) as tag from audit_log`,
    );
    expect(written.length).toBeGreaterThan(3);
    const known = new Set(catalogue.flatMap((f) => f.controls.map((c) => c.tag)));
    expect(written.map((r) => r.tag).filter((tag) => !known.has(tag))).toEqual([]);
  });

  it('filters by framework; an unknown one is 422 listing the known set', async () => {
    const gdpr = await get('/command/compliance/controls?framework=gdpr', auditorA.token);
    expect(gdpr.body.frameworks.map((f: { framework: string }) => f.framework)).toEqual(['gdpr']);
    const unknown = await get('/command/compliance/controls?framework=pci', auditorA.token);
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail).toBe('framework: unknown framework "pci"; known: soc2, iso27001, gdpr');
  });
});

describe('GET /command/compliance/evidence', () => {
  it('requires a known framework (422 listing them) and days within 1 to 3650', async () => {
    const missing = await get('/command/compliance/evidence', operatorA.token);
    expect(missing.status).toBe(422);
    expect(missing.body.detail).toBe('framework: is required; known: soc2, iso27001, gdpr');
    expect(missing.body.known_frameworks).toEqual(['soc2', 'iso27001', 'gdpr']);
    const unknown = await get('/command/compliance/evidence?framework=hipaa', operatorA.token);
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail).toMatch(/known: soc2, iso27001, gdpr$/);
    for (const query of ['days=0', 'days=3651', 'export=maybe']) {
      const res = await get(`/command/compliance/evidence?framework=soc2&${query}`, operatorA.token);
      expect(res.status, query).toBe(422);
      expect(res.body.detail).toMatch(new RegExp(query.split('=')[0]!));
    }
    expect((await get('/command/compliance/report', operatorA.token)).status).toBe(422);
    expect((await get('/command/compliance/evidence?framework=soc2&days=3650', operatorA.token)).status).toBe(200);
  });

  it('computes readiness from the real audit chain; samples carry the audit entries’ own hashes', async () => {
    const found = await evidence(operatorA.token, '?framework=soc2');
    expect(found.tenant_id).toBe(orgA.tenantId);
    expect(found.controls.map((c) => c.id)).toEqual(catalogue[0]!.controls.map((c) => c.id));
    expect(found.satisfied).toBe(found.controls.filter((c) => c.satisfied).length);
    expect(found.readiness_pct).toBe(Math.round((found.satisfied / found.controls_total) * 1000) / 10);
    expect(found.gaps.map((g) => g.control)).toEqual(found.controls.filter((c) => !c.satisfied).map((c) => c.id));

    for (const entry of found.controls) {
      const mapped = catalogue[0]!.controls.find((c) => c.id === entry.id)!;
      const expected = await evidencingEntries(orgA.tenantId, found.since, entry.tag, mapped.evidence.actions);
      expect(entry.evidence_count, entry.id).toBe(expected.length);
      expect(entry.samples.map((s) => s.seq)).toEqual(expected.slice(0, 3).map((r) => Number(r.seq)));
      expect(entry.satisfied).toBe(expected.length > 0 && entry.settings.every((s) => s.holds));
    }
    // Logging in, the role change and the replay evidence CC6.1, CC6.2 and CC7.2; nobody triaged anything yet.
    expect(control(found, 'CC6.1').satisfied).toBe(true);
    expect(control(found, 'CC6.1').samples).toHaveLength(3);
    expect(control(found, 'CC7.2').samples.map((s) => s.action)).toContain('session.refresh_replayed');
    expect(control(found, 'CC7.3')).toMatchObject({
      satisfied: false,
      evidence_count: 0,
      samples: [],
      gaps: ['no audit entry evidences soc2:CC7.3 in the last 90 days'],
    });

    // Each sample is the audit entry itself: same hash, and the hash recomputes from the entry.
    const samples = found.controls.flatMap((c) => c.samples);
    expect(samples.length).toBeGreaterThan(3);
    for (const sample of samples) {
      const [entry] = await rows<Record<string, any>>(db(), sql`select * from audit_log where seq = ${sample.seq}`);
      expect(entry!.tenant_id).toBe(orgA.tenantId);
      expect(sample.entry_hash).toBe(entry!.entry_hash);
      expect(sample.event_id).toBe(entry!.event_id);
      expect(sample.compliance_tags).toEqual(entry!.compliance_tags);
      const recomputed = auditEntryHash(entry!.prev_hash, {
        seq: Number(entry!.seq),
        tenant_id: entry!.tenant_id,
        event_id: entry!.event_id,
        occurred_at: new Date(entry!.occurred_at).toISOString(),
        actor_id: entry!.actor_id,
        actor_type: entry!.actor_type,
        action: entry!.action,
        outcome: entry!.outcome,
        correlation_id: entry!.correlation_id,
        compliance_tags: entry!.compliance_tags,
        data: entry!.data,
      });
      expect(recomputed).toBe(sample.entry_hash);
    }
  });

  it('lifts the sample cap with export=true: every evidencing entry', async () => {
    const capped = await evidence(auditorA.token, '?framework=iso27001');
    const exported = await evidence(auditorA.token, '?framework=iso27001&export=true');
    expect(exported.controls.map((c) => c.evidence_count)).toEqual(capped.controls.map((c) => c.evidence_count));
    const a85 = control(exported, 'A.8.5');
    expect(a85.evidence_count).toBeGreaterThan(3);
    expect(control(capped, 'A.8.5').samples).toHaveLength(3);
    for (const entry of exported.controls) {
      expect(entry.samples, entry.id).toHaveLength(entry.evidence_count);
      const seqs = entry.samples.map((s) => s.seq);
      expect(seqs).toEqual([...seqs].sort((a, b) => b - a));
    }
  });

  it('turns a gap into evidence when an operator triages a detection and opens an incident', async () => {
    const [replay] = (await get('/command/detections?rule_id=refresh-token-replay', operatorA.token)).body.detections;
    expect(
      (await request(api(`/command/detections/${replay.id}/acknowledge`), { method: 'POST', token: operatorA.token }))
        .status,
    ).toBe(200);
    const incident = await request(api('/command/incidents'), {
      token: operatorA.token,
      json: { title: 'Replayed refresh token', severity: 'high', detection_ids: [replay.id] },
    });
    expect(incident.status).toBe(201);
    const found = await evidence(operatorA.token, '?framework=soc2');
    expect(control(found, 'CC7.3')).toMatchObject({ satisfied: true, evidence_count: 1, gaps: [] });
    expect(control(found, 'CC7.3').samples[0]).toMatchObject({
      action: 'detection.acknowledged',
      actor: { id: operatorA.userId, type: 'human' },
    });
    expect(control(found, 'CC7.4').samples.map((s) => s.action)).toEqual(['incident.opened']);
    const gdpr = await evidence(operatorA.token, '?framework=gdpr');
    expect(control(gdpr, 'Art.33').samples.map((s) => s.action)).toEqual(['incident.opened']);
  });

  it('evaluates settings from their recorded changes: a setting off its expected value is a gap', async () => {
    const before = control(await evidence(operatorA.token, '?framework=soc2'), 'CC6.2');
    expect(before.settings).toEqual([
      expect.objectContaining({ key: 'members.domain_join_enabled', value: false, holds: true, last_change: null }),
    ]);
    expect((await changeSetting(orgA.token, 'members.domain_join_enabled', true)).status).toBe(200);
    const opened = await evidence(operatorA.token, '?framework=soc2');
    const cc62 = control(opened, 'CC6.2');
    expect(cc62.satisfied).toBe(false);
    expect(cc62.settings[0]).toMatchObject({ value: true, expected: false, holds: false });
    expect(cc62.gaps).toEqual(['setting members.domain_join_enabled is true, expected false']);
    expect(opened.gaps.find((g) => g.control === 'CC6.2')!.reasons).toEqual(cc62.gaps);
    const [change] = await rows<{ seq: string; entry_hash: string }>(
      db(),
      sql`select seq, entry_hash from audit_log where tenant_id = ${orgA.tenantId} and action = 'setting.changed'
          and data->>'key' = 'members.domain_join_enabled' order by seq desc limit 1`,
    );
    expect(cc62.settings[0]!.last_change).toMatchObject({ seq: Number(change!.seq), entry_hash: change!.entry_hash });
    // Another organization's settings are its own (the probe names its organization; no row-level security).
    const otherOwner = (await signIn(orgB, orgB)).access_token;
    expect(control(await evidence(otherOwner, '?framework=soc2'), 'CC6.2').settings[0]).toMatchObject({
      value: false,
      holds: true,
      last_change: null,
    });
    // ISO 27001 reads the same setting from the same entry.
    const a516 = control(await evidence(operatorA.token, '?framework=iso27001'), 'A.5.16');
    expect(a516.settings[0]!.last_change!.entry_hash).toBe(change!.entry_hash);

    expect((await changeSetting(orgA.token, 'members.domain_join_enabled', false)).status).toBe(200);
    const closed = control(await evidence(operatorA.token, '?framework=soc2'), 'CC6.2');
    expect(closed.settings[0]).toMatchObject({ value: false, holds: true });
    expect(closed.settings[0]!.last_change!.seq).toBeGreaterThan(Number(change!.seq));
    expect(closed.satisfied).toBe(true);
  });

  it('counts only the window: entries older than `days` are not evidence', async () => {
    const wide = await evidence(operatorA.token, '?framework=soc2');
    svc.clock.advance(3 * 86_400_000);
    const operator = await signIn(operatorA, orgA);
    const narrow = await evidence(operator.access_token, '?framework=soc2&days=1');
    // The new sign-in is the only recent evidence of CC6.1.
    expect(control(narrow, 'CC6.1').samples.map((s) => s.action)).toEqual(['user.logged_in']);
    expect(control(narrow, 'CC7.3')).toMatchObject({ satisfied: false, evidence_count: 0 });
    expect(narrow.readiness_pct).toBeLessThan(wide.readiness_pct);
    const still = await evidence(operator.access_token, '?framework=soc2&days=10');
    expect(control(still, 'CC7.3').evidence_count).toBe(1);
    operatorA.token = operator.access_token;
  });
});

describe('GET /command/compliance/report', () => {
  it('answers readiness, satisfied versus gaps, open incidents and the posture', async () => {
    const res = await get('/command/compliance/report?framework=soc2&days=10', operatorA.token);
    expect(res.status, res.text).toBe(200);
    const report = res.body;
    const found = await evidence(operatorA.token, '?framework=soc2&days=10');
    expect(report).toMatchObject({
      framework: 'soc2',
      tenant_id: orgA.tenantId,
      readiness_pct: found.readiness_pct,
      controls_total: found.controls_total,
      satisfied_count: found.satisfied,
      gap_count: found.controls_total - found.satisfied,
      satisfied: found.controls.filter((c) => c.satisfied).map((c) => c.id),
      gaps: found.gaps,
    });
    expect(report.open_incidents).toMatchObject({ count: 1 });
    expect(report.open_incidents.by_severity.find((s: { severity: string }) => s.severity === 'high').count).toBe(1);
    // An unresolved high incident keeps the posture at needs_attention at best.
    expect(report.posture).toBe(report.readiness_pct < 50 ? 'at_risk' : 'needs_attention');

    const critical = await request(api('/command/incidents'), {
      token: operatorA.token,
      json: { title: 'Production database exposed', severity: 'critical' },
    });
    const atRisk = (await get('/command/compliance/report?framework=soc2&days=10', operatorA.token)).body;
    expect(atRisk.posture).toBe('at_risk');
    expect(atRisk.open_incidents.count).toBe(2);
    for (const incident of (await get('/command/incidents', operatorA.token)).body.incidents) {
      const closed = await request(api(`/command/incidents/${incident.id}`), {
        method: 'PATCH',
        token: operatorA.token,
        json: { status: 'closed' },
      });
      expect(closed.status).toBe(200);
    }
    expect(critical.status).toBe(201);
    const settled = (await get('/command/compliance/report?framework=soc2&days=10', operatorA.token)).body;
    expect(settled.open_incidents).toMatchObject({ count: 0, oldest_opened_at: null, oldest_age_seconds: null });
    const expected = settled.readiness_pct < 50 ? 'at_risk' : settled.readiness_pct < 90 ? 'needs_attention' : 'strong';
    expect(settled.posture).toBe(expected);
  });

  it('is strong for an organization whose every control is evidenced and no serious incident is open', async () => {
    // Organization B: each SOC 2 control evidenced by its own real action.
    const ownerB = (await signIn(orgB, orgB)).access_token;
    const operatorB = await addMember(svc, orgB, 'security_operator');
    const person = await addMember(svc, orgB, 'member');
    const roster = await get('/members', ownerB);
    const membership = roster.body.find((m: { user_id: string }) => m.user_id === person.userId);
    expect(
      (
        await request(api(`/members/${membership.membership_id}`), {
          method: 'PATCH',
          token: ownerB,
          json: { role: 'auditor' },
        })
      ).status,
    ).toBe(200);
    expect((await request(api('/members/invites'), { token: ownerB, json: { email: 'new@example.com' } })).status).toBe(
      201,
    );
    expect((await changeSetting(ownerB, 'auth.magic_link_enabled', false)).status).toBe(200);
    const replayed = await signIn(person, orgB);
    const refresh = (token: string) => request(api('/auth/refresh'), { json: { refresh_token: token } });
    expect((await refresh(replayed.refresh_token)).status).toBe(200);
    expect((await refresh(replayed.refresh_token)).status).toBe(401);
    const [replay] = (await get('/command/detections', operatorB.token)).body.detections;
    const post = (path: string, json?: unknown) =>
      request(api(path), { method: 'POST', token: operatorB.token, ...(json ? { json } : {}) });
    expect((await post(`/command/detections/${replay.id}/acknowledge`)).status).toBe(200);
    const incident = await post('/command/incidents', { title: 'Replay', severity: 'low', detection_ids: [replay.id] });
    expect(incident.status).toBe(201);
    const report = (await get('/command/compliance/report?framework=soc2', operatorB.token)).body;
    expect(report).toMatchObject({ readiness_pct: 100, gap_count: 0, gaps: [], posture: 'strong' });
    expect(report.open_incidents.count).toBe(1);
  });
});

describe('who reads compliance evidence', () => {
  it('needs command:read: the auditor reads, a member without it gets 403', async () => {
    const auditor = await signIn(auditorA, orgA);
    const outsider = await addMember(svc, orgA, 'member');
    for (const path of [
      '/command/compliance/controls',
      '/command/compliance/evidence?framework=gdpr',
      '/command/compliance/report?framework=gdpr',
    ]) {
      expect((await get(path, auditor.access_token)).status, path).toBe(200);
      expect((await get(path, outsider.token)).status, path).toBe(403);
    }
  });

  it('confines evidence to the caller’s organization; the platform operator names the one it reads', async () => {
    const auditor = await signIn(auditorA, orgA);
    const operator = await signIn(platform, platform);
    expect(
      (await get(`/command/compliance/evidence?framework=soc2&tenant_id=${orgB.tenantId}`, auditor.access_token))
        .status,
    ).toBe(403);
    expect(
      (await get(`/command/compliance/report?framework=soc2&tenant_id=${orgB.tenantId}`, auditor.access_token)).status,
    ).toBe(403);
    const own = await evidence(auditor.access_token, '?framework=soc2&export=true');
    const byPlatform = await evidence(operator.access_token, `?framework=soc2&export=true&tenant_id=${orgA.tenantId}`);
    expect(byPlatform.tenant_id).toBe(orgA.tenantId);
    expect(byPlatform.controls.map((c) => c.samples.map((s) => s.entry_hash))).toEqual(
      own.controls.map((c) => c.samples.map((s) => s.entry_hash)),
    );
    const platformOwn = await evidence(operator.access_token, '?framework=soc2&export=true');
    expect(platformOwn.tenant_id).toBe(platform.tenantId);
    const inB = await evidence((await signIn(orgB, orgB)).access_token, '?framework=soc2&export=true');
    const seqsA = new Set(own.controls.flatMap((c) => c.samples.map((s) => s.seq)));
    const seqsB = inB.controls.flatMap((c) => c.samples.map((s) => s.seq));
    expect(seqsB.length).toBeGreaterThan(0);
    expect(seqsB.filter((seq) => seqsA.has(seq))).toEqual([]);
    const tenantsB = await rows<{ tenant_id: string }>(
      db(),
      sql`select distinct tenant_id from audit_log where seq = any(${`{${seqsB.join(',')}}`}::bigint[])`,
    );
    expect(tenantsB).toEqual([{ tenant_id: orgB.tenantId }]);
  });
});
