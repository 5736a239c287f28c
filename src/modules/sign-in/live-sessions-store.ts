import { and, desc, eq, gt, inArray, isNotNull, isNull, ne, not, sql } from 'drizzle-orm';
import type { Queryable } from '../../kernel/db/index.js';
import { accountStanding } from '../accounts/index.js';
import { membershipStanding } from '../organizations/index.js';
import { sessions } from './schema.js';

// Reads of live sessions other modules need (GET /me/sessions, the revocation cascade's back-channel logouts, SSO
// and SAML logouts, SSO enforcement): they call these, taking their transaction, instead of querying `sessions`.
// The account's epoch and the membership's role come from their owners' standing sub-selects (still one statement).

/** Live sessions of the user in one organization: not revoked, not expired, minted under the current epoch. */
export async function liveSessionsOfUser(q: Queryable, tenantId: string, userId: string, now: Date) {
  const account = accountStanding(q);
  return q
    .select({
      id: sessions.id,
      createdAt: sessions.createdAt,
      lastUsedAt: sessions.lastUsedAt,
      expiresAt: sessions.expiresAt,
      userAgent: sessions.userAgent,
      amr: sessions.amr,
      dpopJkt: sessions.dpopJkt,
      clientId: sessions.clientId,
      // Part A 2.8: a grant session shows its application's name. The OAuth registry is another module's table,
      // read here by name only (the composite foreign key of migration 0013 guarantees the row).
      clientName: sql<string | null>`(select c.name from oauth_clients c
        where c.tenant_id = ${sessions.tenantId} and c.client_id = ${sessions.clientId})`,
    })
    .from(sessions)
    .innerJoin(account, eq(account.userId, sessions.userId))
    .where(
      and(
        eq(sessions.tenantId, tenantId),
        eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, now),
        eq(sessions.epoch, account.tokenEpoch),
      ),
    )
    .orderBy(desc(sessions.lastUsedAt));
}

/** A grant session a client may be told ended (OIDC Back-Channel Logout): `sid` is the provider session it knows. */
export interface GrantOfMember {
  tenantId: string;
  clientId: string;
  userId: string;
  sid: string;
}

/**
 * The grant sessions of a member in one organization that were live until their membership ended: not revoked
 * and minted under the account's current epoch (the revocation cascade queues their back-channel logouts).
 */
export async function grantsOfMember(q: Queryable, tenantId: string, userId: string): Promise<GrantOfMember[]> {
  const account = accountStanding(q);
  const found = await q
    .select({
      tenantId: sessions.tenantId,
      clientId: sessions.clientId,
      userId: sessions.userId,
      sid: sql<string>`coalesce(${sessions.parentSessionId}, ${sessions.id})`,
    })
    .from(sessions)
    .innerJoin(account, eq(account.userId, sessions.userId))
    .where(
      and(
        eq(sessions.tenantId, tenantId),
        eq(sessions.userId, userId),
        isNotNull(sessions.clientId),
        isNull(sessions.revokedAt),
        eq(sessions.epoch, account.tokenEpoch),
      ),
    );
  return found.map((row) => ({ ...row, clientId: row.clientId as string }));
}

const signedInWithSso = sql`${sessions.amr} @> '["sso"]'::jsonb`;

/**
 * Live first-party sessions (grants end with them: the revocation cascade) to end: the SSO sessions of some people (an
 * identity provider signed them out), or every session not signed in through SSO of the members who are not
 * owners (SSO just became required). Read here, ended through the session service.
 */
export async function liveSessionsToEnd(
  q: Queryable,
  tenantId: string,
  which: { ssoOfUsers: string[] } | { nonSsoOfNonOwners: true },
  now: Date,
): Promise<Array<{ sessionId: string; userId: string }>> {
  const live = and(
    eq(sessions.tenantId, tenantId),
    isNull(sessions.revokedAt),
    isNull(sessions.clientId),
    gt(sessions.expiresAt, now),
  );
  if ('ssoOfUsers' in which) {
    if (which.ssoOfUsers.length === 0) return [];
    return q
      .select({ sessionId: sessions.id, userId: sessions.userId })
      .from(sessions)
      .where(and(live, inArray(sessions.userId, which.ssoOfUsers), signedInWithSso));
  }
  const membership = membershipStanding(q);
  return q
    .select({ sessionId: sessions.id, userId: sessions.userId })
    .from(sessions)
    .innerJoin(membership, and(eq(membership.tenantId, sessions.tenantId), eq(membership.userId, sessions.userId)))
    .where(and(live, ne(membership.role, 'owner'), not(signedInWithSso)));
}

/**
 * The person's live first-party sessions signed in through SSO (grants end with them: the revocation cascade): the ones an
 * identity provider's logout ends. Sessions begun another way (password, passkey…) are not the provider's to end.
 */
export async function liveSsoSessionsOf(q: Queryable, tenantId: string, userId: string, now: Date): Promise<string[]> {
  const live = await q
    .select({ id: sessions.id })
    .from(sessions)
    .where(
      and(
        eq(sessions.tenantId, tenantId),
        eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
        isNull(sessions.clientId),
        gt(sessions.expiresAt, now),
        signedInWithSso,
      ),
    );
  return live.map((row) => row.id);
}
