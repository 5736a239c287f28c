import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { ExtractTablesWithRelations, sql } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { type DataDirLock, lockDataDir } from './data-dir-lock.js';

export type Db = PgDatabase<PgQueryResultHKT>;
export type Tx = PgTransaction<
  PgQueryResultHKT,
  Record<string, never>,
  ExtractTablesWithRelations<Record<string, never>>
>;
/** Anything a query can run on: the store functions take a transaction, the migration runner the database. */
export type Queryable = Db | Tx;

/** Requests run as this role, which owns nothing, so row-level security applies to it (owners bypass it). */
export const APP_ROLE = 'svc_app';

export interface Database {
  kind: 'pg' | 'pglite';
  schema: string;
  db: Db;
  /**
   * PostgreSQL only: a second, smaller pool whose connections keep the application role, read-only and the
   * organization they last served in their session, for `transactions.tenantStatement` (never any other use:
   * a connection of it is not the owner's).
   */
  tenantSessions?: pg.Pool;
  /**
   * LISTEN on a channel for the life of the database handle. `status(false)` means messages may be missed
   * (connection lost; it reconnects by itself), `status(true)` that delivery is live again.
   */
  listen(channel: string, handlers: NotificationHandlers): Promise<void>;
  close(): Promise<void>;
}

export interface NotificationHandlers {
  message(payload: string): void;
  status(live: boolean): void;
}

export interface DatabaseOptions {
  databaseUrl?: string | undefined;
  schema: string;
  dataDir?: string | undefined;
  /** An already started PGlite (tests share one per worker); not closed by close(). */
  pglite?: PGlite | undefined;
  poolSize?: number;
  /** Names the process in the embedded data directory's lock (`svc serve`, …); the CLI command by default. */
  owner?: string | undefined;
}

/** How long a request waits for a pooled connection before the database counts as unavailable. */
export const POOL_CONNECT_TIMEOUT_MS = 3000;
/** Idle time before TCP keep-alive probes start (the system default is two hours). */
const KEEPALIVE_IDLE_MS = 10_000;

/** Connections of the tenant-session pool (`Database.tenantSessions`): its reads are one statement each. */
const TENANT_SESSIONS = 4;

function connectionPool(connectionString: string, schema: string, max: number): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    max,
    options: `-c search_path=${schema}`,
    // A request waits at most this long for a connection (a database that does not answer, a full pool),
    // then fails with 503 instead of hanging (docs/operating.md, Failures).
    connectionTimeoutMillis: POOL_CONNECT_TIMEOUT_MS,
    // A connection whose peer vanished without a word (a network partition) is found out by TCP keep-alive.
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_IDLE_MS,
  });
  // A connection that breaks (the database restarted, the network was cut) emits 'error', and an 'error' event
  // nobody listens to ends the process. Idle ones the pool drops and reports on the pool; a checked-out one
  // (between the statements of a transaction) fails its query, and the pool drops it when it comes back
  // unqueryable. Both are expected here: the request answers 503 and the pool opens new connections on demand.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const { schema } = options;
  if (options.databaseUrl) {
    const pool = connectionPool(options.databaseUrl, schema, options.poolSize ?? 20);
    const tenantSessions = connectionPool(options.databaseUrl, schema, TENANT_SESSIONS);
    try {
      const client = await pool.connect();
      client.release();
    } catch (error) {
      await Promise.all([pool.end(), tenantSessions.end()]);
      throw new Error(`DATABASE_URL: cannot connect (${(error as Error).message})`);
    }
    const listeners: Array<{ close(): Promise<void> }> = [];
    return {
      kind: 'pg',
      schema,
      db: drizzleNodePg(pool) as unknown as Db,
      tenantSessions,
      async listen(channel, handlers) {
        listeners.push(await listenWithReconnect(options.databaseUrl!, channel, handlers));
      },
      close: async () => {
        for (const listener of listeners) await listener.close();
        await Promise.all([pool.end(), tenantSessions.end()]);
      },
    };
  }
  let client = options.pglite;
  const owned = !client;
  let lock: DataDirLock | undefined;
  if (!client) {
    const dataDir = options.dataDir ?? './.data';
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    lock = await lockDataDir(dataDir, options.owner ?? `svc ${process.argv[2] ?? ''}`.trim());
    try {
      client = await openPglite(dataDir);
    } catch (error) {
      lock.release();
      throw error;
    }
  }
  await client.waitReady;
  await client.exec(`CREATE SCHEMA IF NOT EXISTS "${schema}"; SET search_path TO "${schema}"`);
  const db = drizzlePglite(client) as unknown as Db;
  const unlisteners: Array<() => Promise<void>> = [];
  const pglite = client;
  return {
    kind: 'pglite',
    schema,
    db,
    // Embedded PostgreSQL lives in this process: delivery cannot be lost, so the listener is always live.
    async listen(channel, handlers) {
      unlisteners.push(await pglite.listen(channel, handlers.message));
      handlers.status(true);
    },
    close: async () => {
      for (const unlisten of unlisteners) await unlisten();
      if (owned) await pglite.close();
      lock?.release();
    },
  };
}

