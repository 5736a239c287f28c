import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import type { SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp, createDeps, createLogger, type Deps } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { ManualClock } from '../../src/kernel/clock.js';
import { freePort } from './free-port.js';

const shared = globalThis as unknown as { __svcPglite?: Promise<PGlite> };

/** One PGlite per worker process, shared by its test files; each file gets its own schema. */
function sharedPglite(): Promise<PGlite> {
  shared.__svcPglite ??= (async () => {
    const db = new PGlite();
    await db.waitReady;
    return db;
  })();
  return shared.__svcPglite;
}

/**
 * A second node of the same installation (same database and schema, own process state), as a scaled-out
 * deployment would run it.
 */
export async function startSecondNode(
  first: TestService,
): Promise<{ url: string; app: FastifyInstance; deps: Deps; close(): Promise<void> }> {
  const config = first.deps.config;
  const deps = await createDeps(config, {
    clock: first.clock,
    pglite: config.databaseUrl ? undefined : await sharedPglite(),
    limiterPrefix: `test-${first.schema}`,
  });
  const app = await buildApp(deps);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    app,
    deps,
    async close() {
      await app.close();
      await deps.close();
    },
  };
}

export interface TestService {
  url: string;
  app: FastifyInstance;
  deps: Deps;
  clock: ManualClock;
  schema: string;
  close(): Promise<void>;
}

/**
 * Starts the real service on a loopback port, on PostgreSQL when DATABASE_URL is set (with Redis when
 * REDIS_URL is) and on the embedded database otherwise, in a schema of its own.
 */
export async function startService(
  env: Record<string, string> = {},
  options: {
    baseUrlIsListenAddress?: boolean;
    /**
     * BASE_URL names the listening port under this host name (the service still listens on 127.0.0.1).
     * WebAuthn needs an RP ID that is a domain, so passkey pages run as `http://localhost:<port>`.
     */
    baseUrlHost?: string;
    /** Each line the service logs (JSON), instead of standard output. */
    onLogLine?: (line: string) => void;
  } = {},
): Promise<TestService> {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  // Mailed links must open in a real browser: BASE_URL is then the address the service really listens on.
  const port = options.baseUrlIsListenAddress || options.baseUrlHost ? await freePort() : 0;
  if (port) env = { ...env, BASE_URL: `http://${options.baseUrlHost ?? '127.0.0.1'}:${port}` };
  const config = loadConfig({
    SVC_ENV: 'test',
    SECRET_KEY: randomBytes(32).toString('hex'),
    PUBLIC_SIGNUP_ENABLED: 'true',
    DATABASE_SCHEMA: schema,
    ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    ...(process.env.TEST_LOG_LEVEL ? { LOG_LEVEL: process.env.TEST_LOG_LEVEL } : {}),
    ...env,
  });
  const clock = new ManualClock();
  const deps = await createDeps(config, {
    clock,
    pglite: config.databaseUrl ? undefined : await sharedPglite(),
    limiterPrefix: `test-${schema}`,
    ...(options.onLogLine ? { logger: createLogger(config, { write: options.onLogLine }) } : {}),
  });
  const app = await buildApp(deps);
  await app.listen({ host: '127.0.0.1', port });
  const address = app.server.address();
  const listening = typeof address === 'object' && address ? address.port : 0;
  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${listening}`,
    app,
    deps,
    clock,
    schema,
    close() {
      // Everything of the service stops first (requests, work after answers, listeners, pool): nothing of it
      // can then hold a lock the DROP waits for. Once only, though a test may close it itself first.
      closing ??= (async () => {
        await app.close();
        await deps.close();
        await dropSchema(config.databaseUrl, schema);
      })();
      return closing;
    },
  };
}

/** Lock conflicts a DROP can still meet from another backend: deadlock detected, lock not available. */
const LOCK_CONFLICTS = new Set(['40P01', '55P03']);

/**
 * Drops a test file's schema on a connection of its own, once the service has let go of its own. A lock
 * conflict is retried a few times as a last resort, and said on standard error: it means something still
 * wrote to the schema after the service was closed, which is a bug to find.
 */
async function dropSchema(databaseUrl: string | undefined, schema: string): Promise<void> {
  const statement = `SET lock_timeout = '5s'; DROP SCHEMA IF EXISTS "${schema}" CASCADE`;
  const run = async () => {
    if (!databaseUrl) {
      await (await sharedPglite()).exec(statement);
      return;
    }
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  for (let attempt = 1; ; attempt++) {
    try {
      await run();
      return;
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (!code || !LOCK_CONFLICTS.has(code) || attempt >= 3) throw error;
      process.stderr.write(`test teardown: DROP SCHEMA ${schema} met ${code} (attempt ${attempt}); retrying\n`);
      await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
    }
  }
}

/**
 * Runs a statement directly in the database, as an operator would, and waits until the nodes' auth-state caches
 * have heard of it (the triggers' notifications arrive a moment after the commit, not with it).
 */
export async function changeDirectly(nodes: { deps: Deps } | Array<{ deps: Deps }>, query: SQL): Promise<void> {
  const all = Array.isArray(nodes) ? nodes : [nodes];
  await all[0]!.deps.database.db.execute(query);
  await Promise.all(all.map((node) => node.deps.authState.synced()));
}
