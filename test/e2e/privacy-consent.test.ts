import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/kernel/db/index.js';
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

const grant = (token: string, type: string) => request(api(`/consent/${type}/grant`), { method: 'POST', token });
const withdraw = (token: string, type: string) => request(api(`/consent/${type}/withdraw`), { method: 'POST', token });

describe('own consents', () => {
  it('grants and withdraws idempotently; the ledger records only changes, newest first', async () => {
    const org = await signUpOwner(svc.url, 'consent');
    expect((await request(api('/consent'), { token: org.token })).body).toEqual({ consents: [], next_cursor: null });

    const first = await grant(org.token, 'newsletter');
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      consent_type: 'newsletter',
      state: 'granted',
      granted: true,
      updated_at: svc.clock.now().toISOString(),
      changed: true,
    });
    const grantedAt = first.body.updated_at;
    svc.clock.advance(60_000);
    const again = await grant(org.token, 'newsletter');
    expect(again.body).toEqual({ ...first.body, changed: false, updated_at: grantedAt });

    svc.clock.advance(60_000);
    expect((await withdraw(org.token, 'newsletter')).body).toMatchObject({ state: 'withdrawn', changed: true });
    expect((await withdraw(org.token, 'newsletter')).body).toMatchObject({ state: 'withdrawn', changed: false });
    svc.clock.advance(60_000);
    await grant(org.token, 'newsletter');
    await grant(org.token, 'analytics');

    const current = await request(api('/consent'), { token: org.token });
    expect(current.body.consents).toEqual([
      { consent_type: 'analytics', state: 'granted', granted: true, updated_at: svc.clock.now().toISOString() },
      { consent_type: 'newsletter', state: 'granted', granted: true, updated_at: svc.clock.now().toISOString() },
    ]);
    const history = await request(api('/consent/history'), { token: org.token });
    expect(history.status).toBe(200);
    expect(
      history.body.history.map((h: { consent_type: string; action: string }) => [h.consent_type, h.action]),
    ).toEqual([
      ['analytics', 'granted'],
      ['newsletter', 'granted'],
      ['newsletter', 'withdrawn'],
      ['newsletter', 'granted'],
    ]);
    const audited = await rows<{ action: string }>(
      svc.deps.database.db,
      sql`select action from audit_log where tenant_id = ${org.tenantId} and action like 'consent.%' order by seq`,
    );
    expect(audited.map((a) => a.action)).toEqual([
      'consent.granted',
      'consent.withdrawn',
      'consent.granted',
      'consent.granted',
    ]);
  });

  it('records exactly one change when the same grant races', async () => {
    const org = await signUpOwner(svc.url, 'consent');
    const results = await Promise.all(Array.from({ length: 6 }, () => grant(org.token, 'race')));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(results.filter((r) => r.body.changed)).toHaveLength(1);
    const history = await request(api('/consent/history'), { token: org.token });
    expect(history.body.history).toHaveLength(1);
  });

  it('refuses a consent type that is not a slug with 422 naming it, storing nothing', async () => {
    const org = await signUpOwner(svc.url, 'consent');
    for (const bad of ['Newsletter', 'news%20letter', 'a'.repeat(65), 'caf%C3%A9', 'a.b']) {
      const res = await grant(org.token, bad);
      expect(res.status).toBe(422);
      expect(res.body.detail).toMatch(/consent_type/);
      expect((await withdraw(org.token, bad)).status).toBe(422);
    }
    expect((await grant(org.token, 'a'.repeat(64))).status).toBe(200);
    expect((await grant(org.token, 'ok_type-2')).status).toBe(200);
    expect((await request(api('/consent/history'), { token: org.token })).body.history).toHaveLength(2);
  });

  it('needs a token; the ledger cannot be changed through the API', async () => {
    expect((await request(api('/consent'))).status).toBe(401);
    expect((await request(api('/consent/x/grant'), { method: 'POST' })).status).toBe(401);
    expect((await request(api('/consent/history'))).status).toBe(401);
    const org = await signUpOwner(svc.url, 'consent');
    for (const method of ['DELETE', 'PUT', 'PATCH']) {
      expect((await request(api('/consent/history'), { method, token: org.token })).status).toBe(404);
    }
  });
});

