import { and, asc, eq, gt, isNull, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../kernel/db/index.js';
import { users } from '../accounts/schema.js';
import { memberships, tenants } from '../organizations/index.js';
import { magicLinks } from './schema.js';

/**
 * The person a sign-in link is for, in one read: the organization, the account and its membership. Read-only
 * joins of the accounts and organizations tables, with the same columns and conditions as the password
 * sign-in's subject (accounts' `signInSubject`): the caller admits only an active account with an active
 * membership. A quarantined organization is not excluded: sign-in stays available during quarantine (Part B).
 */
function subjectWhere(q: Queryable, where: SQL | undefined) {
  return q
    .select({
      tenantId: tenants.id,
      tenantName: tenants.name,
      tenantSlug: tenants.slug,
      ssoRequired: tenants.ssoRequired,
      userId: users.id,
      email: users.email,
      userStatus: users.status,
      tokenEpoch: users.tokenEpoch,
      role: memberships.role,
      population: memberships.population,
      membershipStatus: memberships.status,
    })
    .from(tenants)
    .innerJoin(memberships, eq(memberships.tenantId, tenants.id))
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(where);
}

export type Subject = NonNullable<Awaited<ReturnType<typeof subjectBySlug>>>;

/** Issuance: the organization by slug and the account by its email key. */
export async function subjectBySlug(q: Queryable, tenantSlug: string, emailKey: string) {
  const [row] = await subjectWhere(q, and(eq(tenants.slug, tenantSlug), eq(users.emailKey, emailKey)));
  return row;
}

/** Redemption: the organization and account a spent link names, as they are now. */
export async function subjectOf(q: Queryable, tenantId: string, userId: string) {
  const [row] = await subjectWhere(q, and(eq(tenants.id, tenantId), eq(users.id, userId)));
  return row;
}

/**
 * Holds the person's membership row until the transaction ends: two concurrent requests for the same person
 * and organization are serialized, so the later one sees (and supersedes) the link the earlier one issued.
 */
export async function lockMembership(q: Queryable, tenantId: string, userId: string): Promise<void> {
  await q
    .select({ id: memberships.id })
    .from(memberships)
    .where(and(eq(memberships.tenantId, tenantId), eq(memberships.userId, userId)))
    .for('update');
}

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
