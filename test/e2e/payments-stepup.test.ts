import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minutes } from '../../src/kernel/clock.js';
import { newId } from '../../src/kernel/ids.js';
import type { TestService } from '../support/service.js';
import { paymentsHarness, startPayments } from './payments-support.js';

// Payment step-up (issue 25, Part B 2.5, 3, 4.7): an elevation bound to one exact operation, proven with a factor,
// spent once by the payment back end for a signed attestation. Over HTTP, with TOTP codes computed here.

let svc: TestService;
beforeAll(async () => {
  svc = await startPayments();
});
afterAll(async () => {
  await svc?.close();
});

const h = paymentsHarness(() => svc);
const payout = { action: 'payout.create', context: { amount_minor: 12_500, currency: 'EUR', beneficiary: 'acct-42' } };

describe('step-up: open, verify, consume', () => {
  it('binds to the operation, verifies with TOTP, and is spent once for an attestation the JWKS verifies', async () => {
    const who = await h.person({ totp: true });
    const key = await h.backEndKey(who);
    const opened = await h.stepUp(who, payout);
    expect(opened.status, opened.text).toBe(201);
    expect(opened.body).toMatchObject({
      kind: 'step_up',
      status: 'opened',
      user_id: who.userId,
      sid: who.sid,
      action: 'payout.create',
      context: payout.context,
      methods: ['totp'],
      categories_required: 1,
      categories_proven: [],
      attempts_left: 5,
      verified_at: null,
      consumed_at: null,
    });
    expect(opened.body).not.toHaveProperty('display');
    const id = opened.body.elevation_id as string;

    // Not yet satisfied: nothing to spend.
    const early = await h.consume(key, h.boundOf(opened.body));
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({ error: 'not_spendable', status: 'opened' });

    const verified = await h.verifyTotp(who, id);
    expect(verified.status, verified.text).toBe(200);
    expect(verified.body).toMatchObject({ status: 'satisfied', categories_proven: ['possession'] });

    // Key order does not matter (canonical JSON); the values do.
    const reordered = {
      ...h.boundOf(opened.body),
      context: { beneficiary: 'acct-42', currency: 'EUR', amount_minor: 12_500 },
    };
    const spent = await h.consume(key, reordered);
    expect(spent.status, spent.text).toBe(200);
    expect(spent.body).toMatchObject({
      elevation_id: id,
      kind: 'step_up',
      user_id: who.userId,
      sid: who.sid,
      action: 'payout.create',
      context: payout.context,
      fingerprint: opened.body.fingerprint,
      factor_categories: ['possession'],
      methods: ['totp'],
    });
    expect(spent.body).not.toHaveProperty('transaction');
    const { payload, protectedHeader } = await h.verifyAttestation(spent.body.attestation);
    expect(protectedHeader).toMatchObject({ alg: 'RS256', typ: 'payment-attestation+jwt' });
    expect(payload).toMatchObject({
      sub: who.userId,
      sid: who.sid,
      jti: id,
      tid: who.tenantId,
      action: 'payout.create',
      context: payout.context,
      fingerprint: opened.body.fingerprint,
      factor_categories: ['possession'],
    });

    // Spent: a second consume gets nothing.
    const again = await h.consume(key, h.boundOf(opened.body));
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: 'not_spendable', status: 'spent' });

    // Events for opened, verified and consumed; never the amount or any of the context.
    const events = await h.eventsOf(who.tenantId);
    expect(events.map((event) => event.action).sort()).toEqual([
      'elevation.consumed',
      'elevation.opened',
      'elevation.verified',
    ]);
    for (const event of events) {
      expect(event.data.elevation_id).toBe(id);
      expect(JSON.stringify(event.data)).not.toMatch(/12500|acct-42|amount/);
    }
    expect(events.find((event) => event.action === 'elevation.consumed')!.actor_type).toBe('service');
    expect(events.find((event) => event.action === 'elevation.opened')!.actor_type).toBe('human');
  });

  it('the person’s data export lists their elevations with what each was bound to', async () => {
    const who = await h.person({ totp: true });
    const opened = await h.stepUp(who, payout);
    const mine = await h.get('/gdpr/my-data', who.token);
    expect(mine.status, mine.text).toBe(200);
    expect(mine.body.sections.payment_elevations).toEqual([
      expect.objectContaining({
        elevation_id: opened.body.elevation_id,
        kind: 'step_up',
        status: 'opened',
        action: 'payout.create',
        context: payout.context,
        source_ip: expect.any(String),
      }),
    ]);
  });

  it('400 no_factor when the person has no factor enrolled, and nothing is opened', async () => {
    const who = await h.person();
    const res = await h.stepUp(who, payout);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('no_factor');
    expect(await h.elevationsOf(who.userId)).toHaveLength(0);
  });

  it('refuses floats anywhere in the context with 400 (1.0 and exponents too), and unsafe integers', async () => {
    const who = await h.person({ totp: true });
    const bodies = [
      '{"action":"payout.create","context":{"amount_minor":1.0}}',
      '{"action":"payout.create","context":{"amount_minor":12.5}}',
      '{"action":"payout.create","context":{"lines":[{"n":1},{"n":1e2}]}}',
      '{"action":"payout.create","context":{"deep":{"x":-0.0}}}',
      '{"action":"payout.create","context":{"amount_minor":9007199254740993}}',
    ];
    const paths = [
      'context.amount_minor',
      'context.amount_minor',
      'context.lines.1.n',
      'context.deep.x',
      'context.amount_minor',
    ];
    for (const [index, body] of bodies.entries()) {
      const res = await h.post('/payments/step-up', who.token, undefined);
      expect(res.status).toBe(422); // no body at all: action is required
      const refused = await fetch(h.api('/payments/step-up'), {
        method: 'POST',
        headers: { authorization: `Bearer ${who.token}`, 'content-type': 'application/json' },
        body,
      });
      const answer = (await refused.json()) as { detail: string; error: string };
      expect(refused.status, body).toBe(400);
      expect(answer.error).toBe('float_refused');
      expect(answer.detail.startsWith(`${paths[index]}:`), answer.detail).toBe(true);
    }
    // Strings that look like floats are strings; integers pass.
    const fine = await h.stepUp(who, { action: 'payout.create', context: { note: '1.5', amount_minor: 150, neg: -3 } });
    expect(fine.status, fine.text).toBe(201);
    expect(await h.elevationsOf(who.userId)).toHaveLength(1);
  });

  it('checks the action and the body: pattern, the SCA action reserved, unknown fields', async () => {
    const who = await h.person({ totp: true });
    for (const action of ['Payout', 'pay out', '', 'x'.repeat(129)]) {
      expect((await h.stepUp(who, { action })).status, action).toBe(422);
    }
    expect((await h.stepUp(who, { action: 'payout.create', extra: 1 })).status).toBe(422);
    expect((await h.stepUp(who, { action: 'payout.create', context: [1] })).status).toBe(422);
    const oversized = await h.stepUp(who, { action: 'payout.create', context: { note: 'x'.repeat(4096) } });
    expect(oversized.status).toBe(422);
    expect(oversized.body.detail).toBe('context: at most 4096 bytes of canonical JSON');
    const reserved = await h.stepUp(who, { action: 'payment.sca', context: { amount_minor: 1 } });
    expect(reserved.status).toBe(400);
    expect(await h.elevationsOf(who.userId)).toHaveLength(0);
    const noContext = await h.stepUp(who, { action: 'login_2fa:confirm-1' });
    expect(noContext.status, noContext.text).toBe(201);
    expect(noContext.body.context).toBeNull();
  });

  it('an elevation without context is consumed without one (absent and null alike), but not with {}', async () => {
    const who = await h.person({ totp: true });
    const key = await h.backEndKey(who);
    const opened = await h.stepUp(who, { action: 'profile.export' });
    expect((await h.verifyTotp(who, opened.body.elevation_id)).status).toBe(200);
    const bound = h.boundOf(opened.body);
    expect((await h.consume(key, { ...bound, context: {} })).body.error).toBe('fingerprint_mismatch');
    const spent = await h.consume(key, bound);
    expect(spent.status, spent.text).toBe(200);
    expect(spent.body.context).toBeNull();
  });
});

