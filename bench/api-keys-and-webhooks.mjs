#!/usr/bin/env node
// Benchmark of API-key authentication and webhook delivery (issue 7), standalone: `npm run build && node
// bench/api-keys-and-webhooks.mjs`. Prints ONE JSON document on stdout; progress goes to stderr.
//
// 1. API-key-authenticated read vs bearer-token read, on the same route in the same run (target: the key
//    reaches >= 80% of the bearer figure). The route is `GET /api/v1/tenants/webhooks/events` (static
//    catalogue, `tenant:manage`), so the difference is the authentication path alone; `GET
//    /api/v1/tenants/webhooks` (one tenant read) is measured too.
// 2. Webhook deliveries per second: events are queued with the workers off, then `svc worker` alone drains
//    them to a TLS receiver on loopback (egress test route, SVC_ENV=test); rate = deliveries between the
//    first and the last received.
import './chosen-node.mjs'; // BENCH_NODE: first, before anything is measured
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runStorage } from './service.mjs';
import {
  baseEnv,
  commonSettings,
  freePort,
  log,
  measuredBearerGet,
  pool,
  positiveInteger,
  postJson,
  round,
  runBench,
  startChild,
  stopAllChildren,
  stopChild,
  svcCommand,
  waitForHttp,
} from './util.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const TESTDATA = join(ROOT, 'src', 'kernel', 'net', 'testdata');
const RECEIVER_HOST = 'secure.example.test'; // the only name the test certificate is valid for

const settings = {
  ...commonSettings(),
  webhookEvents: positiveInteger('BENCH_WEBHOOK_EVENTS', 1000),
};
const TARGET_RATIO = 0.8;

const storage = runStorage('keys');
const { runId } = storage;

// ---- the receiver: counts deliveries and when they arrived ----

const arrivals = [];
const receiver = createServer(
  { key: readFileSync(join(TESTDATA, 'server-key.pem')), cert: readFileSync(join(TESTDATA, 'server-cert.pem')) },
  (request, response) => {
    request.resume();
    request.on('end', () => {
      arrivals.push(performance.now());
      response.writeHead(204).end();
    });
  },
);

function serviceEnv(port, receiverPort) {
  const { databaseUrl, redisUrl, schema, dataDir, secretKey } = storage.where();
  return {
    ...baseEnv(),
    // SVC_ENV=test is what allows the egress test route to the loopback receiver and its test CA.
    SVC_ENV: 'test',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_SIGNUP_ENABLED: 'true',
    LOG_LEVEL: 'warn',
    SECRET_KEY: secretKey,
    TRUST_PROXY: '1',
    EGRESS_TEST_ROUTES: `${RECEIVER_HOST}=127.0.0.1:${receiverPort}`,
    EGRESS_TEST_CA_FILE: join(TESTDATA, 'ca.pem'),
    ...(databaseUrl ? { DATABASE_URL: databaseUrl, DATABASE_SCHEMA: schema } : { DATA_DIR: dataDir }),
    ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
  };
}

async function startService(args, receiverPort) {
  const main = svcCommand(ROOT);
  const port = await freePort();
  const handle = startChild(args[0], process.execPath, [main, ...args], {
    cwd: ROOT,
    env: serviceEnv(port, receiverPort),
  });
  return { handle, base: `http://127.0.0.1:${port}` };
}

const json = async (response) => ({ status: response.status, body: await response.json().catch(() => undefined) });
const get = (url, token) => fetch(url, { headers: { authorization: `Bearer ${token}` } }).then(json);

async function prepare(base) {
  const email = `bench-keys-${runId}@example.com`;
  const password = `Bench-${randomBytes(12).toString('hex')}!`;
  const organizationName = `Bench keys ${runId}`;
  const forwardedFor = `198.18.${randomBytes(1)[0]}.${1 + (randomBytes(1)[0] % 254)}`;
  const signup = await postJson(
    `${base}/api/v1/auth/signup`,
    { email, password, organization_name: organizationName },
    { 'x-forwarded-for': forwardedFor },
  );
  if (signup.status !== 201) throw new Error(`sign-up answered ${signup.status}: ${signup.text}`);
  const owner = signup.json.access_token;
  const keys = await pool(settings.connections, 4, async (index) => {
    const answer = await postJson(
      `${base}/api/v1/tenants/api-keys`,
      { label: `bench ${index}`, scopes: ['tenant:manage'] },
      { authorization: `Bearer ${owner}` },
    );
    if (answer.status !== 201) throw new Error(`API key ${index} answered ${answer.status}: ${answer.text}`);
    return answer.json.key;
  });
  const hook = await postJson(
    `${base}/api/v1/tenants/webhooks`,
    { url: `https://${RECEIVER_HOST}/bench`, event_types: ['apikey.issued'] },
    { authorization: `Bearer ${owner}` },
  );
  if (hook.status !== 201) throw new Error(`webhook registration answered ${hook.status}: ${hook.text}`);
  return { login: { email, password, tenant_slug: `bench-keys-${runId}` }, keys };
}

const load = (name, url, tokens, pid) => measuredBearerGet(settings, name, url, tokens, pid);

