#!/usr/bin/env node
// Benchmark of the first-party MCP server (issue 24), standalone: `npm run build && node bench/mcp.mjs`. Prints ONE
// JSON document on stdout; progress goes to stderr.
//
// `tools/call whoami` per second (POST /api/v1/mcp, raw JSON-RPC: the three MCP throttles, the agent resolved, the
// process's one SDK server answering through its in-process transport, governance run for the call) against
// `GET /api/v1/me` per second by the same agents in the same run (the agent token resolved, then the route's kind
// check answers 403: the cheapest authenticated answer an agent gets), in alternating pairs. Target: at least 60 %.
// Beside the throughput ratio, the service's CPU time per request on each side (`cpu_us_per_request`) and their
// ratio: on a machine that other work keeps busy, throughput follows the CPU the service is given, the CPU a request
// costs much less so.
// Agents are spread over ORGANIZATIONS organizations moved to the enterprise plan (the per-agent and
// per-organization MCP budgets follow the plan), and every request comes from its own address (X-Forwarded-For,
// one trusted hop), as many hosts would: the per-source-host MCP budget does not cut the load short.
import './chosen-node.mjs'; // BENCH_NODE: first, before anything is measured
import { cpus } from 'node:os';
import { runStorage, signUpOrganization } from './service.mjs';
import {
  cannon,
  commonSettings,
  log,
  measuredLoad,
  positiveInteger,
  postJson,
  quietBefore,
  round,
  runBench,
  stopAllChildren,
  stopChild,
  summarize,
} from './util.mjs';

const settings = { ...commonSettings(), pairs: positiveInteger('BENCH_MCP_PAIRS', 2) };
const TARGET = 0.6;
const ORGANIZATIONS = 5;
const AGENTS_PER_ORGANIZATION = 4;

const storage = runStorage('mcp');
const { runId } = storage;

let nextAddress = 0;
const address = () => {
  const i = nextAddress++;
  return `198.19.${Math.floor(i / 250) % 250}.${1 + (i % 250)}`;
};

async function ok(answer, what) {
  if (answer.status >= 300) throw new Error(`${what} answered ${answer.status}: ${answer.text}`);
  return answer.json;
}

/** Each connection keeps one agent token; each request gets its own source address. */
function perRequest(tokens) {
  let next = 0;
  return (request, context) => {
    context.token ??= tokens[next++ % tokens.length];
    return {
      ...request,
      headers: { ...request.headers, authorization: `Bearer ${context.token}`, 'x-forwarded-for': address() },
    };
  };
}

const WHOAMI = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'whoami', arguments: {} },
});

function load(base, side, tokens, pid) {
  const request =
    side === 'mcp'
      ? {
          method: 'POST',
          path: '/api/v1/mcp',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: WHOAMI,
        }
      : { method: 'GET', path: '/api/v1/me' };
  const name = side === 'mcp' ? 'POST /mcp tools/call whoami' : 'GET /me';
  return measuredLoad(
    pid,
    settings,
    async (duration) =>
      summarize(
        await cannon({
          url: base,
          connections: settings.connections,
          duration,
          requests: [{ ...request, setupRequest: perRequest(tokens) }],
        }),
      ),
    () => quietBefore(settings, name, [pid]),
    `${name}: ${settings.connections} connections for ${settings.duration} s`,
  );
}

