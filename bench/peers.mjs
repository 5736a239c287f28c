#!/usr/bin/env node
// The service side by side with the peers a user would pick instead (issue 28), in one run on one machine:
// `npm run bench:peers` (builds first; installs bench/peers/ when missing). Each provider runs in its own
// process, loaded by the same autocannon (or the same fetch loop for the two-request code exchange) with the
// same connections and duration. A workload's loads of the different providers run back to back, one at a
// time, in BENCH_PEERS_ROUNDS segments each of alternating order (the speed of a shared VM drifts from one
// minute to the next: loads minutes apart would compare the drift):
// - this service on PostgreSQL and Redis;
// - node-oidc-provider with a Redis adapter, and with its default in-memory adapter (bench/peers/);
// - better-auth with its PostgreSQL adapter, email and password, argon2id with the service's parameters.
// Prints ONE JSON document on stdout (and to FILE with `--json FILE`); progress goes to stderr.
// docs/benchmarks.md, "Against the peers", says what is measured and why.
import './chosen-node.mjs'; // BENCH_NODE: first, before anything is measured
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { ceilingsOnOneAndAllCores } from './ceilings.mjs';
import { emitReport, rssOf, sampledLoad, versus } from './peer-loads.mjs';
import { PEERS_DIR, prepareBetterAuth, prepareOidcProvider, prepareService } from './peers-setups.mjs';
import { ROOT } from './service.mjs';
import {
  commonSettings,
  log,
  meanOf,
  ownerSql,
  positiveInteger,
  positiveNumber,
  quietBefore,
  round,
  runBench,
  stopAllChildren,
} from './util.mjs';

const settings = {
  ...commonSettings(),
  loginConnections: positiveInteger('BENCH_LOGIN_CONNECTIONS', 8),
  exchangeWorkers: positiveInteger('BENCH_EXCHANGE_WORKERS', 8),
  ceilingSeconds: positiveNumber('BENCH_CEILING_SECONDS', 3),
  /** Segments per provider and workload, in alternating order; each lasts BENCH_DURATION / rounds. */
  rounds: positiveInteger('BENCH_PEERS_ROUNDS', 2),
};
const databaseUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const runId = randomBytes(4).toString('hex');
/** Schemas this run created, dropped at the end whatever happens. */
const schemas = [];

/** Targets of issue 28, as ratios of the service's figure to the peer's (docs/benchmarks.md). */
const TARGETS = {
  client_credentials_vs_oidc_provider_redis: 1.5,
  client_credentials_vs_oidc_provider_memory: 1.0,
  code_exchange: 1.0,
  refresh: 1.0,
  userinfo: 1.0,
  authenticated_read: 1.0,
  /** Within 10 % of the peer that runs the same hash parameters. */
  password_sign_in: 0.9,
};
const PEAK_RSS_TARGET_MB = 150;
const WORKLOADS = [
  'client_credentials',
  'code_exchange',
  'refresh',
  'userinfo',
  'authenticated_read',
  'password_sign_in',
];

/** bench/peers/ has its own package.json and lock: installed on first use, never in the service's tree. */
function installPeers() {
  if (existsSync(join(PEERS_DIR, 'node_modules', 'better-auth', 'package.json'))) return;
  log('installing the peers (npm ci --prefix bench/peers)');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const run = spawnSync(npm, ['ci', '--prefix', PEERS_DIR, '--no-audit', '--no-fund'], { stdio: 'inherit', cwd: ROOT });
  if (run.status !== 0) throw new Error(`npm ci --prefix bench/peers failed (${run.status ?? run.error?.message})`);
}

const context = { settings, databaseUrl, redisUrl, runId, schemas };

/** One segment of a provider's load, with its CPU split and the process's highest resident memory. */
function segment(provider, workload, seconds) {
  return sampledLoad(provider.pid, () => provider.workloads[workload](seconds, false));
}

/** A segmented workload's figures: requests over the whole time, the worst segment's latencies. */
function combine(segments, seconds) {
  const sum = (field) => segments.reduce((total, s) => total + (s[field] ?? 0), 0);
  return {
    rps: round(sum('requests') / seconds, 1),
    p50_ms: Math.max(...segments.map((s) => s.p50_ms ?? 0)),
    p99_ms: Math.max(...segments.map((s) => s.p99_ms ?? 0)),
    non_2xx: sum('non_2xx'),
    errors: sum('errors'),
    timeouts: sum('timeouts'),
    requests: sum('requests'),
    ...(segments[0].broken_chains !== undefined
      ? { broken_chains: Math.max(...segments.map((s) => s.broken_chains)) }
      : {}),
    ...(segments[0].workers !== undefined ? { workers: segments[0].workers } : {}),
    segments_rps: segments.map((s) => s.rps),
    peak_rss_mb: Math.max(...segments.map((s) => s.peak_rss_mb)),
    cpu: meanOf(segments.map((s) => s.cpu)),
  };
}

/**
 * One workload on every provider that has it: each warms up, then BENCH_PEERS_ROUNDS rounds of one segment
 * per provider, the order reversed every other round. Returns the figures per provider name.
 */
