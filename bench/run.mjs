#!/usr/bin/env node
// Throughput benchmark of the hot authentication endpoints against their raw ceilings, in one run.
// `npm run bench` (builds first). Prints ONE JSON document on stdout; progress goes to stderr.
// See docs/benchmarks.md for what is measured, why, and the knobs (BENCH_* environment variables).
import './chosen-node.mjs'; // BENCH_NODE: first, before anything is measured
import { randomBytes } from 'node:crypto';
import { cpus } from 'node:os';
import { join } from 'node:path';
import {
  ACCESS_TOKEN_AUDIENCE,
  ACCESS_TOKEN_ISSUER,
  ceilingsOnOneAndAllCores,
  rsaSigningKey,
  signAccessToken,
} from './ceilings.mjs';
import { ROOT, runStorage, signInLoadOptions } from './service.mjs';
import {
  baseEnv,
  bearerPerConnection,
  cannon,
  commonSettings,
  cpuSample,
  dpopClientKey,
  freePort,
  log,
  meanOf,
  measuredBearerGet,
  measuredLoad,
  pool,
  positiveInteger,
  positiveNumber,
  postJson,
  presignProofs,
  quietBefore,
  round,
  runBench,
  startChild,
  stopAllChildren,
  stopChild,
  summarize,
  waitForHttp,
} from './util.mjs';

const settings = {
  ...commonSettings(),
  loginConnections: positiveInteger('BENCH_LOGIN_CONNECTIONS', 8),
  ceilingSeconds: positiveNumber('BENCH_CEILING_SECONDS', 3),
  /** Algorithms of the clients' DPoP keys, one GET /me load each (docs/benchmarks.md). */
  /** The DPoP comparison: pairs of bearer and DPoP loads, each this many seconds (docs/benchmarks.md). */
  dpopPairs: positiveInteger('BENCH_DPOP_PAIRS', 5),
  dpopSegment: positiveNumber('BENCH_DPOP_SEGMENT', 2),
  dpopAlgs: (process.env.BENCH_DPOP_ALGS ?? 'ES256,RS256')
    .split(',')
    .map((alg) => alg.trim())
    .filter(Boolean),
};

/** Before each measurement: wait (BENCH_WAIT_QUIET s at most) until other processes leave the CPUs alone. */
const quiet = (label, pid) => quietBefore(settings, label, [pid]);

/**
 * Minimum share of each ceiling the endpoint must reach (docs/benchmarks.md), judged against the ceiling on all
 * cores (issue 28, item 4); the ratio to the one-core ceiling is reported beside it.
 */
const TARGETS = {
  get_me: { ceiling: 'bare_fastify_jwt_verify', target: 0.4 },
  refresh: { ceiling: 'rs256_sign_all_cores', target: 0.5 },
  login: { ceiling: 'argon2id_verify_all_cores', target: 0.7 },
};
/** The DPoP-bound GET /me is measured against the bearer GET /me of the same run (issue 3). */
const DPOP_TARGET = 0.7;
/** Proofs signed ahead of a DPoP load, as a multiple of the requests the bearer load made in as long. */
const DPOP_PROOF_MARGIN = 1.3;

const storage = runStorage('main');
const { runId } = storage;
let server;
let bare;

/** The service on this run's storage: a schema of DATABASE_URL (dropped at the end) or a fresh PGlite directory. */
async function startMeasuredService() {
  const { handle, base } = await storage.start();
  server = handle;
  log('the service answers HTTP');
  return base;
}

