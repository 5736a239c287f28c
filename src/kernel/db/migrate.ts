import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { APP_ROLE, type Database, rows, type Tx } from './database.js';

const MIGRATIONS_DIR = new URL('../../../migrations/', import.meta.url);
const MIGRATION_LOCK = 7_727_001;

interface JournalEntry {
  tag: string;
}

function readJournal(): JournalEntry[] {
  const journal = JSON.parse(readFileSync(new URL('meta/_journal.json', MIGRATIONS_DIR), 'utf8')) as {
    entries: JournalEntry[];
  };
  return journal.entries;
}

/**
 * Applies the committed drizzle-kit migrations in order, once each, into the configured schema, then
 * (re)asserts tenant isolation. drizzle-kit writes foreign keys as `"public"."table"`; the runner points them
 * at the target schema, so one set of migrations serves any schema (tests give each file its own).
 * Concurrent starts, and `svc migrate` beside running nodes, are serialized by a transaction-scoped advisory lock
 * (one key for every schema: the app role is created once per cluster); a waiting runner then finds the work done.
 */
export async function migrate(database: Database): Promise<string[]> {
  const { db, schema } = database;
  const applied: string[] = [];
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${MIGRATION_LOCK})`);
    await tx.execute(sql.raw(`CREATE SCHEMA IF NOT EXISTS "${schema}"`));
    await tx.execute(sql.raw(`SET LOCAL search_path TO "${schema}"`));
    await tx.execute(
      sql.raw('CREATE TABLE IF NOT EXISTS svc_migrations (tag text PRIMARY KEY, applied_at timestamptz NOT NULL)'),
    );
    const done = new Set((await rows<{ tag: string }>(tx, sql`select tag from svc_migrations`)).map((r) => r.tag));
    for (const { tag } of readJournal()) {
      if (done.has(tag)) continue;
      const text = readFileSync(new URL(`${tag}.sql`, MIGRATIONS_DIR), 'utf8');
      for (const statement of text.split('--> statement-breakpoint')) {
        const trimmed = statement.trim();
        if (trimmed) await tx.execute(sql.raw(trimmed.replaceAll('"public".', `"${schema}".`)));
      }
      await tx.execute(sql`insert into svc_migrations (tag, applied_at) values (${tag}, ${new Date()})`);
      applied.push(tag);
    }
    await ensureTenantIsolation(tx as Tx, schema);
  });
  return applied;
}

/** The committed migrations not yet applied to the configured schema (all of them on an empty database). */
export async function pendingMigrations(database: Database): Promise<string[]> {
  const { db, schema } = database;
  const table = await rows<{ found: string | null }>(
    db,
    sql`select to_regclass(${`"${schema}".svc_migrations`})::text as found`,
  );
  const done = table[0]?.found
    ? new Set(
        (await rows<{ tag: string }>(db, sql.raw(`select tag from "${schema}".svc_migrations`))).map((r) => r.tag),
      )
    : new Set<string>();
  return readJournal()
    .map((entry) => entry.tag)
    .filter((tag) => !done.has(tag));
}

/**
 * Every table with a `tenant_id` column gets row-level security: a permissive policy for the app role and a
 * restrictive one that admits only rows of `current_setting('app.tenant_id')`. Without the setting no row is
 * visible. Being driven by the column, the rule cannot be forgotten when a module adds a table.
 */
async function ensureTenantIsolation(tx: Tx, schema: string): Promise<void> {
  await tx.execute(
    sql.raw(`DO $$ BEGIN
      IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${APP_ROLE}') THEN CREATE ROLE ${APP_ROLE} NOLOGIN; END IF;
      BEGIN EXECUTE format('GRANT ${APP_ROLE} TO %I', current_user); EXCEPTION WHEN others THEN NULL; END;
    END $$`),
  );
  await execEach(tx, [
    `GRANT USAGE ON SCHEMA "${schema}" TO ${APP_ROLE}`,
    `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA "${schema}" TO ${APP_ROLE}`,
    `GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA "${schema}" TO ${APP_ROLE}`,
    `REVOKE ALL ON "${schema}".svc_migrations FROM ${APP_ROLE}`,
  ]);
  // Tables a migration marks append-only (a comment starting "append-only"): the app role adds rows, never
  // changes or removes them. Rows still go with their organization (foreign-key cascades run as the owner).
  const appendOnly = await rows<{ relname: string }>(
    tx,
    sql`select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = ${schema} and c.relkind = 'r' and obj_description(c.oid, 'pg_class') like 'append-only%'`,
  );
  await execEach(
    tx,
    appendOnly.map(({ relname }) => `REVOKE UPDATE, DELETE, TRUNCATE ON "${schema}"."${relname}" FROM ${APP_ROLE}`),
  );
  const tables = await rows<{ table_name: string }>(
    tx,
    sql`select c.table_name from information_schema.columns c
        join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
        where c.table_schema = ${schema} and c.column_name = 'tenant_id' and t.table_type = 'BASE TABLE'
          and not exists (select 1 from pg_policies p where p.schemaname = c.table_schema
                          and p.tablename = c.table_name and p.policyname = 'tenant_isolation')`,
  );
  const tenantMatch = `tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid`;
  for (const { table_name } of tables) {
    const table = `"${schema}"."${table_name}"`;
    await execEach(tx, [
      `ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY`,
      `CREATE POLICY tenant_rows ON ${table} AS PERMISSIVE FOR ALL TO ${APP_ROLE} USING (true) WITH CHECK (true)`,
      `CREATE POLICY tenant_isolation ON ${table} AS RESTRICTIVE FOR ALL TO ${APP_ROLE}
        USING (${tenantMatch}) WITH CHECK (${tenantMatch})`,
    ]);
  }
}

/** One statement a call: PGlite runs parameterised queries through the extended protocol, one command each. */
async function execEach(tx: Tx, statements: string[]): Promise<void> {
  for (const statement of statements) await tx.execute(sql.raw(statement));
}
