import { and, eq, isNull, lt, or } from 'drizzle-orm';
import type { Queryable } from '../../kernel/db/index.js';
import { socialFlows, socialIdentities } from './schema.js';

export type SocialFlowRow = typeof socialFlows.$inferSelect;
export type SocialIdentityRow = typeof socialIdentities.$inferSelect;

export async function insertFlow(q: Queryable, row: typeof socialFlows.$inferInsert): Promise<void> {
  await q.insert(socialFlows).values(row);
}

/**
 * Spends a flow's `state` once, only from the browser that started it (its binding hash) and at the callback of
 * the provider it was started for. Of concurrent callbacks one gets the row; expiry is the caller's check. Runs
 * without a tenant: the flow's organization is known only once its row is found.
 */
export async function spendState(
  q: Queryable,
  match: { stateHash: string; browserHash: string; provider: string },
  now: Date,
): Promise<SocialFlowRow | undefined> {
  const [row] = await q
    .update(socialFlows)
    .set({ callbackAt: now })
    .where(
      and(
        eq(socialFlows.stateHash, match.stateHash),
        eq(socialFlows.browserHash, match.browserHash),
        eq(socialFlows.provider, match.provider),
        isNull(socialFlows.callbackAt),
      ),
    )
    .returning();
  return row;
}

/** A signed-in round trip's outcome: the person, and the one-time completion code (SHA-256). */
export async function setCompletion(
  q: Queryable,
  tenantId: string,
  flowId: string,
  completion: { userId: string; completionHash: string; completionExpiresAt: Date },
): Promise<void> {
  await q
    .update(socialFlows)
    .set(completion)
    .where(and(eq(socialFlows.tenantId, tenantId), eq(socialFlows.id, flowId)));
}

/** Spends a completion code once (`completed_at`); expiry is the caller's check, so a late use still spends it. */
export async function spendCompletion(
  q: Queryable,
  completionHash: string,
  now: Date,
): Promise<SocialFlowRow | undefined> {
  const [row] = await q
    .update(socialFlows)
    .set({ completedAt: now })
    .where(and(eq(socialFlows.completionHash, completionHash), isNull(socialFlows.completedAt)))
    .returning();
  return row;
}

/** Round trips (and their completion codes) long over. */
export async function purgeFlows(q: Queryable, before: Date): Promise<void> {
  await q.delete(socialFlows).where(lt(socialFlows.expiresAt, before));
}

export async function identityBySubject(
  q: Queryable,
  tenantId: string,
  provider: string,
  subject: string,
): Promise<SocialIdentityRow | undefined> {
  const [row] = await q
    .select()
    .from(socialIdentities)
    .where(
      and(
        eq(socialIdentities.tenantId, tenantId),
        eq(socialIdentities.provider, provider),
        eq(socialIdentities.subject, subject),
      ),
    )
    .for('update');
  return row;
}

/** The person's linked identities in the organization, locked: the caller decides on them. */
export async function identitiesOfUser(q: Queryable, tenantId: string, userId: string): Promise<SocialIdentityRow[]> {
  return q
    .select()
    .from(socialIdentities)
    .where(and(eq(socialIdentities.tenantId, tenantId), eq(socialIdentities.userId, userId)))
    .orderBy(socialIdentities.createdAt)
    .for('update');
}

export async function insertIdentity(q: Queryable, row: SocialIdentityRow): Promise<void> {
  await q.insert(socialIdentities).values(row);
}

export async function touchIdentity(
  q: Queryable,
  tenantId: string,
  id: string,
  set: { email: string; lastUsedAt: Date },
): Promise<void> {
  await q
    .update(socialIdentities)
    .set(set)
    .where(and(eq(socialIdentities.tenantId, tenantId), eq(socialIdentities.id, id)));
}

export async function deleteIdentity(q: Queryable, tenantId: string, id: string): Promise<void> {
  await q.delete(socialIdentities).where(and(eq(socialIdentities.tenantId, tenantId), eq(socialIdentities.id, id)));
}

/** Erasure: the person's identities and round trips in the organization. */
export async function deleteOfUser(q: Queryable, tenantId: string, userId: string): Promise<void> {
  await q
    .delete(socialIdentities)
    .where(and(eq(socialIdentities.tenantId, tenantId), eq(socialIdentities.userId, userId)));
  await q
    .delete(socialFlows)
    .where(
      and(eq(socialFlows.tenantId, tenantId), or(eq(socialFlows.userId, userId), eq(socialFlows.linkUserId, userId))),
    );
}
