import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newAccount, request } from '../support/http.js';
import { startSecondNode, startService, type TestService } from '../support/service.js';

let first: TestService;
let second: Awaited<ReturnType<typeof startSecondNode>>;
beforeAll(async () => {
  first = await startService();
  second = await startSecondNode(first);
});
afterAll(async () => {
  await second?.close();
  await first?.close();
});

/** Both nodes have heard every change committed so far. */
const settle = () => Promise.all([first.deps.authState.synced(), second.deps.authState.synced()]);

async function signedIn() {
  const res = await request<{ access_token: string; refresh_token: string }>(`${first.url}/api/v1/auth/signup`, {
    json: newAccount(),
  });
  expect(res.status).toBe(201);
  return res.body;
}

describe('cached session state across nodes', () => {
  it('serves /me from either node, then refuses on the other node once the session ends', async () => {
    const tokens = await signedIn();
    for (let i = 0; i < 3; i++) {
      expect((await request(`${second.url}/api/v1/me`, { token: tokens.access_token })).status).toBe(200);
    }
    expect(second.deps.sessionStateCache.size()).toBeGreaterThan(0);
    expect(
      (await request(`${first.url}/api/v1/auth/logout`, { method: 'POST', token: tokens.access_token })).status,
    ).toBe(204);
    // Same node: refused at once.
    expect((await request(`${first.url}/api/v1/me`, { token: tokens.access_token })).status).toBe(401);
    await settle();
    expect((await request(`${second.url}/api/v1/me`, { token: tokens.access_token })).status).toBe(401);
  });

  it('drops cached state when an operator changes the database directly', async () => {
    const tokens = await signedIn();
    const me = await request<{ tenant_id: string; user_id: string }>(`${second.url}/api/v1/me`, {
      token: tokens.access_token,
    });
    expect(me.status).toBe(200);
    await first.deps.database.db.execute(sql`update users set status = 'disabled' where id = ${me.body.user_id}`);
    await settle();
    expect((await request(`${second.url}/api/v1/me`, { token: tokens.access_token })).status).toBe(401);
    expect((await request(`${first.url}/api/v1/me`, { token: tokens.access_token })).status).toBe(401);
  });

  it('a refresh-token replay on one node ends the session on the other', async () => {
    const tokens = await signedIn();
    expect((await request(`${second.url}/api/v1/me`, { token: tokens.access_token })).status).toBe(200);
    const rotated = await request(`${first.url}/api/v1/auth/refresh`, {
      json: { refresh_token: tokens.refresh_token },
    });
    expect(rotated.status).toBe(200);
    expect(
      (await request(`${first.url}/api/v1/auth/refresh`, { json: { refresh_token: tokens.refresh_token } })).status,
    ).toBe(401);
    await settle();
    expect((await request(`${second.url}/api/v1/me`, { token: tokens.access_token })).status).toBe(401);
  });
});
