import { and, eq, isNull } from 'drizzle-orm';
import { type Queryable, spendOnce } from '../../kernel/db/index.js';
import { memberships, tenants } from '../organizations/index.js';
import { refreshTokens, sessions, users } from './schema.js';

export type UserRow = typeof users.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;

export async function insertUser(q: Queryable, row: typeof users.$inferInsert): Promise<void> {
  await q.insert(users).values(row);
}

export async function userByEmail(q: Queryable, emailKey: string): Promise<UserRow | undefined> {
  const [row] = await q.select().from(users).where(eq(users.emailKey, emailKey));
  return row;
}

/** Everything password sign-in needs, in one read: the organization, the account and its membership. */
export async function signInSubject(q: Queryable, tenantSlug: string, emailKey: string) {
  const [row] = await q
    .select({
      tenantId: tenants.id,
      ssoRequired: tenants.ssoRequired,
      userId: users.id,
      passwordHash: users.passwordHash,
      userStatus: users.status,
      tokenEpoch: users.tokenEpoch,
      role: memberships.role,
      population: memberships.population,
      membershipStatus: memberships.status,
    })
    .from(tenants)
    .innerJoin(memberships, eq(memberships.tenantId, tenants.id))
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(tenants.slug, tenantSlug), eq(users.emailKey, emailKey)));
  return row;
}

export async function insertSession(q: Queryable, row: typeof sessions.$inferInsert): Promise<void> {
  await q.insert(sessions).values(row);
}

export async function insertRefreshToken(q: Queryable, row: typeof refreshTokens.$inferInsert): Promise<void> {
  await q.insert(refreshTokens).values(row);
}

/** Spends a refresh token: one statement, so two concurrent presentations cannot both succeed. */
export async function spendRefreshToken(q: Queryable, tokenHash: string, now: Date) {
  return spendOnce(q, refreshTokens, refreshTokens.rotatedAt, eq(refreshTokens.tokenHash, tokenHash), now, {
    tenantId: refreshTokens.tenantId,
    sessionId: refreshTokens.sessionId,
    expiresAt: refreshTokens.expiresAt,
  });
}

/** A refresh token that was already rotated: its reappearance means it was stolen or replayed. */
export async function rotatedRefreshToken(q: Queryable, tokenHash: string) {
  const [row] = await q
    .select({ tenantId: refreshTokens.tenantId, sessionId: refreshTokens.sessionId })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, tokenHash));
  return row;
}

/**
 * The live state behind a session's tokens: session, account, membership and organization in one read.
 * Used on every authenticated request, so revocation, epoch bumps and membership changes hold at once.
 */
export async function sessionState(q: Queryable, tenantId: string, sessionId: string) {
  const [row] = await q
    .select({
      sessionId: sessions.id,
      userId: sessions.userId,
      sessionEpoch: sessions.epoch,
      revokedAt: sessions.revokedAt,
      expiresAt: sessions.expiresAt,
      dpopJkt: sessions.dpopJkt,
      userStatus: users.status,
      tokenEpoch: users.tokenEpoch,
      emailVerified: users.emailVerified,
      role: memberships.role,
      population: memberships.population,
      membershipStatus: memberships.status,
      isolation: tenants.isolation,
      quarantined: tenants.quarantined,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .innerJoin(memberships, and(eq(memberships.tenantId, sessions.tenantId), eq(memberships.userId, sessions.userId)))
    .innerJoin(tenants, eq(tenants.id, sessions.tenantId))
    .where(and(eq(sessions.id, sessionId), eq(sessions.tenantId, tenantId)));
  return row;
}

export type SessionState = NonNullable<Awaited<ReturnType<typeof sessionState>>>;

export async function touchSession(q: Queryable, sessionId: string, now: Date, expiresAt: Date): Promise<void> {
  await q.update(sessions).set({ lastUsedAt: now, expiresAt }).where(eq(sessions.id, sessionId));
}

/** Ends a live session; answers whether it was live (a second call changes nothing). */
export async function revokeSession(q: Queryable, sessionId: string, now: Date, reason: string): Promise<boolean> {
  const ended = await q
    .update(sessions)
    .set({ revokedAt: now, revokedReason: reason })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  return ended.length > 0;
}
