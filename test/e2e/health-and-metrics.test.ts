import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// A free port is one nobody listens on right now.
import { freePort as closedPort } from '../support/free-port.js';
import { request } from '../support/http.js';
import { startService, type TestService } from '../support/service.js';
import { startWebhookReceiver, TEST_CA_FILE, type WebhookReceiver } from '../support/webhook-receiver.js';
import { accountsHarness } from './accounts-support.js';

/** `/healthz`, `/readyz` and `/metrics` (docs/operating.md, "Health and metrics"). */

const METRICS_TOKEN = 'metrics-token-for-tests-0123456789';
const lines: string[] = [];
let svc: TestService;
let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
  svc = await startService(
    {
      ...{ TRUST_PROXY: '1', METRICS_TOKEN, LOG_LEVEL: 'info' },
      EGRESS_TEST_ROUTES: `secure.example.test=127.0.0.1:${receiver.port}`,
      EGRESS_TEST_CA_FILE: TEST_CA_FILE,
    },
    { onLogLine: (line) => lines.push(line) },
  );
});
afterAll(async () => {
  await svc?.close();
  await receiver?.close();
});

const { api, signUp, logIn, refresh } = accountsHarness(() => svc);

const scrape = (url: string, token?: string) => request(url, token ? { token } : {});

