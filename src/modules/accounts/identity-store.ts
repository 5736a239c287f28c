import { and, eq, type SQL, sql } from 'drizzle-orm';
import { type Queryable, rows } from '../../kernel/db/index.js';
import { memberships, tenants } from '../organizations/index.js';
import { users } from './schema.js';

// The queries of the core identity tables (users; with the organizations module's tenants and memberships)
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

/**
 * The account's standing (status, revocation epoch, verified address, password change) as a derived table the
 * sign-in module joins by `userId` in its one-statement reads (session state, refresh diagnosis, live sessions),
 * like organizations' `tenantStanding`: one round trip, and only this module names the columns.
 */
export function accountStanding(q: Queryable) {
  return q
    .select({
      userId: users.id,
      status: users.status,
      tokenEpoch: users.tokenEpoch,
      emailVerified: users.emailVerified,
      passwordChangedAt: users.passwordChangedAt,
    })
    .from(users)
    .as('account_standing');
}

/**
 * Who a sign-in is for, in one read: the organization, the account and its membership as they are now (the
 * sign-in module's `signInSubject` applies the rules to it). A quarantined organization is not excluded: sign-in
 * stays open during quarantine (Part B).
 */
function subjects(q: Queryable, where: SQL | undefined) {
  return q
    .select({
      tenantId: tenants.id,
      tenantName: tenants.name,
      tenantSlug: tenants.slug,
      ssoRequired: tenants.ssoRequired,
      userId: users.id,
      email: users.email,
      passwordHash: users.passwordHash,
      userStatus: users.status,
      tokenEpoch: users.tokenEpoch,
      /** The organization whose SSO or SCIM created the account, if any (docs/decisions.md "SSO trust model"). */
      ownerTenantId: users.ownerTenantId,
      role: memberships.role,
      population: memberships.population,
      membershipStatus: memberships.status,
    })
    .from(tenants)
    .innerJoin(memberships, eq(memberships.tenantId, tenants.id))
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(where);
}

/**
 * The sign-in subject by organization (slug, compared lowercased) and account (email key, or id), or by
 * organization id and account id. Undefined when the organization is unknown or the account is no member of it.
 */
export async function signInSubjectRow(
  q: Queryable,
  by:
    | { tenantSlug: string; emailKey: string }
    | { tenantSlug: string; userId: string }
    | { tenantId: string; userId: string },
) {
  const organization =
    'tenantSlug' in by ? eq(tenants.slug, by.tenantSlug.trim().toLowerCase()) : eq(tenants.id, by.tenantId);
  const account = 'emailKey' in by ? eq(users.emailKey, by.emailKey) : eq(users.id, by.userId);
  const [row] = await subjects(q, and(organization, account));
  return row;
}
