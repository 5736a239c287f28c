import { and, count, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Queryable, Tx } from '../../kernel/db/index.js';
import { spendOnce } from '../../kernel/db/index.js';
import { newId } from '../../kernel/ids.js';
import { mfaChallenges, mfaRecoveryCodes, mfaTotp } from './schema.js';

export type Factor = typeof mfaTotp.$inferSelect;
export type Challenge = typeof mfaChallenges.$inferSelect;

export async function factorOf(q: Queryable, userId: string): Promise<Factor | undefined> {
  const [row] = await q.select().from(mfaTotp).where(eq(mfaTotp.userId, userId));
  return row;
}

export async function isEnabled(q: Queryable, userId: string): Promise<boolean> {
  const factor = await factorOf(q, userId);
  return Boolean(factor?.enabledAt);
}

/** A new pending enrollment replaces any earlier pending one, with a fresh set of recovery codes. */
/**
 * False when a factor is enabled (even one enabled a moment ago by a concurrent verify): only a pending
 * enrollment is ever replaced.
 */
export async function startEnrollment(
  tx: Tx,
  input: { userId: string; secretSealed: string; codeHashes: string[]; now: Date },
): Promise<boolean> {
  await tx.delete(mfaTotp).where(and(eq(mfaTotp.userId, input.userId), isNull(mfaTotp.enabledAt)));
  const inserted = await tx
    .insert(mfaTotp)
    .values({ userId: input.userId, secretSealed: input.secretSealed, createdAt: input.now })
    .onConflictDoNothing()
    .returning({ userId: mfaTotp.userId });
  if (inserted.length === 0) return false;
  await replaceRecoveryCodes(tx, input.userId, input.codeHashes, input.now);
  return true;
}

export async function replaceRecoveryCodes(tx: Tx, userId: string, codeHashes: string[], now: Date): Promise<void> {
  await tx.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, userId));
  await tx
    .insert(mfaRecoveryCodes)
    .values(codeHashes.map((codeHash) => ({ id: newId(), userId, codeHash, createdAt: now })));
}

/**
 * Accepts a TOTP step once (RFC 6238 section 5.2): the step must be later than the last accepted one. One
 * statement, so two concurrent requests with the same code cannot both pass.
 */
export async function acceptStep(tx: Tx, userId: string, step: number): Promise<boolean> {
  const rows = await tx
    .update(mfaTotp)
    .set({ lastUsedStep: step })
    .where(and(eq(mfaTotp.userId, userId), or(isNull(mfaTotp.lastUsedStep), lt(mfaTotp.lastUsedStep, step))))
    .returning({ userId: mfaTotp.userId });
  return rows.length === 1;
}

export async function enable(tx: Tx, userId: string, now: Date): Promise<boolean> {
  const rows = await tx
    .update(mfaTotp)
    .set({ enabledAt: now })
    .where(and(eq(mfaTotp.userId, userId), isNull(mfaTotp.enabledAt)))
    .returning({ userId: mfaTotp.userId });
  return rows.length === 1;
}

export async function removeFactor(tx: Tx, userId: string): Promise<void> {
  await tx.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, userId));
  await tx.delete(mfaTotp).where(eq(mfaTotp.userId, userId));
}

export async function spendRecoveryCode(tx: Tx, userId: string, codeHash: string, now: Date): Promise<boolean> {
  const spent = await spendOnce(
    tx,
    mfaRecoveryCodes,
    mfaRecoveryCodes.spentAt,
    and(eq(mfaRecoveryCodes.userId, userId), eq(mfaRecoveryCodes.codeHash, codeHash)),
    now,
    { id: mfaRecoveryCodes.id },
  );
  return spent !== undefined;
}

export async function recoveryCodesLeft(q: Queryable, userId: string): Promise<number> {
  const [row] = await q
    .select({ n: count() })
    .from(mfaRecoveryCodes)
    .where(and(eq(mfaRecoveryCodes.userId, userId), isNull(mfaRecoveryCodes.spentAt)));
  return Number(row?.n ?? 0);
}

export async function insertChallenge(tx: Tx, challenge: typeof mfaChallenges.$inferInsert): Promise<void> {
  await tx.insert(mfaChallenges).values(challenge);
}

/**
 * Takes one of a live challenge's code attempts (Part A 8: 5 per challenge) in one statement. The row stays
 * locked until the caller's transaction ends, so a concurrent attempt on the same challenge waits and then
 * sees the outcome.
 */
export async function takeAttempt(tx: Tx, tokenHash: string, now: Date, maxAttempts: number) {
  const [row] = await tx
    .update(mfaChallenges)
    .set({ attempts: sql`${mfaChallenges.attempts} + 1` })
    .where(
      and(
        eq(mfaChallenges.tokenHash, tokenHash),
        isNull(mfaChallenges.spentAt),
        gt(mfaChallenges.expiresAt, now),
        lt(mfaChallenges.attempts, maxAttempts),
      ),
    )
    .returning();
  return row;
}

export async function spendChallenge(tx: Tx, id: string, now: Date): Promise<void> {
  await tx.update(mfaChallenges).set({ spentAt: now }).where(eq(mfaChallenges.id, id));
}

export async function challengesOf(q: Queryable, tenantId: string, userId: string): Promise<Challenge[]> {
  return q
    .select()
    .from(mfaChallenges)
    .where(and(eq(mfaChallenges.tenantId, tenantId), eq(mfaChallenges.userId, userId)));
}

export async function deleteChallengesOf(tx: Tx, tenantId: string, userId: string): Promise<void> {
  await tx.delete(mfaChallenges).where(and(eq(mfaChallenges.tenantId, tenantId), eq(mfaChallenges.userId, userId)));
}

/** The account's address: the accounts module reads its own table. */
export { emailOfUser as emailOf } from '../accounts/index.js';
