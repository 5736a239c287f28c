import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/kernel/db/index.js';
import { newId } from '../../src/kernel/ids.js';
import { newAccount, request } from '../support/http.js';
import { addMember, signUpOwner } from '../support/organizations.js';
import { bootstrapPlatformOwner } from '../support/platform.js';
import { startService, type TestService } from '../support/service.js';

// Command Center incidents (issue 22 item 6; Part B 2.7, 4.8): opened over real detections (replayed refresh
// tokens), listed with every filter, worked through the documented statuses, summarized with the backlog that
// ignores the window; every change an event and an audit entry; confined to the caller's organization.

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
const open = (token: string, json: unknown) => request(api('/command/incidents'), { token, json });
const patch = (id: string, token: string, json: unknown) =>
  request(api(`/command/incidents/${id}`), { method: 'PATCH', token, json });

type Org = Awaited<ReturnType<typeof signUpOwner>>;
type Member = Awaited<ReturnType<typeof addMember>>;

/** A replayed refresh token of a new member: one `refresh-token-replay` detection. Answers its id. */
async function replayDetection(org: Org, operatorToken: string): Promise<string> {
  const person = await addMember(svc, org, 'member');
  const login = await request(api('/auth/login'), {
    json: { email: person.email, password: person.password, tenant_slug: org.slug },
  });
  const refresh = (token: string) => request(api('/auth/refresh'), { json: { refresh_token: token } });
  expect((await refresh(login.body.refresh_token)).status).toBe(200);
  expect((await refresh(login.body.refresh_token)).status).toBe(401);
  const found = await get(`/command/detections?actor_id=${person.userId}`, operatorToken);
  expect(found.status).toBe(200);
  expect(found.body.detections).toHaveLength(1);
  return found.body.detections[0].id;
}

async function recordedChanges(incidentId: string) {
  return rows<{
    action: string;
    actor_id: string;
    tenant_id: string;
    data: Record<string, any>;
    compliance_tags: string[];
  }>(
    db(),
    sql`select e.action, e.actor_id, e.tenant_id, e.data, a.compliance_tags
        from events e join audit_log a on a.event_id = e.id
        where e.data->>'incident_id' = ${incidentId} order by a.seq`,
  );
}

let orgA: Org;
let orgB: Org;
let platform: Awaited<ReturnType<typeof bootstrapPlatformOwner>>;
let operatorA: Member;
let responderA: Member;
let auditorA: Member;
let customerA: string;
let operatorB: Member;
let detectionsA: string[];
let detectionB: string;

beforeAll(async () => {
  platform = await bootstrapPlatformOwner(svc);
  orgA = await signUpOwner(svc.url, 'incidentA');
  orgB = await signUpOwner(svc.url, 'incidentB');
  operatorA = await addMember(svc, orgA, 'security_operator');
  responderA = await addMember(svc, orgA, 'security_operator');
  auditorA = await addMember(svc, orgA, 'auditor');
  operatorB = await addMember(svc, orgB, 'security_operator');
  detectionsA = [await replayDetection(orgA, operatorA.token), await replayDetection(orgA, operatorA.token)];
  detectionB = await replayDetection(orgB, operatorB.token);
  // A customer of organization A: a membership, but not of the workforce.
  const ciam = await request(api('/tenants/config/auth.ciam_signup_enabled'), {
    method: 'PATCH',
    token: orgA.token,
    json: { value: true },
  });
  expect(ciam.status, ciam.text).toBe(200);
  const customer = await request(api('/auth/signup/customer'), {
    json: { ...newAccount('customer'), tenant_slug: orgA.slug },
  });
  expect(customer.status, customer.text).toBe(201);
  customerA = (await get('/me', customer.body.access_token)).body.user_id;
}, 60_000);

