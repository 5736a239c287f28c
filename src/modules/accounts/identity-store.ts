import { and, eq, gt, inArray, isNull, ne, not, sql } from 'drizzle-orm';
import { type Queryable, rows } from '../../kernel/db/index.js';
import { memberships, tenants } from '../organizations/index.js';
import { sessions, users } from './schema.js';

// The queries of the core identity tables (users, sessions; with the organizations module's tenants and memberships)
// that other modules need: they call these, taking their transaction, and never query the tables themselves, so a
// column change touches this module only (docs/decisions.md "Module boundaries").

/** The account's address (mails about it, an own-factor step-up's notice). */
export async function emailOfUser(q: Queryable, userId: string): Promise<string | undefined> {
  const [row] = await q.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return row?.email;
}

/** The account's address key (lowercased), for matching invitations sent to it. */
export async function emailKeyOfUser(q: Queryable, userId: string): Promise<string | null> {
  const [row] = await rows<{ email_key: string }>(q, sql`select email_key from users where id = ${userId}`);
  return row?.email_key ?? null;
}

export interface RosterRow {
  id: string;
  user_id: string;
  email: string;
  name: string | null;
  role: string;
  status: string;
  population: string;
  scim_managed: boolean;
  created_at: string;
}

/** An organization's roster: each membership with the member's address and name (what an admin recognises). */
export async function memberRoster(
  q: Queryable,
  tenantId: string,
  population: 'workforce' | 'customer',
  limit: number,
  offset: number,
): Promise<RosterRow[]> {
  return rows<RosterRow>(
    q,
    sql`select m.id, m.user_id, u.email, u.name, m.role, m.status, m.population, m.scim_managed, m.created_at
        from memberships m join users u on u.id = m.user_id
        where m.tenant_id = ${tenantId} and m.population = ${population} and m.status <> 'removed'
        order by m.created_at, m.id limit ${limit} offset ${offset}`,
  );
}

export async function memberRosterEntry(q: Queryable, tenantId: string, membershipId: string) {
  const [row] = await rows<RosterRow>(
    q,
    sql`select m.id, m.user_id, u.email, u.name, m.role, m.status, m.population, m.scim_managed, m.created_at
        from memberships m join users u on u.id = m.user_id
        where m.tenant_id = ${tenantId} and m.id = ${membershipId}`,
  );
  return row;
}

/**
 * The account a registration ceremony is for: its address and name label the passkey in the authenticator's UI.
 * An account is global (like its passkeys), so no tenant is named.
 */
export async function accountLabel(q: Queryable, userId: string) {
  const [row] = await q
    .select({ email: users.email, name: users.name, status: users.status })
    .from(users)
    .where(eq(users.id, userId));
  return row;
}

/** What UserInfo and the ID token say about a person (Part A 2.9, 2.10), with the organization's slug: one read. */
export async function claimsSubject(q: Queryable, tenantId: string, userId: string) {
  const [row] = await q
    .select({
      email: users.email,
      emailVerified: users.emailVerified,
      name: users.name,
      givenName: users.givenName,
      familyName: users.familyName,
      picture: users.picture,
      updatedAt: users.updatedAt,
      tenantSlug: tenants.slug,
    })
    .from(users)
    .innerJoin(tenants, eq(tenants.id, tenantId))
    .where(eq(users.id, userId));
  return row;
}

/** Addresses of the organization's active owners (told of every change to its SSO connection). */
export async function ownerAddresses(q: Queryable, tenantId: string): Promise<string[]> {
  const found = await q
    .select({ email: users.email })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.tenantId, tenantId), eq(memberships.role, 'owner'), eq(memberships.status, 'active')));
  return found.map((row) => row.email);
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
  const found = await rows<{ tenant_id: string; client_id: string; user_id: string; sid: string }>(
    q,
    sql`select s.tenant_id, s.client_id, s.user_id, coalesce(s.parent_session_id, s.id) as sid
        from sessions s join users u on u.id = s.user_id
        where s.tenant_id = ${tenantId} and s.user_id = ${userId} and s.client_id is not null
          and s.revoked_at is null and s.epoch = u.token_epoch`,
  );
  return found.map((row) => ({ tenantId: row.tenant_id, clientId: row.client_id, userId: row.user_id, sid: row.sid }));
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
  return q
    .select({ sessionId: sessions.id, userId: sessions.userId })
    .from(sessions)
    .innerJoin(memberships, and(eq(memberships.tenantId, sessions.tenantId), eq(memberships.userId, sessions.userId)))
    .where(and(live, ne(memberships.role, 'owner'), not(signedInWithSso)));
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
