import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newDpopKey } from '../support/dpop.js';
import { newAccount, request } from '../support/http.js';
import { startService, type TestService } from '../support/service.js';
import { accountsHarness, freshIp, type Pair } from './accounts-support.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startService({ TRUST_PROXY: '1' });
});
afterAll(async () => {
  await svc?.close();
});

const { api, signUp, me, db } = accountsHarness(() => svc);

/** The refresh cookie a response set, with its attributes. */
function refreshCookie(headers: Headers) {
  const cookie = headers.getSetCookie().find((c) => c.startsWith('svc_refresh='));
  if (!cookie) return undefined;
  const [pair, ...attributes] = cookie.split(';').map((part) => part.trim());
  return { value: pair!.slice('svc_refresh='.length), attributes: attributes.map((a) => a.toLowerCase()) };
}

function expectSecureCookie(headers: Headers) {
  const cookie = refreshCookie(headers);
  expect(cookie, 'Set-Cookie svc_refresh').toBeDefined();
  expect(cookie!.value.length).toBeGreaterThan(20);
  expect(cookie!.attributes).toEqual(
    expect.arrayContaining(['httponly', 'secure', 'samesite=strict', 'path=/api/v1/auth']),
  );
  expect(cookie!.attributes.some((a) => /^max-age=\d+$/.test(a))).toBe(true);
  return cookie!.value;
}

function expectCleared(headers: Headers) {
  const cookie = refreshCookie(headers);
  expect(cookie, 'cookie cleared').toBeDefined();
  expect(cookie!.value).toBe('');
  expect(cookie!.attributes).toContain('path=/api/v1/auth');
}

const cookieRefresh = (value: string) =>
  request<Pair>(api('/auth/refresh'), { method: 'POST', headers: { cookie: `svc_refresh=${value}` } });

describe('cookie transport', () => {
  it('sign-up, refresh with an empty body (rotating the cookie), logout clearing it', async () => {
    const { res, tokens } = await signUp({ use_cookie: true });
    expect(tokens.refresh_token).toBeNull();
    const first = expectSecureCookie(res.headers);

    const rotated = await cookieRefresh(first);
    expect(rotated.status).toBe(200);
    expect(rotated.body.refresh_token).toBeNull();
    const second = expectSecureCookie(rotated.headers);
    expect(second).not.toBe(first);
    expect((await me(rotated.body.access_token)).status).toBe(200);

    // The old cookie value replayed: the session ends and the cookie is cleared.
    const replay = await cookieRefresh(first);
    expect(replay.status).toBe(401);
    expectCleared(replay.headers);
    expect((await cookieRefresh(second)).status).toBe(401);

    const fresh = await signUp({ use_cookie: true });
    const out = await request(api('/auth/logout'), { method: 'POST', token: fresh.tokens.access_token });
    expect(out.status).toBe(204);
    expectCleared(out.headers);
    expect((await cookieRefresh(expectSecureCookie(fresh.res.headers))).status).toBe(401);
  });

  it('login, customer sign-up and change-password set the cookie too', async () => {
    const { account, slug, tenantId } = await signUp();
    const login = await request<Pair>(api('/auth/login'), {
      json: { email: account.email, password: account.password, tenant_slug: slug, use_cookie: true },
      headers: { 'x-forwarded-for': freshIp() },
    });
    expect(login.status).toBe(200);
    expect(login.body.refresh_token).toBeNull();
    expectSecureCookie(login.headers);

    const changed = await request<Pair>(api('/auth/change-password'), {
      token: login.body.access_token,
      json: { current_password: account.password, new_password: 'cookie mode passphrase 1', use_cookie: true },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.refresh_token).toBeNull();
    expect((await cookieRefresh(expectSecureCookie(changed.headers))).status).toBe(200);

    await db().execute(
      sql`insert into tenant_settings (tenant_id, key, value, updated_at)
          values (${tenantId}, 'auth.ciam_signup_enabled', 'true'::jsonb, ${new Date()})`,
    );
    const customer = newAccount('customer');
    const res = await request<Pair>(api('/auth/signup/customer'), {
      json: { email: customer.email, password: customer.password, tenant_slug: slug, use_cookie: true },
      headers: { 'x-forwarded-for': freshIp() },
    });
    expect(res.status).toBe(201);
    expect(res.body.refresh_token).toBeNull();
    expectSecureCookie(res.headers);
  });

  it('without use_cookie no cookie is set; an empty refresh without a cookie is 401 and clears nothing harmful', async () => {
    const { res } = await signUp();
    expect(refreshCookie(res.headers)).toBeUndefined();
    const empty = await request(api('/auth/refresh'), { method: 'POST' });
    expect(empty.status).toBe(401);
    expectCleared(empty.headers);
    expect((await cookieRefresh('garbage-value')).status).toBe(401);
  });

  it('use_cookie on a body refresh moves the rotated token to the cookie', async () => {
    const { tokens } = await signUp();
    const moved = await request<Pair>(api('/auth/refresh'), {
      json: { refresh_token: tokens.refresh_token, use_cookie: true },
    });
    expect(moved.status).toBe(200);
    expect(moved.body.refresh_token).toBeNull();
    const cookie = expectSecureCookie(moved.headers);
    const next = await cookieRefresh(cookie);
    expect(next.status).toBe(200);
    expect(next.body.refresh_token).toBeNull();
  });

  it('cookie mode and DPoP together: the cookie refreshes a bound session only with a proof under its key', async () => {
    const key = await newDpopKey();
    const other = await newDpopKey();
    const htu = (path: string) => `${svc.deps.config.baseUrl.replace(/\/$/, '')}/api/v1${path}`;
    const { res } = await signUp(
      { use_cookie: true },
      { dpop: await key.proof('POST', htu('/auth/signup'), { now: svc.clock.now() }) },
    );
    expect(res.body.token_type).toBe('DPoP');
    expect(res.body.refresh_token).toBeNull();
    const cookie = expectSecureCookie(res.headers);
    const withProof = async (signer: typeof key) =>
      request<Pair>(api('/auth/refresh'), {
        method: 'POST',
        headers: {
          cookie: `svc_refresh=${cookie}`,
          dpop: await signer.proof('POST', htu('/auth/refresh'), { now: svc.clock.now() }),
        },
      });
    const wrongKey = await withProof(other);
    expect(wrongKey.status).toBe(401);
    expectCleared(wrongKey.headers);
    expect((await cookieRefresh(cookie)).status).toBe(401);
    const rotated = await withProof(key);
    expect(rotated.status).toBe(200);
    expect(rotated.body).toMatchObject({ token_type: 'DPoP', refresh_token: null });
    expect(expectSecureCookie(rotated.headers)).not.toBe(cookie);
  });

  it('a refused cookie refresh (membership no longer active) clears the cookie', async () => {
    const { res, tenantId, userId } = await signUp({ use_cookie: true });
    await db().execute(
      sql`update memberships set status = 'suspended' where tenant_id = ${tenantId} and user_id = ${userId}`,
    );
    const refused = await cookieRefresh(expectSecureCookie(res.headers));
    expect(refused.status).toBe(401);
    expectCleared(refused.headers);
  });
});
