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

async function signUp() {
  const account = newAccount();
  const res = await request(api('/auth/signup'), { json: account });
  expect(res.status).toBe(201);
  return { account, tokens: res.body as { access_token: string; refresh_token: string } };
}

describe('sign up, sign in, refresh, sign out, /me', () => {
  it('signs up an owner and answers /me from the database', async () => {
    const { tokens, account } = await signUp();
    expect(tokens.refresh_token).toEqual(expect.any(String));
    const me = await request(api('/me'), { token: tokens.access_token });
    expect(me.status).toBe(200);
    expect(me.body).toEqual({
      user_id: expect.any(String),
      tenant_id: expect.any(String),
      role: 'owner',
      is_owner: true,
      tenant_isolation: 'pooled',
      population: 'workforce',
      email_verified: false,
    });
    const slug = account.organization_name.toLowerCase().replace(/ /g, '-');
    const login = await request(api('/auth/login'), {
      json: { email: account.email, password: account.password, tenant_slug: slug },
    });
    expect(login.status).toBe(200);
    expect(login.body.token_type).toBe('bearer');
  });
});
