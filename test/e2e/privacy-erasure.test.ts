import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/kernel/db/index.js';
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

const { file, admin, auditActionsOf } = privacySteps(() => svc);

describe('erasure', () => {
  it('scrubs the subject across modules, ends their sessions, and the audit chain still verifies', async () => {
    const org = await signUpOwner(svc.url, 'erasure');
    const subject = await addMember(svc, org, 'member');
    await request(api('/consent/marketing/grant'), { method: 'POST', token: subject.token });
    const req = (await file(subject.token, { request_type: 'erasure', description: 'My name is Jane Roe' })).body;
    await admin(org.token, req.id, 'verify');
    const auditBefore = await rows<{ n: number }>(svc.deps.database.db, sql`select count(*)::int as n from audit_log`);

    const res = await admin(org.token, req.id, 'process');
    expect(res.status).toBe(200);
    expect(res.body.request).toMatchObject({ status: 'completed', description: null });
    expect(res.body.erased_sections).toEqual(expect.arrayContaining(['account', 'consents', 'data_subject_requests']));

    const [user] = await rows<{ email: string; name: string | null; password_hash: string | null }>(
      svc.deps.database.db,
      sql`select email, name, password_hash from users where id = ${subject.userId}`,
    );
    expect(user?.email).not.toBe(subject.email);
    expect(user?.name ?? null).toBeNull();
    expect(user?.password_hash ?? null).toBeNull();
    const left = await rows(
      svc.deps.database.db,
      sql`select 1 from consents where user_id = ${subject.userId} union all
          select 1 from consent_events where user_id = ${subject.userId} union all
          select 1 from sessions where user_id = ${subject.userId} and revoked_at is null`,
    );
    expect(left).toEqual([]);
    const [kept] = await rows<{ description: string | null; status: string }>(
      svc.deps.database.db,
      sql`select description, status from data_subject_requests where id = ${req.id}`,
    );
    expect(kept).toEqual({ description: null, status: 'completed' });

    expect((await request(api('/gdpr/my-data'), { token: subject.token })).status).toBe(401);
    const login = await request(api('/auth/login'), {
      json: { email: subject.email, password: subject.password, tenant_slug: org.slug },
    });
    expect(login.status).toBe(401);
    // The organization's systems hear that every session of the person ended (Part A 6).
    const outbox = await rows<{ payload: { data: Record<string, unknown> } }>(
      svc.deps.database.db,
      sql`select payload from webhook_outbox where tenant_id = ${org.tenantId} and event_type = 'user.sessions_revoked'`,
    );
    expect(outbox.map((row) => row.payload.data)).toEqual([{ user_id: subject.userId, reason: 'erasure' }]);

    // The audit log is kept and appended to, never rewritten.
    const auditAfter = await rows<{ n: number }>(svc.deps.database.db, sql`select count(*)::int as n from audit_log`);
    expect(auditAfter[0]!.n).toBeGreaterThan(auditBefore[0]!.n);
    expect(await auditActionsOf(req.id)).toEqual([
      'privacy.request_created',
      'privacy.request_verified',
      'privacy.request_processed',
    ]);
    expect(await svc.deps.events.verifyAudit()).toMatchObject({ verified: true, broken_seq: null });
  });

  it('erases an owner who is not the only one; of two owners erased at once, one stays', async () => {
    const org = await signUpOwner(svc.url, 'erasure');
    const second = await addMember(svc, org, 'owner');
    const third = await addMember(svc, org, 'owner');
    const secondReq = (await file(second.token, { request_type: 'erasure' })).body;
    await admin(org.token, secondReq.id, 'verify');
    const erased = await admin(org.token, secondReq.id, 'process');
    expect(erased.status).toBe(200);
    const [membership] = await rows<{ status: string }>(
      svc.deps.database.db,
      sql`select status from memberships where tenant_id = ${org.tenantId} and user_id = ${second.userId}`,
    );
    expect(membership?.status).not.toBe('active');

    const officer = await addMember(svc, org, 'compliance_officer');
    const both = [];
    for (const person of [org, third]) {
      const req = (await file(person.token, { request_type: 'erasure' })).body;
      expect((await admin(officer.token, req.id, 'verify')).status).toBe(200);
      both.push(req.id);
    }
    const results = await Promise.all(both.map((id) => admin(officer.token, id, 'process')));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const owners = await rows(
      svc.deps.database.db,
      sql`select 1 from memberships where tenant_id = ${org.tenantId} and role = 'owner' and status = 'active'`,
    );
    expect(owners).toHaveLength(1);
  });

  it('refuses the sole owner with 409 and leaves the request and the data as they were', async () => {
    const org = await signUpOwner(svc.url, 'erasure');
    await request(api('/consent/marketing/grant'), { method: 'POST', token: org.token });
    const req = (await file(org.token, { request_type: 'erasure' })).body;
    await admin(org.token, req.id, 'verify');
    const res = await admin(org.token, req.id, 'process');
    expect(res.status).toBe(409);
    expect(res.body.detail).toMatch(/sole owner/);
    const mine = await request(api('/gdpr/requests'), { token: org.token });
    expect(mine.body.requests[0]).toMatchObject({ id: req.id, status: 'verified' });
    const [user] = await rows<{ email: string }>(
      svc.deps.database.db,
      sql`select email from users where id = ${org.userId}`,
    );
    expect(user?.email).toBe(org.email);
    expect((await request(api('/consent'), { token: org.token })).body.consents).toHaveLength(1);
    expect(await auditActionsOf(req.id)).toEqual(['privacy.request_created', 'privacy.request_verified']);

    // Processed straight from pending, the refusal undoes the recorded verification too.
    const direct = (await file(org.token, { request_type: 'erasure' })).body;
    const refused = await admin(org.token, direct.id, 'process');
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatch(/sole owner/);
    const after = await request(api('/gdpr/requests'), { token: org.token });
    expect(after.body.requests.find((r: { id: string }) => r.id === direct.id)).toMatchObject({
      status: 'pending',
      verified_at: null,
    });
    expect(await auditActionsOf(direct.id)).toEqual(['privacy.request_created']);
  });
  it('erases a person in one organization only: their account and data in the other stay', async () => {
    const a = await signUpOwner(svc.url, 'erasure');
    const b = await signUpOwner(svc.url, 'erasure');
    const inB = await addMember(svc, b, 'member', { userId: a.userId, email: a.email, password: a.password });
    await request(api('/consent/kept-in-a/grant'), { method: 'POST', token: a.token });
    await request(api('/consent/gone-in-b/grant'), { method: 'POST', token: inB.token });
    const req = (await file(inB.token, { request_type: 'erasure' })).body;

    const res = await admin(b.token, req.id, 'process');
    expect(res.status).toBe(200);
    const consentsLeft = await rows<{ tenant_id: string; consent_type: string }>(
      svc.deps.database.db,
      sql`select tenant_id, consent_type from consents where user_id = ${a.userId}`,
    );
    expect(consentsLeft).toEqual([{ tenant_id: a.tenantId, consent_type: 'kept-in-a' }]);
    const memberships = await rows<{ tenant_id: string; status: string }>(
      svc.deps.database.db,
      sql`select tenant_id, status from memberships where user_id = ${a.userId} and status = 'active'`,
    );
    expect(memberships).toEqual([{ tenant_id: a.tenantId, status: 'active' }]);
    // The account is shared with A, so it is not scrubbed: the person still signs in there, not in B.
    const [user] = await rows<{ email: string }>(
      svc.deps.database.db,
      sql`select email from users where id = ${a.userId}`,
    );
    expect(user?.email).toBe(a.email);
    expect((await request(api('/gdpr/my-data'), { token: a.token })).status).toBe(200);
    expect((await request(api('/gdpr/my-data'), { token: inB.token })).status).toBe(401);
    const loginB = await request(api('/auth/login'), {
      json: { email: a.email, password: a.password, tenant_slug: b.slug },
    });
    expect(loginB.status).not.toBe(200);
    expect(await svc.deps.events.verifyAudit()).toMatchObject({ verified: true });
  });
});
