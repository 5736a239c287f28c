import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deps } from '../../src/app.js';
import { newDpopKey } from '../support/dpop.js';
import { newAccount, request } from '../support/http.js';
import { signUpOwner } from '../support/organizations.js';
import { startSecondNode, startService, type TestService } from '../support/service.js';
import { startTcpProxy, type TcpProxy, targetOf } from '../support/tcp-proxy.js';
import { startWebhookReceiver, TEST_CA_FILE, type WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * Issue 18, item 4: three nodes of one installation (one database, one Redis) while their peers fail. On
 * PostgreSQL and Redis the nodes reach both through TCP proxies the test can cut.
 */
const onPostgres = Boolean(process.env.DATABASE_URL);
const onRedis = Boolean(process.env.REDIS_URL);

let pgProxy: TcpProxy | undefined;
let redisProxy: TcpProxy | undefined;
let svc: TestService;
let nodes: Array<{ url: string; deps: Deps }>;
let extra: Array<{ close(): Promise<void> }> = [];
let direct: pg.Client | undefined;
let receiver: WebhookReceiver;
/** Between the nodes and the webhook receiver: cut, the receiver is down (connections refused). */
let receiverProxy: TcpProxy;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  receiverProxy = await startTcpProxy({ host: '127.0.0.1', port: receiver.port });
  const env: Record<string, string> = {
    EGRESS_TEST_ROUTES: `secure.example.test=127.0.0.1:${receiverProxy.port}`,
    EGRESS_TEST_CA_FILE: TEST_CA_FILE,
  };
  if (process.env.DATABASE_URL) {
    pgProxy = await startTcpProxy(targetOf(process.env.DATABASE_URL, 5432));
    env.DATABASE_URL = pgProxy.rewrite(process.env.DATABASE_URL);
  }
  if (process.env.REDIS_URL) {
    redisProxy = await startTcpProxy(targetOf(process.env.REDIS_URL, 6379));
    env.REDIS_URL = redisProxy.rewrite(process.env.REDIS_URL);
  }
  svc = await startService(env);
  const second = await startSecondNode(svc);
  const third = await startSecondNode(svc);
  extra = [second, third];
  nodes = [svc, second, third];
  if (process.env.DATABASE_URL) {
    // The test's own view of the database, around the proxy.
    direct = new pg.Client({ connectionString: process.env.DATABASE_URL, options: `-c search_path=${svc.schema}` });
    await direct.connect();
  }
}, 120_000);
afterAll(async () => {
  pgProxy?.resume();
  redisProxy?.resume();
  for (const node of extra) await node.close();
  await svc?.close();
  await direct?.end();
  await pgProxy?.close();
  await redisProxy?.close();
  await receiverProxy?.close();
  await receiver?.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A request and how long its answer took. */
async function timed(url: string, options: Parameters<typeof request>[1] = {}) {
  const started = performance.now();
  const res = await request(url, options);
  return { ...res, ms: performance.now() - started };
}

/** Polls `check` until it holds or `timeoutMs` passes. */
async function eventually(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`not recovered within ${timeoutMs} ms`);
    await sleep(100);
  }
}

describe.runIf(onPostgres)('the PostgreSQL connection cut for a few seconds', () => {
  it('answers 503 with Retry-After at once, writes nothing half-way, and serves again by itself', async () => {
    const owner = await signUpOwner(svc.url, 'cut');
    const signUps = Array.from({ length: 3 }, () => newAccount('cut-signup'));
    pgProxy!.cut();
    const during = await Promise.all(
      nodes.flatMap((node, i) => [
        timed(`${node.url}/api/v1/auth/login`, {
          json: { email: owner.email, password: owner.password, tenant_slug: owner.slug },
        }),
        timed(`${node.url}/api/v1/auth/refresh`, { json: { refresh_token: owner.refresh } }),
        timed(`${node.url}/api/v1/me`, { token: owner.token }),
        timed(`${node.url}/api/v1/auth/signup`, { json: signUps[i] }),
      ]),
    );
    for (const answer of during) {
      expect(answer.status, answer.text).toBe(503);
      expect(answer.headers.get('retry-after')).toBe('5');
      expect(answer.body).toEqual({ detail: expect.any(String) });
      expect(answer.ms).toBeLessThan(5000);
    }
    await sleep(2000);
    pgProxy!.resume();
    // Every node serves again without a restart.
    for (const node of nodes) {
      await eventually(
        async () => (await request(`${node.url}/api/v1/me`, { token: owner.token })).status === 200,
        10_000,
      );
    }
    // The refresh refused during the cut spent nothing: the token still rotates, once.
    const rotated = await request(`${nodes[1]!.url}/api/v1/auth/refresh`, { json: { refresh_token: owner.refresh } });
    expect(rotated.status).toBe(200);
    // No sign-up refused during the cut left an account, an organization or a membership behind.
    const left = await direct!.query(
      `select (select count(*) from users where email = any($1))::int as users,
              (select count(*) from tenants where name = any($2))::int as tenants`,
      [signUps.map((s) => s.email), signUps.map((s) => s.organization_name)],
    );
    expect(left.rows[0]).toEqual({ users: 0, tenants: 0 });
    // The nodes hear of changes again (their LISTEN connections came back): a sign-out on one node is
    // refused on the others at once.
    const session = await request(`${nodes[0]!.url}/api/v1/auth/login`, {
      json: { email: owner.email, password: owner.password, tenant_slug: owner.slug },
    });
    expect(session.status).toBe(200);
    for (const node of nodes) {
      expect((await request(`${node.url}/api/v1/me`, { token: session.body.access_token })).status).toBe(200);
    }
    const out = await request(`${nodes[0]!.url}/api/v1/auth/logout`, { token: session.body.access_token, json: {} });
    expect(out.status).toBeLessThan(300);
    // Resolves only once each node's listener hears its own marker: delivery is live again on every node.
    await Promise.all(nodes.map((node) => node.deps.authState.synced()));
    for (const node of nodes) {
      expect((await request(`${node.url}/api/v1/me`, { token: session.body.access_token })).status).toBe(401);
    }
  });
});

