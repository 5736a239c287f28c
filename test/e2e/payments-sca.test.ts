import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minutes } from '../../src/kernel/clock.js';
import type { TestService } from '../support/service.js';
import { paymentsHarness, startPayments } from './payments-support.js';

// Strong customer authentication (issue 25, Part B 2.5, 3, 4.7; ARCHITECTURE.md "Payment step-up factors"): bound to
// `payment.sca` and the transaction, shown to the payer as one server-rendered sentence, satisfied by two different
// factor categories. Passkey assertions come from the software authenticator; TOTP codes are computed here.

let svc: TestService;
beforeAll(async () => {
  svc = await startPayments();
});
afterAll(async () => {
  await svc?.close();
});

const h = paymentsHarness(() => svc);
const tx = { amount_minor: 123_456, currency: 'EUR', payee: 'DE89370400440532013000', payee_name: 'Acme Ltd' };
/** Past the 5 minutes in which the session's password sign-in counts as the knowledge factor. */
const passwordNoLongerRecent = () => svc.clock.advance(minutes(5) + 1000);

describe('SCA challenge', () => {
  it('binds to payment.sca and the transaction, with the payer’s sentence formatted for the currency', async () => {
    const who = await h.person({ totp: true, passkey: true });
    const res = await h.sca(who, tx);
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      kind: 'sca',
      status: 'opened',
      action: 'payment.sca',
      context: tx,
      methods: ['totp', 'webauthn'],
      categories_required: 2,
      categories_proven: [],
      display: 'Pay 1,234.56 EUR to Acme Ltd (payee DE89370400440532013000)',
    });
    const cases: Array<[number, string, string]> = [
      [1_500, 'JPY', '1,500'],
      [1, 'JPY', '1'],
      [5, 'USD', '0.05'],
      [100, 'GBP', '1.00'],
      [123_456_789, 'SEK', '1,234,567.89'],
      [99_999, 'CHF', '999.99'],
    ];
    for (const [amount, currency, shown] of cases) {
      const opened = await h.sca(who, { ...tx, amount_minor: amount, currency });
      expect(opened.status, opened.text).toBe(201);
      expect(opened.body.display).toBe(`Pay ${shown} ${currency} to Acme Ltd (payee DE89370400440532013000)`);
    }
  });

  it('refuses an unsupported currency with 400 listing the supported set, and bad amounts', async () => {
    const who = await h.person({ totp: true });
    for (const currency of ['XXX', 'eur', 'BTC']) {
      const res = await h.sca(who, { ...tx, currency });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('unsupported_currency');
      expect(res.body.supported_currencies).toEqual(['EUR', 'USD', 'GBP', 'CHF', 'SEK', 'DKK', 'NOK', 'PLN', 'JPY']);
      expect(res.body.detail).toContain('EUR, USD, GBP, CHF, SEK, DKK, NOK, PLN, JPY');
    }
    for (const amount of [0, -5, '100']) expect((await h.sca(who, { ...tx, amount_minor: amount })).status).toBe(422);
    const float = await fetch(h.api('/payments/sca/challenge'), {
      method: 'POST',
      headers: { authorization: `Bearer ${who.token}`, 'content-type': 'application/json' },
      body: '{"amount_minor":100.0,"currency":"EUR","payee":"x","payee_name":"y"}',
    });
    expect(float.status).toBe(400);
    // A bidirectional override could disguise the payee in the sentence; control characters too.
    for (const payee_name of ['Acme\u202eLtd', 'Acme\nLtd', ' Acme']) {
      expect((await h.sca(who, { ...tx, payee_name })).status, JSON.stringify(payee_name)).toBe(422);
    }
    expect((await h.sca(who, { ...tx, extra: 1 })).status).toBe(422);
    expect(await h.elevationsOf(who.userId)).toHaveLength(0);
    const nothing = await h.person();
    expect((await h.sca(nothing, tx)).body.error).toBe('no_factor');
  });
});

