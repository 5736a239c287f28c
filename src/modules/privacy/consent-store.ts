import { and, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../kernel/db/index.js';
import type { CursorKey } from '../../kernel/http/index.js';
import { consentEvents, consents } from './schema.js';

export type ConsentRow = typeof consents.$inferSelect;
export type ConsentEventRow = typeof consentEvents.$inferSelect;

export interface ConsentFilter {
  userId?: string | undefined;
  consentType?: string | undefined;
}

/**
 * Sets the state in one statement and answers the row only when the state changed: of concurrent equal
 * calls exactly one records the change, which is what makes grant and withdraw idempotent.
 */
export async function setState(
  q: Queryable,
  row: { tenantId: string; userId: string; consentType: string; granted: boolean; updatedAt: Date },
): Promise<ConsentRow | undefined> {
  const [changed] = await q
    .insert(consents)
    .values(row)
    .onConflictDoUpdate({
      target: [consents.tenantId, consents.userId, consents.consentType],
      set: { granted: row.granted, updatedAt: row.updatedAt },
      setWhere: sql`${consents.granted} <> excluded.granted`,
    })
    .returning();
  return changed;
}

export async function stateOf(
  q: Queryable,
  tenantId: string,
  userId: string,
  consentType: string,
): Promise<ConsentRow | undefined> {
  const [row] = await q
    .select()
    .from(consents)
    .where(and(eq(consents.tenantId, tenantId), eq(consents.userId, userId), eq(consents.consentType, consentType)));
  return row;
}

export async function appendEvent(q: Queryable, row: Omit<typeof consentEvents.$inferInsert, 'seq'>): Promise<void> {
  await q.insert(consentEvents).values(row);
}

function consentConditions(tenantId: string, filter: ConsentFilter): SQL[] {
  const conditions: SQL[] = [eq(consents.tenantId, tenantId)];
  if (filter.userId) conditions.push(eq(consents.userId, filter.userId));
  if (filter.consentType) conditions.push(eq(consents.consentType, filter.consentType));
  return conditions;
}

export async function states(q: Queryable, tenantId: string, filter: ConsentFilter, limit: number, after?: CursorKey) {
  const conditions = consentConditions(tenantId, filter);
  if (after) conditions.push(sql`(${consents.userId}, ${consents.consentType}) > (${after[0]}::uuid, ${after[1]})`);
  return q
    .select()
    .from(consents)
    .where(and(...conditions))
    .orderBy(consents.userId, consents.consentType)
    .limit(limit);
}

/** Newest first; `seq` orders changes made within the same instant. */
export async function history(q: Queryable, tenantId: string, filter: ConsentFilter, limit: number, after?: CursorKey) {
  const conditions: SQL[] = [eq(consentEvents.tenantId, tenantId)];
  if (after) {
    conditions.push(
      sql`(${consentEvents.occurredAt}, ${consentEvents.seq}) < (${after[0]}::timestamptz, ${after[1]}::bigint)`,
    );
  }
  if (filter.userId) conditions.push(eq(consentEvents.userId, filter.userId));
  if (filter.consentType) conditions.push(eq(consentEvents.consentType, filter.consentType));
  return q
    .select()
    .from(consentEvents)
    .where(and(...conditions))
    .orderBy(desc(consentEvents.occurredAt), desc(consentEvents.seq))
    .limit(limit);
}

/** Erasure: the subject's consent state and ledger in this organization. */
export async function deleteOfUser(q: Queryable, tenantId: string, userId: string): Promise<void> {
  await q.delete(consents).where(and(eq(consents.tenantId, tenantId), eq(consents.userId, userId)));
  await q.delete(consentEvents).where(and(eq(consentEvents.tenantId, tenantId), eq(consentEvents.userId, userId)));
}
