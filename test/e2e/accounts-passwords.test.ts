import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIL_PER_ADDRESS } from '../../src/modules/accounts/account-links.js';
import { newDpopKey } from '../support/dpop.js';
import { newAccount, request } from '../support/http.js';
import { addMember } from '../support/organizations.js';
import { startService, type TestService } from '../support/service.js';
import { extractLink, extractToken, startSmtpServer, type TestSmtpServer } from '../support/smtp.js';
import { accountsHarness, expectSilentMailBudget, freshIp, type Pair, shape } from './accounts-support.js';

let svc: TestService;
let closed: TestService;
let smtp: TestSmtpServer;
beforeAll(async () => {
  smtp = await startSmtpServer();
  svc = await startService({ SMTP_URL: smtp.url, TRUST_PROXY: '1', BASE_URL: 'https://id.example.test' });
  closed = await startService({
    SMTP_URL: smtp.url,
    TRUST_PROXY: '1',
    PUBLIC_SIGNUP_ENABLED: 'false',
    PASSWORD_RESET_ENABLED: 'false',
  });
});
afterAll(async () => {
  await svc?.close();
  await closed?.close();
  await smtp?.close();
});

const { api, signUp, logIn, me, refresh, eventsOf, outboxOf } = accountsHarness(() => svc);
const MINUTE = 60_000;

const changePassword = (token: string, json: Record<string, unknown>) =>
  request<Pair>(api('/auth/change-password'), { token, json });

describe('POST /auth/change-password', () => {
  it('answers a fresh pair; every other token of every session stops working; the new password signs in', async () => {
    const { account, slug, tokens, tenantId } = await signUp();
    const other = (await logIn(account, slug)).body;
    const newPassword = `a brand new passphrase ${freshIp()}`;
    const res = await changePassword(tokens.access_token, {
      current_password: account.password,
      new_password: newPassword,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ token_type: 'bearer', refresh_token: expect.any(String) });
    expect((await me(res.body.access_token)).status).toBe(200);
    for (const pair of [tokens, other]) {
      expect((await me(pair.access_token)).status).toBe(401);
      expect((await refresh(pair.refresh_token!)).status).toBe(401);
    }
    expect((await refresh(res.body.refresh_token!)).status).toBe(200);
    expect((await logIn(account, slug)).status).toBe(401);
    expect((await logIn({ ...account, password: newPassword }, slug)).status).toBe(200);
    expect(await eventsOf(tenantId, 'user.password_changed')).toHaveLength(1);
  });

  it('400 for a weak new password, the same password, or a wrong current one; nothing changes', async () => {
    const { account, slug, tokens } = await signUp();
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ current_password: account.password, new_password: 'password1234' }, /common/],
      [{ current_password: account.password, new_password: 'short' }, /at least 12/],
      [{ current_password: account.password, new_password: account.password }, /differ/],
      [{ current_password: 'not my password at all', new_password: 'a brand new passphrase x' }, /incorrect/],
    ];
    for (const [json, detail] of cases) {
      const res = await changePassword(tokens.access_token, json);
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(res.body.detail).toMatch(detail);
    }
    expect((await me(tokens.access_token)).status).toBe(200);
    expect((await logIn(account, slug)).status).toBe(200);
    expect((await request(api('/auth/change-password'), { json: cases[0]![0] })).status).toBe(401);
  });

  it('429 after repeated wrong current passwords (a stolen token is no password oracle)', async () => {
    const { tokens } = await signUp();
    for (let i = 0; i < 5; i++) {
      const res = await changePassword(tokens.access_token, {
        current_password: `wrong password number ${i}`,
        new_password: 'a brand new passphrase y',
      });
      expect(res.status).toBe(400);
    }
    const refused = await changePassword(tokens.access_token, {
      current_password: 'wrong password number x',
      new_password: 'a brand new passphrase y',
    });
    expect(refused.status).toBe(429);
    for (const name of ['retry-after', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']) {
      expect(refused.headers.get(name), name).toMatch(/^\d+$/);
    }
  });
});

