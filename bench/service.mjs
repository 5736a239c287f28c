// The service as the bench/ scripts start it: the built launcher (bin/svc.cjs serve --no-workers) on PostgreSQL
// in its own schema or on PGlite in a data directory, with Redis when given (docs/benchmarks.md).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hiddenFields } from './peer-loads.mjs';
import { baseEnv, freePort, log, ownerSql, postJson, startChild, svcCommand, waitForHttp } from './util.mjs';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Starts the service on PostgreSQL at `databaseUrl` in `schema` (created by the service on start, with its
 * migrations), or, without `databaseUrl`, on PGlite in `dataDir`, with `env` added to its environment. Returns
 * `{ handle, base }`.
 */
export async function startService({ databaseUrl, redisUrl, schema, dataDir, secretKey, env: extraEnv = {} }) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = {
    ...baseEnv(),
    SVC_ENV: 'development',
    PORT: String(port),
    HOST: '127.0.0.1',
    // DPoP proofs name the URL they are for (`htu`): the service compares it with BASE_URL + path.
    BASE_URL: base,
    PUBLIC_SIGNUP_ENABLED: 'true',
    LOG_LEVEL: 'warn',
    SECRET_KEY: secretKey,
    // Sign-ups and browsers come from their own 198.18.0.0/15 addresses (RFC 2544) in X-Forwarded-For, so
    // repeated runs against one Redis do not exhaust per-address budgets. One trusted hop: the right-most
    // X-Forwarded-For value is the client.
    TRUST_PROXY: '1',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl, DATABASE_SCHEMA: schema } : { DATA_DIR: dataDir }),
    ...extraEnv,
  };
  if (redisUrl) env.REDIS_URL = redisUrl;
  const storage = databaseUrl ? `PostgreSQL schema ${schema}` : `PGlite in ${dataDir}`;
  log(`starting the service on ${base} (${storage}${redisUrl ? ', Redis' : ''})`);
  // BENCH_CPU_PROF=<dir>: the service writes a V8 CPU profile there when it stops (open it in Chrome DevTools).
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const handle = startChild('svc', process.execPath, [...profile, svcCommand(ROOT), 'serve', '--no-workers'], {
    cwd: ROOT,
    env,
  });
  await waitForHttp(`${base}/api/v1/openapi.json`, handle);
  return { handle, base };
}

/**
 * What one bench run stores in, from DATABASE_URL and REDIS_URL (else `fallback`'s `databaseUrl` and `redisUrl`):
 * a schema `bench_<name>_<runId>` (the service creates it on start) or, without a database URL, an embedded data
 * directory made on first use, with Redis when there is a Redis URL.
 * `start(env)` starts the service on it, `ownerSql` runs SQL there as the owner (on PGlite, with the service
 * stopped), and `remove()` drops the schema or deletes the directory once the run is over, whatever happened.
 */
export function runStorage(name, fallback = {}) {
  const databaseUrl = process.env.DATABASE_URL || fallback.databaseUrl;
  const redisUrl = process.env.REDIS_URL || fallback.redisUrl;
  const runId = randomBytes(4).toString('hex');
  const schema = `bench_${name}_${runId}`;
  const secretKey = randomBytes(32).toString('hex');
  let dataDir;
  let schemaUsed = false;
  const where = () => {
    if (databaseUrl) schemaUsed = true;
    else dataDir ??= mkdtempSync(join(tmpdir(), `svc-bench-${name}-`));
    return { databaseUrl, redisUrl, schema, dataDir, secretKey };
  };
  return {
    runId,
    databaseUrl,
    schema,
    database: databaseUrl ? 'postgresql' : 'pglite',
    redis: Boolean(redisUrl),
    /** The service's storage settings (the schema counts as made from here on). */
    where,
    start: (env = {}) => startService({ ...where(), env }),
    ownerSql: (statement) => ownerSql({ databaseUrl, schema, dataDir }, statement),
    async remove() {
      if (schemaUsed) {
        try {
          await ownerSql({ databaseUrl, schema }, `DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
          log(`dropped schema ${schema}`);
        } catch (error) {
          log(`could not drop schema ${schema}: ${error.message}`);
        }
        schemaUsed = false;
      }
      if (dataDir) {
        rmSync(dataDir, { recursive: true, force: true });
        log(`removed ${dataDir}`);
        dataDir = undefined;
      }
    },
  };
}

/** One organization and its owner over HTTP; returns the login, the owner's token and the organization's id. */
export async function signUpOrganization(base, runId) {
  const email = `bench-${runId}@example.com`;
  const password = `Bench-${randomBytes(12).toString('hex')}!`;
  const signup = await postJson(
    `${base}/api/v1/auth/signup`,
    { email, password, organization_name: `Bench ${runId}` },
    { 'x-forwarded-for': `198.18.${randomBytes(1)[0]}.${1 + (randomBytes(1)[0] % 254)}` },
  );
  if (signup.status !== 201) throw new Error(`sign-up answered ${signup.status}: ${signup.text}`);
  const owner = signup.json.access_token;
  const me = await fetch(`${base}/api/v1/me`, { headers: { authorization: `Bearer ${owner}` } }).then((r) => r.json());
  return { login: { email, password, tenant_slug: `bench-${runId}` }, owner, tenantId: me.tenant_id };
}

/** Registers an OAuth client of the organization (docs/oidc.md); returns its JSON (with the secret, if any). */
export async function registerClient(base, owner, body) {
  const client = await postJson(`${base}/api/v1/oauth/clients`, body, { authorization: `Bearer ${owner}` });
  if (client.status !== 201) throw new Error(`client registration answered ${client.status}: ${client.text}`);
  return client.json;
}

/** Raises the organization's per-client allowance for the run (bench/oauth.mjs does the same). */
export function allowanceSql(tenantId) {
  return `insert into operator_settings (tenant_id, key, value, updated_at)
    values ('${tenantId}', 'oauth.client_requests_per_5min', '100000000'::jsonb, now())`;
}

/** `count` logins (one session each) in parallel batches of 4; returns their token pairs. */
export async function logins(base, login, count) {
  const pairs = [];
  for (let i = 0; i < count; i += 4) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(4, count - i) }, () => postJson(`${base}/api/v1/auth/login`, login)),
    );
    for (const answer of batch) {
      if (answer.status !== 200) throw new Error(`login answered ${answer.status}: ${answer.text}`);
      pairs.push(answer.json);
    }
  }
  return pairs;
}

/** autocannon options of the password sign-in load: `connections` connections, each signing `login` in. */
export function signInLoadOptions(base, login, connections) {
  return {
    url: `${base}/api/v1/auth/login`,
    method: 'POST',
    connections,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(login),
  };
}

/**
 * Answers the service's hosted pages met on an authorization (bench/peer-loads.mjs Browser.authorize): the
 * sign-in form with `login`'s email and password, then the consent form, approved.
 */
export function hostedPages(login) {
  return (browser, step) => {
    const fields = hiddenFields(step.html);
    return step.url.pathname === '/login'
      ? browser.request('/login', { ...fields, email: login.email, password: login.password })
      : browser.request('/consent', { ...fields, approve: '1' });
  };
}
