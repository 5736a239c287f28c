import { and, desc, eq } from 'drizzle-orm';
import type { Queryable } from '../../kernel/db/index.js';
import { tenantSettingHistory, tenantSettings } from './schema.js';

export async function storedValue(q: Queryable, tenantId: string, key: string): Promise<unknown> {
  const [row] = await q
    .select({ value: tenantSettings.value })
    .from(tenantSettings)
    .where(and(eq(tenantSettings.tenantId, tenantId), eq(tenantSettings.key, key)));
  return row?.value;
}

/** Every override of an organization, by key. */
export async function storedValues(q: Queryable, tenantId: string): Promise<Map<string, unknown>> {
  const found = await q
    .select({ key: tenantSettings.key, value: tenantSettings.value })
    .from(tenantSettings)
    .where(eq(tenantSettings.tenantId, tenantId));
  return new Map(found.map((row) => [row.key, row.value]));
}

/** Locks the override row (if any) so concurrent changes of one key record a consistent old value. */
export async function lockedValue(q: Queryable, tenantId: string, key: string): Promise<unknown> {
  const [row] = await q
    .select({ value: tenantSettings.value })
    .from(tenantSettings)
    .where(and(eq(tenantSettings.tenantId, tenantId), eq(tenantSettings.key, key)))
    .for('update');
  return row?.value;
}

export async function upsertValue(
  q: Queryable,
  row: { tenantId: string; key: string; value: unknown; updatedAt: Date; updatedBy: string | null },
): Promise<void> {
  await q
    .insert(tenantSettings)
    .values(row)
    .onConflictDoUpdate({
      target: [tenantSettings.tenantId, tenantSettings.key],
      set: { value: row.value, updatedAt: row.updatedAt, updatedBy: row.updatedBy },
    });
}

export async function deleteValue(q: Queryable, tenantId: string, key: string): Promise<void> {
  await q.delete(tenantSettings).where(and(eq(tenantSettings.tenantId, tenantId), eq(tenantSettings.key, key)));
}

export async function appendHistory(q: Queryable, row: typeof tenantSettingHistory.$inferInsert): Promise<void> {
  await q.insert(tenantSettingHistory).values(row);
}

export async function historyOf(q: Queryable, tenantId: string, key: string, limit: number) {
  return q
    .select()
    .from(tenantSettingHistory)
    .where(and(eq(tenantSettingHistory.tenantId, tenantId), eq(tenantSettingHistory.key, key)))
    .orderBy(desc(tenantSettingHistory.changedAt), desc(tenantSettingHistory.id))
    .limit(limit);
}
