import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { days, hours } from '../../src/kernel/clock.js';
import { newId } from '../../src/kernel/ids.js';
import type { TestService } from '../support/service.js';
import { freshIp, paymentsHarness, startPayments } from './payments-support.js';

// The risk context (issue 25 item 6, Part B 2.6): score, band, every contributing factor, `unavailable`, `degraded`
// (an unreadable input scored worst-case, so the score is a floor), and never an exemption verdict.

let svc: TestService;
beforeAll(async () => {
  svc = await startPayments();
});
afterAll(async () => {
  await svc?.close();
});

const h = paymentsHarness(() => svc);
const factorOf = (body: { factors: Array<{ name: string }> }, name: string) =>
  body.factors.find((factor) => factor.name === name) as Record<string, unknown> | undefined;

describe('risk context', () => {
  it('names every factor with its points; the source address is unavailable until an elevation names one', async () => {
    const who = await h.person({ passkey: true });
    const key = await h.backEndKey(who);
    const res = await h.riskContext(key, who.userId, who.sid);
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(
      ['band', 'computed_at', 'degraded', 'factors', 'score', 'sid', 'unavailable', 'user_id'].sort(),
    );
    expect(res.text).not.toMatch(/exempt/i);
    expect(res.body.factors.map((factor: { name: string }) => factor.name)).toEqual([
      'account_age',
      'session_age',
      'factor_strength',
      'open_detections_user',
    ]);
    expect(res.body.unavailable).toEqual(['open_detections_ip']);
    expect(res.body.degraded).toEqual([]);
    // A member since today (20), a fresh session (0), a passkey (0), nothing open (0).
    expect(factorOf(res.body, 'account_age')).toMatchObject({ points: 20, value: 0, degraded: false });
    expect(factorOf(res.body, 'session_age')).toMatchObject({ points: 0, degraded: false });
    expect(factorOf(res.body, 'factor_strength')).toMatchObject({ points: 0, value: 'passkey' });
    expect(factorOf(res.body, 'open_detections_user')).toMatchObject({ points: 0, value: 0 });
    expect(res.body).toMatchObject({ score: 20, band: 'low' });

    // An elevation records the address it was opened from: the address factor is then computed.
    const ip = freshIp();
    expect((await h.sca(who, { amount_minor: 100, currency: 'EUR', payee: 'p', payee_name: 'P' }, ip)).status).toBe(
      201,
    );
    const withIp = await h.riskContext(key, who.userId, who.sid);
    expect(withIp.body.unavailable).toEqual([]);
    expect(factorOf(withIp.body, 'open_detections_ip')).toMatchObject({ points: 0, value: 0 });

    // Open detections against the address and the person raise the score.
    await svc.deps.transactions.tenant(who.tenantId, (tx) =>
      svc.deps.events.detect(tx, {
        tenantId: who.tenantId,
        ruleId: 'test-address-reputation',
        groupKey: `ip:${ip}`,
        severity: 'high',
        data: { ip },
      }),
    );
    const flagged = await h.riskContext(key, who.userId, who.sid);
    expect(factorOf(flagged.body, 'open_detections_ip')).toMatchObject({ points: 10, value: 1 });
    expect(flagged.body.score).toBe(30);
    expect(flagged.body.band).toBe('medium');
  });

  it('counts open detections against the person (repeated failed sign-ins), TOTP-only strength, and ages', async () => {
    const who = await h.person({ totp: true });
    const key = await h.backEndKey(who);
    for (let attempt = 0; attempt < 12; attempt++) {
      await h.post(
        '/auth/login',
        undefined,
        { email: who.email, password: 'wrong password entirely', tenant_slug: who.slug },
        { 'x-forwarded-for': freshIp() },
      );
    }
    let res = await h.riskContext(key, who.userId, who.sid);
    for (let wait = 0; wait < 50 && factorOf(res.body, 'open_detections_user')?.value === 0; wait++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      res = await h.riskContext(key, who.userId, who.sid);
    }
    expect(factorOf(res.body, 'open_detections_user')).toMatchObject({ points: 10, value: 1 });
    expect(String(factorOf(res.body, 'open_detections_user')?.detail)).toContain('repeated-sign-in-failures');
    expect(factorOf(res.body, 'factor_strength')).toMatchObject({ points: 10, value: 'totp' });

    // Thirty-one days on: an established member; the session (refreshed) is older.
    svc.clock.advance(days(31));
    const later = await h.riskContext(key, who.userId, who.sid);
    expect(factorOf(later.body, 'account_age')).toMatchObject({ points: 0, value: 31 });
    expect(factorOf(later.body, 'session_age')?.points).toBeGreaterThan(0);
  });

  it('an ended session scores worst-case for its age; unknown or foreign people and sessions are 404', async () => {
    const who = await h.person({ totp: true });
    const key = await h.backEndKey(who);
    const stranger = await h.person({ totp: true });
    svc.clock.advance(hours(2));
    const aged = await h.riskContext(key, who.userId, who.sid);
    expect(factorOf(aged.body, 'session_age')).toMatchObject({ points: 5 });
    expect(factorOf(aged.body, 'session_age')?.value).toBeGreaterThanOrEqual(120);
    // A fresh access token of the same session (the first ran out), then signing out of it.
    const refreshed = await h.post('/auth/refresh', undefined, { refresh_token: who.refresh });
    expect(refreshed.status, refreshed.text).toBe(200);
    expect((await h.post('/auth/logout', refreshed.body.access_token, {})).status).toBeLessThan(300);
    const ended = await h.riskContext(key, who.userId, who.sid);
    expect(ended.status).toBe(200);
    expect(factorOf(ended.body, 'session_age')).toMatchObject({ points: 20 });
    expect(String(factorOf(ended.body, 'session_age')?.detail)).toContain('ended');
    for (const [userId, sid] of [
      [stranger.userId, stranger.sid],
      [who.userId, stranger.sid],
      [newId(), who.sid],
      ['nope', who.sid],
    ]) {
      expect((await h.riskContext(key, userId!, sid!)).status, `${userId} ${sid}`).toBe(404);
    }
    expect((await h.riskContext(key, who.userId, '')).status).toBe(422);
  });

  it('an unreadable input is scored worst-case and named in degraded: the score is a floor', async () => {
    const who = await h.person({ passkey: true });
    const key = await h.backEndKey(who);
    expect((await h.sca(who, { amount_minor: 100, currency: 'EUR', payee: 'p', payee_name: 'P' })).status).toBe(201);
    const before = await h.riskContext(key, who.userId, who.sid);
    expect(before.body.degraded).toEqual([]);
    // The detections cannot be read (their table is out of reach for a moment).
    const db = svc.deps.database.db;
    await db.execute(sql.raw(`alter table "${svc.schema}".detections rename to detections_away`));
    try {
      const res = await h.riskContext(key, who.userId, who.sid);
      expect(res.status, res.text).toBe(200);
      expect(res.body.degraded).toEqual(['open_detections_user', 'open_detections_ip']);
      expect(factorOf(res.body, 'open_detections_user')).toMatchObject({ points: 20, max_points: 20, value: null });
      expect(factorOf(res.body, 'open_detections_ip')).toMatchObject({ points: 10, max_points: 10, value: null });
      expect(res.body.score).toBe(before.body.score + 30);
      expect(res.body.score).toBeGreaterThanOrEqual(before.body.score);
    } finally {
      await db.execute(sql.raw(`alter table "${svc.schema}".detections_away rename to detections`));
    }
  });
});
