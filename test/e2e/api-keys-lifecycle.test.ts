import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, createDeps, type Deps } from '../../src/app.js';
import { days } from '../../src/kernel/clock.js';
import { rows } from '../../src/kernel/db/index.js';
import { issueKey } from '../../src/modules/api-keys/format.js';
import { newAccount, request } from '../support/http.js';
import { changeDirectly, startSecondNode, startService, type TestService } from '../support/service.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => {
  await svc?.close();
});

const api = (path: string, base = svc.url) => `${base}/api/v1${path}`;
const db = () => svc.deps.database.db;

async function owner() {
  const res = await request(api('/auth/signup'), { json: newAccount('keys') });
  expect(res.status).toBe(201);
  const me = await request(api('/me'), { token: res.body.access_token });
  return { token: res.body.access_token as string, tenantId: me.body.tenant_id as string };
}

async function createKey(token: string, body: Record<string, unknown>) {
  return request(api('/tenants/api-keys'), { token, json: body });
}

async function eventsOf(tenantId: string, action: string) {
  return rows<{ data: Record<string, unknown> }>(
    db(),
    sql`select data from events where tenant_id = ${tenantId} and action = ${action} order by occurred_at`,
  );
}

/** Everything a client could compare between two refusals except per-request headers. */
function shape(res: { status: number; headers: Headers; text: string }) {
  const headers = [...res.headers.entries()].filter(([name]) => !['date', 'x-request-id'].includes(name));
  return { status: res.status, body: res.text, headers };
}

