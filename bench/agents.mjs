#!/usr/bin/env node
// Benchmark of AI agents as principals (issue 20), standalone: `npm run build && node bench/agents.mjs`. Prints
// ONE JSON document on stdout; progress goes to stderr.
//
// 1. Agent token mints per second (`POST /agents/token` with the credential) against the raw RS256 signing
//    ceiling of the same run on all cores (target: at least 60 % of it; one core reported too).
// 2. Federated exchanges per second (`POST /agents/token/federated`) of ES256 attestations signed beforehand by
//    an issuer this script runs over TLS (reached through the test-only egress route, so the service runs with
//    SVC_ENV=test, which changes nothing else but the default log level). No target; the figure is reported.
// 3. An agent-authenticated read against the same read by a person's bearer token, in alternating pairs
//    (`GET /tenants/webhooks/events`, `tenant:manage`, no database read): target at least 80 %.
// 4. The federated exchange's refusals timed against each other (unknown organization, unknown issuer, bad
//    signature, wrong audience, no binding, replayed jti): the median of each, and their spread (max / min).
// Mints are spread over ORGANIZATIONS organizations (each one's issuance allowance is 6,000 per 5 minutes) and
// each connection has its own address (X-Forwarded-For, one trusted hop), as many agents and hosts would; the
// organizations move to the enterprise plan so the per-agent request budget does not cut the reads short.
import './chosen-node.mjs'; // BENCH_NODE: first, before anything is measured
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { allCoresRate, rs256SignRate } from './ceilings.mjs';
import { ROOT, runStorage, signUpOrganization } from './service.mjs';
import {
  cannon,
  commonSettings,
  log,
  measuredBearerGet,
  measuredLoad,
  positiveInteger,
  positiveNumber,
  postJson,
  quietBefore,
  round,
  runBench,
  stopAllChildren,
  stopChild,
  summarize,
  withCpu,
} from './util.mjs';

const settings = {
  ...commonSettings(),
  ceilingSeconds: positiveNumber('BENCH_CEILING_SECONDS', 3),
  pairs: positiveInteger('BENCH_AGENT_PAIRS', 2),
  exchangeWorkers: positiveInteger('BENCH_EXCHANGE_WORKERS', 8),
};
const MINT_TARGET = 0.6;
const READ_TARGET = 0.8;
const ORGANIZATIONS = 10;
const ISSUER_HOST = 'secure.example.test';
const testdata = join(ROOT, 'src/kernel/net/testdata');

const storage = runStorage('agents');
const { runId } = storage;
let issuerServer;

const address = (i) => `198.19.${Math.floor(i / 250) % 250}.${1 + (i % 250)}`;

/** The attestation issuer: discovery and one ES256 key, over TLS with the test CA's certificate. */
async function startIssuer() {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'bench', alg: 'ES256', use: 'sig' };
  issuerServer = createServer(
    { cert: readFileSync(join(testdata, 'server-cert.pem')), key: readFileSync(join(testdata, 'server-key.pem')) },
    (request, response) => {
      const path = new URL(request.url, `https://${ISSUER_HOST}`).pathname;
      const issuer = `https://${ISSUER_HOST}${path.replace(/\/(\.well-known\/openid-configuration|jwks)$/, '')}`;
      response.setHeader('content-type', 'application/json');
      if (path.endsWith('/.well-known/openid-configuration')) {
        response.end(JSON.stringify({ issuer, jwks_uri: `${issuer}/jwks` }));
      } else if (path.endsWith('/jwks')) response.end(JSON.stringify({ keys: [jwk] }));
      else response.writeHead(404).end('{}');
    },
  );
  await new Promise((resolve) => issuerServer.listen(0, '127.0.0.1', resolve));
  return { port: issuerServer.address().port, privateKey };
}

function startRunService(issuerPort) {
  return storage.start({
    SVC_ENV: 'test',
    LOG_LEVEL: 'warn',
    EGRESS_TEST_ROUTES: `${ISSUER_HOST}=127.0.0.1:${issuerPort}`,
    EGRESS_TEST_CA_FILE: join(testdata, 'ca.pem'),
  });
}

async function ok(answer, what) {
  if (answer.status >= 300) throw new Error(`${what} answered ${answer.status}: ${answer.text}`);
  return answer.json;
}

