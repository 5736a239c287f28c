import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/kernel/crypto/index.js';
import { rows } from '../../src/kernel/db/index.js';
import { newDpopKey } from '../support/dpop.js';
import { newAccount, request } from '../support/http.js';
import { addMember } from '../support/organizations.js';
import { startService, type TestService } from '../support/service.js';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp.js';
import { accountsHarness, freshIp, type Pair, shape } from './accounts-support.js';

const BASE = 'https://id.example.test';
const STEP = 30_000;
let svc: TestService;
let unprovisioned: TestService;
let smtp: TestSmtpServer;
beforeAll(async () => {
  smtp = await startSmtpServer();
  svc = await startService({
    TRUST_PROXY: '1',
    BASE_URL: BASE,
    SMTP_URL: smtp.url,
    MFA_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
  });
  unprovisioned = await startService({ TRUST_PROXY: '1' });
});
afterAll(async () => {
  await svc?.close();
  await unprovisioned?.close();
  await smtp?.close();
});

const { api, signUp, logIn, db } = accountsHarness(() => svc);
const post = <T = any>(path: string, token: string | undefined, json: unknown = {}) =>
  request<T>(api(path), { token, json });

/** The code an authenticator app shows for `secret` at the service's (test-moved) time. */
const codeAt = (secret: string, offsetMs = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: svc.clock.now().getTime() + offsetMs });
const nextStep = () => svc.clock.advance(STEP);

interface Enrolled {
  account: { email: string; password: string };
  slug: string;
  token: string;
  secret: string;
  recoveryCodes: string[];
  userId: string;
}

/** A new account with TOTP enabled (setup, then a first code), the clock moved past that code's step. */
async function enrolled(): Promise<Enrolled> {
  const { account, slug, tokens, userId } = await signUp();
  const setup = await post('/mfa/setup', tokens.access_token);
  expect(setup.status, setup.text).toBe(200);
  const verify = await post('/mfa/setup/verify', tokens.access_token, { code: codeAt(setup.body.secret) });
  expect(verify.status, verify.text).toBe(200);
  nextStep();
  return {
    account,
    slug,
    token: tokens.access_token,
    secret: setup.body.secret,
    recoveryCodes: setup.body.recovery_codes,
    userId: userId!,
  };
}

async function challengeFor(user: Enrolled): Promise<string> {
  const res = await logIn(user.account, user.slug);
  expect(res.status, res.text).toBe(200);
  expect(res.body).toEqual({ mfa_required: true, mfa_token: expect.any(String) });
  return (res.body as unknown as { mfa_token: string }).mfa_token;
}

const answer = (mfaToken: string, code: string, extra: Record<string, unknown> = {}) =>
  request<Pair>(api('/mfa/challenge'), {
    json: { mfa_token: mfaToken, code, ...extra },
    headers: { 'x-forwarded-for': freshIp() },
  });

const amrOf = async (accessToken: string) => {
  const me = await request(api('/me/sessions'), { token: accessToken });
  const current = me.body.sessions.find((s: { current: boolean }) => s.current);
  const [row] = await rows<{ amr: string[] }>(db(), sql`select amr from sessions where id = ${current.session_id}`);
  return row?.amr;
};

