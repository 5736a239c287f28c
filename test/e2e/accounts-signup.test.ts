import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIL_PER_ADDRESS } from '../../src/modules/accounts/account-links.js';
import { newAccount, request } from '../support/http.js';
import { startService, type TestService } from '../support/service.js';
import { extractLink, extractToken, startSmtpServer, type TestSmtpServer } from '../support/smtp.js';
import { accountsHarness, expectSilentMailBudget, freshIp, type Pair, shape } from './accounts-support.js';

let svc: TestService;
let smtp: TestSmtpServer;
beforeAll(async () => {
  smtp = await startSmtpServer();
  svc = await startService({ SMTP_URL: smtp.url, TRUST_PROXY: '1', BASE_URL: 'https://id.example.test' });
});
afterAll(async () => {
  await svc?.close();
  await smtp?.close();
});

const { api, signUp, me, refresh, db, eventsOf, outboxOf } = accountsHarness(() => svc);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

async function withClock<T>(ms: number, work: () => Promise<T>): Promise<T> {
  svc.clock.advance(ms);
  try {
    return await work();
  } finally {
    svc.clock.advance(-ms);
  }
}

const verify = (token: string) => request(api('/auth/verify-email'), { json: { token } });

async function enableCustomerSignup(tenantId: string) {
  await db().execute(
    sql`insert into tenant_settings (tenant_id, key, value, updated_at)
        values (${tenantId}, 'auth.ciam_signup_enabled', 'true'::jsonb, ${new Date()})`,
  );
}

describe('email verification', () => {
  it('sign-up mails a working 48-hour link over SMTP; it verifies once and emits user.email_verified', async () => {
    const { account, tokens, tenantId, userId } = await signUp();
    const mail = await smtp.waitFor(account.email);
    const link = extractLink(mail.text);
    expect(link.startsWith('https://id.example.test/verify-email?token=')).toBe(true);
    expect((await me(tokens.access_token!)).body.email_verified).toBe(false);

    const first = await verify(extractToken(mail.text));
    expect(first.status).toBe(204);
    expect((await me(tokens.access_token!)).body.email_verified).toBe(true);
    const again = await verify(extractToken(mail.text));
    expect(again.status).toBe(400);

    expect(await eventsOf(tenantId, 'user.email_verified')).toEqual([
      expect.objectContaining({ data: { user_id: userId }, subject_user_id: userId }),
    ]);
    expect((await outboxOf(tenantId, 'user.email_verified'))[0]!.payload.data).toEqual({ user_id: userId });
  });

  it('refuses an expired link (past 48 hours), an unknown one, and a missing token', async () => {
    const { account } = await signUp();
    const token = extractToken((await smtp.waitFor(account.email)).text);
    expect((await withClock(48 * HOUR + 60_000, () => verify(token))).status).toBe(400);
    expect((await verify('not-a-token')).status).toBe(400);
    const missing = await request(api('/auth/verify-email'), { json: {} });
    expect(missing.status).toBe(422);
    expect(missing.body.detail).toMatch(/^token/);
    // Still valid just before its end.
    expect((await withClock(47 * HOUR, () => verify(token))).status).toBe(204);
  });

  it('resend-verification answers 202 alike for known and unknown addresses; the new link works', async () => {
    const { account, tokens } = await signUp();
    await smtp.waitFor(account.email);
    const known = await request(api('/auth/resend-verification'), { json: { email: account.email } });
    const unknown = await request(api('/auth/resend-verification'), {
      json: { email: `nobody-${freshIp()}@example.com` },
    });
    expect(known.status).toBe(202);
    expect(shape(known)).toEqual(shape(unknown));
    expect(known.body).toEqual({ status: 'accepted' });
    const resent = await smtp.waitFor(account.email);
    expect((await verify(extractToken(resent.text))).status).toBe(204);
    expect((await me(tokens.access_token!)).body.email_verified).toBe(true);
  });
  it('resend-verification stays the same 202 with no rate headers past its silent budget', async () => {
    const { account } = await signUp();
    await smtp.waitFor(account.email); // the verification mail
    await expectSilentMailBudget(api('/auth/resend-verification'), account.email, smtp, MAIL_PER_ADDRESS.points, svc);
  });
});

