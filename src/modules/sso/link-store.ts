import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import type { Queryable } from '../../kernel/db/index.js';
import { ssoLinkRequests } from './schema.js';

// Read by their owners: the organization's name, its owners' and an account's addresses.
export { emailOfUser as addressOf, ownerAddresses } from '../accounts/index.js';
export { organizationName } from '../organizations/index.js';

export type SsoLinkRequestRow = typeof ssoLinkRequests.$inferSelect;

export async function insertLinkRequest(q: Queryable, row: SsoLinkRequestRow): Promise<void> {
  await q.insert(ssoLinkRequests).values(row);
}

/** Spends a link once, while it is fresh (one statement: of concurrent clicks one gets the row). */
export async function spendLinkRequest(
  q: Queryable,
  tokenHash: string,
  now: Date,
): Promise<SsoLinkRequestRow | undefined> {
  const [row] = await q
    .update(ssoLinkRequests)
    .set({ spentAt: now })
    .where(
      and(
        eq(ssoLinkRequests.tokenHash, tokenHash),
        isNull(ssoLinkRequests.spentAt),
        gt(ssoLinkRequests.expiresAt, now),
      ),
    )
    .returning();
  return row;
}

export async function purgeLinkRequests(q: Queryable, before: Date): Promise<void> {
  await q.delete(ssoLinkRequests).where(lt(ssoLinkRequests.expiresAt, before));
}

/** Whether a link for this person and provider account is already on its way (one mail per 30 minutes). */
export async function pendingLinkRequest(
  q: Queryable,
  key: { tenantId: string; issuer: string; subject: string; userId: string },
  now: Date,
): Promise<boolean> {
  const [row] = await q
    .select({ id: ssoLinkRequests.id })
    .from(ssoLinkRequests)
    .where(
      and(
        eq(ssoLinkRequests.tenantId, key.tenantId),
        eq(ssoLinkRequests.issuer, key.issuer),
        eq(ssoLinkRequests.subject, key.subject),
        eq(ssoLinkRequests.userId, key.userId),
        isNull(ssoLinkRequests.spentAt),
        gt(ssoLinkRequests.expiresAt, now),
      ),
    )
    .limit(1);
  return row !== undefined;
}

export async function linkRequestsOfUser(q: Queryable, tenantId: string, userId: string): Promise<SsoLinkRequestRow[]> {
  return q
    .select()
    .from(ssoLinkRequests)
    .where(and(eq(ssoLinkRequests.tenantId, tenantId), eq(ssoLinkRequests.userId, userId)));
}

export async function deleteLinkRequestsOfUser(q: Queryable, tenantId: string, userId: string): Promise<void> {
  await q
    .delete(ssoLinkRequests)
    .where(and(eq(ssoLinkRequests.tenantId, tenantId), eq(ssoLinkRequests.userId, userId)));
}