describe('SCA factors: two different categories', () => {
  it('passes with TOTP (possession) and a password sign-in within 5 minutes (knowledge); the attestation carries both', async () => {
    const who = await h.person({ totp: true });
    const key = await h.backEndKey(who);
    const opened = await h.sca(who, tx);
    const verified = await h.verifyTotp(who, opened.body.elevation_id);
    expect(verified.status, verified.text).toBe(200);
    expect(verified.body).toMatchObject({ status: 'satisfied', categories_proven: ['knowledge', 'possession'] });
    const spent = await h.consume(key, h.boundOf(opened.body));
    expect(spent.status, spent.text).toBe(200);
    expect(spent.body).toMatchObject({
      kind: 'sca',
      action: 'payment.sca',
      transaction: tx,
      display: opened.body.display,
      factor_categories: ['knowledge', 'possession'],
      methods: ['totp', 'password'],
    });
    const { payload } = await h.verifyAttestation(spent.body.attestation);
    expect(payload).toMatchObject({
      transaction: tx,
      display: 'Pay 1,234.56 EUR to Acme Ltd (payee DE89370400440532013000)',
      factor_categories: ['knowledge', 'possession'],
      jti: opened.body.elevation_id,
    });
  });

  it('403 insufficient_factors with one category (TOTP, then a passkey without user verification: possession twice)', async () => {
    const who = await h.person({ totp: true, passkey: true });
    const key = await h.backEndKey(who);
    passwordNoLongerRecent();
    const opened = await h.sca(who, tx);
    const id = opened.body.elevation_id as string;
    const totp = await h.verifyTotp(who, id);
    expect(totp.status, totp.text).toBe(403);
    expect(totp.body).toMatchObject({ error: 'insufficient_factors', categories_proven: ['possession'] });
    const unverified = await h.verifyPasskey(who, id, { userVerified: false });
    expect(unverified.status, unverified.text).toBe(403);
    expect(unverified.body).toMatchObject({ error: 'insufficient_factors', categories_proven: ['possession'] });
    // Not spendable: SCA is not reached.
    expect((await h.consume(key, h.boundOf(opened.body))).body).toMatchObject({
      error: 'not_spendable',
      status: 'opened',
    });
    // A user-verified passkey adds inherence: two categories.
    const uv = await h.verifyPasskey(who, id);
    expect(uv.status, uv.text).toBe(200);
    expect(uv.body).toMatchObject({ status: 'satisfied', categories_proven: ['possession', 'inherence'] });
    const spent = await h.consume(key, h.boundOf(opened.body));
    expect(spent.status, spent.text).toBe(200);
    expect(spent.body.factor_categories).toEqual(['possession', 'inherence']);
    expect(spent.body.methods).toEqual(['totp', 'webauthn']);
    const actions = (await h.eventsOf(who.tenantId)).map((event) => event.action);
    expect(actions.filter((action) => action === 'elevation.factor_accepted')).toHaveLength(2);
    expect(actions).toContain('elevation.verified');
  });

  it('a user-verified passkey alone is two categories; a plain step-up needs one factor', async () => {
    const who = await h.person({ passkey: true });
    passwordNoLongerRecent();
    const opened = await h.sca(who, tx);
    expect(opened.body.methods).toEqual(['webauthn']);
    const res = await h.verifyPasskey(who, opened.body.elevation_id);
    expect(res.status, res.text).toBe(200);
    expect(res.body.categories_proven).toEqual(['possession', 'inherence']);
    const step = await h.stepUp(who, { action: 'payout.create' });
    const plain = await h.verifyPasskey(who, step.body.elevation_id, { userVerified: false });
    expect(plain.status, plain.text).toBe(200);
    expect(plain.body.categories_proven).toEqual(['possession']);
  });

  it('the passkey challenge is bound to its ask: the transaction is in it; another ask’s or a replayed one fails', async () => {
    const who = await h.person({ totp: true, passkey: true });
    passwordNoLongerRecent();
    const first = await h.sca(who, tx);
    const second = await h.sca(who, { ...tx, amount_minor: 1 });
    const options = await h.options(who, first.body.elevation_id);
    expect(options.status, options.text).toBe(200);
    expect(options.body).toMatchObject({ rpId: 'pay.example.test', userVerification: 'required' });
    expect(options.body.allowCredentials).toHaveLength(1);
    // The challenge: 16 random bytes, then the SHA-256 of the ask's binding (its id and fingerprint).
    const challenge = Buffer.from(options.body.challenge, 'base64url');
    expect(challenge).toHaveLength(48);
    const binding = createHash('sha256')
      .update(
        JSON.stringify({
          body: first.body.fingerprint,
          method: 'POST',
          params: { id: first.body.elevation_id },
          route: 'elevation',
        }),
      )
      .digest();
    expect(challenge.subarray(16).equals(binding)).toBe(true);

    // Answered on the other ask: refused (that ask has no such challenge), an attempt burned there.
    const assertion = who.authenticator!.getAssertion(options.body);
    const elsewhere = await h.verify(who, second.body.elevation_id, {
      method: 'webauthn',
      credential: assertion,
      credential_raw_id: assertion.rawId,
    });
    expect(elsewhere.status).toBe(401);
    expect(elsewhere.body.attempts_left).toBe(4);
    // The other ask's own options do not accept the first ask's challenge either.
    await h.options(who, second.body.elevation_id);
    const crossed = await h.verify(who, second.body.elevation_id, {
      method: 'webauthn',
      credential: assertion,
      credential_raw_id: assertion.rawId,
    });
    expect(crossed.status).toBe(401);

    // On its own ask it verifies once; replayed (same challenge) it is a bad factor.
    const good = await h.verify(who, first.body.elevation_id, {
      method: 'webauthn',
      credential: assertion,
      credential_raw_id: assertion.rawId,
    });
    expect(good.status, good.text).toBe(200);
    const third = await h.sca(who, tx);
    await h.options(who, third.body.elevation_id);
    const replayed = await h.verify(who, third.body.elevation_id, {
      method: 'webauthn',
      credential: assertion,
      credential_raw_id: assertion.rawId,
    });
    expect(replayed.status).toBe(401);
    // A mismatched raw id, a bad signature and an assertion without options are bad factors too.
    const o = await h.options(who, third.body.elevation_id);
    const a = who.authenticator!.getAssertion(o.body);
    expect(
      (await h.verify(who, third.body.elevation_id, { method: 'webauthn', credential: a, credential_raw_id: 'AAAA' }))
        .status,
    ).toBe(401);
    const o2 = await h.options(who, third.body.elevation_id);
    const bad = who.authenticator!.getAssertion(o2.body, { badSignature: true });
    expect(
      (
        await h.verify(who, third.body.elevation_id, {
          method: 'webauthn',
          credential: bad,
          credential_raw_id: bad.rawId,
        })
      ).status,
    ).toBe(401);
    const stale = who.authenticator!.getAssertion(o2.body);
    const dead = await h.verify(who, third.body.elevation_id, {
      method: 'webauthn',
      credential: stale,
      credential_raw_id: stale.rawId,
    });
    expect(dead.status).toBe(401);
    expect(dead.body.attempts_left).toBe(1);
    const last = await h.verify(who, third.body.elevation_id, { method: 'totp', code: 'abcdef' });
    expect(last.status).toBe(401);
    expect(last.body.attempts_left).toBe(0);
    expect((await h.options(who, third.body.elevation_id)).body).toMatchObject({ error: 'not_open', status: 'dead' });
  });

  it('a consume with another amount or payee than the one shown is a fingerprint mismatch', async () => {
    const who = await h.person({ totp: true });
    const key = await h.backEndKey(who);
    const opened = await h.sca(who, tx);
    expect((await h.verifyTotp(who, opened.body.elevation_id)).status).toBe(200);
    const bound = h.boundOf(opened.body);
    for (const context of [
      { ...tx, amount_minor: 123_457 },
      { ...tx, currency: 'USD' },
      { ...tx, payee: 'FR7630006000011234567890189' },
      { ...tx, payee_name: 'Acme Ltd.' },
    ]) {
      expect((await h.consume(key, { ...bound, context })).body.error).toBe('fingerprint_mismatch');
    }
    expect((await h.consume(key, { ...bound, action: 'payout.create' })).body.error).toBe('fingerprint_mismatch');
    expect((await h.consume(key, bound)).status).toBe(200);
  });
});
