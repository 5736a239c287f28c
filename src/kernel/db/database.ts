import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { ExtractTablesWithRelations, sql } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';

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
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl?: string | undefined;
  schema: string;
  dataDir?: string | undefined;
  /** An already started PGlite (tests share one per worker); not closed by close(). */
  pglite?: PGlite | undefined;
  poolSize?: number;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const { schema } = options;
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 20,
      options: `-c search_path=${schema}`,
    });
    try {
      const client = await pool.connect();
      client.release();
    } catch (error) {
      await pool.end();
      throw new Error(`DATABASE_URL: cannot connect (${(error as Error).message})`);
    }
    return { kind: 'pg', schema, db: drizzleNodePg(pool) as unknown as Db, close: () => pool.end() };
  }
  let client = options.pglite;
  const owned = !client;
  if (!client) {
    const dir = join(options.dataDir ?? './.data', 'pgdata');
    mkdirSync(dir, { recursive: true });
    client = new PGlite(dir);
  }
  await client.waitReady;
  await client.exec(`CREATE SCHEMA IF NOT EXISTS "${schema}"; SET search_path TO "${schema}"`);
  const db = drizzlePglite(client) as unknown as Db;
  return {
    kind: 'pglite',
    schema,
    db,
    close: async () => {
      if (owned) await client.close();
    },
  };
}

/** Rows of a raw statement, whichever driver ran it (node-postgres and PGlite both answer `{ rows }`). */
export async function rows<T>(q: Queryable, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await q.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
