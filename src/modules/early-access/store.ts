import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Queryable } from '../../kernel/db/index.js';
import { earlyAccessRequests } from './schema.js';

export type EarlyAccessRow = typeof earlyAccessRequests.$inferInsert;

/**
 * Inserts the request, or for a repeat address replaces its answers and counts the submission. Answers the
 * row's id, whether it was a repeat, and whether the address is already confirmed.
 */
export async function upsertRequest(q: Queryable, row: EarlyAccessRow) {
  const { id: _id, createdAt: _created, emailKey: _key, ...answers } = row;
  const [saved] = await q
    .insert(earlyAccessRequests)
    .values(row)
    .onConflictDoUpdate({
      target: earlyAccessRequests.emailKey,
      set: {
        ...answers,
        submissions: sql`${earlyAccessRequests.submissions} + 1`,
        // A confirmed address keeps its confirmation; an unconfirmed one gets the new link.
        confirmTokenHash: sql`case when ${earlyAccessRequests.confirmedAt} is null then excluded.confirm_token_hash end`,
      },
    })
    .returning({
      id: earlyAccessRequests.id,
      submissions: earlyAccessRequests.submissions,
      confirmedAt: earlyAccessRequests.confirmedAt,
    });
  return saved!;
}

/** Spends a confirmation link in one statement; undefined when unknown, used or older than `since`. */
export async function confirm(q: Queryable, tokenHash: string, now: Date, since: Date) {
  const [row] = await q
    .update(earlyAccessRequests)
    .set({ confirmedAt: now, confirmTokenHash: null })
    .where(
      and(
        eq(earlyAccessRequests.confirmTokenHash, tokenHash),
        isNull(earlyAccessRequests.confirmedAt),
        gt(earlyAccessRequests.updatedAt, since),
      ),
    )
    .returning({ id: earlyAccessRequests.id });
  return row;
}
