import { and, asc, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Queryable } from '../../kernel/db/index.js';
import { events } from '../../kernel/events/schema.js';
import { membershipStanding, tenantStanding } from '../organizations/index.js';
import { accountTokens, users } from './schema.js';

/** Queries behind the account's own life cycle: emailed links, passwords, epochs, profile, activity. */

export type AccountTokenPurpose = (typeof accountTokens.$inferSelect)['purpose'];

export async function tenantBySlug(q: Queryable, slug: string) {
  const tenant = tenantStanding(q);
  const [row] = await q
    .select({ id: tenant.tenantId, quarantined: tenant.quarantined })
    .from(tenant)
    .where(eq(tenant.slug, slug));
  return row;
}

/** Every organization the account holds an active membership of, oldest first. */
export async function activeTenantsOf(q: Queryable, userId: string): Promise<string[]> {
  const membership = membershipStanding(q);
  const rows = await q
    .select({ tenantId: membership.tenantId })
    .from(membership)
    .where(and(eq(membership.userId, userId), eq(membership.status, 'active')))
    .orderBy(asc(membership.createdAt));
  return rows.map((row) => row.tenantId);
}

/** The organization an account-level event (verification, reset) is recorded in: its oldest active membership. */
export async function homeTenantOf(q: Queryable, userId: string): Promise<string | undefined> {
  return (await activeTenantsOf(q, userId))[0];
}

export async function insertAccountToken(q: Queryable, row: typeof accountTokens.$inferInsert): Promise<void> {
  await q.insert(accountTokens).values(row);
}

/** Spends a live link in one statement (single use, race-safe); undefined when unknown, used or expired. */
export async function spendAccountToken(q: Queryable, purpose: AccountTokenPurpose, tokenHash: string, now: Date) {
  const [row] = await q
    .update(accountTokens)
    .set({ spentAt: now })
    .where(
      and(
        eq(accountTokens.tokenHash, tokenHash),
        eq(accountTokens.purpose, purpose),
        isNull(accountTokens.spentAt),
        gt(accountTokens.expiresAt, now),
      ),
    )
    .returning({ userId: accountTokens.userId, email: accountTokens.email, tenantId: accountTokens.eventTenantId });
  return row;
}

/** Whether a link is live, without spending it (a cheap check before hashing a new password). */
export async function accountTokenIsLive(q: Queryable, purpose: AccountTokenPurpose, tokenHash: string, now: Date) {
  const [row] = await q
    .select({ id: accountTokens.id })
    .from(accountTokens)
    .where(
      and(
        eq(accountTokens.tokenHash, tokenHash),
        eq(accountTokens.purpose, purpose),
        isNull(accountTokens.spentAt),
        gt(accountTokens.expiresAt, now),
      ),
    );
  return Boolean(row);
}

/** Spends every other live link of the purpose (a reset invalidates the links sent before it). */
export async function spendAllAccountTokens(q: Queryable, userId: string, purpose: AccountTokenPurpose, now: Date) {
  await q
    .update(accountTokens)
    .set({ spentAt: now })
    .where(and(eq(accountTokens.userId, userId), eq(accountTokens.purpose, purpose), isNull(accountTokens.spentAt)));
}

/** Marks the address verified if it is still the account's address. */
export async function markEmailVerified(q: Queryable, userId: string, emailKey: string, now: Date): Promise<boolean> {
  const updated = await q
    .update(users)
    .set({ emailVerified: true, updatedAt: now })
    .where(and(eq(users.id, userId), eq(users.emailKey, emailKey), eq(users.status, 'active')))
    .returning({ id: users.id });
  return updated.length > 0;
}

/** Bumps the revocation epoch: every token minted under an older one is refused from its next use. */
export async function bumpEpoch(q: Queryable, userId: string, now: Date): Promise<number> {
  const [row] = await q
    .update(users)
    .set({ tokenEpoch: sql`${users.tokenEpoch} + 1`, updatedAt: now })
    .where(eq(users.id, userId))
    .returning({ epoch: users.tokenEpoch });
  if (!row) throw new Error('account vanished');
  return row.epoch;
}

/** Sets a new password and bumps the epoch in one statement; answers the new epoch. */
export async function setPassword(q: Queryable, userId: string, passwordHash: string, now: Date): Promise<number> {
  const [row] = await q
    .update(users)
    .set({
      passwordHash,
      passwordChangedAt: now,
      tokenEpoch: sql`${users.tokenEpoch} + 1`,
      updatedAt: now,
    })
    .where(eq(users.id, userId))
    .returning({ epoch: users.tokenEpoch });
  if (!row) throw new Error('account vanished');
  return row.epoch;
}

/** The user's own events in one organization, newest first. */
export async function activityOf(q: Queryable, tenantId: string, userId: string, limit: number) {
  return q
    .select({
      id: events.id,
      occurredAt: events.occurredAt,
      action: events.action,
      category: events.category,
      severity: events.severity,
      outcome: events.outcome,
      actorType: events.actorType,
      data: events.data,
    })
    .from(events)
    .where(and(eq(events.tenantId, tenantId), eq(events.subjectUserId, userId)))
    .orderBy(desc(events.occurredAt), desc(events.id))
    .limit(limit);
}

export async function updateProfile(
  q: Queryable,
  userId: string,
  patch: { name?: string | null; givenName?: string | null; familyName?: string | null },
  now: Date,
) {
  const [row] = await q
    .update(users)
    .set({ ...patch, updatedAt: now })
    .where(and(eq(users.id, userId), eq(users.profileSource, 'local')))
    .returning();
  return row;
}
