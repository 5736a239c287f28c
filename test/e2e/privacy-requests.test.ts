import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/kernel/db/index.js';
import { newId } from '../../src/kernel/ids.js';
import { request } from '../support/http.js';
import { addMember, signUpOwner } from '../support/organizations.js';
import { privacySteps } from '../support/privacy.js';
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

const { file, admin, auditActionsOf } = privacySteps(() => svc);

describe('GET /gdpr/my-data', () => {
  it('exports the documented shape: every contributor section and the subject’s security events', async () => {
    const org = await signUpOwner(svc.url, 'dsr');
    await request(api('/consent/newsletter/grant'), { method: 'POST', token: org.token });
    const key = await request(api('/tenants/api-keys'), { token: org.token, json: { label: 'ci', scopes: [] } });
    expect(key.status).toBe(201);
    const res = await request(api('/gdpr/my-data'), { token: org.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      format: 'svc.personal-data/1',
      tenant_id: org.tenantId,
      user_id: org.userId,
      generated_at: svc.clock.now().toISOString(),
    });
    const { sections } = res.body;
    for (const name of [
      'account',
      'membership',
      'api_keys',
      'consents',
      'data_subject_requests',
      'archived_records',
      'security_events',
    ]) {
      expect(sections).toHaveProperty(name);
    }
    expect(sections.membership.membership).toMatchObject({ role: 'owner', status: 'active' });
    expect(sections.api_keys).toMatchObject([
      { id: key.body.id, label: 'ci', display_handle: key.body.display_handle },
    ]);
    expect(res.text).not.toContain(key.body.key);
    expect(sections.account.profile.email).toBe(org.email);
    expect(JSON.stringify(sections.account)).not.toMatch(/password_hash|argon2/);
    expect(sections.consents.current).toEqual([
      { consent_type: 'newsletter', state: 'granted', granted: true, updated_at: expect.any(String) },
    ]);
    const actions = sections.security_events.map((e: { action: string }) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['user.signed_up', 'consent.granted']));
    const exported = await rows(
      svc.deps.database.db,
      sql`select 1 from audit_log where action = 'privacy.data_exported' and tenant_id = ${org.tenantId}`,
    );
    expect(exported).toHaveLength(1);
  });

  it('needs a token', async () => {
    expect((await request(api('/gdpr/my-data'))).status).toBe(401);
  });

  it('holds only the calling organization for a person in two organizations', async () => {
    const a = await signUpOwner(svc.url, 'dsr');
    const b = await signUpOwner(svc.url, 'dsr');
    // The owner of A joins B as a member with the same account (same email and password).
    const inB = await addMember(svc, b, 'member', { userId: a.userId, email: a.email, password: a.password });
    await request(api('/consent/newsletter-a/grant'), { method: 'POST', token: a.token });
    expect((await file(a.token, { request_type: 'access', description: 'from A' })).status).toBe(201);
    await request(api('/consent/analytics-b/grant'), { method: 'POST', token: inB.token });

    const res = await request(api('/gdpr/my-data'), { token: inB.token });
    expect(res.status).toBe(200);
    expect(res.body.tenant_id).toBe(b.tenantId);
    expect(res.body.user_id).toBe(a.userId);
    const text = JSON.stringify(res.body);
    expect(text).not.toContain(a.tenantId);
    expect(text).not.toContain('newsletter-a');
    expect(text).not.toContain('from A');
    const { sections } = res.body;
    expect(sections.consents.current.map((c: { consent_type: string }) => c.consent_type)).toEqual(['analytics-b']);
    expect(sections.data_subject_requests).toEqual([]);
    const actions = sections.security_events.map((e: { action: string }) => e.action);
    expect(actions).toContain('consent.granted');
    expect(actions).not.toContain('user.signed_up'); // that happened in A
    const sessionIds = sections.account.sessions.map((s: { session_id: string }) => s.session_id);
    const inTenantB = await rows<{ id: string }>(
      svc.deps.database.db,
      sql`select id from sessions where user_id = ${a.userId} and tenant_id = ${b.tenantId}`,
    );
    expect(sessionIds.sort()).toEqual(inTenantB.map((s) => s.id).sort());

    const fromA = await request(api('/gdpr/my-data'), { token: a.token });
    expect(JSON.stringify(fromA.body)).not.toContain(b.tenantId);
    expect(JSON.stringify(fromA.body)).not.toContain('analytics-b');
  });
});

