import { and, desc, eq, gt, type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../kernel/db/index.js';
import { approvalRequests } from './schema.js';
import type { ApprovalRequestRow } from './store.js';

// The query shapes the kinds of ask share: content asks (content-store.ts) and manifest asks (store.ts) are
// `approval_requests` rows of one `resource_type` keyed by a fingerprint, and differ only in who narrows them.

/**
 * Each kind as a literal, not a parameter, so the planner matches the partial indexes over `resource_type`
 * (content: migration 0024; manifest: migration 0028).
 */
export const asksOfKind = {
  content: sql`${approvalRequests.resourceType} = 'content'`,
  manifest: sql`${approvalRequests.resourceType} = 'manifest'`,
};

type AskKind = keyof typeof asksOfKind;

/** The organization's asks of `kind` about `fingerprint` that every condition of `narrowing` also admits. */
export function asksAbout(kind: AskKind, tenantId: string, fingerprint: string, ...narrowing: SQL[]): SQL {
  // `and` answers undefined only when given no conditions.
  return and(
    eq(approvalRequests.tenantId, tenantId),
    asksOfKind[kind],
    eq(approvalRequests.fingerprint, fingerprint),
    ...narrowing,
  )!;
}

/** Newest first; the id orders asks made in the same instant, so "the newest" is always the same row. */
export const newestFirst = [desc(approvalRequests.createdAt), desc(approvalRequests.id)];

/** The newest of the organization's asks of `kind` about `fingerprint` that `narrowing` admits. */
export async function newestAskAbout(
  q: Queryable,
  kind: AskKind,
  tenantId: string,
  fingerprint: string,
  ...narrowing: SQL[]
): Promise<ApprovalRequestRow | undefined> {
  const [row] = await q
    .select()
    .from(approvalRequests)
    .where(asksAbout(kind, tenantId, fingerprint, ...narrowing))
    .orderBy(...newestFirst)
    .limit(1);
  return row;
}

/**
 * Spends the approved, unexpired asks that `which` admits in one statement: of concurrent spenders exactly one
 * gets the row (the others' `WHERE status = 'approved'` no longer holds once it commits). The caller adds the
 * `returning` it needs.
 */
export function spendApproved(q: Queryable, which: SQL, now: Date) {
  return q
    .update(approvalRequests)
    .set({ status: 'consumed', consumedAt: now })
    .where(and(which, eq(approvalRequests.status, 'approved'), gt(approvalRequests.expiresAt, now)));
}
