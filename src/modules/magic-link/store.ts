import { and, asc, eq, gt, isNull } from 'drizzle-orm';
import type { Queryable } from '../../kernel/db/index.js';
import { magicLinks } from './schema.js';

/** Serializes concurrent requests for one person and organization on their membership row (organizations' lock). */
export { lockMembership } from '../organizations/index.js';

/** Part A 3: a new link requested kills the outstanding one (`superseded`). Answers how many were live. */
export async function supersedeLiveLinks(q: Queryable, tenantId: string, userId: string, now: Date): Promise<number> {
  const superseded = await q
    .update(magicLinks)
    .set({ spentAt: now, spentReason: 'superseded' })
    .where(
      and(
        eq(magicLinks.tenantId, tenantId),
        eq(magicLinks.userId, userId),
        isNull(magicLinks.spentAt),
        gt(magicLinks.expiresAt, now),
      ),
    )
    .returning({ id: magicLinks.id });
  return superseded.length;
}

export async function insertLink(q: Queryable, row: typeof magicLinks.$inferInsert): Promise<void> {
  await q.insert(magicLinks).values(row);
}

/**
 * Spends a live link in one statement (`UPDATE … WHERE spent_at IS NULL … RETURNING`): of any number of
 * concurrent callers exactly one gets the row. Written out rather than through the kernel's `spendOnce`
 * because the spend also records its reason (`used`, as opposed to `superseded`). Runs before the
 * organization is known (a token is looked up by its hash alone), so the caller's transaction has no tenant yet.
 */
export async function spendLink(q: Queryable, tokenHash: string, now: Date) {
  const [row] = await q
    .update(magicLinks)
    .set({ spentAt: now, spentReason: 'used' })
    .where(and(eq(magicLinks.tokenHash, tokenHash), isNull(magicLinks.spentAt), gt(magicLinks.expiresAt, now)))
    .returning({ tenantId: magicLinks.tenantId, userId: magicLinks.userId });
  return row;
}

/** The person's links in one organization (privacy export): never the token hash. */
export async function linksOfUser(q: Queryable, tenantId: string, userId: string) {
  return q
    .select({
      id: magicLinks.id,
      createdAt: magicLinks.createdAt,
      expiresAt: magicLinks.expiresAt,
      spentAt: magicLinks.spentAt,
      spentReason: magicLinks.spentReason,
    })
    .from(magicLinks)
    .where(and(eq(magicLinks.tenantId, tenantId), eq(magicLinks.userId, userId)))
    .orderBy(asc(magicLinks.createdAt), asc(magicLinks.id));
}

export async function deleteLinksOfUser(q: Queryable, tenantId: string, userId: string): Promise<void> {
  await q.delete(magicLinks).where(and(eq(magicLinks.tenantId, tenantId), eq(magicLinks.userId, userId)));
}