describe('TOTP enrollment (Part A 4.2)', () => {
  it('setup shows the secret, its otpauth URI and 8 recovery codes; only a correct code enables it', async () => {
    const { account, slug, tokens } = await signUp();
    const token = tokens.access_token;
    expect((await request(api('/mfa/status'), { token })).body).toEqual({
      mfa_enabled: false,
      mfa_verified: false,
      mfa_verified_at: null,
      recovery_codes_remaining: 0,
      enrollment_pending: false,
    });
    const setup = await post('/mfa/setup', token);
    expect(setup.status).toBe(200);
    expect(setup.headers.get('cache-control')).toBe('no-store');
    expect(setup.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(setup.body.provisioning_uri);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.searchParams.get('secret')).toBe(setup.body.secret);
    expect(uri.searchParams.get('issuer')).toBe('id.example.test');
    expect(decodeURIComponent(uri.pathname)).toContain(account.email);
    expect(setup.body.recovery_codes).toHaveLength(8);
    expect(new Set(setup.body.recovery_codes).size).toBe(8);
    expect((await request(api('/mfa/status'), { token })).body).toMatchObject({
      mfa_enabled: false,
      enrollment_pending: true,
    });

    // A pending enrollment does not guard sign-in yet.
    expect((await logIn(account, slug)).body.access_token).toEqual(expect.any(String));

    const wrong = await post('/mfa/setup/verify', token, { code: codeAt(setup.body.secret, 10 * STEP) });
    expect(wrong.status).toBe(400);
    expect(wrong.body.detail).toBe('Invalid code');
    const notACode = await post('/mfa/setup/verify', token, { code: setup.body.recovery_codes[0] });
    expect(notACode.status).toBe(400);

    const ok = await post('/mfa/setup/verify', token, { code: codeAt(setup.body.secret) });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      mfa_enabled: true,
      mfa_verified: true,
      enrollment_pending: false,
      recovery_codes_remaining: 8,
    });
    expect(Date.parse(ok.body.mfa_verified_at)).not.toBeNaN();

    expect((await post('/mfa/setup', token)).status).toBe(409);
    expect((await post('/mfa/setup/verify', token, { code: codeAt(setup.body.secret) })).status).toBe(409);
    const mail = await smtp.waitFor((m) => m.to.includes(account.email.toLowerCase()) && /is on/.test(m.subject));
    expect(mail.text).toContain('Two-step verification (TOTP) was turned on');
    expect(mail.text).not.toContain(setup.body.secret);
  });

  it('setup again while pending replaces the secret and the recovery codes', async () => {
    const { tokens } = await signUp();
    const first = await post('/mfa/setup', tokens.access_token);
    const second = await post('/mfa/setup', tokens.access_token);
    expect(second.body.secret).not.toBe(first.body.secret);
    expect(second.body.recovery_codes).not.toContain(first.body.recovery_codes[0]);
    // (Two random secrets share a code once in a million steps.)
    const stale = await post('/mfa/setup/verify', tokens.access_token, { code: codeAt(first.body.secret) });
    expect(stale.status).toBe(400);
    expect((await post('/mfa/setup/verify', tokens.access_token, { code: codeAt(second.body.secret) })).status).toBe(
      200,
    );
  });

  it('verify without a pending enrollment is 409; every MFA route needs a signed-in person', async () => {
    const { tokens } = await signUp();
    expect((await post('/mfa/setup/verify', tokens.access_token, { code: '123456' })).status).toBe(409);
    for (const path of ['/mfa/setup', '/mfa/setup/verify', '/mfa/disable', '/mfa/recovery-codes/regenerate']) {
      expect((await post(path, undefined, { code: '123456' })).status).toBe(401);
    }
    expect((await request(api('/mfa/status'))).status).toBe(401);
  });
});