describe('POST /command/incidents', () => {
  it('opens an incident over its own detections (201), recorded as an event with its audit entry', async () => {
    const res = await open(operatorA.token, {
      title: 'Stolen refresh tokens',
      severity: 'high',
      description: 'Two sessions replayed a rotated refresh token',
      detection_ids: [...detectionsA, detectionsA[0]],
      assignee: responderA.userId,
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      tenant_id: orgA.tenantId,
      title: 'Stolen refresh tokens',
      severity: 'high',
      description: 'Two sessions replayed a rotated refresh token',
      detection_ids: detectionsA,
      assignee: responderA.userId,
      status: 'open',
      containment: null,
      remediation: null,
      root_cause: null,
      opened_by: { id: operatorA.userId, type: 'human' },
      resolved_at: null,
      closed_at: null,
    });
    expect(res.body.created_at).toBe(svc.clock.now().toISOString());
    const recorded = await recordedChanges(res.body.id);
    expect(recorded).toEqual([
      {
        action: 'incident.opened',
        actor_id: operatorA.userId,
        tenant_id: orgA.tenantId,
        data: {
          incident_id: res.body.id,
          title: 'Stolen refresh tokens',
          severity: 'high',
          status: 'open',
          detection_ids: detectionsA,
          assignee: responderA.userId,
        },
        compliance_tags: ['soc2:CC7.4', 'iso27001:A.5.26', 'gdpr:Art.33'],
      },
    ]);
  });

  it('opens one with only a title and a severity', async () => {
    const res = await open(operatorA.token, { title: 'Phishing report', severity: 'low' });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ detection_ids: [], assignee: null, description: null, status: 'open' });
  });

  it('is 422 naming a malformed, unknown or another organization’s detection id, and opens nothing', async () => {
    const before = await rows(db(), sql`select id from incidents where tenant_id = ${orgA.tenantId}`);
    const malformed = await open(operatorA.token, {
      title: 't',
      severity: 'high',
      detection_ids: [detectionsA[0], 'det-123'],
    });
    expect(malformed.status).toBe(422);
    expect(malformed.body.detail).toBe('detection_ids: "det-123" is not a detection id');
    const unknown = newId();
    const invisible = await open(operatorA.token, {
      title: 't',
      severity: 'high',
      detection_ids: [detectionsA[0], unknown, detectionB],
    });
    expect(invisible.status).toBe(422);
    expect(invisible.body.detail).toBe(
      `detection_ids: no such detection in your organization: ${unknown}, ${detectionB}`,
    );
    // Another organization's id answers exactly like an unknown one.
    const foreign = await open(operatorA.token, { title: 't', severity: 'high', detection_ids: [detectionB] });
    const stranger = newId();
    const missing = await open(operatorA.token, { title: 't', severity: 'high', detection_ids: [stranger] });
    expect(foreign.body.detail.replace(detectionB, 'ID')).toBe(missing.body.detail.replace(stranger, 'ID'));
    // The platform operator may read B's detections, but opens incidents over its own organization's only.
    const byPlatform = await open(platform.token, { title: 't', severity: 'high', detection_ids: [detectionB] });
    expect(byPlatform.status).toBe(422);
    expect(byPlatform.body.detail).toContain(detectionB);
    const after = await rows(db(), sql`select id from incidents where tenant_id = ${orgA.tenantId}`);
    expect(after).toHaveLength(before.length);
  });

  it('takes at most 100 detection ids', async () => {
    const many = Array.from({ length: 101 }, () => newId());
    const res = await open(operatorA.token, { title: 't', severity: 'high', detection_ids: many });
    expect(res.status).toBe(422);
    expect(res.body.detail).toMatch(/detection_ids/);
    // 100 ids pass the limit and are then checked one by one.
    const hundred = await open(operatorA.token, { title: 't', severity: 'high', detection_ids: many.slice(0, 100) });
    expect(hundred.status).toBe(422);
    expect(hundred.body.detail).toMatch(/^detection_ids: no such detection in your organization: /);
  });

  it('is 422 for an assignee who is not an active workforce member of the organization', async () => {
    for (const assignee of [newId(), operatorB.userId, customerA, 'someone']) {
      const res = await open(operatorA.token, { title: 't', severity: 'high', assignee });
      expect(res.status, String(assignee)).toBe(422);
      expect(res.body.detail).toMatch(/^assignee/);
    }
  });

  it('refuses a bad body with 422 naming the field', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ severity: 'high' }, /title/],
      [{ title: 't' }, /severity/],
      [{ title: 't', severity: 'urgent' }, /severity/],
      [{ title: '', severity: 'high' }, /title/],
      [{ title: 't'.repeat(201), severity: 'high' }, /title/],
      [{ title: 't', severity: 'high', status: 'closed' }, /status/],
      [{ title: 't', severity: 'high', detection_ids: 'abc' }, /detection_ids/],
    ];
    for (const [body, field] of cases) {
      const res = await open(operatorA.token, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.detail).toMatch(field);
    }
  });

  it('needs command:operate: the auditor gets 403', async () => {
    const res = await open(auditorA.token, { title: 't', severity: 'high' });
    expect(res.status).toBe(403);
    expect(res.body.detail).toBe('Missing permission: command:operate');
  });
});

