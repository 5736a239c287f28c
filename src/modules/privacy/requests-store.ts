import { and, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../kernel/db/index.js';
import type { CursorKey } from '../../kernel/http/index.js';
import { dataSubjectRequests, type RequestStatus, type RequestType } from './schema.js';

export type RequestRow = typeof dataSubjectRequests.$inferSelect;

export async function insertRequest(q: Queryable, row: typeof dataSubjectRequests.$inferInsert): Promise<void> {
  await q.insert(dataSubjectRequests).values(row);
}

export async function requestById(q: Queryable, tenantId: string, id: string): Promise<RequestRow | undefined> {
  const [row] = await q
    .select()
    .from(dataSubjectRequests)
    .where(and(eq(dataSubjectRequests.tenantId, tenantId), eq(dataSubjectRequests.id, id)));
  return row;
}

export async function listRequests(
  q: Queryable,
  tenantId: string,
  filter: { userId?: string | undefined; status?: RequestStatus | undefined; type?: RequestType | undefined },
  limit: number,
  after?: CursorKey,
): Promise<RequestRow[]> {
  const conditions: SQL[] = [eq(dataSubjectRequests.tenantId, tenantId)];
  if (after) {
    conditions.push(
      sql`(${dataSubjectRequests.createdAt}, ${dataSubjectRequests.id}) < (${after[0]}::timestamptz, ${after[1]}::uuid)`,
    );
  }
  if (filter.userId) conditions.push(eq(dataSubjectRequests.userId, filter.userId));
  if (filter.status) conditions.push(eq(dataSubjectRequests.status, filter.status));
  if (filter.type) conditions.push(eq(dataSubjectRequests.requestType, filter.type));
  return q
    .select()
    .from(dataSubjectRequests)
    .where(and(...conditions))
    .orderBy(desc(dataSubjectRequests.createdAt), desc(dataSubjectRequests.id))
    .limit(limit);
}

/**
 * Moves a request from one of `from` to the next state in one statement: of concurrent callers exactly one
 * wins, and a request already past `from` is left untouched (the caller answers 404 or 409).
 */
export async function transition(
  q: Queryable,
  where: { tenantId: string; id: string; userId?: string | undefined; from: readonly RequestStatus[] },
  set: Partial<typeof dataSubjectRequests.$inferInsert> & { status: RequestStatus },
): Promise<RequestRow | undefined> {
  const conditions: SQL[] = [
    eq(dataSubjectRequests.tenantId, where.tenantId),
    eq(dataSubjectRequests.id, where.id),
    inArray(dataSubjectRequests.status, [...where.from]),
  ];
  if (where.userId) conditions.push(eq(dataSubjectRequests.userId, where.userId));
  const [row] = await q
    .update(dataSubjectRequests)
    .set(set)
    .where(and(...conditions))
    .returning();
  return row;
}

/** Erasure keeps the requests as evidence of what was asked and done, without the subject's free text. */
export async function scrubRequestsOfUser(q: Queryable, tenantId: string, userId: string): Promise<void> {
  await q
    .update(dataSubjectRequests)
    .set({ description: null })
    .where(and(eq(dataSubjectRequests.tenantId, tenantId), eq(dataSubjectRequests.userId, userId)));
}

/** The organization's active owners, locked until the caller commits (the sole-owner check of an erasure). */
export { lockActiveOwners as activeOwners } from '../organizations/index.js';