describe.runIf(onPostgres)('the PostgreSQL connection cut in the middle of writes', () => {
  it('leaves each sign-up whole or absent, whatever its answer', async () => {
    // Sign-ups spend the per-IP budget (20 an hour) before they reach the database: few of them per file.
    const owner = await signUpOwner(svc.url, 'mid-cut');
    const signUps = Array.from({ length: 6 }, () => newAccount('mid-cut'));
    const answers = Promise.all(
      signUps.map(async (account, i) => {
        await sleep(i * 150);
        return { account, res: await timed(`${nodes[i % nodes.length]!.url}/api/v1/auth/signup`, { json: account }) };
      }),
    );
    // Sign-ups start every 150 ms and each takes a few hundred (a password hash, then one transaction): the cut
    // lands while some are writing, after some have committed and before others begin.
    await sleep(500);
    pgProxy!.cut();
    const settled = await answers;
    await sleep(500);
    pgProxy!.resume();
    console.error(
      'MID',
      settled.map(({ res }) => [res.status, Math.round(res.ms)]),
    );
    for (const { account, res } of settled) {
      expect([201, 503], res.text).toContain(res.status);
      if (res.status === 503) expect(res.headers.get('retry-after')).toBe('5');
      const [stored] = (
        await direct!.query(
          `select (select count(*) from users where email = $1)::int as users,
                  (select count(*) from tenants where name = $2)::int as tenants,
                  (select count(*) from memberships m join users u on u.id = m.user_id where u.email = $1)::int as memberships,
                  (select count(*) from sessions s join users u on u.id = s.user_id where u.email = $1)::int as sessions`,
          [account.email, account.organization_name],
        )
      ).rows;
      // A 503 may still have committed (the commit's acknowledgement can be what the cut took), but never in part.
      if (res.status === 201) expect(stored).toEqual({ users: 1, tenants: 1, memberships: 1, sessions: 1 });
      else expect([0, 1].map((n) => ({ users: n, tenants: n, memberships: n, sessions: n }))).toContainEqual(stored);
    }
    // Service resumes by itself on every node.
    for (const node of nodes) {
      await eventually(
        async () =>
          (
            await request(`${node.url}/api/v1/auth/login`, {
              json: { email: owner.email, password: owner.password, tenant_slug: owner.slug },
            })
          ).status === 200,
        10_000,
      );
    }
  });
});

