import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minutes } from '../../src/kernel/clock.js';
import { addMember } from '../support/organizations.js';
import type { TestService } from '../support/service.js';
import { freshIp, type Person, paymentsHarness, startPayments } from './payments-support.js';

// An attacker's pass over payment step-up (Part B 2.5, 3, 4.7; ARCHITECTURE.md "Payment step-up factors", "SCA
// elevations are bound to ..."): what payments-stepup and payments-sca leave out. Each attack must leave the
// service holding: the refusal of the spec, nothing spent.

let svc: TestService;
beforeAll(async () => {
  svc = await startPayments();
});
afterAll(async () => {
  await svc?.close();
});

const h = paymentsHarness(() => svc);
const tx = { amount_minor: 1000, currency: 'EUR', payee: 'DE89370400440532013000', payee_name: 'Café Müller' };
const passwordNoLongerRecent = () => svc.clock.advance(minutes(5) + 1000);

/** A raw JSON text to a payments route: the number spellings are only in the text. */
const raw = (path: string, token: string, body: string) =>
  fetch(h.api(path), {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-forwarded-for': freshIp() },
    body,
  }).then(async (res) => ({ status: res.status, body: (await res.json()) as Record<string, any> }));

/** A password sign-in of `who` in the organization `slug`, finishing the TOTP challenge: a new session. */
async function signIn(who: Person, slug: string) {
  const login = await h.post(
    '/auth/login',
    undefined,
    { email: who.email, password: who.password, tenant_slug: slug },
    { 'x-forwarded-for': freshIp() },
  );
  expect(login.status, login.text).toBe(200);
  const done = await h.post('/mfa/challenge', undefined, {
    mfa_token: login.body.mfa_token,
    code: h.codeAt(who.secret!),
  });
  expect(done.status, done.text).toBe(200);
  h.nextStep();
  return done.body.access_token as string;
}

/** An SCA elevation of `who` satisfied by TOTP and the recent password sign-in. */
async function satisfiedSca(who: Person, transaction: Record<string, unknown> = tx) {
  const opened = await h.sca(who, transaction);
  expect(opened.status, opened.text).toBe(201);
  const verified = await h.verifyTotp(who, opened.body.elevation_id);
  expect(verified.status, verified.text).toBe(200);
  return opened.body;
}

describe('spend once', () => {
  it('ten concurrent consumes of one SCA elevation: exactly one attestation, then none', async () => {
    const who = await h.person({ totp: true });
    const key = await h.backEndKey(who);
    const elevation = await satisfiedSca(who);
    const answers = await Promise.all(Array.from({ length: 10 }, () => h.consume(key, h.boundOf(elevation))));
    expect(answers.filter((res) => res.status === 200)).toHaveLength(1);
    for (const res of answers.filter((answer) => answer.status !== 200)) {
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ error: 'not_spendable', status: 'spent' });
    }
    expect((await h.consume(key, h.boundOf(elevation))).body).toMatchObject({ error: 'not_spendable' });
    const consumed = (await h.eventsOf(who.tenantId)).filter((event) => event.action === 'elevation.consumed');
    expect(consumed).toHaveLength(1);
  });
});

describe('consume presents exactly what was bound', () => {
  it('another spelling of the amount, another action, another Unicode form: refused, the elevation still spendable', async () => {
    const who = await h.person({ totp: true });
    const key = await h.backEndKey(who);
    const elevation = await satisfiedSca(who);
    const head = `"elevation_id":"${elevation.elevation_id}","user_id":"${who.userId}","sid":"${who.sid}"`;
    const rest = '"currency":"EUR","payee":"DE89370400440532013000","payee_name":"Café Müller"';
    const body = (action: string, amount: string, tail = rest) =>
      `{${head},"action":"${action}","context":{"amount_minor":${amount},${tail}}}`;
    const consume = (text: string) => raw('/payments/elevations/consume', key, text);

    for (const amount of ['1000.0', '1e3', '1000E0', '10000e-1']) {
      const res = await consume(body('payment.sca', amount));
      expect(res.status, amount).toBe(400);
      expect(res.body).toMatchObject({ error: 'float_refused' });
      expect(res.body.detail.startsWith('context.amount_minor:'), res.body.detail).toBe(true);
    }
    const mismatches = [
      body('payment.sca', '"1000"'),
      body('payment.sca', '1001'),
      body('payment.sca', '-1000'),
      body('PAYMENT.SCA', '1000'),
      body('payment.sca.', '1000'),
      body('payout.create', '1000'),
      // The payee name decomposed (NFD): the same letters on screen, not the bound text.
      body('payment.sca', '1000', rest.replace('Café Müller', 'Cafe\u0301 Mu\u0308ller')),
      body('payment.sca', '1000', rest.replace('"EUR"', '"eur"')),
      body('payment.sca', '1000', `${rest},"note":null`),
    ];
    for (const text of mismatches) {
      const res = await consume(text);
      expect(res.status, text).toBe(409);
      expect(res.body.error, text).toBe('fingerprint_mismatch');
    }
    // The bound details, keys reordered and spaced, spend it: nothing above did.
    const spent = await consume(
      `{ "context": {"payee_name":"Café Müller", "payee":"DE89370400440532013000", "currency":"EUR", "amount_minor": 1000 },
         "action":"payment.sca", "sid":"${who.sid}", "user_id":"${who.userId}", "elevation_id":"${elevation.elevation_id}" }`,
    );
    expect(spent.status, JSON.stringify(spent.body)).toBe(200);
    expect(spent.body.transaction).toEqual(tx);
  });
});