async function main() {
  let service = await storage.start({ LOG_LEVEL: 'warn' });
  let { base } = service;
  const agents = [];
  for (let o = 0; o < ORGANIZATIONS; o++) {
    const org = await signUpOrganization(base, `mcp-${runId}-${o}`);
    const auth = { authorization: `Bearer ${org.owner}` };
    for (let a = 0; a < AGENTS_PER_ORGANIZATION; a++) {
      agents.push(await ok(await postJson(`${base}/api/v1/agents`, { name: `bench ${a}` }, auth), 'POST /agents'));
    }
  }
  // The plan is read with the agent's state, cached per node: restart after moving the organizations.
  await stopChild(service.handle);
  await storage.ownerSql(`update tenants set plan = 'enterprise' where slug like 'bench-mcp-${runId}-%'`);
  service = await storage.start({ LOG_LEVEL: 'warn' });
  base = service.base;
  const pid = service.handle.child.pid;

  const tokens = [];
  for (const agent of agents) {
    const minted = await postJson(
      `${base}/api/v1/agents/token`,
      { credential: agent.credential },
      { 'x-forwarded-for': address() },
    );
    tokens.push((await ok(minted, 'agent token')).access_token);
  }
  const check = await postJson(`${base}/api/v1/mcp`, JSON.parse(WHOAMI), {
    authorization: `Bearer ${tokens[0]}`,
    accept: 'application/json, text/event-stream',
  });
  if (check.status !== 200 || check.json?.result?.structuredContent?.agent_id !== agents[0].agent_id) {
    throw new Error(`whoami answered ${check.status}: ${check.text}`);
  }

  const pairs = [];
  for (let p = 0; p < settings.pairs; p++) {
    // Alternating order so the machine's drift falls on both sides alike.
    const order = p % 2 === 0 ? ['me', 'mcp'] : ['mcp', 'me'];
    const pair = {};
    for (const side of order) pair[side] = await load(base, side, tokens, pid);
    pairs.push(pair);
  }
  const sum = (side, key) => pairs.reduce((total, pair) => total + pair[side][key], 0);
  const ratio = round(sum('mcp', 'rps') / sum('me', 'rps'), 3);
  // The service's CPU time (all its threads) per answered request, in microseconds.
  const cpuPerRequest = (side) => round(((side.cpu.server / 100) * 1e6) / side.rps, 0);
  const cpuOf = (side) => pairs.reduce((total, pair) => total + (pair[side].cpu.server / 100) * settings.duration, 0);
  const answered = (side) => pairs.reduce((total, pair) => total + pair[side].rps * settings.duration, 0);
  const cpuRatio = round(cpuOf('me') / answered('me') / (cpuOf('mcp') / answered('mcp')), 3);
  // GET /me answers an agent 403 (a person-only route); every other answer, and any MCP non-2xx, is a failure.
  const meClean = pairs.every((pair) => Object.keys(pair.me.status_codes).every((code) => code === '403'));
  const mcpClean = sum('mcp', 'non_2xx') === 0;
  const report = {
    database: storage.database,
    redis: storage.redis,
    node: process.version,
    cpus: cpus().length,
    duration_s: settings.duration,
    connections: settings.connections,
    agents: agents.length,
    mcp_whoami: {
      route: 'POST /api/v1/mcp tools/call whoami',
      baseline: 'GET /api/v1/me by the same agents (403: person-only route)',
      ratio_to_me: ratio,
      cpu_ratio_to_me: cpuRatio,
      pairs: pairs.map((pair) => ({
        me: {
          rps: pair.me.rps,
          p99_ms: pair.me.p99_ms,
          status_codes: pair.me.status_codes,
          cpu_us_per_request: cpuPerRequest(pair.me),
          cpu: pair.me.cpu,
        },
        mcp: {
          rps: pair.mcp.rps,
          p99_ms: pair.mcp.p99_ms,
          non_2xx: pair.mcp.non_2xx,
          cpu_us_per_request: cpuPerRequest(pair.mcp),
          cpu: pair.mcp.cpu,
        },
        ratio: round(pair.mcp.rps / pair.me.rps, 3),
        cpu_ratio: round(cpuPerRequest(pair.me) / cpuPerRequest(pair.mcp), 3),
      })),
      target: TARGET,
      meets_target: ratio >= TARGET && meClean && mcpClean,
    },
  };
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  log(`MCP tools/call whoami / GET /me: ${ratio} (target ${TARGET}); CPU per request, /me over MCP: ${cpuRatio}`);
  if (process.env.BENCH_STRICT === '1' && !report.mcp_whoami.meets_target) process.exitCode = 1;
}

async function cleanup() {
  await stopAllChildren();
  await storage.remove();
}

runBench(async () => {
  await main();
  await cleanup();
}, cleanup);