describe('verify: bad factors, attempts, replay', () => {
  it('401 on a wrong code burns an attempt; the fifth kills the ask, which then takes nothing', async () => {
    const who = await h.person({ totp: true });
    const key = await h.backEndKey(who);
    const opened = await h.stepUp(who, payout);
    const id = opened.body.elevation_id as string;
    const right = h.codeAt(who.secret!);
    const wrong = right === '000000' ? '111111' : '000000';
    for (let attempt = 1; attempt <= 5; attempt++) {
      const res = await h.verify(who, id, { method: 'totp', code: wrong });
      expect(res.status, res.text).toBe(401);
      expect(res.body).toMatchObject({ error: 'bad_factor', attempts_left: 5 - attempt });
    }
    const dead = await h.verify(who, id, { method: 'totp', code: right });
    expect(dead.status).toBe(409);
    expect(dead.body).toMatchObject({ error: 'not_open', status: 'dead' });
    const consumed = await h.consume(key, h.boundOf(opened.body));
    expect(consumed.status).toBe(409);
    expect(consumed.body).toMatchObject({ error: 'not_spendable', status: 'dead' });
    const failed = (await h.eventsOf(who.tenantId)).filter((event) => event.action === 'elevation.failed');
    expect(failed).toHaveLength(5);
    // The test clock stands still: the events share one instant, so they are compared by attempt, not by order.
    const byAttempt = [...failed].sort((a, b) => Number(a.data.attempt) - Number(b.data.attempt));
    expect(byAttempt.map((event) => event.data.attempt)).toEqual([1, 2, 3, 4, 5]);
    expect(byAttempt.map((event) => event.data.dead)).toEqual([false, false, false, false, true]);
    expect(failed.every((event) => event.outcome === 'failure')).toBe(true);
    // The right code was not spent by the dead ask: a fresh elevation takes it.
    const fresh = await h.stepUp(who, payout);
    expect((await h.verify(who, fresh.body.elevation_id, { method: 'totp', code: right })).status).toBe(200);
  });

  it('wrong codes spend the account’s MFA wrong-code budget across elevations: more asks buy no more guesses', async () => {
    const who = await h.person({ totp: true });
    const right = h.codeAt(who.secret!);
    const wrong = right === '000000' ? '111111' : '000000';
    let refused = 0;
    for (let ask = 0; ask < 3; ask++) {
      const opened = await h.stepUp(who, payout);
      for (let attempt = 0; attempt < 4 && refused < 10; attempt++, refused++) {
        expect((await h.verify(who, opened.body.elevation_id, { method: 'totp', code: wrong })).status).toBe(401);
      }
    }
    const fresh = await h.stepUp(who, payout);
    const throttled = await h.verify(who, fresh.body.elevation_id, { method: 'totp', code: wrong });
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get('retry-after')).toBeTruthy();
    // Throttled, not judged: no attempt of the ask was burned and no failure recorded for it.
    const failures = (await h.eventsOf(who.tenantId)).filter(
      (event) => event.action === 'elevation.failed' && event.data.elevation_id === fresh.body.elevation_id,
    );
    expect(failures).toHaveLength(0);
  });

  it('a TOTP step is accepted once across step-ups and sign-ins', async () => {
    const who = await h.person({ totp: true });
    const first = await h.stepUp(who, payout);
    const second = await h.stepUp(who, payout);
    const code = h.codeAt(who.secret!);
    expect((await h.verify(who, first.body.elevation_id, { method: 'totp', code })).status).toBe(200);
    const replayed = await h.verify(who, second.body.elevation_id, { method: 'totp', code });
    expect(replayed.status).toBe(401);
    expect(replayed.body.attempts_left).toBe(4);
    h.nextStep();

    // A code that finished a sign-in's MFA challenge is spent for step-ups too (and the other way round).
    const login = await h.post('/auth/login', undefined, {
      email: who.email,
      password: who.password,
      tenant_slug: who.slug,
    });
    expect(login.body.mfa_required).toBe(true);
    const signInCode = h.codeAt(who.secret!);
    const answered = await h.post('/mfa/challenge', undefined, { mfa_token: login.body.mfa_token, code: signInCode });
    expect(answered.status, answered.text).toBe(200);
    const third = await h.stepUp(who, payout);
    expect((await h.verify(who, third.body.elevation_id, { method: 'totp', code: signInCode })).status).toBe(401);
  });

  it('an expired elevation takes no factor and cannot be spent', async () => {
    const who = await h.person({ totp: true });
    const key = await h.backEndKey(who);
    const opened = await h.stepUp(who, payout);
    expect((await h.verifyTotp(who, opened.body.elevation_id)).status).toBe(200);
    const late = await h.stepUp(who, payout);
    svc.clock.advance(minutes(5));
    expect(
      (await h.verify(who, late.body.elevation_id, { method: 'totp', code: h.codeAt(who.secret!) })).body,
    ).toMatchObject({
      error: 'not_open',
      status: 'expired',
    });
    const consumed = await h.consume(key, h.boundOf(opened.body));
    expect(consumed.status).toBe(409);
    expect(consumed.body).toMatchObject({ error: 'not_spendable', status: 'expired' });
  });
});

