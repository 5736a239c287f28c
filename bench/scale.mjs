#!/usr/bin/env node
// The service at scale (issue 28, item 3): `npm run bench:scale` (builds first). On PostgreSQL and Redis, seeds
// the service's schema with 10,000 and then 1,000,000 accounts (sessions, memberships, refresh-token history,
// events) across 1,000 organizations (bench/scale-seed.mjs) and measures GET /me, refresh, login and
// client_credentials at each size, the same way each time. Target: at the largest size each figure is at least
// 85 % of its figure at the smallest. The schema, and with it every seeded row, is dropped at the end.
// Prints ONE JSON document on stdout (and to FILE with `--json FILE`); progress goes to stderr.
import './chosen-node.mjs'; // BENCH_NODE: first, before anything is measured
import { randomBytes } from 'node:crypto';
import { cpus } from 'node:os';
import { hash } from '@node-rs/argon2';
import pg from 'pg';
import { ARGON2ID } from './ceilings.mjs';
import {
  basicAuth,
  clientCredentialsLoadOptions,
  emitReport,
  measured,
  perConnectionGet,
  refreshChainLoad,
  rssOf,
} from './peer-loads.mjs';
import { analyze, counts, ORGANIZATIONS, seedAccounts, seedOrganizations } from './scale-seed.mjs';
import { allowanceSql, logins, registerClient, runStorage, signInLoadOptions, signUpOrganization } from './service.mjs';
import {
  cannon,
  commonSettings,
  log,
  positiveInteger,
  quietBefore,
  round,
  runBench,
  stopAllChildren,
  stopChild,
  summarize,
} from './util.mjs';

const settings = {
  ...commonSettings(),
  loginConnections: positiveInteger('BENCH_LOGIN_CONNECTIONS', 8),
  /** Account counts measured, smallest first; BENCH_SCALE_MAX replaces the largest (a shorter smoke run). */
  sizes: (process.env.BENCH_SCALE_SIZES ?? '10000,1000000').split(',').map(Number),
};
if (process.env.BENCH_SCALE_MAX) settings.sizes[settings.sizes.length - 1] = positiveInteger('BENCH_SCALE_MAX', 0);
if (settings.sizes.some((n, i) => !Number.isInteger(n) || n < ORGANIZATIONS || (i > 0 && n <= settings.sizes[i - 1]))) {
  throw new Error(`BENCH_SCALE_SIZES: increasing whole numbers of at least ${ORGANIZATIONS}`);
}
/** Each figure at the largest size must be at least this share of the same figure at the smallest. */
const TARGET = 0.85;

const storage = runStorage('scale', {
  databaseUrl: 'postgres://postgres@127.0.0.1:5432/test',
  redisUrl: 'redis://127.0.0.1:6379',
});
const { runId, databaseUrl, schema } = storage;
let db;

async function prepare() {
  let service = await storage.start();
  const org = await signUpOrganization(service.base, runId);
  const client = await registerClient(service.base, org.owner, {
    name: 'Bench scale',
    client_type: 'confidential',
    redirect_uris: ['http://127.0.0.1:9/callback'],
    grant_types: ['authorization_code', 'client_credentials'],
  });
  await stopChild(service.handle);
  await storage.ownerSql(allowanceSql(org.tenantId));
  service = await storage.start();
  const basic = basicAuth(client.client_id, client.client_secret);
  return { service, org, basic };
}