describe('another person, session or organization', () => {
  it('a member of the same organization cannot see, prove or have spent another member’s elevation', async () => {
    const who = await h.person({ totp: true });
    const key = await h.backEndKey(who);
    const colleague = await addMember(svc, who, 'admin');
    const opened = await h.sca(who, tx);
    const id = opened.body.elevation_id as string;
    const as = { ...who, token: colleague.token };
    expect((await h.verify(as, id, { method: 'totp', code: h.codeAt(who.secret!) })).status).toBe(404);
    expect((await h.options(as, id)).status).toBe(404);
    // Their probing burned nothing of the ask and spent no code: the owner's current code still verifies.
    const verified = await h.verifyTotp(who, id);
    expect(verified.status, verified.text).toBe(200);
    expect(verified.body.attempts_left).toBe(5);
    // Bound to the person and the session: the colleague's ids, or another session of the same person, do not spend it.
    const secondSid = decodeJwt(await signIn(who, who.slug)).sid as string;
    const bound = h.boundOf(opened.body);
    for (const variant of [
      { ...bound, user_id: colleague.userId },
      { ...bound, sid: secondSid },
    ]) {
      expect((await h.consume(key, variant)).body.error).toBe('fingerprint_mismatch');
    }
    expect((await h.consume(colleague.token, bound)).status).toBe(403);
    expect((await h.consume(key, bound)).status).toBe(200);
  });

  it('the same person in another organization: the elevation is unknown there, to them and to its keys', async () => {
    const who = await h.person({ totp: true });
    const elsewhere = await h.person({ totp: true });
    const elsewhereKey = await h.backEndKey(elsewhere);
    await addMember(svc, elsewhere, 'admin', who); // its sign-in stops at MFA: finished by signIn
    const otherOrgToken = await signIn(who, elsewhere.slug);
    const opened = await h.sca(who, tx);
    const id = opened.body.elevation_id as string;
    const there = { ...who, token: otherOrgToken };
    expect((await h.verify(there, id, { method: 'totp', code: h.codeAt(who.secret!) })).status).toBe(404);
    expect((await h.options(there, id)).status).toBe(404);
    expect((await h.verifyTotp(who, id)).status).toBe(200);
    expect((await h.consume(elsewhereKey, h.boundOf(opened.body))).status).toBe(404);
    expect((await h.consume(await h.backEndKey(who), h.boundOf(opened.body))).status).toBe(200);
  });
});

