import { and, desc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import { type Queryable, rows } from '../../kernel/db/index.js';
import { tenantStanding } from '../organizations/index.js';
import { apiKeys, apiKeyUsage, apiQuotaNotices } from './schema.js';

export type ApiKeyRow = typeof apiKeys.$inferSelect;

export async function insertKey(q: Queryable, row: typeof apiKeys.$inferInsert): Promise<void> {
  await q.insert(apiKeys).values(row);
}

export async function listKeys(q: Queryable, tenantId: string): Promise<ApiKeyRow[]> {
  return q.select().from(apiKeys).where(eq(apiKeys.tenantId, tenantId)).orderBy(desc(apiKeys.createdAt));
}

/** The key, locked for the rest of the transaction (rotation and revocation of one key queue here). */
export async function keyForUpdate(q: Queryable, tenantId: string, id: string): Promise<ApiKeyRow | undefined> {
  const [row] = await q
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.tenantId, tenantId), eq(apiKeys.id, id)))
    .for('update');
  return row;
}

export async function revokeKey(q: Queryable, tenantId: string, id: string, now: Date, reason: string) {
  const [row] = await q
    .update(apiKeys)
    .set({ revokedAt: now, revokedReason: reason })
    .where(and(eq(apiKeys.tenantId, tenantId), eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  return row;
}

function prepareKeyState(q: Queryable) {
  const standing = tenantStanding(q);
  return q
    .select({
      id: apiKeys.id,
      tenantId: apiKeys.tenantId,
      environment: apiKeys.environment,
      scopes: apiKeys.scopes,
      expiresAt: apiKeys.expiresAt,
      revokedAt: apiKeys.revokedAt,
      createdByUserId: apiKeys.createdByUserId,
      plan: standing.plan,
      quarantined: standing.quarantined,
    })
    .from(apiKeys)
    .innerJoin(standing, eq(standing.tenantId, apiKeys.tenantId))
    .where(eq(apiKeys.keyHash, sql.placeholder('keyHash')))
    .prepare('api_keys_key_state');
}

const preparedKeyState = new WeakMap<Queryable, ReturnType<typeof prepareKeyState>>();

/** What authenticating a key needs, by the key's hash: read on every request whose key is not cached. */
export async function keyState(q: Queryable, keyHash: string) {
  let prepared = preparedKeyState.get(q);
  if (!prepared) {
    prepared = prepareKeyState(q);
    preparedKeyState.set(q, prepared);
  }
  const [row] = await prepared.execute({ keyHash });
  return row;
}

export type KeyState = NonNullable<Awaited<ReturnType<typeof keyState>>>;

/** Adds counted calls: `(tenant, period, key) -> calls`, in one statement. */
export async function addUsage(
  q: Queryable,
  counts: Array<{ tenantId: string; period: string; apiKeyId: string; calls: number }>,
): Promise<void> {
  if (counts.length === 0) return;
  await q
    .insert(apiKeyUsage)
    .values(counts)
    .onConflictDoUpdate({
      target: [apiKeyUsage.tenantId, apiKeyUsage.period, apiKeyUsage.apiKeyId],
      set: { calls: sql`${apiKeyUsage.calls} + excluded.calls` },
    });
}

/** Coarse `last_used_at`: written at most once per `granularityMs` per key. */
export async function touchKeys(q: Queryable, ids: string[], now: Date, granularityMs: number): Promise<void> {
  if (ids.length === 0) return;
  await q
    .update(apiKeys)
    .set({ lastUsedAt: now })
    .where(
      and(
        inArray(apiKeys.id, ids),
        or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, new Date(now.getTime() - granularityMs))),
      ),
    );
}

/** Calls of each organization in one period. */
export async function totals(q: Queryable, tenantIds: string[], period: string): Promise<Map<string, number>> {
  if (tenantIds.length === 0) return new Map();
  const found = await q
    .select({ tenantId: apiKeyUsage.tenantId, calls: sql<string>`sum(${apiKeyUsage.calls})` })
    .from(apiKeyUsage)
    .where(and(inArray(apiKeyUsage.tenantId, tenantIds), eq(apiKeyUsage.period, period)))
    .groupBy(apiKeyUsage.tenantId);
  return new Map(found.map((row) => [row.tenantId, Number(row.calls)]));
}

export async function usageRows(q: Queryable, tenantId: string, period: string) {
  return rows<{ api_key_id: string; label: string | null; display_handle: string | null; calls: string }>(
    q,
    sql`select u.api_key_id, k.label, k.display_handle, u.calls
        from api_key_usage u left join api_keys k on k.id = u.api_key_id and k.tenant_id = u.tenant_id
        where u.tenant_id = ${tenantId} and u.period = ${period}
        order by u.calls desc, u.api_key_id`,
  );
}

/** True for the first caller of the period only (across nodes): the quota event fires once. */
export async function noteQuotaSpent(q: Queryable, tenantId: string, period: string, now: Date): Promise<boolean> {
  const inserted = await q
    .insert(apiQuotaNotices)
    .values({ tenantId, period, notifiedAt: now })
    .onConflictDoNothing()
    .returning({ period: apiQuotaNotices.period });
  return inserted.length > 0;
}

export { planOfTenant } from '../organizations/index.js';

/** Keys a person created in an organization (privacy export). */
export async function keysCreatedBy(q: Queryable, tenantId: string, userId: string): Promise<ApiKeyRow[]> {
  return q
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.tenantId, tenantId), eq(apiKeys.createdByUserId, userId)))
    .orderBy(desc(apiKeys.createdAt));
}

/** Erasure: the keys stay (they belong to the organization); the link to the person goes. */
export async function forgetCreator(q: Queryable, tenantId: string, userId: string): Promise<void> {
  await q
    .update(apiKeys)
    .set({ createdByUserId: null, createdById: 'erased' })
    .where(and(eq(apiKeys.tenantId, tenantId), eq(apiKeys.createdByUserId, userId)));
}