describe('GET /command/incidents', () => {
  it('lists newest first with status, severity and limit filters; the auditor reads', async () => {
    svc.clock.advance(1000);
    const critical = await open(operatorA.token, { title: 'Admin account takeover', severity: 'critical' });
    expect(critical.status).toBe(201);
    const all = (await get('/command/incidents', auditorA.token)).body.incidents;
    expect(all[0].id).toBe(critical.body.id);
    const order = all.map((i: { created_at: string; id: string }) => `${i.created_at}|${i.id}`);
    expect(order).toEqual([...order].sort().reverse());
    for (const incident of all) expect(incident.tenant_id).toBe(orgA.tenantId);
    const stored = await rows<{ id: string }>(db(), sql`select id from incidents where tenant_id = ${orgA.tenantId}`);
    expect(all.map((i: { id: string }) => i.id).sort()).toEqual(stored.map((r) => r.id).sort());

    const onlyCritical = (await get('/command/incidents?severity=critical', operatorA.token)).body.incidents;
    expect(onlyCritical.map((i: { id: string }) => i.id)).toEqual([critical.body.id]);
    const low = (await get('/command/incidents?severity=low&status=open', operatorA.token)).body.incidents;
    expect(low.map((i: { title: string }) => i.title)).toEqual(['Phishing report']);
    expect((await get('/command/incidents?status=closed', operatorA.token)).body.incidents).toEqual([]);
    const limited = (await get('/command/incidents?limit=1', operatorA.token)).body.incidents;
    expect(limited.map((i: { id: string }) => i.id)).toEqual([critical.body.id]);
  });

  it('refuses bad filters with 422', async () => {
    for (const query of ['?status=reopened', '?severity=urgent', '?limit=0', '?limit=1001']) {
      const res = await get(`/command/incidents${query}`, operatorA.token);
      expect(res.status, query).toBe(422);
    }
  });

  it('confines members to their organization; the platform operator reads across organizations', async () => {
    const inB = await open(operatorB.token, { title: 'B incident', severity: 'warn', detection_ids: [detectionB] });
    expect(inB.status, inB.text).toBe(201);
    const listedB = (await get('/command/incidents', operatorB.token)).body.incidents;
    expect(listedB.map((i: { id: string }) => i.id)).toEqual([inB.body.id]);
    const listedA = (await get('/command/incidents', operatorA.token)).body.incidents;
    expect(listedA.map((i: { id: string }) => i.id)).not.toContain(inB.body.id);
    expect((await get(`/command/incidents?tenant_id=${orgB.tenantId}`, operatorA.token)).status).toBe(403);

    const everywhere = (await get('/command/incidents?limit=1000', platform.token)).body.incidents;
    const tenants = new Set(everywhere.map((i: { tenant_id: string }) => i.tenant_id));
    expect(tenants).toEqual(new Set([orgA.tenantId, orgB.tenantId]));
    const onlyB = (await get(`/command/incidents?tenant_id=${orgB.tenantId}`, platform.token)).body.incidents;
    expect(onlyB.map((i: { id: string }) => i.id)).toEqual([inB.body.id]);
  });
});

