import { and, eq, inArray, isNotNull, lte, ne, sql } from 'drizzle-orm';
import { type Queryable, rows } from '../../kernel/db/index.js';
import { asksAbout, asksOfKind, newestAskAbout, newestFirst, spendApproved } from './ask-queries.js';
import { contentReversals } from './content-schema.js';
import { approvalRequests } from './schema.js';
import type { ApprovalRequestRow } from './store.js';

// The queries of content approvals: asks are `approval_requests` rows with `resource_type` 'content' whose
// fingerprint is the content hash; reversals have their own table.

export type ContentReversalRow = typeof contentReversals.$inferSelect;

/**
 * Holds the transaction's turn for one content hash in one organization: concurrent requests for the same bytes
 * queue here, so the second finds the first one's ask (the unique index `approval_requests_content_live` is the
 * backstop).
 */
export async function lockContent(q: Queryable, tenantId: string, contentHash: string): Promise<void> {
  await q.execute(sql`select pg_advisory_xact_lock(hashtext(${`content-approval:${tenantId}:${contentHash}`}))`);
}

/** Whether an agent other than `agentId` has ever asked about these bytes in the organization. */
export async function askedByAnotherAgent(
  q: Queryable,
  tenantId: string,
  contentHash: string,
  agentId: string,
): Promise<boolean> {
  const [row] = await q
    .select({ id: approvalRequests.id })
    .from(approvalRequests)
    .where(asksAbout('content', tenantId, contentHash, ne(approvalRequests.agentId, agentId)))
    .limit(1);
  return row !== undefined;
}

/** The agent's newest ask about these bytes. */
export async function newestAskOfAgent(
  q: Queryable,
  tenantId: string,
  agentId: string,
  contentHash: string,
): Promise<ApprovalRequestRow | undefined> {
  return newestAskAbout(q, 'content', tenantId, contentHash, eq(approvalRequests.agentId, agentId));
}

/**
 * Writes down that the agent's undecided asks about these bytes ran out (their 24 hours passed): the unique rule
 * "one live ask per agent and hash" then admits a new one. Answers the ids written.
 */
export async function markRunOut(
  q: Queryable,
  tenantId: string,
  agentId: string,
  contentHash: string,
  now: Date,
): Promise<string[]> {
  const marked = await q
    .update(approvalRequests)
    .set({ status: 'expired' })
    .where(
      asksAbout(
        'content',
        tenantId,
        contentHash,
        eq(approvalRequests.agentId, agentId),
        inArray(approvalRequests.status, ['pending', 'approved']),
        lte(approvalRequests.expiresAt, now),
      ),
    )
    .returning({ id: approvalRequests.id });
  return marked.map((row) => row.id);
}

/** Spends the organization's approved, unexpired ask about these bytes (see `spendApproved`). */
export async function consumeApprovedContent(
  q: Queryable,
  tenantId: string,
  contentHash: string,
  now: Date,
): Promise<{ id: string; agentId: string | null } | undefined> {
  const [row] = await spendApproved(q, asksAbout('content', tenantId, contentHash), now).returning({
    id: approvalRequests.id,
    agentId: approvalRequests.agentId,
  });
  return row;
}

/** The organization's newest ask about these bytes (whichever agent asked). */
export async function newestAsk(
  q: Queryable,
  tenantId: string,
  contentHash: string,
): Promise<ApprovalRequestRow | undefined> {
  return newestAskAbout(q, 'content', tenantId, contentHash);
}

/**
 * The ask a reversal of these bytes counts against: the newest that let them out (consumed, else approved),
 * else the newest of any state (the content went out without a spent approval).
 */
export async function askToReverse(
  q: Queryable,
  tenantId: string,
  contentHash: string,
): Promise<ApprovalRequestRow | undefined> {
  const [row] = await q
    .select()
    .from(approvalRequests)
    .where(asksAbout('content', tenantId, contentHash))
    .orderBy(
      sql`case ${approvalRequests.status} when 'consumed' then 0 when 'approved' then 1 else 2 end`,
      ...newestFirst,
    )
    .limit(1);
  return row;
}

/** Adds the reversal unless the ask has one already; answers the row added, or the one that was there. */
export async function recordReversal(
  q: Queryable,
  row: ContentReversalRow,
): Promise<{ reversal: ContentReversalRow; created: boolean }> {
  const [added] = await q
    .insert(contentReversals)
    .values(row)
    .onConflictDoNothing({ target: [contentReversals.tenantId, contentReversals.approvalId] })
    .returning();
  if (added) return { reversal: added, created: true };
  const [existing] = await q
    .select()
    .from(contentReversals)
    .where(and(eq(contentReversals.tenantId, row.tenantId), eq(contentReversals.approvalId, row.approvalId)));
  if (!existing) throw new Error('content reversal vanished between insert and read');
  return { reversal: existing, created: false };
}

/**
 * How the agent's content asks were decided, and its reversals since `reversalsSince`, in one statement. A decided
 * ask that is not denied was approved (approved, consumed, or approved and then run out unspent).
 */
export async function trackRecordCounts(
  q: Queryable,
  tenantId: string,
  agentId: string,
  reversalsSince: Date,
): Promise<{ approvals: number; denials: number; reversals: number }> {
  const [counts] = await q
    .select({
      approvals: sql<number>`count(*) filter (where ${approvalRequests.status} <> 'denied')::int`,
      denials: sql<number>`count(*) filter (where ${approvalRequests.status} = 'denied')::int`,
      reversals: sql<number>`(select count(*)::int from ${contentReversals}
        where ${contentReversals.tenantId} = ${tenantId} and ${contentReversals.agentId} = ${agentId}
          and ${contentReversals.recordedAt} > ${reversalsSince})`,
    })
    .from(approvalRequests)
    .where(
      and(
        eq(approvalRequests.tenantId, tenantId),
        asksOfKind.content,
        eq(approvalRequests.agentId, agentId),
        isNotNull(approvalRequests.decidedAt),
      ),
    );
  return { approvals: counts?.approvals ?? 0, denials: counts?.denials ?? 0, reversals: counts?.reversals ?? 0 };
}

/**
 * Whether the agent belongs to the organization. The agents module owns the table and exports no look-up by id
 * (and imports this module for parking), so this one read names it; the transaction is held to the organization,
 * whose row-level security admits only its agents.
 */
export async function agentOfOrganization(q: Queryable, tenantId: string, agentId: string): Promise<boolean> {
  const found = await rows<{ found: number }>(
    q,
    sql`select 1 as found from agents where tenant_id = ${tenantId} and id = ${agentId} limit 1`,
  );
  return found.length > 0;
}
