import { and, eq, type SQL, sql } from 'drizzle-orm';
import { type Queryable, rows } from '../../kernel/db/index.js';
import { membershipStanding, tenantStanding } from '../organizations/index.js';
import { users } from './schema.js';

// The queries of the core identity table `users` (joined with organizations' `tenantStanding` / `membershipStanding`)
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

/** The roster's columns: the membership's (organizations' `membershipStanding`) and the member's address and name. */
const rosterColumns = (m: ReturnType<typeof membershipStanding>) =>
  sql`${m.id} as id, ${m.userId} as user_id, u.email, u.name, ${m.role} as role, ${m.status} as status,
      ${m.population} as population, ${m.scimManaged} as scim_managed, ${m.createdAt} as created_at`;

/** An organization's roster: each membership with the member's address and name (what an admin recognises). */
export async function memberRoster(
  q: Queryable,
  tenantId: string,
  population: 'workforce' | 'customer',
  limit: number,
  offset: number,
): Promise<RosterRow[]> {
  const m = membershipStanding(q);
  return rows<RosterRow>(
    q,
    sql`select ${rosterColumns(m)}
        from ${m} join users u on u.id = ${m.userId}
        where ${m.tenantId} = ${tenantId} and ${m.population} = ${population} and ${m.status} <> 'removed'
        order by ${m.createdAt}, ${m.id} limit ${limit} offset ${offset}`,
  );
}

export async function memberRosterEntry(q: Queryable, tenantId: string, membershipId: string) {
  const m = membershipStanding(q);
  const [row] = await rows<RosterRow>(
    q,
    sql`select ${rosterColumns(m)}
        from ${m} join users u on u.id = ${m.userId}
        where ${m.tenantId} = ${tenantId} and ${m.id} = ${membershipId}`,
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
  const tenant = tenantStanding(q);
  const [row] = await q
    .select({
      email: users.email,
      emailVerified: users.emailVerified,
      name: users.name,
      givenName: users.givenName,
      familyName: users.familyName,
      picture: users.picture,
      updatedAt: users.updatedAt,
      tenantSlug: tenant.slug,
    })
    .from(users)
    .innerJoin(tenant, eq(tenant.tenantId, tenantId))
    .where(eq(users.id, userId));
  return row;
}

/** Addresses of the organization's active owners (told of every change to its SSO connection). */
export async function ownerAddresses(q: Queryable, tenantId: string): Promise<string[]> {
  const membership = membershipStanding(q);
  const found = await q
    .select({ email: users.email })
    .from(membership)
    .innerJoin(users, eq(users.id, membership.userId))
    .where(and(eq(membership.tenantId, tenantId), eq(membership.role, 'owner'), eq(membership.status, 'active')));
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
function subjects(
  q: Queryable,
  tenant: ReturnType<typeof tenantStanding>,
  membership: ReturnType<typeof membershipStanding>,
  where: SQL | undefined,
) {
  return q
    .select({
      tenantId: tenant.tenantId,
      tenantName: tenant.name,
      tenantSlug: tenant.slug,
      ssoRequired: tenant.ssoRequired,
      userId: users.id,
      email: users.email,
      passwordHash: users.passwordHash,
      userStatus: users.status,
      tokenEpoch: users.tokenEpoch,
      /** The organization whose SSO or SCIM created the account, if any (docs/decisions.md "SSO trust model"). */
      ownerTenantId: users.ownerTenantId,
      role: membership.role,
      population: membership.population,
      membershipStatus: membership.status,
    })
    .from(tenant)
    .innerJoin(membership, eq(membership.tenantId, tenant.tenantId))
    .innerJoin(users, eq(users.id, membership.userId))
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
  const tenant = tenantStanding(q);
  const membership = membershipStanding(q);
  const organization =
    'tenantSlug' in by ? eq(tenant.slug, by.tenantSlug.trim().toLowerCase()) : eq(tenant.tenantId, by.tenantId);
  const account = 'emailKey' in by ? eq(users.emailKey, by.emailKey) : eq(users.id, by.userId);
  const [row] = await subjects(q, tenant, membership, and(organization, account));
  return row;
}