describe('POST /auth/forgot-password and /auth/reset-password', () => {
  it('202 alike for known and unknown addresses, with no rate headers; the mailed link resets once', async () => {
    const { account, slug, tokens, tenantId } = await signUp();
    await smtp.waitFor(account.email); // the verification mail
    const known = await request(api('/auth/forgot-password'), { json: { email: account.email } });
    const unknown = await request(api('/auth/forgot-password'), { json: { email: 'nobody-here@example.com' } });
    expect(known.status).toBe(202);
    expect(shape(known)).toEqual(shape(unknown));
    expect([...known.headers.keys()].some((name) => /ratelimit|retry-after/i.test(name))).toBe(false);

    const mail = await smtp.waitFor(account.email);
    expect(mail.subject).toMatch(/reset/i);
    expect(extractLink(mail.text)).toMatch(/^https:\/\/id\.example\.test\/reset-password\?token=/);
    const token = extractToken(mail.text);
    const newPassword = `reset passphrase ${freshIp()}`;

    const weak = await request(api('/auth/reset-password'), { json: { token, new_password: 'password1234' } });
    expect(weak.status).toBe(400);
    const done = await request(api('/auth/reset-password'), { json: { token, new_password: newPassword } });
    expect(done.status).toBe(204);
    // Every token issued before is dead; the old password too; the link is spent.
    expect((await me(tokens.access_token)).status).toBe(401);
    expect((await refresh(tokens.refresh_token!)).status).toBe(401);
    expect((await logIn(account, slug)).status).toBe(401);
    expect((await logIn({ ...account, password: newPassword }, slug)).status).toBe(200);
    const again = await request(api('/auth/reset-password'), { json: { token, new_password: `${newPassword} 2` } });
    expect(again.status).toBe(400);
    expect(await eventsOf(tenantId, 'user.password_reset')).toHaveLength(1);
  });

  it('a reset ends the sessions in every organization of the account; each hears user.sessions_revoked', async () => {
    const first = await signUp();
    await smtp.waitFor(first.account.email);
    const second = await signUp();
    const elsewhere = await addMember(svc, { tenantId: second.tenantId!, slug: second.slug }, 'member', {
      userId: first.userId!,
      email: first.account.email,
      password: first.account.password,
    });
    await request(api('/auth/forgot-password'), { json: { email: first.account.email } });
    const token = extractToken((await smtp.waitFor(first.account.email)).text);
    const reset = await request(api('/auth/reset-password'), {
      json: { token, new_password: `reset everywhere ${freshIp()}` },
    });
    expect(reset.status).toBe(204);
    expect((await me(elsewhere.token)).status).toBe(401);
    for (const tenantId of [first.tenantId!, second.tenantId!]) {
      const revoked = await eventsOf(tenantId, 'user.sessions_revoked');
      expect(revoked.map((e) => e.data)).toEqual([{ user_id: first.userId, reason: 'password_reset' }]);
      expect(await outboxOf(tenantId, 'user.sessions_revoked')).toHaveLength(1);
    }
    // The owner of the second organization is someone else: untouched.
    expect((await me(second.tokens.access_token)).status).toBe(200);
  });

  it('past the silent mail budget the answer stays the same 202 with no rate headers, and no mail leaves', async () => {
    const { account } = await signUp();
    await smtp.waitFor(account.email); // the verification mail
    await expectSilentMailBudget(api('/auth/forgot-password'), account.email, smtp, MAIL_PER_ADDRESS.points, svc);
  });

  it('a reset kills DPoP-bound tokens too, whatever proof comes with them', async () => {
    const key = await newDpopKey();
    const htu = (path: string) => `https://id.example.test/api/v1${path}`;
    const { account, tokens } = await signUp(
      {},
      { dpop: await key.proof('POST', htu('/auth/signup'), { now: svc.clock.now() }) },
    );
    expect(tokens.token_type).toBe('DPoP');
    const meBound = async () =>
      request(api('/me'), {
        headers: {
          authorization: `DPoP ${tokens.access_token}`,
          dpop: await key.proof('GET', htu('/me'), { accessToken: tokens.access_token, now: svc.clock.now() }),
        },
      });
    expect((await meBound()).status).toBe(200);
    await smtp.waitFor(account.email);
    await request(api('/auth/forgot-password'), { json: { email: account.email } });
    const token = extractToken((await smtp.waitFor(account.email)).text);
    const done = await request(api('/auth/reset-password'), { json: { token, new_password: 'a bound reset phrase' } });
    expect(done.status).toBe(204);
    expect((await meBound()).status).toBe(401);
    const refreshed = await request(api('/auth/refresh'), {
      json: { refresh_token: tokens.refresh_token },
      headers: { dpop: await key.proof('POST', htu('/auth/refresh'), { now: svc.clock.now() }) },
    });
    expect(refreshed.status).toBe(401);
  });

  it('the link expires after about 30 minutes; an unknown token is 400', async () => {
    const { account } = await signUp();
    await smtp.waitFor(account.email);
    expect((await request(api('/auth/forgot-password'), { json: { email: account.email } })).status).toBe(202);
    const token = extractToken((await smtp.waitFor(account.email)).text);
    svc.clock.advance(31 * MINUTE);
    try {
      const res = await request(api('/auth/reset-password'), {
        json: { token, new_password: 'a perfectly fine passphrase' },
      });
      expect(res.status).toBe(400);
    } finally {
      svc.clock.advance(-31 * MINUTE);
    }
    const unknown = await request(api('/auth/reset-password'), {
      json: { token: 'nope', new_password: 'a perfectly fine passphrase' },
    });
    expect(unknown.status).toBe(400);
  });

  it('a newer link replaces nothing but a reset spends every outstanding link', async () => {
    const { account } = await signUp();
    await smtp.waitFor(account.email);
    await request(api('/auth/forgot-password'), { json: { email: account.email } });
    const first = extractToken((await smtp.waitFor(account.email)).text);
    await request(api('/auth/forgot-password'), { json: { email: account.email } });
    const second = extractToken((await smtp.waitFor(account.email)).text);
    expect(
      (await request(api('/auth/reset-password'), { json: { token: second, new_password: 'reset passphrase one' } }))
        .status,
    ).toBe(204);
    expect(
      (await request(api('/auth/reset-password'), { json: { token: first, new_password: 'reset passphrase two' } }))
        .status,
    ).toBe(400);
  });
});