describe.runIf(onRedis)('Redis unreachable', () => {
  it('refuses every throttled request with 429 and a fixed Retry-After, serves the rest, and recovers by itself', async () => {
    const owner = await signUpOwner(svc.url, 'redis');
    let refresh = owner.refresh;
    // A DPoP-bound session (RFC 9449): its proofs' `jti`s go through the replay cache in Redis.
    const key = await newDpopKey();
    const htu = (path: string) => `${svc.deps.config.baseUrl}/api/v1${path}`;
    const bound = await request(`${svc.url}/api/v1/auth/login`, {
      json: { email: owner.email, password: owner.password, tenant_slug: owner.slug },
      headers: { dpop: await key.proof('POST', htu('/auth/login'), { now: svc.clock.now() }) },
    });
    expect(bound.status).toBe(200);
    const boundMe = async (url: string) =>
      timed(`${url}/api/v1/me`, {
        headers: {
          authorization: `DPoP ${bound.body.access_token}`,
          dpop: await key.proof('GET', htu('/me'), { accessToken: bound.body.access_token, now: svc.clock.now() }),
        },
      });
    expect((await boundMe(svc.url)).status).toBe(200);
    redisProxy!.cut();
    for (const node of nodes) {
      const api = (path: string) => `${node.url}/api/v1${path}`;
      const throttled = await Promise.all([
        timed(api('/auth/login'), { json: { email: owner.email, password: owner.password, tenant_slug: owner.slug } }),
        timed(api('/auth/signup'), { json: newAccount('redis-signup') }),
        timed(api('/auth/change-password'), {
          token: owner.token,
          json: { current_password: `${owner.password} but wrong`, new_password: 'an entirely new passphrase' },
        }),
        timed(api('/oauth/token'), {
          body: 'grant_type=client_credentials&client_id=unknown&client_secret=unknown',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }),
      ]);
      for (const answer of throttled) {
        expect(answer.status, answer.text).toBe(429);
        expect(answer.headers.get('retry-after')).toBe('5');
        // No counts are known, so none are claimed.
        expect(answer.headers.get('ratelimit-remaining')).toBeNull();
        expect(answer.ms).toBeLessThan(3000);
      }
      // What no limit guards goes on: reading, refreshing, writing, signing out.
      const me = await timed(api('/me'), { token: owner.token });
      expect(me.status).toBe(200);
      const rotated = await timed(api('/auth/refresh'), { json: { refresh_token: refresh } });
      expect(rotated.status).toBe(200);
      refresh = rotated.body.refresh_token;
      const apiKey = await timed(api('/tenants/api-keys'), {
        token: owner.token,
        json: { label: 'redis-down', scopes: [] },
      });
      expect(apiKey.status).toBe(201);
      for (const answer of [me, rotated, apiKey]) expect(answer.ms).toBeLessThan(3000);
      // A proof whose first use cannot be checked is refused, not let through.
      const proofed = await boundMe(node.url);
      expect(proofed.status).toBe(401);
      expect(proofed.ms).toBeLessThan(3000);
    }
    // The account was never locked out by the refusals: once Redis is back, every node signs it in.
    redisProxy!.resume();
    for (const node of nodes) {
      await eventually(async () => {
        const res = await request(`${node.url}/api/v1/auth/login`, {
          json: { email: owner.email, password: owner.password, tenant_slug: owner.slug },
        });
        return res.status === 200;
      }, 10_000);
      expect((await boundMe(node.url)).status).toBe(200);
    }
  });
});

describe('a webhook receiver down for the whole retry schedule', () => {
  it('dead-letters the delivery once across three nodes after 8 attempts, and delivers its replay once', async () => {
    const owner = await signUpOwner(svc.url, 'dead');
    // The clock moves hours ahead: manage with an API key, which outlives the 15-minute access token.
    const admin = await request(`${svc.url}/api/v1/tenants/api-keys`, {
      token: owner.token,
      json: { label: 'admin', scopes: ['tenant:manage'] },
    });
    expect(admin.status).toBe(201);
    const token = admin.body.key as string;
    svc.clock.advance(1000);
    const hook = await request(`${nodes[1]!.url}/api/v1/tenants/webhooks`, {
      token,
      json: { url: receiver.url('/ft-dead'), event_types: ['apikey.issued'] },
    });
    expect(hook.status).toBe(201);
    receiverProxy.cut();
    const attemptsBefore = receiverProxy.attempted;
    expect(
      (await request(`${nodes[2]!.url}/api/v1/tenants/api-keys`, { token, json: { label: 'e', scopes: [] } })).status,
    ).toBe(201);
    // Every node runs its worker at once, again and again, while the clock passes every retry (at most 6 h
    // apart with jitter; 7 retries take under 5 h).
    const allWorkers = () => Promise.all(nodes.map((node) => node.deps.webhooks.runOnce()));
    for (let round = 0; round < 12; round++) {
      await allWorkers();
      await allWorkers();
      svc.clock.advance(45 * 60_000);
    }
    const log = async () =>
      (await request(`${nodes[0]!.url}/api/v1/tenants/webhooks/${hook.body.id}/deliveries`, { token })).body as Array<{
        id: string;
        event_id: string;
        status: string;
        attempts: number;
        last_error: string | null;
        replay_of: string | null;
      }>;
    const [dead, ...others] = await log();
    expect(others).toEqual([]);
    expect(dead).toMatchObject({ status: 'dead_letter', attempts: 8, replay_of: null });
    expect(dead!.last_error).not.toBeNull();
    // Exactly eight connections were tried, none twice by two nodes at once.
    expect(receiverProxy.attempted - attemptsBefore).toBe(8);
    expect(receiver.on('/ft-dead')).toHaveLength(0);

    receiverProxy.resume();
    const replay = await request(
      `${nodes[2]!.url}/api/v1/tenants/webhooks/${hook.body.id}/deliveries/${dead!.id}/replay`,
      { token, method: 'POST' },
    );
    expect(replay.status).toBe(202);
    for (let round = 0; round < 3; round++) {
      await allWorkers();
      svc.clock.advance(45 * 60_000);
    }
    const [got] = await receiver.waitFor(1, '/ft-dead');
    expect(got!.json.id).toBe(dead!.event_id);
    expect(receiver.on('/ft-dead')).toHaveLength(1);
    const after = await log();
    expect(after).toHaveLength(2);
    expect(after.find((row) => row.id === dead!.id)).toMatchObject({ status: 'dead_letter', attempts: 8 });
    expect(after.find((row) => row.id === replay.body.id)).toMatchObject({
      status: 'delivered',
      attempts: 1,
      replay_of: dead!.id,
    });
  });
});
