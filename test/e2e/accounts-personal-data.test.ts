import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/kernel/db/index.js';
import { request } from '../support/http.js';
import { startService, type TestService } from '../support/service.js';
import { accountsHarness, freshIp, type Pair } from './accounts-support.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startService({ TRUST_PROXY: '1' });
});
afterAll(async () => {
  await svc?.close();
});

const { api, signUp, me, refresh, db } = accountsHarness(() => svc);
const contributor = () => svc.deps.personalData.contributors().find((c) => c.name === 'account')!;
const userRow = (id: string) =>
  rows<Record<string, unknown>>(
    db(),
    sql`select email, name, password_hash, status, token_epoch from users where id = ${id}`,
  );

describe('personal data of the account (privacy contributor)', () => {
  it('is registered for users, sessions and refresh tokens', () => {
    expect(contributor().tables).toEqual(expect.arrayContaining(['users', 'sessions', 'refresh_tokens']));
  });

  it('exports the profile and the sessions in this organization, never the password hash', async () => {
    const { account, tenantId, userId, tokens } = await signUp();
    await request(api('/me/profile'), { method: 'PATCH', token: tokens.access_token, json: { name: 'Ada' } });
    const exported = (await svc.deps.transactions.tenant(tenantId, (tx) =>
      contributor().export(tx, tenantId, userId),
    )) as { profile: Record<string, unknown>; sessions: unknown[] };
    expect(exported.profile).toMatchObject({ user_id: userId, email: account.email, name: 'Ada' });
    expect(exported.sessions).toHaveLength(1);
    expect(JSON.stringify(exported)).not.toMatch(/argon2|password_hash/);
  });

  it('erase ends and deletes the sessions and scrubs an account that belongs nowhere else', async () => {
    const { tenantId, userId, tokens } = await signUp();
    const before = (await userRow(userId))[0]!;
    await svc.deps.transactions.tenant(tenantId, (tx) => contributor().erase(tx, tenantId, userId));
    expect((await me(tokens.access_token)).status).toBe(401);
    expect((await refresh(tokens.refresh_token!)).status).toBe(401);
    expect(await rows(db(), sql`select id from sessions where user_id = ${userId}`)).toEqual([]);
    expect((await userRow(userId))[0]).toEqual({
      email: `erased-${userId}@erased.invalid`,
      name: null,
      password_hash: null,
      status: 'disabled',
      token_epoch: (before.token_epoch as number) + 1,
    });
  });

  it('keeps the account when another organization still has a membership of it', async () => {
    const home = await signUp();
    const other = await signUp();
    await db().execute(
      sql`insert into tenant_settings (tenant_id, key, value, updated_at)
          values (${other.tenantId}, 'auth.ciam_signup_enabled', 'true'::jsonb, ${new Date()})`,
    );
    // The same person as a customer of another organization: accounts are global, so the sign-up is 409;
    // add the membership directly (membership management belongs to the organizations module).
    await db().execute(
      sql`insert into memberships (id, tenant_id, user_id, role, population, status, created_at)
          values (gen_random_uuid(), ${other.tenantId}, ${home.userId}, 'customer', 'customer', 'active', ${new Date()})`,
    );
    const elsewhere = await request<Pair>(api('/auth/login'), {
      json: { email: home.account.email, password: home.account.password, tenant_slug: other.slug },
      headers: { 'x-forwarded-for': freshIp() },
    });
    expect(elsewhere.status).toBe(200);
    await svc.deps.transactions.tenant(home.tenantId, (tx) => contributor().erase(tx, home.tenantId, home.userId));
    expect((await me(home.tokens.access_token)).status).toBe(401);
    expect((await userRow(home.userId))[0]).toMatchObject({ email: home.account.email, status: 'active' });
    expect((await me(elsewhere.body.access_token)).status).toBe(200);
  });
});