describe('data-subject requests: the subject', () => {
  it('files a pending request due 30 days out, lists it, and audits it', async () => {
    const org = await signUpOwner(svc.url, 'dsr');
    const res = await file(org.token, { request_type: 'export', description: 'Everything please' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      user_id: org.userId,
      request_type: 'export',
      description: 'Everything please',
      status: 'pending',
      created_at: svc.clock.now().toISOString(),
      due_at: new Date(svc.clock.now().getTime() + 30 * DAY).toISOString(),
      verified_at: null,
      resolved_at: null,
      rejection_reason: null,
    });
    const list = await request(api('/gdpr/requests'), { token: org.token });
    expect(list.status).toBe(200);
    expect(list.body.requests).toEqual([res.body]);
    expect(await auditActionsOf(res.body.id)).toEqual(['privacy.request_created']);
  });

  it('refuses malformed requests with 422 naming the field, storing nothing', async () => {
    const org = await signUpOwner(svc.url, 'dsr');
    const cases = [
      [{}, /request_type/],
      [{ request_type: 'deletion' }, /request_type/],
      [{ request_type: 'access', description: 'x'.repeat(2001) }, /description/],
    ] as const;
    for (const [body, field] of cases) {
      const res = await file(org.token, body);
      expect(res.status).toBe(422);
      expect(res.body.detail).toMatch(field);
    }
    expect((await request(api('/gdpr/requests'), { token: org.token })).body.requests).toEqual([]);
    expect((await file('', { request_type: 'access' })).status).toBe(401);
  });

  it('cancels an own open request; 409 once resolved; 404 for anyone else’s or unknown ids', async () => {
    const org = await signUpOwner(svc.url, 'dsr');
    const other = await addMember(svc, org, 'member');
    const mine = (await file(org.token, { request_type: 'access' })).body;
    const cancel = (token: string, id: string) =>
      request(api(`/gdpr/requests/${id}/cancel`), { method: 'POST', token });

    expect((await cancel(other.token, mine.id)).status).toBe(404);
    expect((await request(api('/gdpr/requests'), { token: other.token })).body.requests).toEqual([]);
    expect((await cancel(org.token, newId())).status).toBe(404);
    expect((await cancel(org.token, 'not-a-uuid')).status).toBe(404);
    const done = await cancel(org.token, mine.id);
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ status: 'cancelled', resolved_at: svc.clock.now().toISOString() });
    const again = await cancel(org.token, mine.id);
    expect(again.status).toBe(409);
    expect(again.body.detail).toMatch(/resolved/);
    expect(await auditActionsOf(mine.id)).toEqual(['privacy.request_created', 'privacy.request_cancelled']);

    const rejected = (await file(org.token, { request_type: 'rectification' })).body;
    expect((await admin(org.token, rejected.id, 'reject', { reason: 'Not ours' })).status).toBe(200);
    expect((await cancel(org.token, rejected.id)).status).toBe(409);
  });
});