/** The four loads, at the current size. */
async function measure({ service, org, basic }) {
  const { base } = service;
  const pid = service.handle.child.pid;
  const c = settings.connections;
  const load = (label, run) => {
    log(`${label}: ${settings.duration} s`);
    return measured(pid, settings, run, () => quietBefore(settings, label, [pid]));
  };
  const pairs = await logins(base, org.login, 3 * c);
  const out = {};
  const chains = pairs.slice(c, 2 * c).map((pair) => ({ token: pair.refresh_token }));
  const warmChains = pairs.slice(2 * c).map((pair) => ({ token: pair.refresh_token }));
  const bearer = pairs.slice(0, c).map((pair) => ({ authorization: `Bearer ${pair.access_token}` }));
  out.get_me = await load('GET /api/v1/me', (duration) => perConnectionGet(`${base}/api/v1/me`, bearer, c, duration));
  out.refresh = await load('POST /api/v1/auth/refresh', (duration, warmup) =>
    refreshChainLoad({
      url: `${base}/api/v1/auth/refresh`,
      chains: warmup ? warmChains : chains,
      duration,
      headers: { 'content-type': 'application/json' },
      body: (token) => JSON.stringify({ refresh_token: token }),
    }),
  );
  const signIn = signInLoadOptions(base, org.login, settings.loginConnections);
  out.login = await load('POST /api/v1/auth/login', async (duration) =>
    summarize(await cannon({ ...signIn, duration })),
  );
  const grants = clientCredentialsLoadOptions(`${base}/api/v1/oauth/token`, basic, 'openid', c);
  out.client_credentials = await load('POST /api/v1/oauth/token client_credentials', async (duration) =>
    summarize(await cannon({ ...grants, duration })),
  );
  out.peak_rss_mb = rssOf(pid).peak;
  return out;
}

async function cleanup() {
  await stopAllChildren();
  if (db) {
    await db.end().catch(() => {});
    db = undefined;
  }
  await storage.remove(); // every seeded row with it
}

async function main() {
  log(
    `sizes ${settings.sizes.join(', ')} accounts; ${settings.duration} s per load, ${settings.connections} connections`,
  );
  const started = performance.now();
  const sizes = [];
  try {
    const prepared = await prepare();
    db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    await db.query(`SET search_path TO "${schema}"`);
    // Seeding only: these rows need no durable commit one by one (the schema is dropped at the end).
    await db.query('SET synchronous_commit TO off');
    const passwordHash = await hash(`seed-${randomBytes(8).toString('hex')}`, ARGON2ID);
    await seedOrganizations(db);
    // The bench organization's owner is account number 0: seeded accounts are numbered from 1.
    let seeded = 1;
    for (const size of settings.sizes) {
      const seedStarted = performance.now();
      log(`seeding accounts ${seeded} to ${size - 1}`);
      await seedAccounts(db, { from: seeded, to: size - 1, benchTenantId: prepared.org.tenantId, passwordHash });
      seeded = size;
      await analyze(db);
      const seedSeconds = round((performance.now() - seedStarted) / 1000, 1);
      const rows = await counts(db);
      log(`${rows.users} accounts in ${rows.tenants} organizations (seeded in ${seedSeconds} s)`);
      sizes.push({ accounts: size, rows, seed_seconds: seedSeconds, workloads: await measure(prepared) });
    }
  } finally {
    await cleanup();
  }
  const [small] = sizes;
  const large = sizes[sizes.length - 1];
  const ratios = {};
  for (const name of ['get_me', 'refresh', 'login', 'client_credentials']) {
    const ours = large.workloads[name];
    const value = small.workloads[name].rps > 0 ? ours.rps / small.workloads[name].rps : null;
    ratios[name] = {
      ratio: round(value, 3),
      target: TARGET,
      met: value !== null && value >= TARGET && ours.non_2xx === 0 && ours.errors === 0,
    };
  }
  await emitReport({
    database: 'postgresql',
    redis: true,
    node: process.version,
    cpus: cpus().length,
    duration_s: settings.duration,
    connections: settings.connections,
    login_connections: settings.loginConnections,
    organizations: ORGANIZATIONS,
    total_seconds: round((performance.now() - started) / 1000, 1),
    sizes,
    largest_vs_smallest: ratios,
  });
  const missed = Object.entries(ratios).filter(([, r]) => !r.met);
  log(
    missed.length
      ? `targets missed: ${missed.map(([name, r]) => `${name} (${r.ratio})`).join(', ')}`
      : 'every target met',
  );
  if (process.env.BENCH_STRICT === '1' && missed.length) process.exitCode = 1;
}

runBench(main, cleanup);