describe('factor categories', () => {
  it('TOTP twice is possession once; the same code again on the same ask is a bad factor', async () => {
    const who = await h.person({ totp: true });
    const key = await h.backEndKey(who);
    passwordNoLongerRecent();
    const opened = await h.sca(who, tx);
    const id = opened.body.elevation_id as string;
    const first = await h.verifyTotp(who, id);
    expect(first.status, first.text).toBe(403);
    const code = h.codeAt(who.secret!);
    const second = await h.verify(who, id, { method: 'totp', code });
    expect(second.status, second.text).toBe(403);
    expect(second.body).toMatchObject({ error: 'insufficient_factors', categories_proven: ['possession'] });
    const replayed = await h.verify(who, id, { method: 'totp', code });
    expect(replayed.status).toBe(401);
    expect(replayed.body).toMatchObject({ error: 'bad_factor', attempts_left: 4 });
    expect((await h.consume(key, h.boundOf(opened.body))).body).toMatchObject({
      error: 'not_spendable',
      status: 'opened',
    });
  });

  it('a recovery code is no payment factor: a bad factor, and it stays unspent', async () => {
    const who = await h.person({ passkey: true });
    const setup = await h.post('/mfa/setup', who.token, {});
    expect(setup.status, setup.text).toBe(200);
    who.secret = setup.body.secret as string;
    expect((await h.post('/mfa/setup/verify', who.token, { code: h.codeAt(who.secret) })).status).toBe(200);
    h.nextStep();
    const opened = await h.stepUp(who, { action: 'payout.create' });
    const [recovery] = setup.body.recovery_codes as string[];
    const res = await h.verify(who, opened.body.elevation_id, { method: 'totp', code: recovery });
    expect(res.status, res.text).toBe(401);
    expect(res.body).toMatchObject({ error: 'bad_factor', attempts_left: 4 });
    expect((await h.get('/mfa/status', who.token)).body.recovery_codes_remaining).toBe(8);
  });

  it('one TOTP code sent to several asks at once verifies exactly one', async () => {
    const who = await h.person({ totp: true });
    const asks = await Promise.all(Array.from({ length: 6 }, () => h.stepUp(who, { action: 'payout.create' })));
    const code = h.codeAt(who.secret!);
    const answers = await Promise.all(
      asks.map((ask) => h.verify(who, ask.body.elevation_id, { method: 'totp', code })),
    );
    expect(answers.map((res) => res.status).sort()).toEqual([200, 401, 401, 401, 401, 401]);
  });

  it('the password sign-in stops counting 5 minutes after it, and refreshing the tokens does not renew it', async () => {
    const who = await h.person({ totp: true });
    svc.clock.advance(minutes(4));
    const refreshed = await h.post('/auth/refresh', undefined, { refresh_token: who.refresh });
    expect(refreshed.status, refreshed.text).toBe(200);
    svc.clock.advance(minutes(1) + 1000);
    const me = { ...who, token: refreshed.body.access_token as string };
    const opened = await h.sca(me, tx);
    expect(opened.status, opened.text).toBe(201);
    expect(opened.body.sid).toBe(who.sid);
    const totp = await h.verifyTotp(me, opened.body.elevation_id);
    expect(totp.status, totp.text).toBe(403);
    expect(totp.body.categories_proven).toEqual(['possession']);
  });
});

describe('SCA transaction edges', () => {
  it('amounts: the largest exact integer is shown exactly; beyond it, exponents, non-integers and nonsense are refused', async () => {
    const who = await h.person({ totp: true });
    const largest = Number.MAX_SAFE_INTEGER;
    const jpy = await h.sca(who, { ...tx, amount_minor: largest, currency: 'JPY' });
    expect(jpy.status, jpy.text).toBe(201);
    expect(jpy.body.display).toBe('Pay 9,007,199,254,740,991 JPY to Café Müller (payee DE89370400440532013000)');
    const eur = await h.sca(who, { ...tx, amount_minor: largest });
    expect(eur.body.display).toBe('Pay 90,071,992,547,409.91 EUR to Café Müller (payee DE89370400440532013000)');
    const text = (amount: string, currency = 'JPY') =>
      `{"amount_minor":${amount},"currency":"${currency}","payee":"p","payee_name":"n"}`;
    for (const amount of ['9007199254740992', '1e3', '150.00', '-1.5', '1E400']) {
      const res = await raw('/payments/sca/challenge', who.token, text(amount));
      expect(res.status, amount).toBe(400);
      expect(res.body.error, amount).toBe('float_refused');
    }
    for (const amount of ['0', '-0', '-100', 'true', 'null', '"150"', '[150]', '{}']) {
      expect((await raw('/payments/sca/challenge', who.token, text(amount))).status, amount).toBe(422);
    }
    for (const currency of ['EUR ', 'Eur', 'JPY\\u200b', '__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      const res = await raw('/payments/sca/challenge', who.token, text('150', currency));
      expect(res.status, currency).toBe(400);
      expect(res.body.error, currency).toBe('unsupported_currency');
    }
    expect((await raw('/payments/sca/challenge', who.token, text('150', ''))).status).toBe(422);
    expect(await h.elevationsOf(who.userId)).toHaveLength(2);
  });

  it('invisible or line-breaking characters that could disguise the payee in the sentence are refused', async () => {
    const who = await h.person({ totp: true });
    const disguises = ['\u2028', '\u2029', '\u061c', '\u200b', '\u2060', '\ufeff', '\u00ad', '\u{e0041}', '\u0085'];
    for (const hidden of disguises) {
      for (const field of ['payee', 'payee_name'] as const) {
        const res = await h.sca(who, { ...tx, [field]: `${tx[field].slice(0, 4)}${hidden}${tx[field].slice(4)}` });
        expect(res.status, `${field} U+${hidden.codePointAt(0)!.toString(16)}`).toBe(422);
      }
    }
    expect(await h.elevationsOf(who.userId)).toHaveLength(0);
    // Scripts whose names need a zero-width non-joiner or joiner keep them in the payee's name.
    const persian = await h.sca(who, { ...tx, payee_name: 'کتاب\u200cفروشی' });
    expect(persian.status, persian.text).toBe(201);
    expect(persian.body.display).toBe('Pay 10.00 EUR to کتاب\u200cفروشی (payee DE89370400440532013000)');
  });
});