async function prepare(base) {
  const email = `bench-${runId}@example.com`;
  const password = `Bench-${randomBytes(12).toString('hex')}!`;
  const organizationName = `Bench ${runId}`;
  const tenantSlug = `bench-${runId}`; // the name lowercased, words joined by hyphens
  const forwardedFor = `198.18.${randomBytes(1)[0]}.${1 + (randomBytes(1)[0] % 254)}`;
  const signup = await postJson(
    `${base}/api/v1/auth/signup`,
    { email, password, organization_name: organizationName },
    { 'x-forwarded-for': forwardedFor },
  );
  if (signup.status !== 201) throw new Error(`sign-up answered ${signup.status}: ${signup.text}`);
  const login = { email, password, tenant_slug: tenantSlug };

  // One login per autocannon connection: independent sessions for GET /me, and one refresh-token chain per
  // connection for the refresh load (a second set for its warm-up, whose last in-flight tokens are lost).
  const sessions = settings.connections * (settings.warmup > 0 ? 3 : 2);
  log(`sign-up done; ${sessions} logins for independent sessions`);
  const pairs = await pool(sessions, 4, async (index) => {
    const answer = await postJson(`${base}/api/v1/auth/login`, login);
    if (answer.status !== 200 || !answer.json?.access_token || !answer.json?.refresh_token) {
      throw new Error(`login ${index} answered ${answer.status}: ${answer.text}`);
    }
    return answer.json;
  });
  const me = await fetch(`${base}/api/v1/me`, { headers: { authorization: `Bearer ${pairs[0].access_token}` } });
  if (me.status !== 200) throw new Error(`GET /api/v1/me answered ${me.status}: ${await me.text()}`);
  // DPoP-bound sessions, per key algorithm: one key per connection, the login's proof binds the pair to it.
  const dpopSessions = {};
  for (const alg of settings.dpopAlgs) {
    log(`${settings.connections} DPoP-bound logins (${alg} keys)`);
    dpopSessions[alg] = await pool(settings.connections, 4, async (index) => {
      const key = await dpopClientKey(alg);
      const answer = await postJson(`${base}/api/v1/auth/login`, login, {
        dpop: key.proof('POST', `${base}/api/v1/auth/login`),
      });
      if (answer.status !== 200 || answer.json?.token_type !== 'DPoP') {
        throw new Error(`DPoP login ${index} answered ${answer.status}: ${answer.text}`);
      }
      return { key, token: answer.json.access_token };
    });
    const probe = dpopSessions[alg][0];
    const bound = await fetch(`${base}/api/v1/me`, {
      headers: {
        authorization: `DPoP ${probe.token}`,
        dpop: probe.key.proof('GET', `${base}/api/v1/me`, probe.token),
      },
    });
    if (bound.status !== 200) throw new Error(`DPoP GET /api/v1/me answered ${bound.status}: ${await bound.text()}`);
  }
  const c = settings.connections;
  return {
    login,
    dpopSessions,
    meTokens: pairs.slice(0, c).map((pair) => pair.access_token),
    refreshTokens: pairs.slice(c, 2 * c).map((pair) => pair.refresh_token),
    warmupRefreshTokens: pairs.slice(2 * c).map((pair) => pair.refresh_token),
  };
}

/**
 * autocannon where each connection is a DPoP-bound session sending a fresh proof with every request. Its
 * requests, one per pre-signed proof, are built before the load like the bearer ones, so the load generator
 * does no more work per request than for bearer tokens. A connection that used them all would start over and
 * replay its first proofs: the 401s would show as non-2xx answers.
 */
function dpopPerConnection(sessions, url) {
  let next = 0;
  const path = new URL(url).pathname;
  return (client) => {
    const { token, proofs } = sessions[next++ % sessions.length];
    const authorization = `DPoP ${token}`;
    client.setRequests(proofs.map((dpop) => ({ method: 'GET', path, headers: { authorization, dpop } })));
  };
}

/** GET load with one session per connection, each with its bearer token. */
const loadGet = (name, url, tokens, serverPid) => measuredBearerGet(settings, name, url, tokens, serverPid);

/**
 * DPoP-bound GET /me against bearer GET /me, in BENCH_DPOP_PAIRS pairs of BENCH_DPOP_SEGMENT-second loads, one
 * of each per pair, in alternating order: the speed of a shared VM drifts by tens of percent from one minute to
 * the next, and loads far apart would compare the drift. The ratio is the DPoP requests of all segments over
 * the bearer ones. Before each DPoP segment (outside the measurement) its proofs are signed: DPOP_PROOF_MARGIN
 * times what the bearer GET /me load managed in as long, so the client's signing does not compete with the
 * service for the CPUs.
 */
