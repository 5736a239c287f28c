import { and, desc, eq, gt, or, sql } from 'drizzle-orm';
import type { Queryable } from '../../kernel/db/index.js';
import { approvalRequests } from './schema.js';

export type ApprovalRequestRow = typeof approvalRequests.$inferSelect;

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

/** Spends an approved ask in one statement: of concurrent retries exactly one gets it. */
export async function consumeApproved(
  q: Queryable,
  tenantId: string,
  id: string,
  now: Date,
): Promise<{ id: string } | undefined> {
  const [row] = await q
    .update(approvalRequests)
    .set({ status: 'consumed', consumedAt: now })
    .where(
      and(
        eq(approvalRequests.tenantId, tenantId),
        eq(approvalRequests.id, id),
        eq(approvalRequests.status, 'approved'),
        gt(approvalRequests.expiresAt, now),
      ),
    )
    .returning({ id: approvalRequests.id });
  return row;
}
