import { and, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import { preparedRows, type Queryable } from '../../kernel/db/index.js';
import { accountStanding } from '../accounts/index.js';
import { membershipStanding, tenantStanding } from '../organizations/index.js';
import { refreshTokens, sessions } from './schema.js';

// The queries of the session model's tables (sessions, refresh_tokens), owned by this module. Where a read needs
// the account, the membership or the organization in the same statement, it joins the owner's standing sub-select
// (accounts' `accountStanding`, organizations' `membershipStanding` and `tenantStanding`): one round trip, and
// only the owner names its columns (docs/decisions.md "Module boundaries").

export async function insertSession(q: Queryable, row: typeof sessions.$inferInsert): Promise<void> {
  await q.insert(sessions).values(row);
}

export async function insertRefreshToken(q: Queryable, row: typeof refreshTokens.$inferInsert): Promise<void> {
  await q.insert(refreshTokens).values(row);
}

/** A refresh token that was already rotated: its reappearance means it was stolen or replayed. */
export async function rotatedRefreshToken(q: Queryable, tokenHash: string) {
  const [row] = await q
    .select({ tenantId: refreshTokens.tenantId, sessionId: refreshTokens.sessionId, clientId: sessions.clientId })
    .from(refreshTokens)
    .innerJoin(sessions, eq(sessions.id, refreshTokens.sessionId))
    .where(eq(refreshTokens.tokenHash, tokenHash));
  return row;
}

/**
 * Everything that decides whether a refresh token may be used, for naming the reason it may not (Part A 4.14).
 * Read only after the one-statement rotation refused it.
 */
export async function refreshTokenDiagnosis(q: Queryable, tokenHash: string) {
  const account = accountStanding(q);
  const membership = membershipStanding(q);
  const [row] = await q
    .select({
      clientId: sessions.clientId,
      expiresAt: refreshTokens.expiresAt,
      createdAt: sessions.createdAt,
      sessionExpiresAt: sessions.expiresAt,
      revokedAt: sessions.revokedAt,
      revokedReason: sessions.revokedReason,
      dpopJkt: sessions.dpopJkt,
      sessionEpoch: sessions.epoch,
      tokenEpoch: account.tokenEpoch,
      userStatus: account.status,
      passwordChangedAt: account.passwordChangedAt,
      membershipStatus: membership.status,
    })
    .from(refreshTokens)
    .innerJoin(sessions, eq(sessions.id, refreshTokens.sessionId))
    .innerJoin(account, eq(account.userId, sessions.userId))
    .leftJoin(membership, and(eq(membership.tenantId, sessions.tenantId), eq(membership.userId, sessions.userId)))
    .where(eq(refreshTokens.tokenHash, tokenHash));
  return row;
}

/** The grant a refresh token belongs to (its client, scope, resource and sign-in), before it is rotated. */
export async function grantOfRefreshToken(q: Queryable, tokenHash: string) {
  const [row] = await q
    .select({
      clientId: sessions.clientId,
      scope: sessions.scope,
      resource: sessions.resource,
      parentSessionId: sessions.parentSessionId,
      authTime: sessions.authTime,
      amr: sessions.amr,
    })
    .from(refreshTokens)
    .innerJoin(sessions, eq(sessions.id, refreshTokens.sessionId))
    .where(eq(refreshTokens.tokenHash, tokenHash));
  return row;
}

export type RefreshTokenDiagnosis = NonNullable<Awaited<ReturnType<typeof refreshTokenDiagnosis>>>;

/**
 * The live state behind a session's tokens: session, account, membership and organization in one read.
 * Used on every authenticated request, so revocation, epoch bumps and membership changes hold at once.
 */
function prepareSessionState(q: Queryable) {
  const account = accountStanding(q);
  const membership = membershipStanding(q);
  const organization = tenantStanding(q);
  return q
    .select({
      sessionId: sessions.id,
      tenantId: sessions.tenantId,
      userId: sessions.userId,
      sessionEpoch: sessions.epoch,
      revokedAt: sessions.revokedAt,
      expiresAt: sessions.expiresAt,
      dpopJkt: sessions.dpopJkt,
      userStatus: account.status,
      tokenEpoch: account.tokenEpoch,
      emailVerified: account.emailVerified,
      role: membership.role,
      population: membership.population,
      membershipStatus: membership.status,
      isolation: organization.isolation,
      quarantined: organization.quarantined,
    })
    .from(sessions)
    .innerJoin(account, eq(account.userId, sessions.userId))
    .innerJoin(membership, and(eq(membership.tenantId, sessions.tenantId), eq(membership.userId, sessions.userId)))
    .innerJoin(organization, eq(organization.tenantId, sessions.tenantId))
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

/** What the revocation cascade learns about each session a statement ended. */
const ended = {
  tenantId: sessions.tenantId,
  sessionId: sessions.id,
  userId: sessions.userId,
  clientId: sessions.clientId,
  parentSessionId: sessions.parentSessionId,
  reason: sql<string>`${sessions.revokedReason}`,
};

export type EndedSessionRow = {
  tenantId: string;
  sessionId: string;
  userId: string;
  clientId: string | null;
  parentSessionId: string | null;
  reason: string;
};

/** Ends a live session; answers it when it was live (a second call ends nothing). */
export async function revokeSession(q: Queryable, sessionId: string, now: Date, reason: string) {
  return q
    .update(sessions)
    .set({ revokedAt: now, revokedReason: reason })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)))
    .returning(ended);
}