async function dpopAgainstBearer(alg, base, data, pid, bearerRps) {
  const url = `${base}/api/v1/me`;
  const sessions = data.dpopSessions[alg];
  const seconds = settings.dpopSegment;
  const options = { url, method: 'GET', connections: settings.connections, duration: seconds };
  const presign = async () => {
    const perConnection = Math.ceil((bearerRps * seconds * DPOP_PROOF_MARGIN) / settings.connections);
    await presignProofs(sessions, perConnection, 'GET', url, seconds);
  };
  const name = `GET /api/v1/me (DPoP-bound, ${alg} proofs)`;
  const foreignBefore = await quiet(name, pid);
  if (settings.warmup > 0) {
    await presign();
    await cannon({ ...options, duration: settings.warmup, setupClient: dpopPerConnection(sessions, url) });
  }
  log(`${name} against bearer: ${settings.dpopPairs} pairs of ${seconds} s loads, ${settings.connections} connections`);
  const segments = { dpop: [], bearer: [] };
  const cpu = [];
  for (let pair = 0; pair < settings.dpopPairs; pair++) {
    await presign();
    for (const kind of pair % 2 === 0 ? ['bearer', 'dpop'] : ['dpop', 'bearer']) {
      const setupClient = kind === 'dpop' ? dpopPerConnection(sessions, url) : bearerPerConnection(data.meTokens);
      const sample = kind === 'dpop' ? cpuSample(pid) : undefined;
      segments[kind].push(summarize(await cannon({ ...options, setupClient })));
      if (sample) cpu.push(sample.end());
    }
  }
  const total = (list, field) => list.reduce((sum, segment) => sum + segment[field], 0);
  const duration = settings.dpopPairs * seconds;
  const bearer = {
    rps: round(total(segments.bearer, 'requests') / duration, 1),
    non_2xx: total(segments.bearer, 'non_2xx'),
  };
  return {
    rps: round(total(segments.dpop, 'requests') / duration, 1),
    p50_ms: Math.max(...segments.dpop.map((segment) => segment.p50_ms)),
    p99_ms: Math.max(...segments.dpop.map((segment) => segment.p99_ms)),
    non_2xx: total(segments.dpop, 'non_2xx'),
    errors: total(segments.dpop, 'errors') + total(segments.bearer, 'errors'),
    timeouts: total(segments.dpop, 'timeouts'),
    requests: total(segments.dpop, 'requests'),
    bearer_alongside: bearer,
    pairs: segments.dpop.map((segment, i) => round(segment.requests / segments.bearer[i].requests, 3)),
    // CPU during the DPoP segments only (signing the proofs in between leaves the service idle): their mean.
    cpu: { ...meanOf(cpu), foreign_before: foreignBefore },
  };
}

/**
 * POST /auth/refresh where every connection carries its own refresh-token chain: each request sends the
 * refresh token returned by that connection's previous response. autocannon resets a request's `context`
 * each time it loops over `requests`, so the chain lives in a per-connection closure installed by
 * `setupClient`, and is mirrored into `context` for onResponse.
 */