/**
 * PGlite reports a damaged or foreign directory as a bare WebAssembly trap ("unreachable", "Aborted()"): the
 * operator gets one line naming the directory and what to do instead.
 */
async function openPglite(dataDir: string): Promise<PGlite> {
  const dir = join(dataDir, 'pgdata');
  try {
    const client = new PGlite(dir);
    await client.waitReady;
    return client;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      `DATA_DIR ${dataDir}: the embedded database in ${dir} cannot be opened (${reason.split('\n')[0]}). ` +
        'Run `svc doctor`; if the files are damaged, move the directory aside and restore it from a backup, ' +
        'or start afresh with an empty DATA_DIR',
    );
  }
}

/** Rows of a raw statement, whichever driver ran it (node-postgres and PGlite both answer `{ rows }`). */
export async function rows<T>(q: Queryable, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await q.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/**
 * `rows`, run as a named prepared statement: PostgreSQL parses and plans it once per connection instead of on
 * every call. For hot statements whose planning costs more than running them (refresh rotation plans in about
 * 0.6 ms and runs in a tenth of that). `name` belongs to this one statement text.
 */
export async function preparedRows<T>(q: Queryable, name: string, query: ReturnType<typeof sql>): Promise<T[]> {
  // Drizzle's `execute` has no name parameter; its session's `prepareQuery`, which its builders' `prepare` use, has.
  const { session, dialect } = q as unknown as {
    session: { prepareQuery(query: unknown, fields: undefined, name: string, arrayMode: false): PreparedRaw };
    dialect: { sqlToQuery(query: ReturnType<typeof sql>): unknown };
  };
  const result = (await session.prepareQuery(dialect.sqlToQuery(query), undefined, name, false).execute()) as {
    rows: T[];
  };
  return result.rows;
}

interface PreparedRaw {
  execute(): Promise<unknown>;
}

/** Pause between attempts to reopen a lost LISTEN connection. */
const LISTEN_RETRY_MS = 1000;

/** A dedicated connection that LISTENs, and comes back after a failure, reporting when delivery is live. */
async function listenWithReconnect(
  connectionString: string,
  channel: string,
  handlers: NotificationHandlers,
): Promise<{ close(): Promise<void> }> {
  let closed = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  /** The connection attempt in progress: close waits for it, so no connection opens after close. */
  let connecting: Promise<void> | undefined;
  function attempt(): Promise<void> {
    retry = undefined;
    const current = connect()
      .catch(() => undefined)
      .finally(() => {
        if (connecting === current) connecting = undefined;
      });
    connecting = current;
    return current;
  }
  async function connect(): Promise<void> {
    // Keep-alive matters most here: this connection only listens, so nothing else would notice it is dead.
    const next = new pg.Client({
      connectionString,
      connectionTimeoutMillis: POOL_CONNECT_TIMEOUT_MS,
      keepAlive: true,
      keepAliveInitialDelayMillis: KEEPALIVE_IDLE_MS,
    });
    next.on('notification', (message) => handlers.message(message.payload ?? ''));
    const lost = () => {
      if (client !== next) return;
      client = undefined;
      handlers.status(false);
      next.end().catch(() => undefined);
      if (!closed) retry = setTimeout(attempt, LISTEN_RETRY_MS);
    };
    next.on('error', lost);
    next.on('end', lost);
    try {
      await next.connect();
      await next.query(`LISTEN ${channel}`);
    } catch (error) {
      // Not awaited: ending a client whose connection failed while opening can wait forever for an 'end' that
      // already happened, and the next attempt must be scheduled whatever it does.
      next.end().catch(() => undefined);
      if (!closed) retry = setTimeout(attempt, LISTEN_RETRY_MS);
      throw error;
    }
    if (closed) {
      await next.end().catch(() => undefined);
      return;
    }
    client = next;
    handlers.status(true);
  }
  handlers.status(false);
  await attempt();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      await connecting;
      const current = client;
      client = undefined;
      await current?.end().catch(() => undefined);
    },
  };
}