/** Ends every live session of a user in one organization; answers those that were live. */
export async function revokeSessionsOfUser(q: Queryable, tenantId: string, userId: string, now: Date, reason: string) {
  return q
    .update(sessions)
    .set({ revokedAt: now, revokedReason: reason })
    .where(and(eq(sessions.tenantId, tenantId), eq(sessions.userId, userId), isNull(sessions.revokedAt)))
    .returning(ended);
}

/** Ends one live session of the user; nothing when it is not theirs, unknown or already dead. */
export async function revokeOwnSession(
  q: Queryable,
  input: { tenantId: string; userId: string; sessionId: string; now: Date; reason: string },
) {
  const epoch = accountStanding(q);
  return q
    .update(sessions)
    .set({ revokedAt: input.now, revokedReason: input.reason })
    .where(
      and(
        eq(sessions.tenantId, input.tenantId),
        eq(sessions.id, input.sessionId),
        eq(sessions.userId, input.userId),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, input.now),
        sql`${sessions.epoch} = (select ${epoch.tokenEpoch} from ${epoch} where ${epoch.userId} = ${input.userId})`,
      ),
    )
    .returning(ended);
}

/** Ends every live grant session of a person for one OAuth client (consent revoked, Part A 4.14). */
export async function revokeGrantSessionsOfClient(
  q: Queryable,
  input: { tenantId: string; userId: string; clientId: string; now: Date; reason: string },
) {
  return q
    .update(sessions)
    .set({ revokedAt: input.now, revokedReason: input.reason })
    .where(
      and(
        eq(sessions.tenantId, input.tenantId),
        eq(sessions.userId, input.userId),
        eq(sessions.clientId, input.clientId),
        isNull(sessions.revokedAt),
      ),
    )
    .returning(ended);
}

/**
 * Ends the live OAuth grant sessions made from the given browser sessions at the provider, with their parent's
 * time and reason (the grant's `sid` is its parent: Part A 4.14).
 */
export async function revokeGrantSessionsMadeFrom(q: Queryable, parents: readonly EndedSessionRow[], now: Date) {
  const made: EndedSessionRow[] = [];
  // One statement per reason (parents ended by one statement share theirs).
  for (const reason of new Set(parents.map((parent) => parent.reason))) {
    const ids = parents.filter((parent) => parent.reason === reason).map((parent) => parent.sessionId);
    made.push(
      ...(await q
        .update(sessions)
        .set({ revokedAt: now, revokedReason: reason })
        .where(and(inArray(sessions.parentSessionId, ids), isNull(sessions.revokedAt)))
        .returning(ended)),
    );
  }
  return made;
}

