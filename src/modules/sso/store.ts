import { and, eq } from 'drizzle-orm';
import type { Queryable } from '../../kernel/db/index.js';
import { ssoOidcConnections } from './schema.js';

export type OidcConnectionRow = typeof ssoOidcConnections.$inferSelect;

export async function connectionOf(
  q: Queryable,
  tenantId: string,
  forUpdate = false,
): Promise<OidcConnectionRow | undefined> {
  const query = q.select().from(ssoOidcConnections).where(eq(ssoOidcConnections.tenantId, tenantId));
  const [row] = forUpdate ? await query.for('update') : await query;
  return row;
}

export async function insertConnection(q: Queryable, row: OidcConnectionRow): Promise<void> {
  await q.insert(ssoOidcConnections).values(row);
}

/** Inserts the connection unless the organization has one already (then false: one connection per organization). */
export async function insertConnectionIfNone(q: Queryable, row: OidcConnectionRow): Promise<boolean> {
  const inserted = await q
    .insert(ssoOidcConnections)
    .values(row)
    .onConflictDoNothing()
    .returning({ tenantId: ssoOidcConnections.tenantId });
  return inserted.length === 1;
}

export async function updateConnection(
  q: Queryable,
  tenantId: string,
  set: Partial<Omit<OidcConnectionRow, 'tenantId' | 'createdAt'>>,
): Promise<void> {
  await q.update(ssoOidcConnections).set(set).where(eq(ssoOidcConnections.tenantId, tenantId));
}

/** Removes the connection; answers the removed row (none: nothing was configured). */
export async function deleteConnection(q: Queryable, tenantId: string): Promise<OidcConnectionRow | undefined> {
  const [row] = await q.delete(ssoOidcConnections).where(eq(ssoOidcConnections.tenantId, tenantId)).returning();
  return row;
}

/**
 * Records a test's outcome only on the configuration it tested: the test runs outside any transaction (network),
 * so a PUT in the meantime (a newer `updated_at`) makes the result stale and it is dropped.
 */
export async function recordTest(
  q: Queryable,
  tenantId: string,
  testedVersion: Date,
  outcome: { at: Date; ok: boolean },
): Promise<boolean> {
  const updated = await q
    .update(ssoOidcConnections)
    .set({ lastTestedAt: outcome.at, lastTestOk: outcome.ok })
    .where(and(eq(ssoOidcConnections.tenantId, tenantId), eq(ssoOidcConnections.updatedAt, testedVersion)))
    .returning({ tenantId: ssoOidcConnections.tenantId });
  return updated.length > 0;
}
