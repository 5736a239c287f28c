import { and, desc, eq, gt, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Queryable, Tx } from '../../kernel/db/index.js';
import { rows, spendOnce } from '../../kernel/db/index.js';
import {
  type AttemptRow,
  type AttemptStatus,
  type InviteCodeRow,
  onboardingAttempts,
  onboardingInviteCodes,
  onboardingPowChallenges,
} from './schema.js';

// SQL of onboarding. Every statement takes the transaction it runs in; single-use things are spent in one
// statement (`UPDATE … WHERE … IS NULL RETURNING`), never read-then-write.

export async function insertInviteCode(q: Queryable, row: InviteCodeRow): Promise<void> {
  await q.insert(onboardingInviteCodes).values(row);
}

export async function listInviteCodes(q: Queryable, limit: number): Promise<InviteCodeRow[]> {
  return q
    .select()
    .from(onboardingInviteCodes)
    .orderBy(desc(onboardingInviteCodes.createdAt), desc(onboardingInviteCodes.id))
    .limit(limit);
}

export async function inviteCodeById(q: Queryable, id: string): Promise<InviteCodeRow | undefined> {
  const [row] = await q.select().from(onboardingInviteCodes).where(eq(onboardingInviteCodes.id, id));
  return row;
}

export async function inviteCodeByHash(q: Queryable, codeHash: string): Promise<InviteCodeRow | undefined> {
  const [row] = await q.select().from(onboardingInviteCodes).where(eq(onboardingInviteCodes.codeHash, codeHash));
  return row;
}

/** Revokes a code that is neither revoked nor consumed; undefined otherwise. */
export async function revokeInviteCode(q: Queryable, id: string, now: Date) {
  return spendOnce(
    q,
    onboardingInviteCodes,
    onboardingInviteCodes.revokedAt,
    and(eq(onboardingInviteCodes.id, id), isNull(onboardingInviteCodes.consumedAt)),
    now,
    { id: onboardingInviteCodes.id },
  );
}

/** Consumes a live code for the organization it creates: one caller wins; revoked, expired or used ones fail. */
export async function consumeInviteCode(q: Queryable, id: string, organizationId: string, now: Date) {
  const [row] = await q
    .update(onboardingInviteCodes)
    .set({ consumedAt: now, consumedOrganizationId: organizationId })
    .where(
      and(
        eq(onboardingInviteCodes.id, id),
        isNull(onboardingInviteCodes.consumedAt),
        isNull(onboardingInviteCodes.revokedAt),
        gt(onboardingInviteCodes.expiresAt, now),
      ),
    )
    .returning({ id: onboardingInviteCodes.id });
  return row;
}

export async function insertAttempt(q: Queryable, row: AttemptRow): Promise<void> {
  await q.insert(onboardingAttempts).values(row);
}

/** The open (pending or approved) attempt of an address, locked: the bootstrap is about to rotate or refuse it. */
export async function openAttemptOfEmail(tx: Tx, emailKey: string): Promise<AttemptRow | undefined> {
  const [row] = await tx
    .select()
    .from(onboardingAttempts)
    .where(and(eq(onboardingAttempts.emailKey, emailKey), inArray(onboardingAttempts.status, ['pending', 'approved'])))
    .for('update');
  return row;
}

export async function updateAttempt(q: Queryable, id: string, set: Partial<AttemptRow>): Promise<void> {
  await q.update(onboardingAttempts).set(set).where(eq(onboardingAttempts.id, id));
}

export async function attemptByDeviceCode(q: Queryable, hash: string): Promise<AttemptRow | undefined> {
  const [row] = await q.select().from(onboardingAttempts).where(eq(onboardingAttempts.deviceCodeHash, hash));
  return row;
}

export async function attemptByUserCode(q: Queryable, hash: string): Promise<AttemptRow | undefined> {
  const [row] = await q.select().from(onboardingAttempts).where(eq(onboardingAttempts.userCodeHash, hash));
  return row;
}

export async function attemptByLink(q: Queryable, hash: string): Promise<AttemptRow | undefined> {
  const [row] = await q.select().from(onboardingAttempts).where(eq(onboardingAttempts.linkTokenHash, hash));
  return row;
}

export async function attemptByBrowser(q: Queryable, hash: string): Promise<AttemptRow | undefined> {
  const [row] = await q.select().from(onboardingAttempts).where(eq(onboardingAttempts.browserHash, hash));
  return row;
}

/**
 * Records a poll when the last one is at least `interval` old (RFC 8628 3.5 `slow_down`): one statement, so two
 * concurrent polls inside one interval cannot both pass.
 */