describe('PATCH /command/incidents/{id}', () => {
  it('walks the response: investigating, contained, resolved, closed; each change recorded', async () => {
    const created = await open(operatorA.token, { title: 'Credential stuffing', severity: 'high' });
    const id = created.body.id as string;
    svc.clock.advance(1000);
    const investigating = await patch(id, operatorA.token, { status: 'investigating', assignee: responderA.userId });
    expect(investigating.status, investigating.text).toBe(200);
    expect(investigating.body).toMatchObject({ status: 'investigating', assignee: responderA.userId });
    expect(investigating.body.updated_at).toBe(svc.clock.now().toISOString());
    const contained = await patch(id, responderA.token, {
      status: 'contained',
      containment: 'Sessions of the affected accounts revoked',
    });
    expect(contained.body).toMatchObject({
      status: 'contained',
      containment: 'Sessions of the affected accounts revoked',
    });
    const resolved = await patch(id, responderA.token, {
      status: 'resolved',
      remediation: 'Passwords reset; MFA required',
      root_cause: 'Reused passwords from a third-party breach',
    });
    expect(resolved.status, resolved.text).toBe(200);
    expect(resolved.body.resolved_at).toBe(svc.clock.now().toISOString());
    const closed = await patch(id, operatorA.token, { status: 'closed' });
    expect(closed.body).toMatchObject({
      status: 'closed',
      remediation: 'Passwords reset; MFA required',
      root_cause: 'Reused passwords from a third-party breach',
    });
    expect(closed.body.closed_at).toBe(svc.clock.now().toISOString());

    const recorded = await recordedChanges(id);
    expect(recorded.map((r) => [r.action, r.actor_id, r.data.status])).toEqual([
      ['incident.opened', operatorA.userId, 'open'],
      ['incident.updated', operatorA.userId, 'investigating'],
      ['incident.updated', responderA.userId, 'contained'],
      ['incident.updated', responderA.userId, 'resolved'],
      ['incident.updated', operatorA.userId, 'closed'],
    ]);
    expect(recorded[1]!.data.changes).toEqual({
      status: { from: 'open', to: 'investigating' },
      assignee: { from: null, to: responderA.userId },
    });
    expect(recorded[3]!.data.changes).toEqual({
      status: { from: 'contained', to: 'resolved' },
      remediation: { from: null, to: 'Passwords reset; MFA required' },
      root_cause: { from: null, to: 'Reused passwords from a third-party breach' },
    });
    for (const entry of recorded.slice(1)) {
      expect(entry.compliance_tags).toEqual(['soc2:CC7.4', 'iso27001:A.5.26', 'gdpr:Art.33']);
    }

    // closed is final.
    for (const status of ['open', 'investigating', 'resolved']) {
      const refused = await patch(id, operatorA.token, { status });
      expect(refused.status).toBe(409);
      expect(refused.body.detail).toBe(`Incident is closed: it cannot become ${status} (closed is final)`);
    }
    expect(await recordedChanges(id)).toHaveLength(5);
  });

  it('refuses moves the documented transitions do not allow (409) and reopens a resolved incident', async () => {
    const id = (await open(operatorA.token, { title: 'Suspicious agent', severity: 'warn' })).body.id as string;
    const back = await patch(id, operatorA.token, { status: 'investigating' });
    expect(back.status).toBe(200);
    const reopen = await patch(id, operatorA.token, { status: 'open' });
    expect(reopen.status).toBe(409);
    expect(reopen.body.detail).toBe(
      'Incident is investigating: it cannot become open (allowed: contained, resolved, closed)',
    );
    expect((await patch(id, operatorA.token, { status: 'resolved' })).status).toBe(200);
    const contain = await patch(id, operatorA.token, { status: 'contained' });
    expect(contain.status).toBe(409);
    const reinvestigate = await patch(id, operatorA.token, { status: 'investigating' });
    expect(reinvestigate.status).toBe(200);
    expect(reinvestigate.body.resolved_at).toBeNull();
    // A refused move changes nothing, even the fields sent with it.
    const refused = await patch(id, operatorA.token, { status: 'open', root_cause: 'not recorded' });
    expect(refused.status).toBe(409);
    expect((await get('/command/incidents?severity=warn', operatorA.token)).body.incidents[0].root_cause).toBeNull();
  });

  it('records nothing for a change that changes nothing, and clears a field with null', async () => {
    const id = (await open(operatorA.token, { title: 'Noise', severity: 'info', assignee: responderA.userId })).body
      .id as string;
    const same = await patch(id, operatorA.token, { status: 'open', assignee: responderA.userId });
    expect(same.status).toBe(200);
    expect(await recordedChanges(id)).toHaveLength(1);
    const cleared = await patch(id, operatorA.token, { assignee: null });
    expect(cleared.body.assignee).toBeNull();
    const recorded = await recordedChanges(id);
    expect(recorded.map((r) => r.data.changes)).toEqual([
      undefined,
      { assignee: { from: responderA.userId, to: null } },
    ]);
  });

  it('is 404 for an unknown incident and for another organization’s, including for the platform operator', async () => {
    const inB = (await get('/command/incidents', operatorB.token)).body.incidents[0];
    const inA = (await get('/command/incidents', operatorA.token)).body.incidents[0];
    const unknown = await patch(newId(), operatorA.token, { status: 'investigating' });
    expect(unknown.status).toBe(404);
    expect((await patch('incident-1', operatorA.token, { status: 'investigating' })).status).toBe(404);
    const foreign = await patch(inB.id, operatorA.token, { status: 'investigating' });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(unknown.body);
    expect((await patch(inA.id, platform.token, { status: 'investigating' })).status).toBe(404);
    expect((await patch(inB.id, platform.token, { status: 'investigating' })).status).toBe(404);
    const untouched = await rows<{ status: string }>(db(), sql`select status from incidents where id = ${inB.id}`);
    expect(untouched).toEqual([{ status: 'open' }]);
  });

  it('is 422 for a bad body or assignee, and 403 for the auditor', async () => {
    const id = (await get('/command/incidents?status=open', operatorA.token)).body.incidents[0].id;
    for (const body of [{}, { status: 'reopened' }, { title: 'renamed' }, { containment: '' }]) {
      expect((await patch(id, operatorA.token, body)).status, JSON.stringify(body)).toBe(422);
    }
    for (const assignee of [operatorB.userId, newId(), customerA]) {
      const res = await patch(id, operatorA.token, { assignee });
      expect(res.status).toBe(422);
      expect(res.body.detail).toBe('assignee: not an active member of this organization');
    }
    const byAuditor = await patch(id, auditorA.token, { status: 'investigating' });
    expect(byAuditor.status).toBe(403);
    expect(byAuditor.body.detail).toBe('Missing permission: command:operate');
  });
});

