import { and, asc, count, eq, gt, or, sql } from 'drizzle-orm';
import { type Queryable, rows } from '../../kernel/db/index.js';
import { tenantStanding } from '../organizations/index.js';
import { invitations, memberDomains } from './schema.js';

export type InvitationRow = typeof invitations.$inferSelect;
export type DomainRow = typeof memberDomains.$inferSelect;

// The roster, the organization lock and an account's address key are read by the core tables' owners.
export {
  emailKeyOfUser,
  memberRoster as roster,
  memberRosterEntry as rosterEntry,
  type RosterRow,
} from '../accounts/index.js';
export { lockTenant } from '../organizations/index.js';

// Invitations

export async function insertInvitation(q: Queryable, row: typeof invitations.$inferInsert): Promise<void> {
  await q.insert(invitations).values(row);
}

export async function pendingInvitationForEmail(q: Queryable, tenantId: string, emailKey: string) {
  const [row] = await q
    .select()
    .from(invitations)
    .where(
      and(eq(invitations.tenantId, tenantId), eq(invitations.emailKey, emailKey), eq(invitations.status, 'pending')),
    )
    .for('update');
  return row;
}

export async function reissueInvitation(
  q: Queryable,
  tenantId: string,
  id: string,
  set: { tokenHash: string; role: string; issuedAt: Date; expiresAt: Date; invitedBy: string },
): Promise<void> {
  await q
    .update(invitations)
    .set({ ...set, reissued: true })
    .where(and(eq(invitations.tenantId, tenantId), eq(invitations.id, id)));
}

export async function pendingUnexpiredInvitations(q: Queryable, tenantId: string, now: Date): Promise<number> {
  const [row] = await q
    .select({ n: count() })
    .from(invitations)
    .where(and(eq(invitations.tenantId, tenantId), eq(invitations.status, 'pending'), gt(invitations.expiresAt, now)));
  return Number(row?.n ?? 0);
}

/** Pending invitations whose link still works (an expired one is in the `expired` state of Part A 3). */
export async function listPendingInvitations(q: Queryable, tenantId: string, now: Date) {
  return q
    .select()
    .from(invitations)
    .where(and(eq(invitations.tenantId, tenantId), eq(invitations.status, 'pending'), gt(invitations.expiresAt, now)))
    .orderBy(asc(invitations.createdAt), asc(invitations.id));
}

/** Revokes a pending invitation in one statement; answers the revoked row. */
export async function revokeInvitation(q: Queryable, tenantId: string, id: string, now: Date) {
  const [row] = await q
    .update(invitations)
    .set({ status: 'revoked', revokedAt: now })
    .where(and(eq(invitations.tenantId, tenantId), eq(invitations.id, id), eq(invitations.status, 'pending')))
    .returning();
  return row;
}

/** An invitation by its link's token hash, in any organization (the link carries no tenant): a system read. */
export async function invitationByTokenHash(q: Queryable, tokenHash: string) {
  const [row] = await q.select().from(invitations).where(eq(invitations.tokenHash, tokenHash));
  return row;
}

/** Redeems a pending, unexpired invitation in one statement: of concurrent redemptions one wins. */
export async function redeemInvitation(
  q: Queryable,
  tenantId: string,
  id: string,
  tokenHash: string,
  now: Date,
  userId: string,
) {
  const [row] = await q
    .update(invitations)
    .set({ status: 'redeemed', redeemedAt: now, redeemedBy: userId })
    .where(
      and(
        eq(invitations.tenantId, tenantId),
        eq(invitations.id, id),
        eq(invitations.tokenHash, tokenHash),
        eq(invitations.status, 'pending'),
        gt(invitations.expiresAt, now),
      ),
    )
    .returning();
  return row;
}

export async function invitationsOfSubject(q: Queryable, tenantId: string, userId: string, emailKey: string | null) {
  return q
    .select()
    .from(invitations)
    .where(
      and(
        eq(invitations.tenantId, tenantId),
        emailKey === null
          ? eq(invitations.redeemedBy, userId)
          : or(eq(invitations.redeemedBy, userId), eq(invitations.emailKey, emailKey)),
      ),
    );
}