describe('consume: the bound details, the session, the caller', () => {
  it('409 fingerprint_mismatch for any bound detail that differs, leaving the elevation spendable', async () => {
    const who = await h.person({ totp: true });
    const other = await h.person({ totp: true });
    const key = await h.backEndKey(who);
    const opened = await h.stepUp(who, payout);
    expect((await h.verifyTotp(who, opened.body.elevation_id)).status).toBe(200);
    const bound = h.boundOf(opened.body);
    const variants = [
      { ...bound, action: 'payout.cancel' },
      { ...bound, context: { ...payout.context, amount_minor: 12_501 } },
      { ...bound, context: { ...payout.context, beneficiary: 'acct-43' } },
      { ...bound, context: { ...payout.context, extra: true } },
      { ...bound, context: undefined },
      { ...bound, sid: other.sid },
      { ...bound, user_id: other.userId },
      { ...bound, sid: bound.sid.toUpperCase() },
    ];
    for (const variant of variants) {
      const res = await h.consume(key, variant);
      expect(res.status, JSON.stringify(variant)).toBe(409);
      expect(res.body.error).toBe('fingerprint_mismatch');
    }
    expect((await h.consume(key, bound)).status).toBe(200);
  });

  it('409 session_gone once the person signed out of the session the elevation was made in', async () => {
    const who = await h.person({ totp: true });
    const key = await h.backEndKey(who);
    const opened = await h.stepUp(who, payout);
    expect((await h.verifyTotp(who, opened.body.elevation_id)).status).toBe(200);
    const out = await h.post('/auth/logout', who.token, {});
    expect(out.status, out.text).toBeLessThan(300);
    const res = await h.consume(key, h.boundOf(opened.body));
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('session_gone');
    expect((await h.eventsOf(who.tenantId)).map((event) => event.action)).not.toContain('elevation.consumed');
  });

  it('is the payment back end’s: a person, a key without payments:verify and no credential are refused', async () => {
    const who = await h.person({ totp: true });
    const opened = await h.stepUp(who, payout);
    expect((await h.verifyTotp(who, opened.body.elevation_id)).status).toBe(200);
    const bound = h.boundOf(opened.body);
    expect((await h.consume(who.token, bound)).status).toBe(403);
    const narrow = await h.backEndKey(who, ['members:read']);
    expect((await h.consume(narrow, bound)).status).toBe(403);
    expect((await h.consume('', bound)).status).toBe(401);
    expect((await h.riskContext(who.token, who.userId, who.sid)).status).toBe(403);
    expect((await h.riskContext(narrow, who.userId, who.sid)).status).toBe(403);
    // Still spendable by the right caller.
    expect((await h.consume(await h.backEndKey(who), bound)).status).toBe(200);
  });

  it('another organization’s elevation is unknown to its keys and people; another session’s too', async () => {
    const who = await h.person({ totp: true });
    const stranger = await h.person({ totp: true });
    const strangerKey = await h.backEndKey(stranger);
    const opened = await h.stepUp(who, payout);
    const id = opened.body.elevation_id as string;
    expect((await h.verify(stranger, id, { method: 'totp', code: h.codeAt(stranger.secret!) })).status).toBe(404);
    expect((await h.options(stranger, id)).status).toBe(404);
    expect((await h.verifyTotp(who, id)).status).toBe(200);
    const res = await h.consume(strangerKey, h.boundOf(opened.body));
    expect(res.status).toBe(404);
    expect((await h.riskContext(strangerKey, who.userId, who.sid)).status).toBe(404);
    // The same person in another session of theirs: not this session's ask.
    const login = await h.post('/auth/login', undefined, {
      email: who.email,
      password: who.password,
      tenant_slug: who.slug,
    });
    const challenge = await h.post('/mfa/challenge', undefined, {
      mfa_token: login.body.mfa_token,
      code: h.codeAt(who.secret!),
    });
    expect(challenge.status, challenge.text).toBe(200);
    h.nextStep();
    const otherSession = { ...who, token: challenge.body.access_token as string };
    expect((await h.options(otherSession, id)).status).toBe(404);
    expect((await h.verify(otherSession, newId(), { method: 'totp', code: '123456' })).status).toBe(404);
    expect((await h.verify(otherSession, 'not-an-id', { method: 'totp', code: '123456' })).status).toBe(404);
    // Unknown ids to the back end too.
    expect((await h.consume(strangerKey, { ...h.boundOf(opened.body), elevation_id: newId() })).status).toBe(404);
  });

  it('two concurrent consumes: exactly one attestation', async () => {
    const who = await h.person({ totp: true });
    const key = await h.backEndKey(who);
    for (let round = 0; round < 3; round++) {
      const opened = await h.stepUp(who, payout);
      expect((await h.verifyTotp(who, opened.body.elevation_id)).status).toBe(200);
      const answers = await Promise.all(Array.from({ length: 4 }, () => h.consume(key, h.boundOf(opened.body))));
      const statuses = answers.map((res) => res.status).sort();
      expect(statuses).toEqual([200, 409, 409, 409]);
      for (const res of answers.filter((answer) => answer.status === 409)) expect(res.body.error).toBe('not_spendable');
    }
    const consumed = (await h.eventsOf(who.tenantId)).filter((event) => event.action === 'elevation.consumed');
    expect(consumed).toHaveLength(3);
  });
});