async function main() {
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverPort = receiver.address().port;
  log(`receiver on 127.0.0.1:${receiverPort}`);

  // Phase 1: data, then the organization moves to the unlimited plan (no quota in the way of the load).
  let service = await startService(['serve', '--no-workers'], receiverPort);
  await waitForHttp(`${service.base}/api/v1/openapi.json`, service.handle);
  const data = await prepare(service.base);
  await stopChild(service.handle);
  await storage.ownerSql(`update tenants set plan = 'enterprise' where slug = 'bench-keys-${runId}'`);

  // Phase 2: reads.
  service = await startService(['serve', '--no-workers'], receiverPort);
  await waitForHttp(`${service.base}/api/v1/openapi.json`, service.handle);
  const bearers = await pool(settings.connections, 4, async (index) => {
    const answer = await postJson(`${service.base}/api/v1/auth/login`, data.login);
    if (answer.status !== 200) throw new Error(`login ${index} answered ${answer.status}: ${answer.text}`);
    return answer.json.access_token;
  });
  for (const [label, token] of [
    ['bearer', bearers[0]],
    ['API key', data.keys[0]],
  ]) {
    const check = await get(`${service.base}/api/v1/tenants/webhooks/events`, token);
    if (check.status !== 200) throw new Error(`${label} read answered ${check.status}`);
  }
  const pid = service.handle.child.pid;
  const catalogue = `${service.base}/api/v1/tenants/webhooks/events`;
  const list = `${service.base}/api/v1/tenants/webhooks`;
  const reads = {
    bearer_catalogue: await load('bearer GET /tenants/webhooks/events', catalogue, bearers, pid),
    api_key_catalogue: await load('API key GET /tenants/webhooks/events', catalogue, data.keys, pid),
    bearer_list: await load('bearer GET /tenants/webhooks', list, bearers, pid),
    api_key_list: await load('API key GET /tenants/webhooks', list, data.keys, pid),
  };

  // Phase 3: queue events with no worker running, then let one worker process drain them.
  log(`queueing ${settings.webhookEvents} apikey.issued events`);
  await pool(settings.webhookEvents, 8, async (index) => {
    const answer = await postJson(
      `${service.base}/api/v1/tenants/api-keys`,
      { label: `event ${index}`, scopes: [] },
      { authorization: `Bearer ${bearers[index % bearers.length]}` },
    );
    if (answer.status !== 201) throw new Error(`event ${index} answered ${answer.status}: ${answer.text}`);
  });
  await stopChild(service.handle);
  arrivals.length = 0;
  log('starting `svc worker`');
  const worker = await startService(['worker'], receiverPort);
  const deadline = performance.now() + 300_000;
  while (arrivals.length < settings.webhookEvents && performance.now() < deadline && worker.handle.running()) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await stopChild(worker.handle);
  const seconds = arrivals.length > 1 ? (arrivals[arrivals.length - 1] - arrivals[0]) / 1000 : null;
  const webhooks = {
    events: settings.webhookEvents,
    delivered: arrivals.length,
    seconds: round(seconds, 2),
    deliveries_per_s: seconds ? round((arrivals.length - 1) / seconds, 1) : null,
    // Test-mode egress is the only way to reach a loopback receiver; it trusts the test CA through a TLS
    // context built once, so the figure is the worker's own: claim, sign, TLS handshake, record.
    note: 'one `svc worker` process, TLS to a loopback receiver through SVC_ENV=test egress routes',
  };

  const ratio = (key, bearer) => (bearer.rps > 0 ? round(key.rps / bearer.rps, 3) : null);
  const catalogueRatio = ratio(reads.api_key_catalogue, reads.bearer_catalogue);
  const report = {
    database: storage.database,
    redis: storage.redis,
    node: process.version,
    cpus: cpus().length,
    duration_s: settings.duration,
    connections: settings.connections,
    api_key_read: {
      route: 'GET /api/v1/tenants/webhooks/events',
      bearer: reads.bearer_catalogue,
      api_key: reads.api_key_catalogue,
      ratio_to_bearer: catalogueRatio,
      target: TARGET_RATIO,
      meets_target:
        catalogueRatio !== null &&
        catalogueRatio >= TARGET_RATIO &&
        reads.api_key_catalogue.non_2xx === 0 &&
        reads.api_key_catalogue.errors === 0,
    },
    api_key_read_with_db: {
      route: 'GET /api/v1/tenants/webhooks',
      bearer: reads.bearer_list,
      api_key: reads.api_key_list,
      ratio_to_bearer: ratio(reads.api_key_list, reads.bearer_list),
    },
    webhooks,
  };
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  log(
    `API key / bearer: ${catalogueRatio} (target ${TARGET_RATIO}); webhooks: ${webhooks.deliveries_per_s} deliveries/s`,
  );
  if (process.env.BENCH_STRICT === '1' && !report.api_key_read.meets_target) process.exitCode = 1;
}

async function cleanup() {
  await stopAllChildren();
  receiver.close();
  await storage.remove();
}

runBench(async () => {
  await main();
  await cleanup();
}, cleanup);