describe('sign-in with TOTP enrolled', () => {
  it('password login answers a challenge, not tokens; a TOTP code completes it with amr pwd + mfa', async () => {
    const user = await enrolled();
    const mfaToken = await challengeFor(user);
    const res = await answer(mfaToken, codeAt(user.secret));
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ token_type: 'bearer', refresh_token: expect.any(String) });
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await amrOf(res.body.access_token)).toEqual(['pwd', 'mfa']);
    // Single use: the same challenge again (even with a fresh code) is 401.
    nextStep();
    const replay = await answer(mfaToken, codeAt(user.secret));
    expect(replay.status).toBe(401);
    expect(replay.body.detail).toBe('Invalid or expired MFA challenge');
  });

  it('a TOTP code accepted once is refused again within its window; the next step’s code works', async () => {
    const user = await enrolled();
    const code = codeAt(user.secret);
    expect((await answer(await challengeFor(user), code)).status).toBe(200);
    const again = await answer(await challengeFor(user), code);
    expect(again.status).toBe(400);
    expect(again.body.detail).toBe('Invalid code');
    // Still the same 30-second step, a code of an earlier step is refused too.
    expect((await answer(await challengeFor(user), codeAt(user.secret, -STEP))).status).toBe(400);
    nextStep();
    expect((await answer(await challengeFor(user), codeAt(user.secret))).status).toBe(200);
  });

  it('five wrong codes use the challenge up: the sixth answer, even a right one, is 401', async () => {
    const user = await enrolled();
    const mfaToken = await challengeFor(user);
    for (let i = 0; i < 5; i++) {
      const wrong = await answer(mfaToken, codeAt(user.secret, 20 * STEP));
      expect(wrong.status).toBe(400);
    }
    const late = await answer(mfaToken, codeAt(user.secret));
    expect(late.status).toBe(401);
    expect(late.body.detail).toBe('Invalid or expired MFA challenge');
    const [row] = await rows<{ attempts: number; spent: boolean }>(
      db(),
      sql`select attempts, spent_at is not null as spent from mfa_challenges where user_id = ${user.userId}`,
    );
    expect(row).toEqual({ attempts: 5, spent: true });
  });

  it('a challenge expires after about 5 minutes', async () => {
    const user = await enrolled();
    const mfaToken = await challengeFor(user);
    svc.clock.advance(5 * 60_000 + 1000);
    expect((await answer(mfaToken, codeAt(user.secret))).status).toBe(401);
  });

  it('unknown, used, expired and exhausted challenges get one identical 401', async () => {
    const user = await enrolled();
    const used = await challengeFor(user);
    expect((await answer(used, codeAt(user.secret))).status).toBe(200);
    const exhausted = await challengeFor(user);
    for (let i = 0; i < 5; i++) await answer(exhausted, codeAt(user.secret, 20 * STEP));
    const expired = await challengeFor(user);
    svc.clock.advance(5 * 60_000 + 1000);
    nextStep();
    const answers = [
      await answer(randomBytes(32).toString('base64url'), codeAt(user.secret)),
      await answer(used, codeAt(user.secret)),
      await answer(expired, codeAt(user.secret)),
      await answer(exhausted, codeAt(user.secret)),
    ];
    for (const res of answers) expect(shape(res)).toEqual(shape(answers[0]!));
    expect(answers[0]!.status).toBe(401);
    expect(answers[0]!.body).toEqual({ detail: 'Invalid or expired MFA challenge' });
  });

  it('a challenge still works just before 5 minutes', async () => {
    const user = await enrolled();
    const mfaToken = await challengeFor(user);
    svc.clock.advance(4 * 60_000 + 50_000);
    expect((await answer(mfaToken, codeAt(user.secret))).status).toBe(200);
  });

  it('two right answers to one challenge at once: exactly one session starts', async () => {
    const user = await enrolled();
    const mfaToken = await challengeFor(user);
    const [first, second] = await Promise.all([
      answer(mfaToken, user.recoveryCodes[2]!),
      answer(mfaToken, user.recoveryCodes[3]!),
    ]);
    expect([first.status, second.status].sort()).toEqual([200, 401]);
  });

  it('the same TOTP code sent to two challenges at once signs in once', async () => {
    const user = await enrolled();
    const [a, b] = [await challengeFor(user), await challengeFor(user)];
    const code = codeAt(user.secret);
    const [first, second] = await Promise.all([answer(a, code), answer(b, code)]);
    expect([first.status, second.status].sort()).toEqual([200, 400]);
  });

  it('a challenge dies when the account signs out everywhere before it is answered', async () => {
    const user = await enrolled();
    const mfaToken = await challengeFor(user);
    expect((await request(api('/auth/sign-out-all'), { method: 'POST', token: user.token })).status).toBe(204);
    expect((await answer(mfaToken, codeAt(user.secret))).status).toBe(401);
    // Spent, not just refused: it stays dead.
    const [row] = await rows<{ spent: boolean }>(
      db(),
      sql`select spent_at is not null as spent from mfa_challenges where token_hash = ${sha256Hex(mfaToken)}`,
    );
    expect(row?.spent).toBe(true);
  });

  it('a challenge dies when TOTP is turned off before it is answered', async () => {
    const user = await enrolled();
    const mfaToken = await challengeFor(user);
    expect((await post('/mfa/disable', user.token, { code: user.recoveryCodes[0] })).status).toBe(204);
    expect((await answer(mfaToken, codeAt(user.secret))).status).toBe(401);
  });

  it('SSO switched on after the password: the challenge answers 403 for a member, like login', async () => {
    const owner = await signUp();
    const member = await addMember(svc, { tenantId: owner.tenantId!, slug: owner.slug }, 'member');
    const setup = await post('/mfa/setup', member.token);
    expect((await post('/mfa/setup/verify', member.token, { code: codeAt(setup.body.secret) })).status).toBe(200);
    nextStep();
    const login = (await logIn(member, owner.slug)) as unknown as {
      body: { mfa_required: boolean; mfa_token: string };
    };
    expect(login.body.mfa_required).toBe(true);
    await db().execute(sql`update tenants set sso_required = true where id = ${owner.tenantId}`);
    const res = await answer(login.body.mfa_token, codeAt(setup.body.secret));
    expect(res.status).toBe(403);
    expect(res.body.detail).toBe('This organization requires single sign-on');
  });

  it('a recovery code completes a challenge once; the owner is told by mail', async () => {
    const user = await enrolled();
    const code = user.recoveryCodes[0]!;
    const res = await answer(await challengeFor(user), code.toUpperCase());
    expect(res.status, res.text).toBe(200);
    expect(await amrOf(res.body.access_token)).toEqual(['pwd', 'mfa']);
    expect((await answer(await challengeFor(user), code)).status).toBe(400);
    const status = await request(api('/mfa/status'), { token: res.body.access_token });
    expect(status.body.recovery_codes_remaining).toBe(7);
    const mail = await smtp.waitFor(
      (m) => m.to.includes(user.account.email.toLowerCase()) && /recovery/.test(m.subject),
    );
    expect(mail.text).toContain('7 of 8 remain');
    expect(mail.text).not.toContain(code);
  });

  it('use_cookie on the challenge sets the refresh cookie and answers refresh_token null', async () => {
    const user = await enrolled();
    const res = await answer(await challengeFor(user), codeAt(user.secret), { use_cookie: true });
    expect(res.status).toBe(200);
    expect(res.body.refresh_token).toBeNull();
    expect(res.headers.get('set-cookie')).toMatch(/svc_refresh=.+HttpOnly/i);
  });

  it('a DPoP key proven at login binds the tokens; the challenge must use the same key', async () => {
    const user = await enrolled();
    const key = await newDpopKey();
    const proofFor = (path: string) => key.proof('POST', `${BASE}/api/v1${path}`, { now: svc.clock.now() });
    const login = await request(api('/auth/login'), {
      json: { email: user.account.email, password: user.account.password, tenant_slug: user.slug },
      headers: { dpop: await proofFor('/auth/login'), 'x-forwarded-for': freshIp() },
    });
    expect(login.body.mfa_required).toBe(true);
    const other = await newDpopKey();
    const wrongKey = await request<Pair>(api('/mfa/challenge'), {
      json: { mfa_token: login.body.mfa_token, code: codeAt(user.secret) },
      headers: { dpop: await other.proof('POST', `${BASE}/api/v1/mfa/challenge`, { now: svc.clock.now() }) },
    });
    expect(wrongKey.status).toBe(400);
    nextStep();
    // Without a proof the first factor's key still binds the pair.
    const bound = await answer(login.body.mfa_token, codeAt(user.secret));
    expect(bound.status, bound.text).toBe(200);
    expect(bound.body.token_type).toBe('DPoP');
    expect((await request(api('/me'), { token: bound.body.access_token })).status).toBe(401);
  });

  it('repeated wrong codes across challenges are throttled per account with 429 and rate headers', async () => {
    const user = await enrolled();
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof answer>> | undefined;
    for (let i = 0; i < 3 && !statuses.includes(429); i++) {
      const mfaToken = await challengeFor(user);
      for (let j = 0; j < 5; j++) {
        last = await answer(mfaToken, codeAt(user.secret, 40 * STEP));
        statuses.push(last.status);
        if (last.status === 429) break;
      }
    }
    expect(statuses.slice(0, 10).every((s) => s === 400)).toBe(true);
    expect(statuses[10]).toBe(429);
    expect(last!.headers.get('retry-after')).toMatch(/^\d+$/);
    // Throttled: even the right code on a fresh challenge is refused.
    expect((await answer(await challengeFor(user), codeAt(user.secret))).status).toBe(429);
  });
});

