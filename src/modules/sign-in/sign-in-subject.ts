import { and, eq, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../kernel/db/index.js';
import { forbidden } from '../../kernel/http/index.js';
import { users } from '../accounts/index.js';
import { memberships, tenants } from '../organizations/index.js';

/**
 * Who a sign-in is for, in one read: the organization, the account and its membership as they are now. Every
 * sign-in method (password, magic link, passkey, and later social and SSO) reads it the same way and applies
 * the same rule (`signInRefusal`). A quarantined organization is not excluded: sign-in stays open during
 * quarantine (Part B).
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

export type SignInSubject = NonNullable<Awaited<ReturnType<typeof signInSubject>>>;

/**
 * The subject by organization (slug, compared lowercased) and account (email key, or id), or by organization
 * id and account id. Undefined when the organization is unknown or the account is no member of it.
 */
export async function signInSubject(
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

/** Only an active account with an active membership signs in (Part A 4.1). */
export const mayUseAccount = (subject: SignInSubject | undefined): subject is SignInSubject =>
  subject?.userStatus === 'active' && subject.membershipStatus === 'active';

export const SSO_REQUIRED = 'This organization requires single sign-on';

/**
 * Part A 4.1 and 4.6: once an organization requires SSO, every other sign-in method answers 403 for its
 * members; owners pass (break-glass). Callers check it only after the factor verified, so it reveals nothing
 * to a guesser.
 */
export const ssoBlocks = (subject: SignInSubject): boolean => subject.ssoRequired && subject.role !== 'owner';

export function assertSsoAllows(subject: SignInSubject): void {
  if (ssoBlocks(subject)) throw forbidden(SSO_REQUIRED);
}
