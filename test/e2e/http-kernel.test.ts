import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newAccount, request } from '../support/http.js';
import { startService, type TestService } from '../support/service.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => {
  await svc?.close();
});

const api = (path: string) => `${svc.url}/api/v1${path}`;
const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('request edge', () => {
  it('refuses a body of 1 MB + 1 byte with 413 before parsing it', async () => {
    const body = JSON.stringify({
      email: 'a@example.com',
      password: 'p'.repeat(1_000_001 - 40),
      organization_name: 'x',
    });
    const padded = body.length > 1_000_001 ? body.slice(0, 1_000_001) : body.padEnd(1_000_001, ' ');
    expect(Buffer.byteLength(padded)).toBe(1_000_001);
    const res = await request(api('/auth/signup'), { body: padded });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ detail: 'Request body exceeds 1 MB' });
  });

  it('accepts a body of exactly 1 MB (then validates it)', async () => {
    const res = await request(api('/auth/login'), { body: '{}'.padEnd(1_000_000, ' ') });
    expect(res.status).toBe(422);
  });

  it('refuses JSON nested 33 deep with 400, accepts 32', async () => {
    // An object holding 32 nested arrays is 33 levels deep.
    const deep = await request(api('/auth/login'), { body: `{"email":${nested(32)}}` });
    expect(deep.status).toBe(400);
    expect(deep.body.detail).toMatch(/nested deeper than 32/);
    const ok = await request(api('/auth/login'), { body: `{"email":${nested(31)}}` });
    expect(ok.status).toBe(422);
  });

  it('does not count brackets inside strings as nesting', async () => {
    const res = await request(api('/auth/login'), { json: { email: '['.repeat(40), password: 'x', tenant_slug: 'y' } });
    expect(res.status).toBe(422);
    expect(res.body.detail).toMatch(/^email/);
  });

  it('answers malformed JSON with 400 and prototype pollution attempts with 400', async () => {
    expect((await request(api('/auth/login'), { body: '{"email": ' })).status).toBe(400);
    const proto = await request(api('/auth/login'), { body: '{"__proto__": {"admin": true}}' });
    expect(proto.status).toBe(400);
  });

  it('validates JSON bodies strictly (no "true" for true, no number for a string) but coerces query strings', async () => {
    const account = newAccount('strict');
    const signUp = await request(api('/auth/signup'), { json: account });
    expect(signUp.status).toBe(201);
    const slug = account.organization_name.toLowerCase().replace(/ /g, '-');
    const login = { email: account.email, password: account.password, tenant_slug: slug };
    const textBoolean = await request(api('/auth/login'), { json: { ...login, use_cookie: 'true' } });
    expect(textBoolean.status).toBe(422);
    expect(textBoolean.body.detail).toMatch(/use_cookie/);
    const numberName = await request(api('/me/profile'), {
      method: 'PATCH',
      token: signUp.body.access_token,
      json: { given_name: 42 },
    });
    expect(numberName.status).toBe(422);
    expect(numberName.body.detail).toMatch(/given_name/);
    const activity = await request(api('/me/activity?limit=5'), { token: signUp.body.access_token });
    expect(activity.status).toBe(200);
  });

  it('answers unknown paths with a JSON 404', async () => {
    const res = await request(api('/no/such/thing'));
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(res.body).toEqual({ detail: 'Not found' });
  });

  it('answers an unknown path 404 whatever its body, without reading it', async () => {
    const big = await request(api('/no/such/thing'), { body: ' '.repeat(2_000_000) });
    expect(big.status).toBe(404);
    expect(big.body).toEqual({ detail: 'Not found' });
    const malformed = await request(api('/no/such/thing'), { body: '{"x":' });
    expect(malformed.status).toBe(404);
  });

  it('sets security headers and a request id on every answer', async () => {
    const res = await request(api('/authz/catalog'));
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const echoed = await request(api('/authz/catalog'), { headers: { 'x-request-id': 'trace-12345678' } });
    expect(echoed.headers.get('x-request-id')).toBe('trace-12345678');
    // An unknown path too: a dormant surface's 404 must look exactly like it, headers included.
    const unknown = await request(api('/no/such/thing'));
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('x-content-type-options')).toBe('nosniff');
    expect(unknown.headers.get('content-security-policy')).toBe(res.headers.get('content-security-policy'));
  });
});

describe('throttling', () => {
  it('throttles repeated failed sign-ins per account with 429 and the rate-limit headers', async () => {
    const account = newAccount();
    expect((await request(api('/auth/signup'), { json: account })).status).toBe(201);
    const slug = account.organization_name.toLowerCase().replace(/ /g, '-');
    const attempt = (password: string) =>
      request(api('/auth/login'), { json: { email: account.email, password, tenant_slug: slug } });
    for (let i = 0; i < 10; i++) expect((await attempt('wrong password 123')).status).toBe(401);
    const throttled = await attempt(account.password);
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(throttled.headers.get('ratelimit-limit')).toBe('10');
    expect(throttled.headers.get('ratelimit-remaining')).toBe('0');
    expect(Number(throttled.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
    // Another account from the same address is not held back by this one's failures.
    const other = newAccount();
    expect((await request(api('/auth/signup'), { json: other })).status).toBe(201);
    const otherLogin = await request(api('/auth/login'), {
      json: {
        email: other.email,
        password: other.password,
        tenant_slug: other.organization_name.toLowerCase().replace(/ /g, '-'),
      },
    });
    expect(otherLogin.status).toBe(200);
  });

  it('a successful sign-in clears the account counter', async () => {
    const account = newAccount();
    expect((await request(api('/auth/signup'), { json: account })).status).toBe(201);
    const slug = account.organization_name.toLowerCase().replace(/ /g, '-');
    const attempt = (password: string) =>
      request(api('/auth/login'), { json: { email: account.email, password, tenant_slug: slug } });
    for (let i = 0; i < 9; i++) expect((await attempt('wrong password 123')).status).toBe(401);
    expect((await attempt(account.password)).status).toBe(200);
    for (let i = 0; i < 9; i++) expect((await attempt('wrong password 123')).status).toBe(401);
    expect((await attempt(account.password)).status).toBe(200);
  });
});

describe('rate-limit store failure', () => {
  it('fails closed: 429 with only a short fixed Retry-After when the store cannot answer', async () => {
    const broken = await startService({ REDIS_URL: 'redis://127.0.0.1:1' });
    try {
      const res = await request(`${broken.url}/api/v1/auth/login`, {
        json: { email: 'someone@example.com', password: 'whatever password', tenant_slug: 'any' },
      });
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toBe('5');
      expect(res.headers.get('ratelimit-limit')).toBeNull();
      expect(res.headers.get('ratelimit-remaining')).toBeNull();
      expect(res.headers.get('ratelimit-reset')).toBeNull();
    } finally {
      await broken.close();
    }
  });
});

describe('sign-up switch', () => {
  it('answers 403 naming the early-access page while PUBLIC_SIGNUP_ENABLED is off', async () => {
    const closed = await startService({ PUBLIC_SIGNUP_ENABLED: 'false' });
    try {
      const res = await request(`${closed.url}/api/v1/auth/signup`, { json: newAccount() });
      expect(res.status).toBe(403);
      expect(res.body.detail).toContain('/api/v1/early-access');
    } finally {
      await closed.close();
    }
  });
});