/**
 * Refresh rotation (Part A 3) in one statement, outside any transaction (a single statement is atomic): finds
 * the unrotated token, checks that its session is live (the conditions of `sessionIsLive`, plus the token's
 * own expiry and, for a DPoP-bound session, the proof's key), and only then spends it, slides the session's
 * expiry and stores the successor. One round trip instead of four. `rotated` is false when the session is not
 * live (nothing changes) or when a concurrent rotation spent the token first (the caller treats that as a
 * replay). No row: unknown or already rotated. Runs without a tenant: the token's organization is unknown
 * until its row is found; every join and write is keyed by the found row's tenant.
 */
export async function rotateRefreshToken(
  q: Queryable,
  input: {
    tokenHash: string;
    proofJkt: string | null;
    /** The OAuth client whose grant session the token must belong to; null: a first-party session. */
    clientId: string | null;
    now: Date;
    successorId: string;
    successorHash: string;
    expiresAt: { workforce: Date; customer: Date };
  },
) {
  const { now } = input;
  const account = accountStanding(q);
  const membership = membershipStanding(q);
  const [row] = await preparedRows<{
    tenant_id: string;
    session_id: string;
    user_id: string;
    token_epoch: number;
    dpop_jkt: string | null;
    population: 'workforce' | 'customer';
    live: boolean;
    rotated: boolean;
  }>(
    q,
    'accounts_rotate_refresh_token',
    sql`with found as (
          select t.id as token_id, t.tenant_id, t.session_id, s.user_id, ${account.tokenEpoch} as token_epoch, s.dpop_jkt,
                 ${membership.population} as population,
                 (s.revoked_at is null and s.expires_at > ${now} and t.expires_at > ${now}
                  and ${account.status} = 'active' and ${membership.status} = 'active' and s.epoch = ${account.tokenEpoch}
                  and (s.dpop_jkt is null or s.dpop_jkt = ${input.proofJkt})
                  and s.client_id is not distinct from ${input.clientId}::text) as live,
                 case when ${membership.population} = 'customer' then ${input.expiresAt.customer}::timestamptz
                      else ${input.expiresAt.workforce}::timestamptz end as successor_expires_at
          from refresh_tokens t
          join sessions s on s.id = t.session_id and s.tenant_id = t.tenant_id
          join ${account} on ${account.userId} = s.user_id
          join ${membership}
            on ${membership.tenantId} = s.tenant_id and ${membership.userId} = s.user_id
          where t.token_hash = ${input.tokenHash} and t.rotated_at is null),
        spent as (
          update refresh_tokens t set rotated_at = ${now} from found
          where found.live and t.id = found.token_id and t.rotated_at is null
          returning found.tenant_id, found.session_id, found.successor_expires_at),
        slid as (
          update sessions s set last_used_at = ${now}, expires_at = spent.successor_expires_at from spent
          where s.id = spent.session_id and s.tenant_id = spent.tenant_id),
        successor as (
          insert into refresh_tokens (id, tenant_id, session_id, token_hash, created_at, expires_at)
          select ${input.successorId}, tenant_id, session_id, ${input.successorHash}, ${now}, successor_expires_at
          from spent)
        select found.tenant_id, found.session_id, found.user_id, found.token_epoch, found.dpop_jkt,
               found.population, found.live, exists (select 1 from spent) as rotated
        from found`,
  );
  return row;
}

/** Every session of a user in one organization, newest first (live and ended). */
/** When and how a session signed in (for step-up checks before sensitive changes). */
export async function sessionAuthentication(q: Queryable, tenantId: string, sessionId: string) {
  const [row] = await q
    .select({ authTime: sessions.authTime, amr: sessions.amr })
    .from(sessions)
    .where(and(eq(sessions.tenantId, tenantId), eq(sessions.id, sessionId)));
  return row;
}

export async function sessionsOfUser(q: Queryable, tenantId: string, userId: string) {
  return q
    .select()
    .from(sessions)
    .where(and(eq(sessions.tenantId, tenantId), eq(sessions.userId, userId)))
    .orderBy(desc(sessions.createdAt));
}

/** Deletes a user's sessions in one organization (their refresh tokens go with them by cascade). */
export async function deleteSessionsOfUser(q: Queryable, tenantId: string, userId: string): Promise<void> {
  await q.delete(sessions).where(and(eq(sessions.tenantId, tenantId), eq(sessions.userId, userId)));
}