describe('turning TOTP off and new recovery codes', () => {
  it('regenerate needs a correct code; the old codes stop working, the new ones work', async () => {
    const user = await enrolled();
    expect((await post('/mfa/recovery-codes/regenerate', user.token, { code: '000000' })).status).toBe(400);
    const fresh = await post('/mfa/recovery-codes/regenerate', user.token, { code: codeAt(user.secret) });
    expect(fresh.status).toBe(200);
    expect(fresh.body.recovery_codes).toHaveLength(8);
    expect(fresh.body.recovery_codes).not.toContain(user.recoveryCodes[0]);
    expect((await answer(await challengeFor(user), user.recoveryCodes[0]!)).status).toBe(400);
    expect((await answer(await challengeFor(user), fresh.body.recovery_codes[0])).status).toBe(200);
  });

  it('disable needs a correct code; afterwards login answers tokens at once; disabling again is 409', async () => {
    const user = await enrolled();
    expect((await post('/mfa/disable', user.token, { code: '000000' })).status).toBe(400);
    expect((await request(api('/mfa/status'), { token: user.token })).body.mfa_enabled).toBe(true);
    const off = await post('/mfa/disable', user.token, { code: user.recoveryCodes[1] });
    expect(off.status).toBe(204);
    expect((await request(api('/mfa/status'), { token: user.token })).body).toMatchObject({
      mfa_enabled: false,
      recovery_codes_remaining: 0,
    });
    const login = await logIn(user.account, user.slug);
    expect(login.body.access_token).toEqual(expect.any(String));
    expect(await amrOf(login.body.access_token)).toEqual(['pwd']);
    expect((await post('/mfa/disable', user.token, { code: codeAt(user.secret) })).status).toBe(409);
    expect((await post('/mfa/recovery-codes/regenerate', user.token, { code: codeAt(user.secret) })).status).toBe(409);
    await smtp.waitFor((m) => m.to.includes(user.account.email.toLowerCase()) && /is off/.test(m.subject));
  });

  it('the secret is stored sealed, never in clear', async () => {
    const user = await enrolled();
    const [row] = await rows<{ secret_sealed: string }>(
      db(),
      sql`select secret_sealed from mfa_totp where user_id = ${user.userId}`,
    );
    expect(row!.secret_sealed).toMatch(/^v1\./);
    expect(row!.secret_sealed).not.toContain(user.secret);
    const [codes] = await rows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from mfa_recovery_codes where user_id = ${user.userId} and code_hash = ${user.recoveryCodes[0]}`,
    );
    expect(codes!.n).toBe(0);
  });
});

describe('without MFA_ENCRYPTION_KEY', () => {
  it('every MFA route answers 503; a challenge too', async () => {
    const { account, tokens } = await signUpOn(unprovisioned);
    const token = tokens.access_token;
    const base = `${unprovisioned.url}/api/v1`;
    const answers = [
      await request(`${base}/mfa/status`, { token }),
      await request(`${base}/mfa/setup`, { token, json: {} }),
      await request(`${base}/mfa/setup/verify`, { token, json: { code: '123456' } }),
      await request(`${base}/mfa/disable`, { token, json: { code: '123456' } }),
      await request(`${base}/mfa/recovery-codes/regenerate`, { token, json: { code: '123456' } }),
      await request(`${base}/mfa/challenge`, { json: { mfa_token: 'x', code: '123456' } }),
    ];
    for (const res of answers) {
      expect(res.status).toBe(503);
      expect(res.body.detail).toMatch(/MFA_ENCRYPTION_KEY/);
    }
    expect(account.email).toContain('@');
  });
});

async function signUpOn(target: TestService) {
  const account = newAccount();
  const res = await request<Pair>(`${target.url}/api/v1/auth/signup`, {
    json: account,
    headers: { 'x-forwarded-for': freshIp() },
  });
  expect(res.status).toBe(201);
  return { account, tokens: res.body };
}