/** Erasure: the subject's invitations keep their history but lose the address. */
export async function scrubInvitations(q: Queryable, tenantId: string, ids: string[]): Promise<void> {
  for (const id of ids) {
    await q
      .update(invitations)
      .set({
        email: 'erased',
        emailKey: `erased:${id}`,
        status: sql`case when status = 'pending' then 'revoked' else status end`,
      })
      .where(and(eq(invitations.tenantId, tenantId), eq(invitations.id, id)));
  }
}

// Domains

export async function domainsOf(q: Queryable, tenantId: string) {
  return q.select().from(memberDomains).where(eq(memberDomains.tenantId, tenantId)).orderBy(asc(memberDomains.domain));
}

export async function domainByName(q: Queryable, tenantId: string, domain: string) {
  const [row] = await q
    .select()
    .from(memberDomains)
    .where(and(eq(memberDomains.tenantId, tenantId), eq(memberDomains.domain, domain)));
  return row;
}

export async function domainById(q: Queryable, tenantId: string, id: string) {
  const [row] = await q
    .select()
    .from(memberDomains)
    .where(and(eq(memberDomains.tenantId, tenantId), eq(memberDomains.id, id)))
    .for('update');
  return row;
}

export async function insertDomain(q: Queryable, row: typeof memberDomains.$inferInsert): Promise<void> {
  await q.insert(memberDomains).values(row);
}

export async function setDomainVerified(
  q: Queryable,
  tenantId: string,
  id: string,
  verified: boolean,
  now: Date,
): Promise<void> {
  await q
    .update(memberDomains)
    .set({ verified, verifiedAt: verified ? now : null, lastCheckedAt: now })
    .where(and(eq(memberDomains.tenantId, tenantId), eq(memberDomains.id, id)));
}

/** Unverifies a domain that is still verified; answers whether it was. */
export async function unverifyDomain(q: Queryable, tenantId: string, id: string, now: Date): Promise<boolean> {
  const changed = await q
    .update(memberDomains)
    .set({ verified: false, verifiedAt: null, lastCheckedAt: now })
    .where(and(eq(memberDomains.tenantId, tenantId), eq(memberDomains.id, id), eq(memberDomains.verified, true)))
    .returning({ id: memberDomains.id });
  return changed.length > 0;
}

export async function deleteDomain(q: Queryable, tenantId: string, id: string): Promise<boolean> {
  const deleted = await q
    .delete(memberDomains)
    .where(and(eq(memberDomains.tenantId, tenantId), eq(memberDomains.id, id)))
    .returning({ id: memberDomains.id });
  return deleted.length > 0;
}

/** The organization holding `domain` verified, if any: a system read across organizations. */
export async function verifiedHolder(q: Queryable, domain: string) {
  const standing = tenantStanding(q);
  const [row] = await q
    .select({
      id: memberDomains.id,
      tenantId: memberDomains.tenantId,
      domain: memberDomains.domain,
      verificationValue: memberDomains.verificationValue,
      slug: standing.slug,
      name: standing.name,
      quarantined: standing.quarantined,
    })
    .from(memberDomains)
    .innerJoin(standing, eq(standing.tenantId, memberDomains.tenantId))
    .where(and(eq(memberDomains.domain, domain), eq(memberDomains.verified, true)));
  return row;
}

/**
 * Claims verified domains due for a re-check (a system statement; `SKIP LOCKED` lets every node run the job):
 * stamps them checked now, so another node does not take them too.
 */
export async function claimDueDomains(q: Queryable, now: Date, checkedBefore: Date, limit: number) {
  return rows<{ id: string; tenant_id: string; domain: string; verification_value: string }>(
    q,
    sql`update member_domains set last_checked_at = ${now}
        where id in (select id from member_domains
                     where verified and (last_checked_at is null or last_checked_at < ${checkedBefore})
                     order by last_checked_at nulls first limit ${limit} for update skip locked)
        returning id, tenant_id, domain, verification_value`,
  );
}