describe('data-subject requests: compliance administration', () => {
  it('lists the tenant’s requests with status and type filters', async () => {
    const org = await signUpOwner(svc.url, 'dsr');
    const someone = await addMember(svc, org, 'member');
    const access = (await file(someone.token, { request_type: 'access' })).body;
    const erasure = (await file(org.token, { request_type: 'erasure' })).body;
    await admin(org.token, access.id, 'verify');

    const all = await request(api('/gdpr/admin/requests'), { token: org.token });
    expect(all.status).toBe(200);
    expect(all.body.requests.map((r: { id: string }) => r.id).sort()).toEqual([access.id, erasure.id].sort());
    const verified = await request(api('/gdpr/admin/requests?status=verified'), { token: org.token });
    expect(verified.body.requests.map((r: { id: string }) => r.id)).toEqual([access.id]);
    const erasures = await request(api('/gdpr/admin/requests?type=erasure&status=pending'), { token: org.token });
    expect(erasures.body.requests.map((r: { id: string }) => r.id)).toEqual([erasure.id]);
    const bad = await request(api('/gdpr/admin/requests?status=done'), { token: org.token });
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toMatch(/status/);

    const elsewhere = await signUpOwner(svc.url, 'dsr');
    const theirs = await request(api('/gdpr/admin/requests'), { token: elsewhere.token });
    expect(theirs.body.requests).toEqual([]);
  });

  it('pages through every request with next_cursor, each once, newest first, filters kept', async () => {
    const org = await signUpOwner(svc.url, 'dsr-pages');
    const filed: string[] = [];
    for (let i = 0; i < 7; i++) {
      svc.clock.advance(i % 3 === 0 ? 0 : 1000); // some share an instant: the id orders them
      filed.push((await file(org.token, { request_type: i % 2 ? 'access' : 'export' })).body.id);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
      const page = await request(api(`/gdpr/admin/requests?limit=3${query}`), { token: org.token });
      expect(page.status).toBe(200);
      expect(page.body.requests.length).toBeLessThanOrEqual(3);
      seen.push(...page.body.requests.map((r: { id: string }) => r.id));
      cursor = page.body.next_cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(7);
    expect([...seen].sort()).toEqual([...filed].sort());
    const all = await request(api('/gdpr/admin/requests'), { token: org.token });
    expect(all.body.requests.map((r: { id: string }) => r.id)).toEqual(seen);
    expect(all.body.next_cursor).toBeNull();
    // The filter applies on every page.
    const first = await request(api('/gdpr/admin/requests?type=access&limit=2'), { token: org.token });
    const rest = await request(
      api(`/gdpr/admin/requests?type=access&limit=2&cursor=${encodeURIComponent(first.body.next_cursor)}`),
      { token: org.token },
    );
    expect(
      [...first.body.requests, ...rest.body.requests].map((r: { request_type: string }) => r.request_type),
    ).toEqual(['access', 'access', 'access']);
    // Own requests page the same way.
    const own = await request(api('/gdpr/requests?limit=5'), { token: org.token });
    expect(own.body.requests).toHaveLength(5);
    expect(own.body.next_cursor).toEqual(expect.any(String));
    for (const bogus of ['not-a-cursor', Buffer.from('["x","y"]').toString('base64url')]) {
      const res = await request(api(`/gdpr/admin/requests?cursor=${bogus}`), { token: org.token });
      expect(res.status).toBe(422);
      expect(res.body.detail).toMatch(/^cursor: /);
    }
  });

  it('answers 403 to a member without compliance:read and to a reader without compliance:admin', async () => {
    const org = await signUpOwner(svc.url, 'dsr');
    const plain = await addMember(svc, org, 'member');
    const auditor = await addMember(svc, org, 'auditor');
    const officer = await addMember(svc, org, 'compliance_officer');
    const pending = (await file(plain.token, { request_type: 'access' })).body;

    const denied = await request(api('/gdpr/admin/requests'), { token: plain.token });
    expect(denied.status).toBe(403);
    expect(denied.body.detail).toMatch(/compliance:read/);
    expect((await admin(plain.token, pending.id, 'verify')).status).toBe(403);

    expect((await request(api('/gdpr/admin/requests'), { token: auditor.token })).status).toBe(200);
    const readOnly = await admin(auditor.token, pending.id, 'verify');
    expect(readOnly.status).toBe(403);
    expect(readOnly.body.detail).toMatch(/compliance:admin/);
    for (const step of ['reject', 'process']) {
      expect((await admin(auditor.token, pending.id, step, { reason: 'x' })).status).toBe(403);
    }
    const verified = await admin(officer.token, pending.id, 'verify');
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ status: 'verified', verified_at: svc.clock.now().toISOString() });
  });

  it('answers 404 for another organization’s request and changes nothing', async () => {
    const a = await signUpOwner(svc.url, 'dsr');
    const b = await signUpOwner(svc.url, 'dsr');
    const theirs = (await file(b.token, { request_type: 'access' })).body;
    for (const step of ['verify', 'reject', 'process']) {
      expect((await admin(a.token, theirs.id, step, { reason: 'x' })).status).toBe(404);
    }
    expect((await admin(a.token, 'nope', 'verify')).status).toBe(404);
    const cancel = await request(api(`/gdpr/requests/${theirs.id}/cancel`), { method: 'POST', token: a.token });
    expect(cancel.status).toBe(404);
    expect((await request(api('/gdpr/requests'), { token: b.token })).body.requests[0].status).toBe('pending');
  });

  it('verifies once, rejects with a reason, and refuses every step on a resolved request', async () => {
    const org = await signUpOwner(svc.url, 'dsr');
    const subject = await addMember(svc, org, 'member');
    const req = (await file(subject.token, { request_type: 'access' })).body;
    expect((await admin(org.token, req.id, 'verify')).status).toBe(200);
    const twice = await admin(org.token, req.id, 'verify');
    expect(twice.status).toBe(409);

    const noReason = await admin(org.token, req.id, 'reject', { reason: '' });
    expect(noReason.status).toBe(422);
    expect(noReason.body.detail).toMatch(/reason/);
    expect((await admin(org.token, req.id, 'reject')).status).toBe(422);
    const rejected = await admin(org.token, req.id, 'reject', { reason: 'Identity documents do not match' });
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ status: 'rejected', rejection_reason: 'Identity documents do not match' });
    for (const step of ['verify', 'reject', 'process']) {
      const res = await admin(org.token, req.id, step, { reason: 'again' });
      expect(res.status).toBe(409);
      expect(res.body.detail).toMatch(/resolved/);
    }
    expect(await auditActionsOf(req.id)).toEqual([
      'privacy.request_created',
      'privacy.request_verified',
      'privacy.request_rejected',
    ]);
  });

  it('processes access and export by returning the subject’s document; rectification just completes', async () => {
    const org = await signUpOwner(svc.url, 'dsr');
    const subject = await addMember(svc, org, 'member');
    await request(api('/consent/research/grant'), { method: 'POST', token: subject.token });
    for (const type of ['access', 'export']) {
      const req = (await file(subject.token, { request_type: type })).body;
      await admin(org.token, req.id, 'verify');
      const res = await admin(org.token, req.id, 'process');
      expect(res.status).toBe(200);
      expect(res.body.request).toMatchObject({ id: req.id, status: 'completed' });
      expect(res.body.erased_sections).toBeNull();
      expect(res.body.data).toMatchObject({ format: 'svc.personal-data/1', user_id: subject.userId });
      expect(res.body.data.tenant_id).toBe(org.tenantId);
      expect(res.body.data.sections.consents.current[0].consent_type).toBe('research');
      expect(await auditActionsOf(req.id)).toEqual([
        'privacy.request_created',
        'privacy.request_verified',
        'privacy.request_processed',
      ]);
    }
    const fix = (await file(subject.token, { request_type: 'rectification', description: 'Name is misspelt' })).body;
    expect(fix.status).toBe('pending');
    await admin(org.token, fix.id, 'verify');
    const fixed = await admin(org.token, fix.id, 'process');
    expect(fixed.body).toMatchObject({ request: { status: 'completed' }, data: null, erased_sections: null });
  });
  it('processes a pending request as the table allows, recording the processing admin’s verification', async () => {
    const org = await signUpOwner(svc.url, 'dsr');
    const officer = await addMember(svc, org, 'compliance_officer');
    const subject = await addMember(svc, org, 'member');
    const req = (await file(subject.token, { request_type: 'export' })).body;
    svc.clock.advance(60_000);
    const res = await admin(officer.token, req.id, 'process');
    expect(res.status).toBe(200);
    expect(res.body.request).toMatchObject({
      status: 'completed',
      verified_at: svc.clock.now().toISOString(),
      resolved_at: svc.clock.now().toISOString(),
    });
    expect(res.body.data).toMatchObject({ user_id: subject.userId, tenant_id: org.tenantId });
    expect(await auditActionsOf(req.id)).toEqual([
      'privacy.request_created',
      'privacy.request_verified',
      'privacy.request_processed',
    ]);
    const [verified] = await rows<{ actor_id: string; verified_by: string }>(
      svc.deps.database.db,
      sql`select actor_id, data->>'verified_by' as verified_by from audit_log
          where data->>'request_id' = ${req.id} and action = 'privacy.request_verified'`,
    );
    expect(verified).toEqual({ actor_id: officer.userId, verified_by: 'process' });
    const [row] = await rows<{ verified_by: string; resolved_by: string }>(
      svc.deps.database.db,
      sql`select verified_by, resolved_by from data_subject_requests where id = ${req.id}`,
    );
    expect(row).toEqual({ verified_by: officer.userId, resolved_by: officer.userId });

    const again = await admin(officer.token, req.id, 'process');
    expect(again.status).toBe(409);
    expect(again.body.detail).toMatch(/resolved/);
    const late = await request(api(`/gdpr/requests/${req.id}/cancel`), { method: 'POST', token: subject.token });
    expect(late.status).toBe(409);
    expect((await admin(officer.token, req.id, 'verify')).status).toBe(409);
    const cancelled = (await file(subject.token, { request_type: 'access' })).body;
    await request(api(`/gdpr/requests/${cancelled.id}/cancel`), { method: 'POST', token: subject.token });
    expect((await admin(officer.token, cancelled.id, 'process')).status).toBe(409);
    expect((await admin(subject.token, cancelled.id, 'process')).status).toBe(403);
  });
  it('serves API keys holding the compliance scopes, recording the key as the actor', async () => {
    const org = await signUpOwner(svc.url, 'dsr');
    const subject = await addMember(svc, org, 'member');
    const newKey = async (scopes: string[]) => {
      const res = await request(api('/tenants/api-keys'), { token: org.token, json: { label: 'dpo', scopes } });
      expect(res.status).toBe(201);
      return res.body as { id: string; key: string };
    };
    const reader = await newKey(['compliance:read']);
    const processor = await newKey(['compliance:admin']);
    const req = (await file(subject.token, { request_type: 'access' })).body;

    const listed = await request(api('/gdpr/admin/requests?type=access'), { token: reader.key });
    expect(listed.status).toBe(200);
    expect(listed.body.requests.map((r: { id: string }) => r.id)).toEqual([req.id]);
    expect((await request(api('/retention/preview'), { token: reader.key })).status).toBe(200);
    expect((await admin(reader.key, req.id, 'process')).status).toBe(403);
    // Own-data routes are a person's: a key is no data subject.
    expect([401, 403]).toContain((await request(api('/gdpr/my-data'), { token: processor.key })).status);

    const res = await admin(processor.key, req.id, 'process');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ user_id: subject.userId });
    const actors = await rows<{ action: string; actor_id: string; actor_type: string }>(
      svc.deps.database.db,
      sql`select action, actor_id, actor_type from audit_log
          where data->>'request_id' = ${req.id} and action <> 'privacy.request_created' order by seq`,
    );
    expect(actors.map((a) => [a.action, a.actor_id])).toEqual([
      ['privacy.request_verified', processor.id],
      ['privacy.request_processed', processor.id],
    ]);
  });
});
