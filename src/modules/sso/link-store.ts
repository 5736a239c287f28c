import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import type { Queryable } from '../../kernel/db/index.js';
import { users } from '../accounts/schema.js';
import { memberships, tenants } from '../organizations/schema.js';
import { ssoLinkRequests } from './schema.js';

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

/** The organization's name, for the mails that speak of it. */
export async function organizationName(q: Queryable, tenantId: string): Promise<string | undefined> {
  const [row] = await q.select({ name: tenants.name }).from(tenants).where(eq(tenants.id, tenantId));
  return row?.name;
}

/** Addresses of the organization's active owners (told of every change to its SSO connection). */
export async function ownerAddresses(q: Queryable, tenantId: string): Promise<string[]> {
  const found = await q
    .select({ email: users.email })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.tenantId, tenantId), eq(memberships.role, 'owner'), eq(memberships.status, 'active')));
  return found.map((row) => row.email);
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

export async function addressOf(q: Queryable, userId: string): Promise<string | undefined> {
  const [row] = await q.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return row?.email;
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