/** ORGANIZATIONS organizations, each with two agents holding `tenant:manage`, an issuer and a binding. */
async function prepare(base) {
  const orgs = [];
  for (let o = 0; o < ORGANIZATIONS; o++) {
    const org = await signUpOrganization(base, `agents-${runId}-${o}`);
    const auth = { authorization: `Bearer ${org.owner}` };
    const agents = [];
    for (let a = 0; a < 2; a++) {
      const agent = await ok(await postJson(`${base}/api/v1/agents`, { name: `bench ${a}` }, auth), 'POST /agents');
      await ok(
        await postJson(`${base}/api/v1/agents/${agent.agent_id}/delegations`, { permissions: ['tenant:manage'] }, auth),
        'delegation',
      );
      agents.push(agent);
    }
    const issuer = await ok(
      await postJson(`${base}/api/v1/agents/issuers`, { issuer: `https://${ISSUER_HOST}/org-${o}` }, auth),
      'POST /agents/issuers',
    );
    await ok(
      await postJson(
        `${base}/api/v1/agents/issuers/${issuer.id}/bindings`,
        { agent_id: agents[0].agent_id, claims: { sub: 'bench-workload' } },
        auth,
      ),
      'binding',
    );
    orgs.push({ ...org, agents, issuer: issuer.issuer, slug: org.login.tenant_slug });
  }
  return orgs;
}

/** Agent token mints: each connection its own address and one organization's agent credential. */
function mintLoad(base, orgs, pid) {
  const credentials = orgs.flatMap((org) => org.agents.map((agent) => agent.credential));
  let next = 0;
  const setupClient = (client) => {
    const i = next++;
    client.setHeaders({ 'content-type': 'application/json', 'x-forwarded-for': address(i) });
    client.setBody(JSON.stringify({ credential: credentials[i % credentials.length] }));
  };
  const options = { url: `${base}/api/v1/agents/token`, method: 'POST', connections: settings.connections };
  return measuredLoad(
    pid,
    settings,
    async (duration) => summarize(await cannon({ ...options, duration, setupClient })),
    () => quietBefore(settings, 'agent token mint', [pid]),
    `POST /agents/token: ${settings.connections} connections for ${settings.duration} s`,
  );
}

/** ES256 attestations signed before the load: `count` per organization, each with its own `jti`. */
async function attestations(base, orgs, privateKey, count) {
  const now = Math.floor(Date.now() / 1000);
  const signed = [];
  for (let i = 0; i < count; i++) {
    for (const org of orgs) {
      const token = await new SignJWT({ sub: 'bench-workload', jti: randomUUID() })
        .setProtectedHeader({ alg: 'ES256', kid: 'bench' })
        .setIssuer(org.issuer)
        .setAudience(base)
        .setIssuedAt(now)
        .setExpirationTime(now + 1800)
        .sign(privateKey);
      signed.push({ tenant: org.slug, subject_token: token });
    }
  }
  return signed;
}

/** `workers` loops of back-to-back federated exchanges for `seconds`, taking the next attestation each time. */
async function exchangeLoad(base, queue, workers, seconds) {
  const deadline = performance.now() + seconds * 1000;
  const start = performance.now();
  let done = 0;
  let failed = 0;
  let ranOut = false;
  await Promise.all(
    Array.from({ length: workers }, async (_, w) => {
      while (performance.now() < deadline) {
        const body = queue.pop();
        if (!body) {
          ranOut = true;
          return;
        }
        const answer = await postJson(`${base}/api/v1/agents/token/federated`, body, {
          'x-forwarded-for': address(1000 + w),
        });
        if (answer.status === 200) done++;
        else if (failed++ === 0) log(`federated exchange answered ${answer.status}: ${answer.text}`);
      }
    }),
  );
  if (ranOut) log('federated exchange: the signed attestations ran out before the load ended');
  const elapsed = (performance.now() - start) / 1000;
  return { exchanges: done, failed, ran_out: ranOut, seconds: round(elapsed, 2), per_s: round(done / elapsed, 1) };
}

