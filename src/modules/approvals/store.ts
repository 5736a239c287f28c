import { and, asc, desc, eq, gt, inArray, lt, lte, or, type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../kernel/db/index.js';
import { asksAbout, newestAskAbout, newestFirst, spendApproved } from './ask-queries.js';
import { approvalDecisions, approvalRequests } from './schema.js';
import type { ApprovalStatus } from './status.js';

export type ApprovalRequestRow = typeof approvalRequests.$inferSelect;
export type ApprovalDecisionRow = typeof approvalDecisions.$inferSelect;

/**
 * Holds the transaction's turn for one agent's asks about one action: concurrent identical parks queue here, so
 * the second finds the first one's pending ask instead of adding another (no unique index can say "one live ask").
 */
export async function lockAsk(q: Queryable, tenantId: string, agentId: string, fingerprint: string): Promise<void> {
  await q.execute(sql`select pg_advisory_xact_lock(hashtext(${`approval:${tenantId}:${agentId}:${fingerprint}`}))`);
}

/**
 * The agent's newest ask about this action that still says something: pending or approved and not expired, or
 * denied within `deniedSince` (a denial is answered again for repeats of the same action for a while).
 */
export async function liveAsk(
  q: Queryable,
  ask: { tenantId: string; agentId: string; fingerprint: string; now: Date; deniedSince: Date },
): Promise<ApprovalRequestRow | undefined> {
  const [row] = await q
    .select()
    .from(approvalRequests)
    .where(
      and(
        eq(approvalRequests.tenantId, ask.tenantId),
        eq(approvalRequests.agentId, ask.agentId),
        eq(approvalRequests.fingerprint, ask.fingerprint),
        eq(approvalRequests.resourceType, 'action'),
        or(
          and(
            or(eq(approvalRequests.status, 'pending'), eq(approvalRequests.status, 'approved')),
            gt(approvalRequests.expiresAt, ask.now),
          ),
          and(eq(approvalRequests.status, 'denied'), gt(approvalRequests.decidedAt, ask.deniedSince)),
        ),
      ),
    )
    .orderBy(desc(approvalRequests.createdAt))
    .limit(1);
  return row;
}

export async function insertAsk(q: Queryable, row: typeof approvalRequests.$inferInsert): Promise<void> {
  await q.insert(approvalRequests).values(row);
}

/** The organization's ask with this id. */
function askWithId(tenantId: string, id: string): SQL {
  // `and` answers undefined only when given no conditions.
  return and(eq(approvalRequests.tenantId, tenantId), eq(approvalRequests.id, id))!;
}

/** Spends an approved ask in one statement: of concurrent retries exactly one gets it (see `spendApproved`). */
export async function consumeApproved(
  q: Queryable,
  tenantId: string,
  id: string,
  now: Date,
): Promise<{ id: string } | undefined> {
  const [row] = await spendApproved(q, askWithId(tenantId, id), now).returning({ id: approvalRequests.id });
  return row;
}

/**
 * Asks whose status at `now` is `status`: `approvalStatus` (status.ts) in SQL, so the queue's filter and the
 * answer's `status` agree (a pending or approved ask past `expires_at` is expired).
 */
function statusIs(status: ApprovalStatus, now: Date): SQL {
  const live = (stored: 'pending' | 'approved') =>
    and(eq(approvalRequests.status, stored), gt(approvalRequests.expiresAt, now))!;
  switch (status) {
    case 'pending':
    case 'approved':
      return live(status);
    case 'expired':
      return or(
        eq(approvalRequests.status, 'expired'),
        and(inArray(approvalRequests.status, ['pending', 'approved']), lte(approvalRequests.expiresAt, now)),
      )!;
    default:
      return eq(approvalRequests.status, status);
  }
}

export interface QueueFilter {
  tenantId: string;
  now: Date;
  status?: ApprovalStatus | undefined;
  agentId?: string | undefined;
  resourceType?: string | undefined;
  /** The last row of the previous page (newest first). */
  after?: { createdAt: Date; id: string } | undefined;
  limit: number;
}

/** The organization's asks, newest first, filtered. */
export async function listAsks(q: Queryable, filter: QueueFilter): Promise<ApprovalRequestRow[]> {
  const conditions: SQL[] = [eq(approvalRequests.tenantId, filter.tenantId)];
  if (filter.status) conditions.push(statusIs(filter.status, filter.now));
  if (filter.agentId) conditions.push(eq(approvalRequests.agentId, filter.agentId));
  if (filter.resourceType) conditions.push(eq(approvalRequests.resourceType, filter.resourceType));
  const { after } = filter;
  if (after) {
    conditions.push(
      or(
        lt(approvalRequests.createdAt, after.createdAt),
        and(eq(approvalRequests.createdAt, after.createdAt), lt(approvalRequests.id, after.id)),
      )!,
    );
  }
  return q
    .select()
    .from(approvalRequests)
    .where(and(...conditions))
    .orderBy(...newestFirst)
    .limit(filter.limit);
}

export async function askById(q: Queryable, tenantId: string, id: string): Promise<ApprovalRequestRow | undefined> {
  const [row] = await q.select().from(approvalRequests).where(askWithId(tenantId, id));
  return row;
}

/** The ask, locked until the deciding transaction ends: concurrent decisions on one ask take turns. */
export async function askForDecision(
  q: Queryable,
  tenantId: string,
  id: string,
): Promise<ApprovalRequestRow | undefined> {
  const [row] = await q.select().from(approvalRequests).where(askWithId(tenantId, id)).for('update');
  return row;
}

/** The organization's decisions that `which` admits, in the order they were made. */
function decisionsInOrder(q: Queryable, tenantId: string, which: SQL): Promise<ApprovalDecisionRow[]> {
  return q
    .select()
    .from(approvalDecisions)
    .where(and(eq(approvalDecisions.tenantId, tenantId), which))
    .orderBy(asc(approvalDecisions.decidedAt), asc(approvalDecisions.id));
}

export async function decisionsOn(q: Queryable, tenantId: string, id: string): Promise<ApprovalDecisionRow[]> {
  return decisionsInOrder(q, tenantId, eq(approvalDecisions.approvalRequestId, id));
}

/** Records one person's decision; undefined when that person already decided this ask (one each, by the index). */
export async function insertDecision(
  q: Queryable,
  row: typeof approvalDecisions.$inferInsert,
): Promise<{ id: string } | undefined> {
  const [inserted] = await q
    .insert(approvalDecisions)
    .values(row)
    .onConflictDoNothing()
    .returning({ id: approvalDecisions.id });
  return inserted;
}

/** Moves a pending ask on (still pending with one more approval, approved or denied), only while it is pending. */
export async function settlePending(
  q: Queryable,
  tenantId: string,
  id: string,
  change: Partial<Pick<ApprovalRequestRow, 'status' | 'approvalsRecorded' | 'decidedAt' | 'decidedBy' | 'reason'>>,
): Promise<ApprovalRequestRow | undefined> {
  const [row] = await q
    .update(approvalRequests)
    .set(change)
    .where(and(askWithId(tenantId, id), eq(approvalRequests.status, 'pending')))
    .returning();
  return row;
}

/** Every decision a person made in the organization, oldest first (their personal-data export). */
export async function decisionsBy(q: Queryable, tenantId: string, actorId: string): Promise<ApprovalDecisionRow[]> {
  return decisionsInOrder(q, tenantId, eq(approvalDecisions.decidedBy, actorId));
}

// ---- the manifests module's asks (resource_type 'manifest', keyed by the manifest's fingerprint) ----

/** The newest ask about this manifest made by `requestedBy` (an actor id). */
export async function newestManifestAsk(
  q: Queryable,
  tenantId: string,
  fingerprint: string,
  requestedBy: string,
): Promise<ApprovalRequestRow | undefined> {
  return newestAskAbout(q, 'manifest', tenantId, fingerprint, eq(approvalRequests.requestedBy, requestedBy));
}

/** The requester's live asks about this manifest (pending or approved, unexpired), newest first. */
export async function liveManifestAsks(
  q: Queryable,
  tenantId: string,
  fingerprint: string,
  requestedBy: string,
  now: Date,
): Promise<ApprovalRequestRow[]> {
  return q
    .select()
    .from(approvalRequests)
    .where(
      asksAbout(
        'manifest',
        tenantId,
        fingerprint,
        eq(approvalRequests.requestedBy, requestedBy),
        inArray(approvalRequests.status, ['pending', 'approved']),
        gt(approvalRequests.expiresAt, now),
      ),
    )
    .orderBy(...newestFirst);
}
