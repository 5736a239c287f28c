import { and, asc, eq, isNull, lt, sql } from 'drizzle-orm';
import { addMs } from '../../kernel/clock.js';
import { type Queryable, spendOnce } from '../../kernel/db/index.js';
import { newId } from '../../kernel/ids.js';
import { CEREMONY_TTL_MS } from './relying-party.js';
import { webauthnChallenges, webauthnCredentials } from './schema.js';

export type CredentialRow = typeof webauthnCredentials.$inferSelect;
export type Purpose = (typeof webauthnChallenges.$inferSelect)['purpose'];

/** The account a registration ceremony is for (its address names the passkey): read by the accounts module. */
export { accountLabel as accountOf } from '../accounts/index.js';

/**
 * Stores a new ceremony's challenge, valid for `CEREMONY_TTL_MS`. Ceremonies that ran out are of no use to anyone
 * (a spent or expired challenge is refused either way): they are dropped here, whenever a new one is issued, so
 * the table holds only the last few minutes of ceremonies.
 */
export async function issueChallenge(
  q: Queryable,
  input: { challenge: string; purpose: Purpose; userId: string | null; now: Date },
): Promise<void> {
  const { challenge, purpose, userId, now } = input;
  await q.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, now));
  await q
    .insert(webauthnChallenges)
    .values({ id: newId(), challenge, purpose, userId, createdAt: now, expiresAt: addMs(now, CEREMONY_TTL_MS) });
}

/**
 * Spends a ceremony's challenge in one statement: of any number of concurrent or replayed responses exactly
 * one gets it, and only before it expires. A registration challenge is bound to the account it was issued to;
 * a sign-in challenge to no one (discoverable credentials: the account is known only from the assertion).
 */
export function spendChallenge(
  q: Queryable,
  input: { challenge: string; purpose: Purpose; userId: string | null; now: Date },
) {
  return spendOnce(
    q,
    webauthnChallenges,
    webauthnChallenges.spentAt,
    and(
      eq(webauthnChallenges.challenge, input.challenge),
      eq(webauthnChallenges.purpose, input.purpose),
      input.userId === null ? isNull(webauthnChallenges.userId) : eq(webauthnChallenges.userId, input.userId),
      sql`${webauthnChallenges.expiresAt} > ${input.now}`,
    ),
    input.now,
    { id: webauthnChallenges.id },
  );
}

export function credentialsOf(q: Queryable, userId: string): Promise<CredentialRow[]> {
  return q
    .select()
    .from(webauthnCredentials)
    .where(eq(webauthnCredentials.userId, userId))
    .orderBy(asc(webauthnCredentials.createdAt), asc(webauthnCredentials.id));
}

/**
 * The account's passkeys, locked: concurrent removals of one account queue here, so "not the last passkey of
 * a passwordless account" is decided on what is really left, never on a stale count.
 */
export function lockCredentialsOf(q: Queryable, userId: string) {
  return q
    .select({ id: webauthnCredentials.id, name: webauthnCredentials.name })
    .from(webauthnCredentials)
    .where(eq(webauthnCredentials.userId, userId))
    .for('update');
}

export async function credentialByCredentialId(q: Queryable, credentialId: string): Promise<CredentialRow | undefined> {
  const [row] = await q.select().from(webauthnCredentials).where(eq(webauthnCredentials.credentialId, credentialId));
  return row;
}

export async function insertCredential(q: Queryable, row: typeof webauthnCredentials.$inferInsert): Promise<void> {
  await q.insert(webauthnCredentials).values(row);
}

export async function deleteCredential(q: Queryable, id: string, userId: string): Promise<boolean> {
  const removed = await q
    .delete(webauthnCredentials)
    .where(and(eq(webauthnCredentials.id, id), eq(webauthnCredentials.userId, userId)))
    .returning({ id: webauthnCredentials.id });
  return removed.length > 0;
}

/**
 * Records a verified sign-in: the new signature counter and the time. Compare-and-set on the counter the
 * assertion was checked against, so of two sign-ins racing with the same counter only one moves it on.
 */
export async function advanceCounter(
  q: Queryable,
  input: { id: string; expected: number; counter: number; now: Date },
): Promise<boolean> {
  const updated = await q
    .update(webauthnCredentials)
    .set({ counter: input.counter, lastUsedAt: input.now })
    .where(and(eq(webauthnCredentials.id, input.id), eq(webauthnCredentials.counter, input.expected)))
    .returning({ id: webauthnCredentials.id });
  return updated.length > 0;
}

/** Erasure: every passkey and open ceremony of the account. */
export async function deleteAllOfUser(q: Queryable, userId: string): Promise<void> {
  await q.delete(webauthnCredentials).where(eq(webauthnCredentials.userId, userId));
  await q.delete(webauthnChallenges).where(eq(webauthnChallenges.userId, userId));
}