/**
 * The refusal paths of the federated exchange, timed against each other (Part B 4.1, 7: one identical 401 in body,
 * headers and timing). Requests go one at a time, the cases interleaved round by round so the machine's drift falls
 * on all alike; each organization takes REFUSAL_ROUNDS rounds, inside its failure brakes (30 per issuer).
 */
const REFUSAL_ROUNDS = 6;
async function refusalTiming(base, orgs, privateKey) {
  const { privateKey: strangerKey } = await generateKeyPair('ES256');
  const now = Math.floor(Date.now() / 1000);
  const attestation = (org, { key = privateKey, iss = org.issuer, aud = base, sub = 'bench-workload', jti } = {}) =>
    new SignJWT({ sub, jti: jti ?? randomUUID() })
      .setProtectedHeader({ alg: 'ES256', kid: 'bench' })
      .setIssuer(iss)
      .setAudience(aud)
      .setIssuedAt(now)
      .setExpirationTime(now + 1800)
      .sign(key);
  const cases = {
    unknown_organization: async (org) => ({ tenant: `no-such-${randomUUID()}`, subject_token: await attestation(org) }),
    unknown_issuer: async (org) => ({
      tenant: org.slug,
      subject_token: await attestation(org, { iss: `${org.issuer}-x` }),
    }),
    bad_signature: async (org) => ({ tenant: org.slug, subject_token: await attestation(org, { key: strangerKey }) }),
    wrong_audience: async (org) => ({
      tenant: org.slug,
      subject_token: await attestation(org, { aud: 'https://elsewhere.example' }),
    }),
    no_binding: async (org) => ({ tenant: org.slug, subject_token: await attestation(org, { sub: 'someone-else' }) }),
    replayed_jti: async (org) => ({ tenant: org.slug, subject_token: org.spent }),
  };
  for (const org of orgs) {
    org.spent = await attestation(org);
    await ok(
      await postJson(`${base}/api/v1/agents/token/federated`, { tenant: org.slug, subject_token: org.spent }),
      'exchange',
    );
  }
  const samples = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
  let unexpected = 0;
  const bodies = new Set();
  for (let r = 0; r < REFUSAL_ROUNDS; r++) {
    for (const [o, org] of orgs.entries()) {
      for (const [name, make] of Object.entries(cases)) {
        const body = await make(org);
        const started = performance.now();
        const answer = await postJson(`${base}/api/v1/agents/token/federated`, body, {
          'x-forwarded-for': address(3000 + o),
        });
        samples[name].push(performance.now() - started);
        if (answer.status !== 401) unexpected++;
        bodies.add(answer.text);
      }
    }
  }
  const median = (values) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)];
  };
  const medians = Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, round(median(values), 2)]));
  const values = Object.values(medians);
  return {
    samples_per_case: REFUSAL_ROUNDS * orgs.length,
    median_ms: medians,
    spread: round(Math.max(...values) / Math.min(...values), 3),
    distinct_bodies: bodies.size,
    non_401: unexpected,
  };
}