async function refreshLoad(url, startTokens, duration) {
  const chains = startTokens.map((token) => ({ token, ok: 0, failed: 0 }));
  const failures = {};
  let next = 0;
  const setupClient = (client) => {
    const chain = chains[next++];
    client.setRequests([
      {
        method: 'POST',
        path: '/api/v1/auth/refresh',
        headers: { 'content-type': 'application/json' },
        setupRequest(req, context) {
          context.chain = chain;
          return { ...req, body: JSON.stringify({ refresh_token: chain.token }) };
        },
        onResponse(status, body, context) {
          const own = context.chain ?? chain;
          if (status >= 200 && status < 300) {
            own.token = JSON.parse(body).refresh_token;
            own.ok++;
          } else {
            own.failed++;
            failures[status] = (failures[status] ?? 0) + 1;
          }
        },
      },
    ]);
  };
  const result = await cannon({
    url,
    method: 'POST',
    connections: chains.length,
    duration,
    headers: { 'content-type': 'application/json' },
    body: '{}', // replaced per connection by setupClient before the first request is sent
    setupClient,
  });
  if (next !== chains.length) throw new Error(`autocannon made ${next} connections for ${chains.length} chains`);
  return {
    result,
    non2xxCounted: Object.values(failures).reduce((a, b) => a + b, 0),
    failures,
    brokenChains: chains.filter((chain) => chain.failed > 0).length,
    rotations: chains.reduce((sum, chain) => sum + chain.ok, 0),
  };
}

async function benchService() {
  const base = await startMeasuredService();
  const data = await prepare(base);
  const pid = server.child.pid;
  const endpoints = {};
  /** A measured load of the service: `route` names it, `connections` is what `run` opens. */
  const measure = (route, connections, run, chains = '') =>
    measuredLoad(
      pid,
      settings,
      run,
      () => quiet(route, pid),
      `${route}: ${connections} connections${chains} for ${settings.duration} s`,
    );

  endpoints.get_me = await loadGet('GET /api/v1/me', `${base}/api/v1/me`, data.meTokens, pid);
  for (const alg of settings.dpopAlgs) {
    endpoints[`get_me_dpop_${alg.toLowerCase()}`] = await dpopAgainstBearer(alg, base, data, pid, endpoints.get_me.rps);
  }

  const refreshRun = async (duration, warmup) => {
    const tokens = warmup ? data.warmupRefreshTokens : data.refreshTokens;
    const refresh = await refreshLoad(`${base}/api/v1/auth/refresh`, tokens, duration);
    if (warmup) return {};
    return {
      ...summarize(refresh.result),
      non_2xx_seen_by_chains: refresh.non2xxCounted,
      non_2xx_statuses: refresh.failures,
      broken_chains: refresh.brokenChains,
      rotations: refresh.rotations,
    };
  };
  const chains = ' (one refresh-token chain each)';
  endpoints.refresh = await measure('POST /api/v1/auth/refresh', settings.connections, refreshRun, chains);

  const loginOptions = signInLoadOptions(base, data.login, settings.loginConnections);
  const loginRun = async (duration) => ({
    ...summarize(await cannon({ ...loginOptions, duration })),
    connections: settings.loginConnections,
  });
  endpoints.login = await measure('POST /api/v1/auth/login', settings.loginConnections, loginRun);

  log('stopping the service');
  await stopChild(server);
  return endpoints;
}

async function benchBareFastify() {
  const key = await rsaSigningKey();
  const tokens = await Promise.all(Array.from({ length: settings.connections }, () => signAccessToken(key)));
  const port = await freePort();
  bare = startChild('bare', process.execPath, [join(ROOT, 'bench', 'bare-server.mjs')], {
    cwd: ROOT,
    env: {
      ...baseEnv(),
      PORT: String(port),
      HOST: '127.0.0.1',
      BENCH_PUBLIC_KEY_PEM: key.publicKey.export({ format: 'pem', type: 'spki' }).toString(),
      BENCH_ISSUER: ACCESS_TOKEN_ISSUER,
      BENCH_AUDIENCE: ACCESS_TOKEN_AUDIENCE,
    },
  });
  const url = `http://127.0.0.1:${port}/api/v1/me`;
  await waitForHttp(url, bare);
  const check = await fetch(url, { headers: { authorization: `Bearer ${tokens[0]}` } });
  if (check.status !== 200) throw new Error(`bare Fastify answered ${check.status}: ${await check.text()}`);
  const figures = await loadGet('bare Fastify + jose jwtVerify', url, tokens, bare.child.pid);
  await stopChild(bare);
  return figures;
}