async function workload(name, providers) {
  const ran = providers.filter((provider) => provider.workloads[name]);
  const seconds = settings.duration / settings.rounds;
  const foreignBefore = await quietBefore(
    settings,
    name,
    ran.map((p) => p.pid),
  );
  if (settings.warmup > 0) for (const provider of ran) await provider.workloads[name](settings.warmup, true);
  log(`${name}: ${ran.map((p) => p.name).join(', ')}; ${settings.rounds} rounds of ${seconds} s each`);
  const segments = new Map(ran.map((provider) => [provider.name, []]));
  for (let round = 0; round < settings.rounds; round++) {
    for (const provider of round % 2 === 0 ? ran : [...ran].reverse()) {
      segments.get(provider.name).push(await segment(provider, name, seconds));
    }
  }
  return Object.fromEntries(
    ran.map((provider) => {
      const figures = combine(segments.get(provider.name), settings.duration);
      figures.cpu.foreign_before = foreignBefore;
      return [provider.name, figures];
    }),
  );
}

async function cleanup() {
  await stopAllChildren();
  for (const schema of schemas.splice(0)) {
    try {
      await ownerSql({ databaseUrl, schema: 'public' }, `DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      log(`dropped schema ${schema}`);
    } catch (error) {
      log(`could not drop schema ${schema}: ${error.message}`);
    }
  }
}

function targets(service, oidcRedis, oidcMemory, betterAuth) {
  const out = {
    client_credentials_vs_oidc_provider_redis: versus(
      service.client_credentials,
      oidcRedis.client_credentials,
      TARGETS.client_credentials_vs_oidc_provider_redis,
      'oidc_provider_redis',
    ),
    client_credentials_vs_oidc_provider_memory: versus(
      service.client_credentials,
      oidcMemory.client_credentials,
      TARGETS.client_credentials_vs_oidc_provider_memory,
      'oidc_provider_memory',
    ),
    code_exchange: versus(service.code_exchange, oidcRedis.code_exchange, TARGETS.code_exchange, 'oidc_provider_redis'),
    refresh: versus(service.refresh, oidcRedis.refresh, TARGETS.refresh, 'oidc_provider_redis'),
    userinfo: versus(service.userinfo, oidcRedis.userinfo, TARGETS.userinfo, 'oidc_provider_redis'),
    authenticated_read: versus(
      service.authenticated_read,
      betterAuth.authenticated_read,
      TARGETS.authenticated_read,
      'better_auth',
    ),
    password_sign_in: versus(
      service.password_sign_in,
      betterAuth.password_sign_in,
      TARGETS.password_sign_in,
      'better_auth (argon2id m=19456 KiB, t=2, p=1)',
    ),
    service_peak_rss: {
      value_mb: service.peak_rss_mb,
      target_mb: PEAK_RSS_TARGET_MB,
      met: service.peak_rss_mb !== null && service.peak_rss_mb <= PEAK_RSS_TARGET_MB,
    },
  };
  // "Best peer" of a workload: the fastest peer that ran it in this run.
  const best = (name, ...peers) => {
    const ran = peers.filter(([, figures]) => figures?.[name]);
    if (!ran.length) return undefined;
    const [peer, figures] = ran.reduce((a, b) => (b[1][name].rps > a[1][name].rps ? b : a));
    return { peer, ratio: round(service[name].rps / figures[name].rps, 3) };
  };
  const peers = [
    ['oidc_provider_redis', oidcRedis],
    ['oidc_provider_memory', oidcMemory],
    ['better_auth', betterAuth],
  ];
  for (const name of WORKLOADS) {
    const entry = best(name, ...peers);
    if (entry) out[`best_peer_${name}`] = entry;
  }
  return out;
}

async function main() {
  installPeers();
  log(
    `duration ${settings.duration} s, ${settings.connections} connections (sign-in ${settings.loginConnections}, ` +
      `exchange ${settings.exchangeWorkers} browsers), warm-up ${settings.warmup} s`,
  );
  let report;
  try {
    // All four are started and prepared first; then each workload runs on them back to back.
    const providers = [
      await prepareService(context),
      await prepareOidcProvider(context, 'redis'),
      await prepareOidcProvider(context, 'memory'),
      await prepareBetterAuth(context),
    ];
    const peers = Object.fromEntries(providers.map((p) => [p.name, { setup: p.setup }]));
    for (const name of WORKLOADS) {
      for (const [provider, figures] of Object.entries(await workload(name, providers)))
        peers[provider][name] = figures;
    }
    for (const provider of providers) {
      peers[provider.name].peak_rss_mb = rssOf(provider.pid).peak;
      await provider.stop();
    }
    const quiet = async (label) => {
      await quietBefore(settings, label);
      log(`raw ceiling: ${label} (${settings.ceilingSeconds} s)`);
    };
    const ceilings = await ceilingsOnOneAndAllCores(settings.ceilingSeconds, quiet);
    report = {
      database: 'postgresql',
      redis: true,
      node: process.version,
      cpus: cpus().length,
      duration_s: settings.duration,
      rounds: settings.rounds,
      connections: settings.connections,
      sign_in_connections: settings.loginConnections,
      exchange_workers: settings.exchangeWorkers,
      peers,
      targets: targets(peers.service, peers.oidc_provider_redis, peers.oidc_provider_memory, peers.better_auth),
      ceilings,
    };
  } finally {
    await cleanup();
  }
  await emitReport(report);
  const missed = Object.entries(report.targets).filter(([name, t]) => !name.startsWith('best_') && !t.met);
  log(missed.length ? `targets missed: ${missed.map(([name]) => name).join(', ')}` : 'every target met');
  if (process.env.BENCH_STRICT === '1' && missed.length) process.exitCode = 1;
}

runBench(main, cleanup);