async function main() {
  const issuer = await startIssuer();
  let service = await startRunService(issuer.port);
  const orgs = await prepare(service.base);
  await stopChild(service.handle);
  await storage.ownerSql(`update tenants set plan = 'enterprise' where slug like 'bench-agents-${runId}-%'`);
  service = await startRunService(issuer.port);
  const { base } = service;
  const pid = service.handle.child.pid;

  log(`raw RS256 signing ceiling, one core then all cores: ${settings.ceilingSeconds} s each`);
  const oneCore = await rs256SignRate(settings.ceilingSeconds);
  const ceiling = await allCoresRate('rs256_sign', settings.ceilingSeconds);
  const mints = await mintLoad(base, orgs, pid);

  // One token per agent for the reads; the person's side is each organization's owner on the same route.
  const agentTokens = [];
  for (const [i, org] of orgs.entries()) {
    for (const agent of org.agents) {
      const minted = await postJson(
        `${base}/api/v1/agents/token`,
        { credential: agent.credential },
        { 'x-forwarded-for': address(2000 + i) },
      );
      agentTokens.push((await ok(minted, 'agent token')).access_token);
    }
  }
  const ownerTokens = orgs.map((org) => org.owner);
  const url = `${base}/api/v1/tenants/webhooks/events`;
  const pairs = [];
  for (let p = 0; p < settings.pairs; p++) {
    // Alternating order (bearer first, then agent first) so the machine's drift falls on both sides alike.
    const order = p % 2 === 0 ? ['bearer', 'agent'] : ['agent', 'bearer'];
    const pair = {};
    for (const side of order) {
      const tokens = side === 'bearer' ? ownerTokens : agentTokens;
      pair[side] = await measuredBearerGet(settings, `${side} GET /tenants/webhooks/events`, url, tokens, pid);
    }
    pairs.push(pair);
  }

  const perSecondGuess = 1500;
  const count = Math.ceil(((settings.duration + settings.warmup) * perSecondGuess) / orgs.length);
  log(`signing ${count * orgs.length} ES256 attestations`);
  const queue = await attestations(base, orgs, issuer.privateKey, count);
  await quietBefore(settings, 'federated exchange', [pid]);
  if (settings.warmup > 0) await exchangeLoad(base, queue, settings.exchangeWorkers, settings.warmup);
  log(`federated exchanges: ${settings.exchangeWorkers} workers for ${settings.duration} s`);
  const exchanges = await withCpu(pid, () => exchangeLoad(base, queue, settings.exchangeWorkers, settings.duration));
  log(`federated exchange refusals: ${REFUSAL_ROUNDS} rounds per organization, one request at a time`);
  const refusals = await refusalTiming(base, orgs, issuer.privateKey);
  await stopChild(service.handle);

  const mintRatio = ceiling.per_s > 0 ? round(mints.rps / ceiling.per_s, 3) : null;
  const sum = (side, key) => pairs.reduce((total, pair) => total + pair[side][key], 0);
  const readRatio = round(sum('agent', 'rps') / sum('bearer', 'rps'), 3);
  const readsClean = sum('agent', 'non_2xx') + sum('bearer', 'non_2xx') === 0;
  const report = {
    database: storage.database,
    redis: storage.redis,
    node: process.version,
    cpus: cpus().length,
    duration_s: settings.duration,
    connections: settings.connections,
    organizations: ORGANIZATIONS,
    ceilings: {
      rs256_sign: { per_s: round(oneCore.per_s, 1), operations: oneCore.operations },
      rs256_sign_all_cores: { per_s: round(ceiling.per_s, 1), operations: ceiling.operations },
    },
    agent_token_mint: {
      ...mints,
      ratio_to_rs256_sign: mintRatio,
      ratio_to_rs256_sign_one_core: oneCore.per_s > 0 ? round(mints.rps / oneCore.per_s, 3) : null,
      target: MINT_TARGET,
      meets_target: mintRatio !== null && mintRatio >= MINT_TARGET && mints.non_2xx === 0 && mints.errors === 0,
    },
    agent_read: {
      route: 'GET /api/v1/tenants/webhooks/events',
      ratio_to_bearer: readRatio,
      pairs: pairs.map((pair) => ({
        bearer: { rps: pair.bearer.rps, p99_ms: pair.bearer.p99_ms, non_2xx: pair.bearer.non_2xx },
        agent: { rps: pair.agent.rps, p99_ms: pair.agent.p99_ms, non_2xx: pair.agent.non_2xx, cpu: pair.agent.cpu },
        ratio: round(pair.agent.rps / pair.bearer.rps, 3),
      })),
      target: READ_TARGET,
      meets_target: readRatio >= READ_TARGET && readsClean,
    },
    federated_exchange: { ...exchanges, workers: settings.exchangeWorkers, alg: 'ES256' },
    federated_refusals: refusals,
  };
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  log(
    `agent mint / RS256 sign on all cores: ${mintRatio} (target ${MINT_TARGET}); agent read / bearer: ` +
      `${readRatio} (target ${READ_TARGET}); federated exchanges: ${exchanges.per_s}/s; refusal medians spread ` +
      `${refusals.spread} (${refusals.distinct_bodies} distinct bodies)`,
  );
  if (process.env.BENCH_STRICT === '1' && !(report.agent_token_mint.meets_target && report.agent_read.meets_target)) {
    process.exitCode = 1;
  }
}

async function cleanup() {
  await stopAllChildren();
  issuerServer?.close();
  await storage.remove();
}

runBench(async () => {
  await main();
  await cleanup();
}, cleanup);