describe('POST /auth/signup/customer', () => {
  it('answers one generic 403 for an unknown organization and one that takes no customers', async () => {
    const { slug } = await signUp();
    const closed = await request(api('/auth/signup/customer'), {
      json: { ...newAccount(), tenant_slug: slug },
      headers: { 'x-forwarded-for': freshIp() },
    });
    const unknown = await request(api('/auth/signup/customer'), {
      json: { ...newAccount(), tenant_slug: 'no-such-organization' },
      headers: { 'x-forwarded-for': freshIp() },
    });
    expect(closed.status).toBe(403);
    expect(shape(closed)).toEqual(shape(unknown));
  });

  it('registers a customer with a session and a verification mail once the organization allows it', async () => {
    const owner = await signUp();
    await enableCustomerSignup(owner.tenantId);
    const customer = newAccount('customer');
    const res = await request<Pair>(api('/auth/signup/customer'), {
      json: { email: customer.email, password: customer.password, tenant_slug: owner.slug },
      headers: { 'x-forwarded-for': freshIp() },
    });
    expect(res.status).toBe(201);
    expect(res.body.token_type).toBe('bearer');
    const who = await me(res.body.access_token);
    expect(who.body).toMatchObject({
      tenant_id: owner.tenantId,
      role: 'customer',
      is_owner: false,
      population: 'customer',
      email_verified: false,
    });
    const mail = await smtp.waitFor(customer.email);
    expect((await verify(extractToken(mail.text))).status).toBe(204);
    const signedUp = await eventsOf(owner.tenantId, 'user.signed_up');
    expect(signedUp.at(-1)!.data).toMatchObject({ population: 'customer' });

    // Customers' refresh tokens live 30 days (a workforce one would be dead after 7).
    const later = await withClock(20 * DAY, () => refresh(res.body.refresh_token!));
    expect(later.status).toBe(200);
    expect((await withClock(20 * DAY + 31 * DAY, () => refresh(later.body.refresh_token!))).status).toBe(401);
  });

  it('409 for a registered address, 400 for a weak password, 422 naming a missing field', async () => {
    const owner = await signUp();
    await enableCustomerSignup(owner.tenantId);
    const ip = { 'x-forwarded-for': freshIp() };
    const taken = await request(api('/auth/signup/customer'), {
      json: { email: owner.account.email, password: 'another long password 42', tenant_slug: owner.slug },
      headers: ip,
    });
    expect(taken.status).toBe(409);
    const weak = await request(api('/auth/signup/customer'), {
      json: { email: newAccount().email, password: 'password1234', tenant_slug: owner.slug },
      headers: ip,
    });
    expect(weak.status).toBe(400);
    expect(weak.body.detail).toMatch(/password/i);
    const missing = await request(api('/auth/signup/customer'), {
      json: { email: newAccount().email, password: 'a fine long password 42' },
      headers: ip,
    });
    expect(missing.status).toBe(422);
    expect(missing.body.detail).toMatch(/^tenant_slug/);
  });

  it('shares its per-IP budget with /auth/signup: 429 with the rate headers once spent', async () => {
    const ip = { 'x-forwarded-for': freshIp() };
    for (let i = 0; i < 20; i++) {
      const res = await request(api('/auth/signup/customer'), {
        json: { ...newAccount(), tenant_slug: 'no-such-organization' },
        headers: ip,
      });
      expect(res.status).toBe(403);
    }
    const refused = await request(api('/auth/signup'), { json: newAccount(), headers: ip });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(refused.headers.get('ratelimit-limit')).toBe('20');
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    expect(refused.headers.get('ratelimit-reset')).toMatch(/^\d+$/);
    // Another address is unaffected.
    expect(
      (await request(api('/auth/signup'), { json: newAccount(), headers: { 'x-forwarded-for': freshIp() } })).status,
    ).toBe(201);
  });
});
