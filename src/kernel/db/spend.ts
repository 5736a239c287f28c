import { and, isNull, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Queryable } from './database.js';

/**
 * Spends a single-use thing (code, challenge, link, token) in one statement:
 * `UPDATE … SET spent = now WHERE match AND spent IS NULL RETURNING …`. Of any number of concurrent callers
 * exactly one gets the row; never read-then-write.
 */
export async function spendOnce<TTable extends PgTable, TReturn extends Record<string, PgColumn>>(
  q: Queryable,
  table: TTable,
  spentColumn: PgColumn,
  match: SQL | undefined,
  now: Date,
  returning: TReturn,
): Promise<{ [K in keyof TReturn]: TReturn[K]['_']['data'] } | undefined> {
  const key = Object.entries(table).find(([, column]) => column === spentColumn)?.[0];
  if (!key) throw new Error('spendOnce: the spent column is not a column of the table');
  const rows = (await q
    .update(table)
    .set({ [key]: now } as never)
    .where(and(match, isNull(spentColumn)))
    .returning(returning)) as unknown[];
  return rows[0] as { [K in keyof TReturn]: TReturn[K]['_']['data'] } | undefined;
}

/** Spends a single-use row by deleting it: `DELETE … WHERE match RETURNING …`; one caller wins. */
export async function takeOnce<TTable extends PgTable, TReturn extends Record<string, PgColumn>>(
  q: Queryable,
  table: TTable,
  match: SQL | undefined,
  returning: TReturn,
): Promise<{ [K in keyof TReturn]: TReturn[K]['_']['data'] } | undefined> {
  const rows = (await q.delete(table).where(match).returning(returning)) as unknown[];
  return rows[0] as { [K in keyof TReturn]: TReturn[K]['_']['data'] } | undefined;
}