export async function recordPoll(q: Queryable, hash: string, now: Date): Promise<AttemptRow | undefined> {
  const [row] = await q
    .update(onboardingAttempts)
    .set({ lastPolledAt: now })
    .where(
      and(
        eq(onboardingAttempts.deviceCodeHash, hash),
        or(
          isNull(onboardingAttempts.lastPolledAt),
          lt(
            onboardingAttempts.lastPolledAt,
            sql`${now.toISOString()}::timestamptz - make_interval(secs => ${onboardingAttempts.pollIntervalSeconds}) + interval '1 millisecond'`,
          ),
        ),
      ),
    )
    .returning();
  return row;
}

/** Moves an attempt from one status to another; one caller wins. */
export async function transition(
  q: Queryable,
  id: string,
  from: AttemptStatus,
  set: Partial<AttemptRow> & { status: AttemptStatus },
  extra?: ReturnType<typeof sql>,
): Promise<AttemptRow | undefined> {
  const [row] = await q
    .update(onboardingAttempts)
    .set(set)
    .where(and(eq(onboardingAttempts.id, id), eq(onboardingAttempts.status, from), extra))
    .returning();
  return row;
}

/**
 * Claims the release of an approval left without its agent (a release that failed midway): one statement, so of
 * concurrent retries one wins, and only once the last claim (the approval itself, or an earlier retry) is older
 * than `staleBefore`, so a retry never runs beside a release still under way. The claim moves `approved_at`.
 */
export async function claimUnfinishedRelease(
  q: Queryable,
  id: string,
  now: Date,
  staleBefore: Date,
): Promise<AttemptRow | undefined> {
  const [row] = await q
    .update(onboardingAttempts)
    .set({ approvedAt: now })
    .where(
      and(
        eq(onboardingAttempts.id, id),
        eq(onboardingAttempts.status, 'approved'),
        isNull(onboardingAttempts.agentId),
        lte(onboardingAttempts.approvedAt, staleBefore),
      ),
    )
    .returning();
  return row;
}

/** Records the released agent unless one is recorded already: true when this one is. */
export async function recordReleasedAgent(q: Queryable, id: string, agentId: string): Promise<boolean> {
  const recorded = await q
    .update(onboardingAttempts)
    .set({ agentId })
    .where(and(eq(onboardingAttempts.id, id), isNull(onboardingAttempts.agentId)))
    .returning({ id: onboardingAttempts.id });
  return recorded.length === 1;
}

/** Spends the mailed link (single use) while it is live: the attempt it belonged to, or undefined. */
export async function spendLink(q: Queryable, hash: string, now: Date): Promise<AttemptRow | undefined> {
  const [row] = await q
    .update(onboardingAttempts)
    .set({ linkTokenHash: null })
    .where(and(eq(onboardingAttempts.linkTokenHash, hash), gt(onboardingAttempts.linkExpiresAt, now)))
    .returning();
  return row;
}

export async function insertPowChallenge(q: Queryable, row: typeof onboardingPowChallenges.$inferInsert) {
  await q.insert(onboardingPowChallenges).values(row);
}

/** Spends a live challenge; its difficulty, or undefined when unknown, expired or already spent. */
export async function spendPowChallenge(q: Queryable, challenge: string, now: Date) {
  return spendOnce(
    q,
    onboardingPowChallenges,
    onboardingPowChallenges.spentAt,
    and(eq(onboardingPowChallenges.challenge, challenge), gt(onboardingPowChallenges.expiresAt, now)),
    now,
    { bits: onboardingPowChallenges.bits },
  );
}

/**
 * Whether the account can sign in by itself: a password or a passkey. A read of the accounts' and passkeys'
 * tables, which approval needs (Part B 4.5 "Approval is refused until the owner has a passkey or password").
 */
export async function ownerHasSignInMethod(q: Queryable, userId: string): Promise<boolean> {
  const [row] = await rows<{ usable: boolean }>(
    q,
    sql`select (exists (select 1 from users where id = ${userId} and password_hash is not null)
      or exists (select 1 from webauthn_credentials where user_id = ${userId})) as usable`,
  );
  return row?.usable === true;
}

/** Sets or lifts the organization's quarantine (the flag the guard reads through each principal). */
export async function setQuarantine(q: Queryable, organizationId: string, on: boolean): Promise<void> {
  await q.execute(sql`update tenants set quarantined = ${on} where id = ${organizationId}`);
}

/** Denial: the organization and everything of it (memberships, settings… cascade); events and audit stay. */
export async function deleteOrganization(q: Queryable, organizationId: string): Promise<void> {
  await q.execute(sql`delete from tenants where id = ${organizationId}`);
}

/** Denial: the owner account the attempt made (never one that existed before it). */
export async function deleteAccount(q: Queryable, userId: string): Promise<void> {
  await q.execute(sql`delete from users where id = ${userId}`);
}