describe('API key lifecycle', () => {
  it('issues svc_test_ keys once, lists handles only, and authenticates them as principals', async () => {
    const { token, tenantId } = await owner();
    const created = await createKey(token, { label: 'CI', scopes: ['tenant:manage'] });
    expect(created.status).toBe(201);
    expect(created.body.key).toMatch(/^svc_test_[0-9A-Za-z]{43}_[0-9A-Za-z]{6}$/);
    expect(created.body.display_handle).toBe(`${created.body.key.slice(0, 13)}…${created.body.key.slice(-4)}`);
    expect(created.body).toMatchObject({ label: 'CI', scopes: ['tenant:manage'], revoked: false, last_used_at: null });
    const expires = new Date(created.body.expires_at).getTime();
    expect(expires - svc.clock.now().getTime()).toBe(days(365));

    const list = await request(api('/tenants/api-keys'), { token });
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(1);
    expect(list.body[0].display_handle).toBe(created.body.display_handle);
    expect(list.text).not.toContain(created.body.key);
    expect(list.body[0]).not.toHaveProperty('key');

    // The key itself calls organization administration routes its scopes allow.
    const byKey = await request(api('/tenants/api-keys'), { token: created.body.key });
    expect(byKey.status).toBe(200);
    expect(byKey.body[0].id).toBe(created.body.id);

    const stored = await rows<{ key_hash: string }>(
      db(),
      sql`select key_hash from api_keys where tenant_id = ${tenantId}`,
    );
    expect(stored[0]!.key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(created.body.key.slice(9, 40));
    expect(await eventsOf(tenantId, 'apikey.issued')).toHaveLength(1);
    const outbox = await rows<{ payload: { type: string; data: Record<string, unknown> } }>(
      db(),
      sql`select payload from webhook_outbox where tenant_id = ${tenantId}`,
    );
    expect(outbox.map((row) => row.payload.type)).toContain('apikey.issued');

    // Coarse last_used_at, written with the usage counts.
    await svc.deps.apiKeys.flushUsage();
    const after = await request(api('/tenants/api-keys'), { token });
    expect(after.body[0].last_used_at).toBe(svc.clock.now().toISOString());
  });

  it('a key with no scopes authenticates but can call nothing', async () => {
    const { token } = await owner();
    const created = await createKey(token, { label: 'empty', scopes: [] });
    expect(created.status).toBe(201);
    // Every route answers 403, those that need no permission (GET /entitlements) too.
    for (const path of ['/tenants/api-keys', '/entitlements', '/members']) {
      const res = await request(api(path), { token: created.body.key });
      expect(res.status, path).toBe(403);
      expect(res.body.detail, path).toBe('This API key has no scopes: it can call nothing');
    }
  });

  it('a key is authenticated but refused with 403 where it lacks the permission or the route is for people', async () => {
    const { token } = await owner();
    const created = await createKey(token, { label: 'reader', scopes: ['members:read'] });
    const res = await request(api('/tenants/api-keys'), { token: created.body.key });
    expect(res.status).toBe(403);
    expect(res.body.detail).toBe('Missing permission: tenant:manage');
    expect((await request(api('/entitlements'), { token: created.body.key })).status).toBe(200);
    // Self-service routes are for people only: a key is not a user.
    const me = await request(api('/me'), { token: created.body.key });
    expect(me.status).toBe(403);
    expect(me.body.detail).toBe('This route is not open to API keys');
  });

  it('refuses malformed, wrong-check, unknown, expired and revoked keys with one generic 401', async () => {
    const { token } = await owner();
    const created = await createKey(token, { label: 'short', scopes: ['tenant:manage'], expires_in_days: 1 });
    const revoked = await createKey(token, { label: 'gone', scopes: ['tenant:manage'] });
    expect(
      (await request(api(`/tenants/api-keys/${revoked.body.id}/revoke`), { token, json: { reason: 'leaked' } })).status,
    ).toBe(200);
    const key: string = created.body.key;
    const flip = (s: string, at: number) => s.slice(0, at) + (s[at] === 'a' ? 'b' : 'a') + s.slice(at + 1);
    // Well formed, of this environment and correctly checked, but never stored: the issuer's own format.
    const unknown = issueKey('test').plaintext;
    const call = (credential: string) => request(api('/tenants/api-keys'), { token: credential });
    const noCredential = await request(api('/tenants/api-keys'));
    const refusals = [
      await call('svc_test_short'),
      await call(flip(key, 20)),
      await call(`${key.slice(0, -1)}`),
      await call(key.replace('svc_test_', 'svc_live_')),
      await call(unknown),
      await call(revoked.body.key),
    ];
    svc.clock.advance(days(1) + 1000);
    refusals.push(await call(key));
    svc.clock.advance(-(days(1) + 1000));
    for (const res of refusals) {
      expect(shape(res)).toEqual(shape(noCredential));
      expect(res.status).toBe(401);
    }
    // Before expiry it worked.
    expect((await call(key)).status).toBe(200);
  });

  it('refuses a key whose check does not hold before any database look-up; a well-formed one is looked up', async () => {
    const { token } = await owner();
    const key = (await createKey(token, { label: 'checked', scopes: ['tenant:manage'] })).body.key as string;
    const transactions = svc.deps.transactions;
    const original = transactions.systemRead;
    let lookups = 0;
    transactions.systemRead = (work) => {
      lookups++;
      return original(work);
    };
    try {
      const wrongCheck = key.slice(0, -1) + (key.endsWith('a') ? 'b' : 'a');
      for (const malformed of [wrongCheck, 'svc_test_short', key.replace('svc_test_', 'svc_live_')]) {
        expect((await request(api('/tenants/api-keys'), { token: malformed })).status).toBe(401);
      }
      expect(lookups).toBe(0);
      expect((await request(api('/tenants/api-keys'), { token: issueKey('test').plaintext })).status).toBe(401);
      expect(lookups).toBeGreaterThan(0);
    } finally {
      transactions.systemRead = original;
    }
  });

  it('bounds scopes by the creator: 403 beyond them, an unknown permission included', async () => {
    const { token } = await owner();
    const unknown = await createKey(token, { label: 'x', scopes: ['tenant:manage', 'no:such'] });
    expect(unknown.status).toBe(403);
    expect(unknown.body.detail).toBe('Scopes exceed your permissions: no:such');
    expect((await createKey(token, { label: 'x' })).status).toBe(422);
    const narrow = await createKey(token, { label: 'narrow', scopes: ['tenant:manage'] });
    // A key creating keys holds only its scopes.
    const beyond = await createKey(narrow.body.key, { label: 'wider', scopes: ['tenant:manage', 'members:manage'] });
    expect(beyond.status).toBe(403);
    expect(beyond.body.detail).toBe('Scopes exceed your permissions: members:manage');
    const within = await createKey(narrow.body.key, { label: 'same', scopes: ['tenant:manage'] });
    expect(within.status).toBe(201);
  });

  it('rotates into a successor with the same scopes; the old key works until revoked', async () => {
    const { token, tenantId } = await owner();
    const first = await createKey(token, { label: 'svc', scopes: ['tenant:manage', 'members:read'] });
    const rotated = await request(api(`/tenants/api-keys/${first.body.id}/rotate`), { token, method: 'POST' });
    expect(rotated.status).toBe(201);
    expect(rotated.body).toMatchObject({
      label: 'svc',
      scopes: ['tenant:manage', 'members:read'],
      rotated_from_id: first.body.id,
    });
    expect(rotated.body.key).not.toBe(first.body.key);
    expect((await request(api('/tenants/api-keys'), { token: first.body.key })).status).toBe(200);
    expect((await request(api('/tenants/api-keys'), { token: rotated.body.key })).status).toBe(200);

    const revoke = await request(api(`/tenants/api-keys/${first.body.id}/revoke`), {
      token,
      json: { reason: 'rotated out' },
    });
    expect(revoke.status).toBe(200);
    expect(revoke.body).toMatchObject({ revoked: true, reason: 'rotated out' });
    expect((await request(api('/tenants/api-keys'), { token: first.body.key })).status).toBe(401);
    expect((await request(api('/tenants/api-keys'), { token: rotated.body.key })).status).toBe(200);

    expect((await request(api(`/tenants/api-keys/${first.body.id}/rotate`), { token, method: 'POST' })).status).toBe(
      409,
    );
    expect(
      (await request(api(`/tenants/api-keys/${first.body.id}/revoke`), { token, json: { reason: 'again' } })).status,
    ).toBe(409);
    expect((await request(api(`/tenants/api-keys/${first.body.id}/revoke`), { token, json: {} })).status).toBe(422);
    expect((await eventsOf(tenantId, 'apikey.rotated'))[0]!.data).toMatchObject({ rotated_from_id: first.body.id });
    expect((await eventsOf(tenantId, 'apikey.revoked'))[0]!.data).toEqual({
      api_key_id: first.body.id,
      reason: 'rotated out',
    });
    // A rotation by a key needs the scopes it passes on.
    const narrow = await createKey(token, { label: 'narrow', scopes: ['tenant:manage'] });
    const wide = await createKey(token, { label: 'wide', scopes: ['tenant:manage', 'command:read'] });
    const refused = await request(api(`/tenants/api-keys/${wide.body.id}/rotate`), {
      token: narrow.body.key,
      method: 'POST',
    });
    expect(refused.status).toBe(403);
  });

  it("answers 404 for another organization's key and for ids that are not keys", async () => {
    const a = await owner();
    const b = await owner();
    const key = await createKey(a.token, { label: 'a', scopes: [] });
    for (const path of [`/tenants/api-keys/${key.body.id}/rotate`, '/tenants/api-keys/not-a-uuid/rotate']) {
      expect((await request(api(path), { token: b.token, method: 'POST' })).status).toBe(404);
    }
    expect(
      (await request(api(`/tenants/api-keys/${key.body.id}/revoke`), { token: b.token, json: { reason: 'x' } })).status,
    ).toBe(404);
    expect((await request(api('/tenants/api-keys'), { token: b.token })).body).toEqual([]);
    expect((await request(api('/tenants/api-keys'), { token: a.token })).body).toHaveLength(1);
  });

  it('bounds lifetimes by the operator setting security.api_key_max_lifetime_days; rotations inherit it', async () => {
    const { token, tenantId } = await owner();
    const forever = await createKey(token, { label: 'forever', scopes: [], expires_in_days: null });
    expect(forever.status).toBe(201);
    expect(forever.body.expires_at).toBeNull();
    await db().execute(
      sql`insert into operator_settings (tenant_id, key, value, updated_at)
          values (${tenantId}, 'security.api_key_max_lifetime_days', '30'::jsonb, now())`,
    );
    for (const expires_in_days of [null, 31]) {
      const res = await createKey(token, { label: 'long', scopes: [], expires_in_days });
      expect(res.status).toBe(400);
      expect(res.body.detail).toBe('expires_in_days: this organization allows API keys of at most 30 days');
    }
    const capped = await createKey(token, { label: 'default', scopes: [] });
    expect(new Date(capped.body.expires_at).getTime() - svc.clock.now().getTime()).toBe(days(30));
    const ten = await createKey(token, { label: 'ten', scopes: [], expires_in_days: 10 });
    expect(new Date(ten.body.expires_at).getTime() - svc.clock.now().getTime()).toBe(days(10));
    const successor = await request(api(`/tenants/api-keys/${forever.body.id}/rotate`), { token, method: 'POST' });
    expect(successor.status).toBe(201);
    expect(new Date(successor.body.expires_at).getTime() - svc.clock.now().getTime()).toBe(days(30));
    // A malformed cap never reads as "no cap": keys cannot be created until an operator corrects it.
    await db().execute(
      sql`update operator_settings set value = '5000'::jsonb
          where tenant_id = ${tenantId} and key = 'security.api_key_max_lifetime_days'`,
    );
    const refused = await createKey(token, { label: 'while malformed', scopes: [] });
    expect(refused.status).toBe(503);
    expect(refused.body.detail).toMatch(/^Operator setting security.api_key_max_lifetime_days holds 5000,/);
  });

  it('answers 403 while the organization is quarantined, to people and keys alike', async () => {
    const { token, tenantId } = await owner();
    const key = await createKey(token, { label: 'k', scopes: ['tenant:manage'] });
    expect((await request(api('/tenants/api-keys'), { token: key.body.key })).status).toBe(200);
    await changeDirectly(svc, sql`update tenants set quarantined = true where id = ${tenantId}`);
    const byPerson = await createKey(token, { label: 'q', scopes: [] });
    expect(byPerson.status).toBe(403);
    expect(byPerson.body.detail).toMatch(/awaiting approval/);
    expect((await request(api('/tenants/api-keys'), { token: key.body.key })).status).toBe(403);
    await changeDirectly(svc, sql`update tenants set quarantined = false where id = ${tenantId}`);
    expect((await request(api('/tenants/api-keys'), { token: key.body.key })).status).toBe(200);
  });
});

describe('across nodes and for privacy rights', () => {
  it('a revocation on one node refuses the key on another at its next request', async () => {
    const second = await startSecondNode(svc);
    try {
      const { token } = await owner();
      const key = await createKey(token, { label: 'shared', scopes: ['tenant:manage'] });
      // Both nodes have the key's state cached.
      expect((await request(api('/tenants/api-keys', second.url), { token: key.body.key })).status).toBe(200);
      expect((await request(api('/tenants/api-keys'), { token: key.body.key })).status).toBe(200);
      const revoked = await request(api(`/tenants/api-keys/${key.body.id}/revoke`), { token, json: { reason: 'x' } });
      expect(revoked.status).toBe(200);
      // The notification may take a moment to cross nodes (well under a millisecond locally).
      let status = 200;
      for (let i = 0; i < 50 && status !== 401; i++) {
        status = (await request(api('/tenants/api-keys', second.url), { token: key.body.key })).status;
        if (status !== 401) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(status).toBe(401);
      expect((await request(api('/tenants/api-keys'), { token: key.body.key })).status).toBe(401);
    } finally {
      await second.close();
    }
  });

  it('a key is refused as a DPoP credential', async () => {
    const { token } = await owner();
    const key = await createKey(token, { label: 'k', scopes: ['tenant:manage'] });
    const res = await request(api('/tenants/api-keys'), { headers: { authorization: `DPoP ${key.body.key}` } });
    expect(res.status).toBe(401);
  });

  it('exports the keys a person created and erases the link to them, keeping the keys', async () => {
    const { token, tenantId } = await owner();
    const key = await createKey(token, { label: 'mine', scopes: [] });
    const me = await request(api('/me'), { token });
    const contributor = svc.deps.personalData.contributors().find((c) => c.name === 'api_keys')!;
    expect(contributor.tables).toEqual(['api_keys']);
    const exported = await svc.deps.transactions.tenant(tenantId, (tx) =>
      contributor.export(tx, tenantId, me.body.user_id),
    );
    expect(exported).toEqual([
      expect.objectContaining({ id: key.body.id, label: 'mine', display_handle: key.body.display_handle }),
    ]);
    expect(JSON.stringify(exported)).not.toContain(key.body.key);
    await svc.deps.transactions.tenant(tenantId, (tx) => contributor.erase(tx, tenantId, me.body.user_id));
    expect(
      await svc.deps.transactions.tenant(tenantId, (tx) => contributor.export(tx, tenantId, me.body.user_id)),
    ).toEqual([]);
    expect((await request(api('/tenants/api-keys'), { token })).body).toHaveLength(1);
  });
});

describe('usage and the monthly quota', () => {
  it('counts calls per key per month and reports them against the plan quota', async () => {
    const { token } = await owner();
    const a = await createKey(token, { label: 'a', scopes: ['tenant:manage'] });
    const b = await createKey(token, { label: 'b', scopes: ['tenant:manage'] });
    for (let i = 0; i < 3; i++) await request(api('/tenants/api-keys'), { token: a.body.key });
    await request(api('/tenants/api-keys'), { token: b.body.key });
    const usage = await request(api('/tenants/api-keys/usage'), { token });
    expect(usage.status).toBe(200);
    expect(usage.body).toEqual({
      period: svc.clock.now().toISOString().slice(0, 7),
      total: 4,
      quota: 10_000,
      rows: [
        { api_key_id: a.body.id, label: 'a', display_handle: a.body.display_handle, calls: 3 },
        { api_key_id: b.body.id, label: 'b', display_handle: b.body.display_handle, calls: 1 },
      ],
    });
    const empty = await request(api('/tenants/api-keys/usage?period=2001-01'), { token });
    expect(empty.body).toEqual({ period: '2001-01', total: 0, quota: 10_000, rows: [] });
    expect((await request(api('/tenants/api-keys/usage?period=2001-13'), { token })).status).toBe(422);
  });

  it('past the plan quota every key call answers 429 monthly-quota, and apikey.quota_exceeded fires once', async () => {
    const { token, tenantId } = await owner();
    const key = await createKey(token, { label: 'busy', scopes: ['tenant:manage'] });
    const period = svc.clock.now().toISOString().slice(0, 7);
    await db().execute(
      sql`insert into api_key_usage (tenant_id, period, api_key_id, calls) values (${tenantId}, ${period}, ${key.body.id}, 9998)`,
    );
    await svc.deps.apiKeys.flushUsage();
    const call = () => request(api('/tenants/api-keys'), { token: key.body.key });
    expect((await call()).status).toBe(200);
    expect((await call()).status).toBe(200);
    const refusals = [await call(), await call(), await call()];
    for (const res of refusals) {
      expect(res.status).toBe(429);
      expect(res.headers.get('ratelimit-policy')).toBe('monthly-quota');
      expect(res.headers.get('ratelimit-limit')).toBe('10000');
      expect(res.headers.get('ratelimit-remaining')).toBe('0');
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    const notices = await eventsOf(tenantId, 'apikey.quota_exceeded');
    expect(notices).toHaveLength(1);
    expect(notices[0]!.data).toEqual({ period, quota: 10_000 });
    // People are not metered; the usage shows the organization at its quota.
    const usage = await request(api('/tenants/api-keys/usage'), { token });
    expect(usage.body).toMatchObject({ total: 10_000, quota: 10_000 });
    // An unlimited plan has no quota: `quota` null, and calls past the old one are admitted.
    await db().execute(sql`update tenants set plan = 'enterprise' where id = ${tenantId}`);
    let admitted = 0;
    for (let i = 0; i < 20 && admitted === 0; i++) {
      // The plan change reaches the key cache by notification (well under a millisecond locally).
      if ((await call()).status === 200) admitted += 1;
      else await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(admitted).toBe(1);
    const unlimited = await request(api('/tenants/api-keys/usage'), { token });
    expect(unlimited.body).toMatchObject({ total: 10_001, quota: null });
    await db().execute(sql`update tenants set plan = 'free' where id = ${tenantId}`);
    // A new month opens a new budget.
    const now = svc.clock.now();
    const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1, 0, 0, 1));
    const back = now.getTime() - nextMonth.getTime();
    svc.clock.set(nextMonth);
    try {
      expect((await call()).status).toBe(200);
    } finally {
      svc.clock.advance(back);
    }
  });
});

describe('environments', () => {
  let production: { url: string; deps: Deps; app: FastifyInstance } | undefined;
  afterAll(async () => {
    await production?.app.close();
    await production?.deps.close();
  });

  it('a test key never authenticates in production and a live key never outside it', async () => {
    const config = {
      ...svc.deps.config,
      env: 'production' as const,
      egressTest: { routes: new Map(), caFile: undefined, ca: undefined },
    };
    const deps = await createDeps(config, {
      clock: svc.clock,
      // The same embedded database as the test node (test/support/service.ts shares one per worker).
      pglite: svc.deps.config.databaseUrl
        ? undefined
        : await (globalThis as unknown as { __svcPglite: Promise<PGlite> }).__svcPglite,
      limiterPrefix: `test-${svc.schema}-prod`,
    });
    const app = await buildApp(deps);
    await app.listen({ host: '127.0.0.1', port: 0 });
    production = { url: `http://127.0.0.1:${(app.server.address() as { port: number }).port}`, deps, app };

    const { token } = await owner();
    const testKey = await createKey(token, { label: 'test', scopes: ['tenant:manage'] });
    const liveKey = await request(api('/tenants/api-keys', production.url), {
      token,
      json: { label: 'live', scopes: ['tenant:manage'] },
    });
    expect(liveKey.status).toBe(201);
    expect(liveKey.body.key).toMatch(/^svc_live_/);
    expect((await request(api('/tenants/api-keys', production.url), { token: liveKey.body.key })).status).toBe(200);
    expect((await request(api('/tenants/api-keys', production.url), { token: testKey.body.key })).status).toBe(401);
    expect((await request(api('/tenants/api-keys'), { token: liveKey.body.key })).status).toBe(401);
    expect((await request(api('/tenants/api-keys'), { token: testKey.body.key })).status).toBe(200);
  });
});