describe('deployment switches', () => {
  it('sign-up answers 403 naming the early-access page while PUBLIC_SIGNUP_ENABLED is off', async () => {
    const res = await request(`${closed.url}/api/v1/auth/signup`, { json: newAccount() });
    expect(res.status).toBe(403);
    expect(res.body.detail).toMatch(/early-access/);
  });

  it('forgot-password answers one 403 with a reason for known and unknown addresses; reset is not gated', async () => {
    const owner = newAccount('closed-owner');
    await closed.deps.accounts.bootstrapPlatform({ ...owner, organizationName: owner.organization_name });
    const known = await request(`${closed.url}/api/v1/auth/forgot-password`, {
      json: { email: owner.email },
    });
    const unknown = await request(`${closed.url}/api/v1/auth/forgot-password`, {
      json: { email: 'other@example.com' },
    });
    expect(known.status).toBe(403);
    expect(known.body.detail).toMatch(/reset/i);
    expect(shape(known)).toEqual(shape(unknown));
    // Reset itself stays open (a link issued before the switch still works): an unknown token is 400, not 403.
    const reset = await request(`${closed.url}/api/v1/auth/reset-password`, {
      json: { token: 'whatever', new_password: 'a perfectly fine passphrase' },
    });
    expect(reset.status).toBe(400);
  });
});
