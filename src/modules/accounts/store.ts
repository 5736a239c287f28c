import { and, eq, isNull, sql } from 'drizzle-orm';
import { type Queryable, rows } from '../../kernel/db/index.js';
import { memberships, tenants } from '../organizations/index.js';
import { refreshTokens, sessions, users } from './schema.js';

export async function insertUser(q: Queryable, row: typeof users.$inferInsert): Promise<void> {
  await q.insert(users).values(row);
}

export async function userByEmail(q: Queryable, emailKey: string): Promise<typeof users.$inferSelect | undefined> {
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
function prepareSessionState(q: Queryable) {
  return q
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
    .where(and(eq(sessions.id, sql.placeholder('sessionId')), eq(sessions.tenantId, sql.placeholder('tenantId'))))
    .prepare('accounts_session_state');
}

const preparedSessionState = new WeakMap<Queryable, ReturnType<typeof prepareSessionState>>();

/**
 * Read on every authenticated request: built once per database handle and run as a named prepared statement,
 * which PostgreSQL parses and plans once per connection.
 */
export async function sessionState(q: Queryable, tenantId: string, sessionId: string) {
  let prepared = preparedSessionState.get(q);
  if (!prepared) {
    prepared = prepareSessionState(q);
    preparedSessionState.set(q, prepared);
  }
  const [row] = await prepared.execute({ sessionId, tenantId });
  return row;
}

export type SessionState = NonNullable<Awaited<ReturnType<typeof sessionState>>>;

/** Ends a live session; answers whether it was live (a second call changes nothing). */
export async function revokeSession(q: Queryable, sessionId: string, now: Date, reason: string): Promise<boolean> {
  const ended = await q
    .update(sessions)
    .set({ revokedAt: now, revokedReason: reason })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  return ended.length > 0;
}

/**
 * Refresh, first half, in one statement: spends the presented token and reads the state of its session, so
 * rotation costs one round trip here. Runs without a tenant (the token's organization is unknown until its
 * row is found); the joins are keyed by the spent row's tenant.
 */
export async function spendRefreshTokenWithState(q: Queryable, tokenHash: string, now: Date) {
  const [row] = await rows<{
    tenant_id: string;
    session_id: string;
    token_expires_at: string;
    user_id: string;
    session_epoch: number;
    revoked_at: string | null;
    session_expires_at: string;
    dpop_jkt: string | null;
    user_status: string;
    token_epoch: number;
    population: string;
    membership_status: string;
  }>(
    q,
    sql`with spent as (
          update refresh_tokens set rotated_at = ${now}
          where token_hash = ${tokenHash} and rotated_at is null
          returning tenant_id, session_id, expires_at)
        select spent.tenant_id, spent.session_id, spent.expires_at as token_expires_at, s.user_id,
               s.epoch as session_epoch, s.revoked_at, s.expires_at as session_expires_at, s.dpop_jkt,
               u.status as user_status, u.token_epoch, m.population, m.status as membership_status
        from spent
        join sessions s on s.id = spent.session_id and s.tenant_id = spent.tenant_id
        join users u on u.id = s.user_id
        join memberships m on m.tenant_id = s.tenant_id and m.user_id = s.user_id`,
  );
  // Raw statements answer timestamps as text (drizzle's type parsers); the rest of the code compares Dates.
  return (
    row && {
      ...row,
      token_expires_at: new Date(row.token_expires_at),
      revoked_at: row.revoked_at === null ? null : new Date(row.revoked_at),
      session_expires_at: new Date(row.session_expires_at),
    }
  );
}

/** Refresh, second half, in one statement: slides the session's expiry and stores the successor token. */
export async function rotateSession(
  q: Queryable,
  next: { tenantId: string; sessionId: string; tokenId: string; tokenHash: string; now: Date; expiresAt: Date },
): Promise<void> {
  await q.execute(
    sql`with touched as (
          update sessions set last_used_at = ${next.now}, expires_at = ${next.expiresAt}
          where id = ${next.sessionId} and tenant_id = ${next.tenantId})
        insert into refresh_tokens (id, tenant_id, session_id, token_hash, created_at, expires_at)
        values (${next.tokenId}, ${next.tenantId}, ${next.sessionId}, ${next.tokenHash}, ${next.now}, ${next.expiresAt})`,
  );
}