async function cleanup() {
  await stopAllChildren();
  await storage.remove();
}

/** `ceiling` judges the target; `oneCore`, when the ceiling has a one-core figure too, is reported beside it. */
function ratio(endpoint, name, ceiling, oneCore) {
  const { target } = TARGETS[name];
  const value = ceiling > 0 ? endpoint.rps / ceiling : null;
  return {
    ...endpoint,
    ratio_to_ceiling: round(value, 3),
    ...(oneCore ? { ratio_to_one_core_ceiling: round(endpoint.rps / oneCore, 3) } : {}),
    ceiling: TARGETS[name].ceiling,
    target,
    // Errors count as a miss: a fast endpoint that refuses requests meets nothing.
    meets_target: value !== null && value >= target && endpoint.non_2xx === 0 && endpoint.errors === 0,
  };
}

/** DPoP-bound GET /me against the bearer GET /me loads beside it: the proof's cost must stay within 30 %. */
function dpopRatio(endpoint) {
  const { bearer_alongside: bearer } = endpoint;
  const value = bearer.rps > 0 ? endpoint.rps / bearer.rps : null;
  return {
    ...endpoint,
    ratio_to_bearer: round(value, 3),
    baseline: 'bearer_alongside',
    target: DPOP_TARGET,
    meets_target:
      value !== null && value >= DPOP_TARGET && endpoint.non_2xx === 0 && bearer.non_2xx === 0 && endpoint.errors === 0,
  };
}

async function main() {
  log(
    `duration ${settings.duration} s, ${settings.connections} connections (login ${settings.loginConnections}), ` +
      `warm-up ${settings.warmup} s, ceilings ${settings.ceilingSeconds} s each`,
  );
  let endpoints;
  let ceilings;
  try {
    endpoints = await benchService();
    const raw = await ceilingsOnOneAndAllCores(settings.ceilingSeconds, async (label) => {
      await quiet(label);
      log(`raw ceiling: ${label} (${settings.ceilingSeconds} s)`);
    });
    const bareFigures = await benchBareFastify();
    ceilings = {
      rs256_sign_per_s: raw.rs256_sign.one_core_per_s,
      rs256_sign_all_cores_per_s: raw.rs256_sign.all_cores_per_s,
      argon2id_verify_per_s: raw.argon2id_verify.one_core_per_s,
      argon2id_verify_all_cores_per_s: raw.argon2id_verify.all_cores_per_s,
      bare_fastify_jwt_verify: bareFigures,
    };
  } finally {
    await cleanup();
  }

  const report = {
    database: storage.database,
    redis: storage.redis,
    node: process.version,
    cpus: cpus().length,
    duration_s: settings.duration,
    connections: settings.connections,
    endpoints: {
      get_me: ratio(endpoints.get_me, 'get_me', ceilings.bare_fastify_jwt_verify.rps),
      refresh: ratio(endpoints.refresh, 'refresh', ceilings.rs256_sign_all_cores_per_s, ceilings.rs256_sign_per_s),
      login: ratio(endpoints.login, 'login', ceilings.argon2id_verify_all_cores_per_s, ceilings.argon2id_verify_per_s),
      ...Object.fromEntries(
        settings.dpopAlgs.map((alg) => {
          const name = `get_me_dpop_${alg.toLowerCase()}`;
          return [name, dpopRatio(endpoints[name])];
        }),
      ),
    },
    ceilings,
  };
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  const missed = Object.entries(report.endpoints).filter(([, e]) => !e.meets_target);
  log(
    missed.length
      ? `targets missed: ${missed.map(([name, e]) => `${name} (${e.ratio_to_ceiling ?? e.ratio_to_bearer} < ${e.target}${e.non_2xx ? `, ${e.non_2xx} non-2xx` : ''})`).join(', ')}`
      : 'every target met',
  );
  if (process.env.BENCH_STRICT === '1' && missed.length) process.exitCode = 1;
}

runBench(main, cleanup);