/** The value of one sample (`name{labels} value`), or undefined when the series is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('health probes', () => {
  it('answers /healthz and /readyz with 200 and each readiness check, without credentials', async () => {
    const health = await request(`${svc.url}/healthz`);
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: 'ok' });
    const ready = await request(`${svc.url}/readyz`);
    expect(ready.status, ready.text).toBe(200);
    expect(ready.headers.get('cache-control')).toBe('no-store');
    expect(ready.body).toEqual({
      status: 'ready',
      checks: {
        database: 'ok',
        migrations: 'ok',
        signing_keys: 'ok',
        ...(process.env.REDIS_URL ? { redis: 'ok' } : {}),
      },
    });
  });

  it('keeps probes and scrapes out of the info-level request log, and logs other requests', async () => {
    lines.length = 0;
    await request(`${svc.url}/healthz`);
    await request(`${svc.url}/readyz`);
    await scrape(`${svc.url}/metrics`, METRICS_TOKEN);
    await request(`${svc.url}/api/v1/me`);
    const urls = lines.map((line) => JSON.parse(line).req?.url).filter(Boolean);
    expect(urls).toEqual(['/api/v1/me']);
  });
});

describe('metrics', () => {
  it('refuses a scrape without the bearer token or with a wrong one (401)', async () => {
    const none = await scrape(`${svc.url}/metrics`);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    expect((await scrape(`${svc.url}/metrics`, `${METRICS_TOKEN}x`)).status).toBe(401);
    expect((await scrape(`${svc.url}/metrics`, 'short')).status).toBe(401);
    const basic = await request(`${svc.url}/metrics`, { headers: { authorization: `Basic ${METRICS_TOKEN}` } });
    expect(basic.status).toBe(401);
  });

  it('counts requests, sign-ins, throttles and token grants in Prometheus text format', async () => {
    const { account, slug, tokens } = await signUp();
    expect((await logIn(account, slug)).status).toBe(200);
    // Wrong passwords for one account from one address: 10 failures, then the account's budget refuses.
    const ip = '198.51.100.77';
    const wrong = () =>
      request(api('/auth/login'), {
        json: { email: account.email, password: 'not the password at all', tenant_slug: slug },
        headers: { 'x-forwarded-for': ip },
      });
    for (let i = 0; i < 10; i++) expect((await wrong()).status).toBe(401);
    expect((await wrong()).status).toBe(429);
    expect((await refresh(tokens.refresh_token!)).status).toBe(200);
    const created = await request(api('/oauth/clients'), {
      token: tokens.access_token,
      json: { name: 'Exporter', client_type: 'confidential', grant_types: ['client_credentials'], redirect_uris: [] },
    });
    expect(created.status, created.text).toBe(201);
    const granted = await request(api('/oauth/token'), {
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: created.body.client_id,
        client_secret: created.body.client_secret,
      }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(granted.status, granted.text).toBe(200);

    const res = await scrape(`${svc.url}/metrics`, METRICS_TOKEN);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = res.text;
    expect(sample(text, 'svc_sign_ins_total{method="pwd",outcome="success"}')).toBe(1);
    expect(sample(text, 'svc_sign_ins_total{method="pwd",outcome="failure"}')).toBe(10);
    expect(sample(text, 'svc_sign_ins_total{method="pwd",outcome="throttled"}')).toBe(1);
    expect(sample(text, 'svc_throttled_requests_total{surface="/api/v1/auth/login",reason="limit"}')).toBe(1);
    // The sign-up's session and the sign-in's.
    expect(sample(text, 'svc_tokens_issued_total{grant="session"}')).toBe(2);
    expect(sample(text, 'svc_tokens_issued_total{grant="session_refresh"}')).toBe(1);
    expect(sample(text, 'svc_tokens_issued_total{grant="client_credentials"}')).toBe(1);
    const login = 'route="/api/v1/auth/login",method="POST"';
    expect(sample(text, `svc_http_requests_total{${login},status_code="401"}`)).toBe(10);
    expect(sample(text, `svc_http_request_duration_seconds_count{${login},status_code="200"}`)).toBe(1);
    expect(sample(text, `svc_http_request_duration_seconds_bucket{le="+Inf",${login},status_code="429"}`)).toBe(1);
    expect(sample(text, 'svc_queue_depth{queue="webhook_delivery"}')).toBe(0);
    expect(sample(text, 'svc_worker_job_lag_seconds{queue="webhook_delivery"}')).toBe(0);
    expect(sample(text, 'svc_queue_depth{queue="webhook_outbox"}')).toBeGreaterThanOrEqual(0);
    expect(text).toContain('# TYPE svc_webhook_deliveries_total counter');
    expect(sample(text, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    if (svc.deps.database.kind === 'pg') {
      expect(sample(text, 'svc_db_pool_connections{pool="main",state="total"}')).toBeGreaterThan(0);
      expect(sample(text, 'svc_db_pool_connections{pool="tenant_sessions",state="waiting"}')).toBe(0);
    }
    // A path no route matches is one series, whatever was asked.
    await request(`${svc.url}/no/such/path/${Math.random()}`);
    const after = (await scrape(`${svc.url}/metrics`, METRICS_TOKEN)).text;
    expect(sample(after, 'svc_http_requests_total{route="unmatched",method="GET",status_code="404"}')).toBe(1);
  });

  it('counts webhook deliveries by outcome, the delivery queue and how far the workers are behind', async () => {
    const { tokens } = await signUp();
    const subscribe = async (path: string) => {
      const res = await request(api('/tenants/webhooks'), {
        token: tokens.access_token,
        json: { url: receiver.url(path), event_types: ['apikey.issued'] },
      });
      expect(res.status, res.text).toBe(201);
    };
    await subscribe('/m-ok');
    await subscribe('/m-down');
    receiver.respond('/m-down', 503);
    const issued = await request(api('/tenants/api-keys'), {
      token: tokens.access_token,
      json: { label: 'm', scopes: [] },
    });
    expect(issued.status, issued.text).toBe(201);
    await svc.deps.webhooks.runOnce();
    await receiver.waitFor(1, '/m-ok');
    let text = (await scrape(`${svc.url}/metrics`, METRICS_TOKEN)).text;
    expect(sample(text, 'svc_webhook_deliveries_total{outcome="delivered"}')).toBe(1);
    expect(sample(text, 'svc_webhook_deliveries_total{outcome="retrying"}')).toBe(1);
    // The retry waits for its time: queued, not yet due, so the workers are not behind.
    expect(sample(text, 'svc_queue_depth{queue="webhook_delivery"}')).toBe(1);
    expect(sample(text, 'svc_worker_job_lag_seconds{queue="webhook_delivery"}')).toBe(0);
    // An hour later, with no worker running, the retry has waited about that long past its due time.
    svc.clock.advance(3_600_000);
    text = (await scrape(`${svc.url}/metrics`, METRICS_TOKEN)).text;
    expect(sample(text, 'svc_worker_job_lag_seconds{queue="webhook_delivery"}')).toBeGreaterThan(3_000);
    expect(sample(text, 'svc_worker_job_lag_seconds{queue="webhook_delivery"}')).toBeLessThanOrEqual(3_600);
  });

  it('serves /metrics on METRICS_PORT only (no token needed there), and not on the service port', async () => {
    const port = await closedPort();
    const separate = await startService({ METRICS_PORT: String(port) });
    try {
      expect((await scrape(`${separate.url}/metrics`)).status).toBe(404);
      await request(`${separate.url}/healthz`);
      const res = await scrape(`http://127.0.0.1:${port}/metrics`);
      expect(res.status).toBe(200);
      expect(sample(res.text, 'svc_http_requests_total{route="/healthz",method="GET",status_code="200"}')).toBe(1);
      expect((await request(`http://127.0.0.1:${port}/healthz`)).status).toBe(404);
    } finally {
      await separate.close();
    }
    // The listener closes with the service.
    await expect(fetch(`http://127.0.0.1:${port}/metrics`)).rejects.toThrow();
  });

  it('holds the METRICS_PORT listener to METRICS_TOKEN too when both are set', async () => {
    const port = await closedPort();
    const both = await startService({ METRICS_PORT: String(port), METRICS_TOKEN });
    try {
      expect((await scrape(`http://127.0.0.1:${port}/metrics`)).status).toBe(401);
      expect((await scrape(`http://127.0.0.1:${port}/metrics`, METRICS_TOKEN)).status).toBe(200);
    } finally {
      await both.close();
    }
  });
});

// Last: on the embedded database, services of other schemas started in this file would move the shared
// connection's search path away from the first service's schema.
describe('readiness failures', () => {
  it('answers 503 naming what is not ready: Redis configured but unreachable, a migration not applied', async () => {
    const broken = await startService({ REDIS_URL: `redis://127.0.0.1:${await closedPort()}` });
    try {
      // The service's newest migration is taken back out of its own schema: the build is ahead of the database.
      await broken.deps.database.db.execute(
        sql.raw(`delete from "${broken.schema}".svc_migrations
                 where tag = (select max(tag) from "${broken.schema}".svc_migrations)`),
      );
      const ready = await request(`${broken.url}/readyz`);
      expect(ready.status, ready.text).toBe(503);
      expect(ready.body.status).toBe('not_ready');
      expect(ready.body.checks).toMatchObject({ database: 'ok', signing_keys: 'ok', redis: 'unavailable' });
      expect(ready.body.checks.migrations).toMatch(/^pending: \d{4}_/);
      // Liveness is not readiness: the process still answers.
      expect((await request(`${broken.url}/healthz`)).status).toBe(200);
    } finally {
      await broken.close();
    }
  });
});