describe('GET /command/incidents/summary', () => {
  it('counts the window by status and severity; the unresolved block ignores the window', async () => {
    const now = (await get('/command/incidents/summary', operatorA.token)).body;
    const stored = await rows<{ status: string; severity: string; created_at: string }>(
      db(),
      sql`select status, severity, created_at from incidents where tenant_id = ${orgA.tenantId}`,
    );
    expect(now).toMatchObject({ tenant_id: orgA.tenantId, days: 90, total: stored.length });
    for (const { status, count } of now.by_status) {
      expect(count, status).toBe(stored.filter((r) => r.status === status).length);
    }
    expect(now.by_status.map((s: { status: string }) => s.status)).toEqual([
      'open',
      'investigating',
      'contained',
      'resolved',
      'closed',
    ]);
    for (const { severity, count } of now.by_severity) {
      expect(count, severity).toBe(stored.filter((r) => r.severity === severity).length);
    }
    const unresolved = stored.filter((r) => ['open', 'investigating', 'contained'].includes(r.status));
    expect(now.unresolved.count).toBe(unresolved.length);
    const oldest = unresolved.map((r) => new Date(r.created_at).getTime()).sort((a, b) => a - b)[0]!;
    expect(now.unresolved.oldest_opened_at).toBe(new Date(oldest).toISOString());
    expect(now.unresolved.oldest_age_seconds).toBe(Math.floor((svc.clock.now().getTime() - oldest) / 1000));

    // 100 days later the default 90-day window is empty, while the backlog and its age remain.
    svc.clock.advance(100 * 86_400_000);
    const login = await request(api('/auth/login'), {
      json: { email: operatorA.email, password: operatorA.password, tenant_slug: orgA.slug },
    });
    const token = login.body.access_token as string;
    const later = (await get('/command/incidents/summary', token)).body;
    expect(later.total).toBe(0);
    expect(later.by_status.every((s: { count: number }) => s.count === 0)).toBe(true);
    expect(later.unresolved.count).toBe(unresolved.length);
    expect(later.unresolved.oldest_age_seconds).toBe(now.unresolved.oldest_age_seconds + 100 * 86_400);
    const wider = (await get('/command/incidents/summary?days=365', token)).body;
    expect(wider.total).toBe(stored.length);

    const loginB = await request(api('/auth/login'), {
      json: { email: operatorB.email, password: operatorB.password, tenant_slug: orgB.slug },
    });
    const inB = (await get('/command/incidents/summary?days=365', loginB.body.access_token)).body;
    expect(inB).toMatchObject({ tenant_id: orgB.tenantId, total: 1 });
    const platformLogin = await request(api('/auth/login'), {
      json: { email: platform.email, password: platform.password, tenant_slug: platform.slug },
    });
    const all = (await get('/command/incidents/summary?days=365', platformLogin.body.access_token)).body;
    expect(all).toMatchObject({ tenant_id: null, total: stored.length + 1 });
    expect((await get(`/command/incidents/summary?tenant_id=${orgB.tenantId}`, token)).status).toBe(403);
  });

  it('refuses days outside 1 to 365', async () => {
    const login = await request(api('/auth/login'), {
      json: { email: auditorA.email, password: auditorA.password, tenant_slug: orgA.slug },
    });
    for (const days of ['0', '366']) {
      const res = await get(`/command/incidents/summary?days=${days}`, login.body.access_token);
      expect(res.status).toBe(422);
      expect(res.body.detail).toMatch(/days/);
    }
    expect((await get('/command/incidents/summary?days=365', login.body.access_token)).status).toBe(200);
  });
});