describe('owner review', () => {
  it('shows the organization’s consents and history with user_id and consent_type filters', async () => {
    const org = await signUpOwner(svc.url, 'consent');
    const alice = await addMember(svc, org, 'member');
    const bob = await addMember(svc, org, 'member');
    await grant(alice.token, 'newsletter');
    svc.clock.advance(1000);
    await grant(bob.token, 'newsletter');
    svc.clock.advance(1000);
    await withdraw(alice.token, 'newsletter');
    await grant(alice.token, 'analytics');

    const all = await request(api('/consent/admin'), { token: org.token });
    expect(all.status).toBe(200);
    expect(all.body.consents).toHaveLength(3);
    const onlyAlice = await request(api(`/consent/admin?user_id=${alice.userId}`), { token: org.token });
    expect(
      onlyAlice.body.consents.map((c: { consent_type: string; state: string }) => [c.consent_type, c.state]),
    ).toEqual([
      ['analytics', 'granted'],
      ['newsletter', 'withdrawn'],
    ]);
    const newsletter = await request(api('/consent/admin?consent_type=newsletter'), { token: org.token });
    expect(newsletter.body.consents.map((c: { user_id: string }) => c.user_id).sort()).toEqual(
      [alice.userId, bob.userId].sort(),
    );

    const history = await request(api('/consent/admin/history?consent_type=newsletter'), { token: org.token });
    expect(history.status).toBe(200);
    expect(history.body.history.map((h: { user_id: string; action: string }) => [h.user_id, h.action])).toEqual([
      [alice.userId, 'withdrawn'],
      [bob.userId, 'granted'],
      [alice.userId, 'granted'],
    ]);
    const bobs = await request(api(`/consent/admin/history?user_id=${bob.userId}&consent_type=newsletter`), {
      token: org.token,
    });
    expect(bobs.body.history).toHaveLength(1);
  });

  it('pages the ledger and the organization’s states with next_cursor, each row once', async () => {
    const org = await signUpOwner(svc.url, 'consent-pages');
    const member = await addMember(svc, org, 'member');
    for (const who of [org, member]) {
      for (const purpose of ['a-news', 'b-calls', 'c-research']) {
        await request(api(`/consent/${purpose}/grant`), { method: 'POST', token: who.token });
      }
      // Same instant (the clock does not move): the ledger's sequence orders these.
      await request(api('/consent/a-news/withdraw'), { method: 'POST', token: who.token });
    }
    async function walk(path: string, field: 'consents' | 'history') {
      const seen: Array<Record<string, unknown>> = [];
      let cursor: string | null = null;
      do {
        const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
        const page = await request(api(`${path}?limit=2${query}`), { token: org.token });
        expect(page.status).toBe(200);
        seen.push(...page.body[field]);
        cursor = page.body.next_cursor;
      } while (cursor);
      const whole = await request(api(path), { token: org.token });
      expect(whole.body.next_cursor).toBeNull();
      expect(seen).toEqual(whole.body[field]);
      return seen;
    }
    expect(await walk('/consent/admin', 'consents')).toHaveLength(6);
    expect(await walk('/consent/admin/history', 'history')).toHaveLength(8);
    expect(await walk('/consent/history', 'history')).toHaveLength(4);
    expect(await walk('/consent', 'consents')).toHaveLength(3);
  });

  it('is the owner’s alone: 403 for members and even for compliance officers', async () => {
    const org = await signUpOwner(svc.url, 'consent');
    const plain = await addMember(svc, org, 'member');
    const officer = await addMember(svc, org, 'compliance_officer');
    for (const token of [plain.token, officer.token]) {
      for (const path of ['/consent/admin', '/consent/admin/history']) {
        const res = await request(api(path), { token });
        expect(res.status).toBe(403);
        expect(res.body.detail).toMatch(/owner/);
      }
    }
  });

  it('refuses malformed filters with 422 and never shows another organization', async () => {
    const a = await signUpOwner(svc.url, 'consent');
    const b = await signUpOwner(svc.url, 'consent');
    await grant(b.token, 'newsletter');
    expect((await request(api('/consent/admin?user_id=nope'), { token: a.token })).status).toBe(422);
    expect((await request(api('/consent/admin/history?consent_type=BAD'), { token: a.token })).status).toBe(422);
    const cross = await request(api(`/consent/admin?user_id=${b.userId}`), { token: a.token });
    expect(cross.body.consents).toEqual([]);
    const crossHistory = await request(api('/consent/admin/history'), { token: a.token });
    expect(crossHistory.body.history).toEqual([]);
  });
});
