// Helpers of the bench/ scripts: logging, child processes, ports, HTTP, autocannon, CPU accounting, the run's
// life cycle (clean-up on a signal or a failure).
import { spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import autocannon from 'autocannon';
import { encodeHeader, proofSigner } from './dpop-signer.mjs';

const t0 = performance.now();
/** Progress goes to stderr: stdout carries only the final JSON document. */
export function log(message) {
  process.stderr.write(`[bench +${((performance.now() - t0) / 1000).toFixed(1)}s] ${message}\n`);
}

export function positiveNumber(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name}: expected a positive number, got "${raw}"`);
  return value;
}

export function positiveInteger(name, fallback) {
  const value = positiveNumber(name, fallback);
  if (!Number.isInteger(value)) throw new Error(`${name}: expected a whole number, got "${process.env[name]}"`);
  return value;
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * The knobs every bench script reads (docs/benchmarks.md): BENCH_DURATION, BENCH_CONNECTIONS, BENCH_WARMUP and
 * BENCH_WAIT_QUIET (seconds, 0 to skip). A script adds its own to these.
 */
export function commonSettings() {
  const settings = {
    duration: positiveNumber('BENCH_DURATION', 10),
    connections: positiveInteger('BENCH_CONNECTIONS', 20),
    warmup: Number(process.env.BENCH_WARMUP ?? 2),
    waitQuiet: Number(process.env.BENCH_WAIT_QUIET ?? 60),
  };
  for (const [name, value] of [
    ['BENCH_WARMUP', settings.warmup],
    ['BENCH_WAIT_QUIET', settings.waitQuiet],
  ]) {
    if (!Number.isFinite(value) || value < 0) {
      throw new Error(`${name}: expected a number of seconds >= 0, got "${process.env[name]}"`);
    }
  }
  return settings;
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every child started here, so that any exit path can kill what is still running. */
const children = new Set();

process.on('exit', () => {
  for (const child of children) {
    try {
      child.kill('SIGKILL');
    } catch {}
  }
});

/**
 * Starts a child process whose stdout and stderr are copied to our stderr (prefixed) and kept (tail) for
 * error messages.
 */
export function startChild(name, command, args, options) {
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  const tail = [];
  const copy = (chunk) => {
    for (const line of chunk.toString().split('\n')) {
      if (!line) continue;
      tail.push(line);
      if (tail.length > 40) tail.shift();
      process.stderr.write(`[${name}] ${line}\n`);
    }
  };
  child.stdout.on('data', copy);
  child.stderr.on('data', copy);
  const exited = new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      children.delete(child);
      resolve({ code, signal });
    });
    child.on('error', (error) => {
      children.delete(child);
      tail.push(String(error));
      resolve({ code: -1, signal: null, error });
    });
  });
  return { name, child, exited, tail, running: () => child.exitCode === null && child.signalCode === null };
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once the child is gone. */
export async function stopChild(handle, graceMs = 10_000) {
  if (!handle?.running()) return;
  handle.child.kill('SIGTERM');
  const timer = setTimeout(() => {
    if (handle.running()) {
      log(`${handle.name} did not stop within ${graceMs} ms; SIGKILL`);
      handle.child.kill('SIGKILL');
    }
  }, graceMs);
  await handle.exited;
  clearTimeout(timer);
}

export async function stopAllChildren() {
  const handles = [...children].map((child) => ({
    name: `pid ${child.pid}`,
    child,
    exited: new Promise((resolve) => child.once('exit', resolve)),
    running: () => child.exitCode === null && child.signalCode === null,
  }));
  await Promise.all(handles.map((handle) => stopChild(handle, 5_000)));
}

/** Waits until `url` answers HTTP at all (any status), failing early if the child exits. */
export async function waitForHttp(url, handle, timeoutMs = 90_000) {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (!handle.running()) {
      throw new Error(`${handle.name} exited before answering HTTP:\n${handle.tail.join('\n')}`);
    }
    try {
      await fetch(url, { signal: AbortSignal.timeout(2_000) });
      return;
    } catch {
      await sleep(200);
    }
  }
  throw new Error(`${handle.name} did not answer HTTP at ${url} within ${timeoutMs} ms:\n${handle.tail.join('\n')}`);
}

export async function postJson(url, body, headers = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, json, text };
}

/** Runs `count` async jobs with at most `concurrency` at once; returns their results in order. */
export async function pool(count, concurrency, job) {
  const results = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      results[index] = await job(index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(count, concurrency) }, worker));
  return results;
}

/** autocannon's programmatic API as a promise. */
export function cannon(options) {
  return new Promise((resolve, reject) => {
    autocannon({ timeout: 30, ...options }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

const round = (value, digits = 2) => (Number.isFinite(value) ? Number(value.toFixed(digits)) : null);

export { round };

/** The figures we report from an autocannon result. */
export function summarize(result) {
  const statusCodes = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => [code, count]),
  );
  return {
    rps: round(result.requests.average, 1),
    p50_ms: round(result.latency.p50),
    p99_ms: round(result.latency.p99),
    non_2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    requests: result.requests.total,
    status_codes: statusCodes,
  };
}

// ---- CPU accounting from /proc (Linux): which process used the cores during a load ----

let clockTicks = 100;
try {
  const { execFileSync } = await import('node:child_process');
  clockTicks = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
} catch {}

/** utime + stime (all threads) of every process, with its command name. */
function processTable() {
  const table = new Map();
  let entries = [];
  try {
    entries = readdirSync('/proc');
  } catch {
    return table;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const comm = stat.slice(stat.indexOf('(') + 1, close);
      const fields = stat.slice(close + 2).split(' ');
      // fields[0] is field 3 (state); utime and stime are fields 14 and 15.
      table.set(Number(entry), { comm, ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {}
  }
  return table;
}

function describe(pid, comm) {
  if (comm !== 'node') return comm;
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    const script = args.slice(1).find((arg) => !arg.startsWith('-') && /[/.]/.test(arg));
    return `node ${script ? script.replace(/^.*node_modules\//, '') : ''}`.trim();
  } catch {
    return comm;
  }
}

/** utime + stime of one thread (the main thread of a process has the process's id). */
function threadTicks(pid, tid) {
  try {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return undefined;
  }
}

function machineTicks() {
  try {
    const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const idle = cpu[3] + (cpu[4] ?? 0);
    const total = cpu.slice(0, 8).reduce((a, b) => a + b, 0);
    return { busy: total - idle, total };
  } catch {
    return undefined;
  }
}

/**
 * Starts a CPU sample over a load; `end()` returns the CPU time each party used during the window, in
 * percent of one core (200 = both cores of a 2-core machine): the server under test, PostgreSQL (every
 * `postgres` process on the machine, so other users of the same server count too), Redis, this benchmark
 * process (autocannon), the whole machine, and `other` = the rest, with the biggest other processes named.
 * Every process is read once a second, so backends that exit during the window still count (up to 1 s).
 */
export function cpuSample(serverPid) {
  const startedAt = performance.now();
  const machine = machineTicks();
  const mainThread = serverPid ? threadTicks(serverPid, serverPid) : undefined;
  const first = processTable();
  /** pid -> { comm, base, last } */
  const seen = new Map();
  for (const [pid, { comm, ticks }] of first) seen.set(pid, { comm, base: ticks, last: ticks });
  const poll = () => {
    for (const [pid, { comm, ticks }] of processTable()) {
      const known = seen.get(pid);
      if (known) known.last = ticks;
      else seen.set(pid, { comm, base: 0, last: ticks }); // started during the window
    }
  };
  const timer = setInterval(poll, 1000);
  timer.unref();
  return {
    end() {
      clearInterval(timer);
      poll();
      const seconds = (performance.now() - startedAt) / 1000;
      const pct = (ticks) => round((ticks / clockTicks / seconds) * 100, 0);
      const groups = new Map();
      const add = (name, ticks) => groups.set(name, (groups.get(name) ?? 0) + ticks);
      for (const [pid, { comm, base, last }] of seen) {
        const used = Math.max(0, last - base);
        if (used === 0) continue;
        if (pid === serverPid) add('server', used);
        else if (pid === process.pid) add('bench_autocannon', used);
        else if (comm === 'postgres') add('postgres', used);
        else if (comm === 'redis-server') add('redis', used);
        else add(`other:${describe(pid, comm)}`, used);
      }
      const mainThreadNow = serverPid ? threadTicks(serverPid, serverPid) : undefined;
      const out = {
        server: pct(groups.get('server') ?? 0),
        // The event-loop thread alone: near 100 means the server's JavaScript is the bottleneck.
        server_main_thread:
          mainThread !== undefined && mainThreadNow !== undefined ? pct(mainThreadNow - mainThread) : null,
        postgres: pct(groups.get('postgres') ?? 0),
        redis: pct(groups.get('redis') ?? 0),
        bench_autocannon: pct(groups.get('bench_autocannon') ?? 0),
      };
      const machineNow = machineTicks();
      if (machine && machineNow) {
        out.machine_busy = pct(machineNow.busy - machine.busy);
        out.machine_capacity = round(((machineNow.total - machine.total) / clockTicks / seconds) * 100, 0);
      }
      const others = [...groups].filter(([name]) => name.startsWith('other:')).sort((a, b) => b[1] - a[1]);
      out.other = pct(others.reduce((sum, [, ticks]) => sum + ticks, 0));
      const named = others.filter(([, ticks]) => pct(ticks) >= 3).slice(0, 4);
      if (named.length) out.other_top = Object.fromEntries(named.map(([name, ticks]) => [name.slice(6), pct(ticks)]));
      return out;
    },
  };
}

/** The mean of each numeric field of `samples` (CPU splits of several windows), rounded. */
export function meanOf(samples) {
  const fields = Object.keys(samples[0]).filter((field) => typeof samples[0][field] === 'number');
  return Object.fromEntries(
    fields.map((field) => [field, Math.round(samples.reduce((sum, s) => sum + s[field], 0) / samples.length)]),
  );
}

/** `run()`'s figures with the CPU split of the process `pid` (and of the machine) while it ran. */
export async function withCpu(pid, run) {
  const cpu = cpuSample(pid);
  const figures = await run();
  return { ...figures, cpu: cpu.end() };
}

/**
 * One measured load of the process `pid`: `quiet()` first, when given (its reading of the others' load is
 * reported as `cpu.foreign_before`), then a warm-up of `settings.warmup` s that is not reported, then
 * `run(settings.duration)` with the CPU split of its window. `run(seconds, warmup)` resolves to the figures;
 * `announce`, when given, is logged just before the measured window.
 */
export async function measuredLoad(pid, settings, run, quiet, announce) {
  const foreignBefore = quiet ? await quiet() : undefined;
  if (settings.warmup > 0) await run(settings.warmup, true);
  if (announce) log(announce);
  const out = await withCpu(pid, () => run(settings.duration, false));
  out.cpu.foreign_before = foreignBefore;
  return out;
}

/** autocannon `setupClient` giving each connection its own bearer token (each token is its own session). */
export function bearerPerConnection(tokens) {
  let next = 0;
  return (client) => {
    client.setHeaders({ authorization: `Bearer ${tokens[next++ % tokens.length]}` });
  };
}

/** A measured GET load of `url` (measuredLoad) with one bearer token per connection, after a quiet machine. */
export function measuredBearerGet(settings, name, url, tokens, pid) {
  const options = { url, method: 'GET', connections: settings.connections };
  const run = async (duration) =>
    summarize(await cannon({ ...options, duration, setupClient: bearerPerConnection(tokens) }));
  const announce = `${name}: ${settings.connections} connections for ${settings.duration} s`;
  return measuredLoad(pid, settings, run, () => quietBefore(settings, name, [pid]), announce);
}

/** waitQuiet before a load of `label` when BENCH_WAIT_QUIET is above 0: its reading, else undefined. */
export function quietBefore(settings, label, ourPids = []) {
  return settings.waitQuiet > 0 ? waitQuiet(label, settings.waitQuiet, ourPids) : undefined;
}

/**
 * On a shared machine, other work (a test run, another benchmark) skews every figure. Waits, up to
 * `maxSeconds`, until processes other than ours (and PostgreSQL, Redis) use under 15% of one core over 2 s.
 * Returns the last reading of that load.
 */
export async function waitQuiet(label, maxSeconds, ourPids = []) {
  const deadline = performance.now() + maxSeconds * 1000;
  for (;;) {
    const sample = cpuSample(ourPids[0]);
    await sleep(2000);
    const reading = sample.end();
    const foreign = (reading.other ?? 0) + reading.postgres + reading.redis;
    if (foreign < 15) return foreign;
    if (performance.now() >= deadline) {
      log(
        `${label}: the machine is still busy (${foreign}% of a core: ${JSON.stringify(reading.other_top ?? {})}); measuring anyway`,
      );
      return foreign;
    }
    log(
      `${label}: waiting for a quiet machine (${foreign}% of a core used by others: ${JSON.stringify(reading.other_top ?? {})})`,
    );
  }
}

// ---- DPoP (RFC 9449) proofs for the key-bound GET /me load ----

/**
 * A client's DPoP key (ES256 or RS256) whose proofs are signed with node:crypto, one fresh proof (new `jti`,
 * current `iat`) each. This is the benchmark's client side.
 */
export async function dpopClientKey(alg = 'ES256') {
  if (alg !== 'ES256' && alg !== 'RS256') throw new Error(`BENCH_DPOP_ALGS: ${alg} is not ES256 or RS256`);
  const { privateKey, publicKey } =
    alg === 'ES256'
      ? generateKeyPairSync('ec', { namedCurve: 'P-256' })
      : generateKeyPairSync('rsa', { modulusLength: 2048 });
  const { kty, crv, x, y, n, e } = publicKey.export({ format: 'jwk' });
  const jwk = alg === 'ES256' ? { kty, crv, x, y } : { kty, n, e };
  const header = encodeHeader({ typ: 'dpop+jwt', alg, jwk });
  return {
    alg,
    header,
    privateKeyPem: privateKey.export({ format: 'pem', type: 'pkcs8' }),
    proof: proofSigner({ alg, privateKey, header }),
  };
}

/** Pre-signed proofs must all be used within this many seconds of signing (the service accepts `iat` within 60 s). */
export const DPOP_PRESIGNED_MAX_AGE_S = 45;

/**
 * Signs `count` proofs of `method htu` for each session (`{ key, token }`) ahead of a load, spread over one
 * worker thread per CPU, and stores them, oldest first, as `session.proofs`. Throws when signing took so long
 * that the first proofs could age past the service's window during a load of `loadSeconds`.
 */
export async function presignProofs(sessions, count, method, htu, loadSeconds) {
  const started = performance.now();
  const threads = Math.max(1, Math.min(availableParallelism(), sessions.length));
  const shares = Array.from({ length: threads }, (_, t) => sessions.filter((_, i) => i % threads === t));
  await Promise.all(
    shares.map(
      (share) =>
        new Promise((resolve, reject) => {
          const keys = share.map(({ key, token }) => ({
            alg: key.alg,
            privateKeyPem: key.privateKeyPem,
            header: key.header,
            accessToken: token,
          }));
          const worker = new Worker(new URL('./dpop-signer.mjs', import.meta.url), {
            workerData: { dpopSigner: true, keys, count, method, htu },
          });
          worker.once('message', (lists) => {
            share.forEach((session, i) => {
              session.proofs = lists[i];
            });
            resolve();
          });
          worker.once('error', reject);
        }),
    ),
  );
  const seconds = (performance.now() - started) / 1000;
  if (seconds + loadSeconds > DPOP_PRESIGNED_MAX_AGE_S) {
    throw new Error(
      `signing ${count * sessions.length} DPoP proofs took ${seconds.toFixed(0)} s: with a ${loadSeconds} s load the ` +
        `first would be older than ${DPOP_PRESIGNED_MAX_AGE_S} s when sent; lower BENCH_DURATION or BENCH_CONNECTIONS`,
    );
  }
}

/** The child's environment: only what the service needs, so a developer's shell does not leak in. */
export function baseEnv() {
  const env = {};
  // UV_THREADPOOL_SIZE: the launcher sizes the thread pool to the CPUs unless it is set (bin/svc.cjs).
  for (const name of ['PATH', 'HOME', 'TMPDIR', 'LANG', 'TZ', 'SYSTEMROOT', 'UV_THREADPOOL_SIZE']) {
    if (process.env[name] !== undefined) env[name] = process.env[name];
  }
  return env;
}

/**
 * The `svc` command as operators run it: the launcher (bin/svc.cjs), which sizes the thread pool before loading
 * the built CLI. Throws when the build is missing.
 */
export function svcCommand(root) {
  if (!existsSync(join(root, 'dist', 'main.js'))) {
    throw new Error('dist/main.js is missing: run `npm run build` (npm run bench does)');
  }
  return join(root, 'bin', 'svc.cjs');
}

/**
 * Runs SQL as the owner, in the service's schema: PGlite in `dataDir` (the service must be stopped) or
 * PostgreSQL at `databaseUrl`.
 */
export async function ownerSql({ databaseUrl, schema, dataDir }, statement) {
  if (databaseUrl) {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await client.query(`SET search_path TO "${schema}"`);
      await client.query(statement);
    } finally {
      await client.end();
    }
    return;
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const db = new PGlite(join(dataDir, 'pgdata'));
  try {
    await db.exec(statement);
  } finally {
    await db.close();
  }
}

/**
 * Runs a benchmark's `main()`. SIGINT or SIGTERM stops the children and runs `cleanup()` (dropping what the run
 * created) before exiting 130 or 143; a failure is logged, cleaned up after, and exits 1.
 */
export function runBench(main, cleanup) {
  let interrupted = false;
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      if (interrupted) return;
      interrupted = true;
      log(`${signal}: stopping children and cleaning up`);
      cleanup().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
    });
  }
  main().catch(async (error) => {
    log(`failed: ${error?.stack ?? error}`);
    await cleanup().catch(() => {});
    process.exit(1);
  });
}
