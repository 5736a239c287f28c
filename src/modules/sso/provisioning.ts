import { isSystemRole } from '../../kernel/authz/catalog.js';
import type { Clock } from '../../kernel/clock.js';
import type { Tx } from '../../kernel/db/index.js';
import type { Events } from '../../kernel/events/index.js';
import { HttpError } from '../../kernel/http/index.js';
import { newId } from '../../kernel/ids.js';
import { type AccountService, emailKeyOf } from '../accounts/index.js';
import type { DomainService, MembersService } from '../members/index.js';
import type { OrganizationService } from '../organizations/index.js';
import { findCustomRole } from '../roles/index.js';
import { type AccountLinkDeps, requestAccountLink } from './account-link.js';
import * as signIns from './sign-in-store.js';

export interface ProvisioningDeps extends AccountLinkDeps {
  organizations: Pick<OrganizationService, 'memberships'>;
  accounts: Pick<AccountService, 'provisioning'>;
  /** Seats (`assertSeatAvailable`) and verified domains (`domains.isVerifiedFor`), as SCIM provisioning uses them. */
  members: Pick<MembersService, 'assertSeatAvailable'> & { domains: Pick<DomainService, 'isVerifiedFor'> };
  events: Events;
  clock: Clock;
}

/** What an identity provider asserted about the person signing in. */
export interface AssertedPerson {
  tenantId: string;
  protocol: 'oidc' | 'saml';
  /** The provider (OIDC issuer, SAML entity id) and its stable id of the person (`sub`, NameID). */
  issuer: string;
  subject: string;
  email: string;
  name: string | null;
  givenName: string | null;
  familyName: string | null;
}

/** Why a federated sign-in found no account to sign in: recorded for the organization, never shown. */
export type ProvisioningRefusal =
  | 'domain_not_allowed'
  | 'domain_not_verified'
  | 'account_owned_elsewhere'
  | 'link_needs_confirmation'
  | 'owner_not_linked'
  | 'membership_inactive'
  | 'seat_limit_reached';

/**
 * The address an identity provider asserted, trimmed, when it can be an account's address (one `@`, no white
 * space, at most 320 characters); undefined otherwise, and the sign-in is refused.
 */
export function usableEmail(asserted: unknown): string | undefined {
  const email = typeof asserted === 'string' ? asserted.trim() : '';
  return /^[^@\s]+@[^@\s]+$/.test(email) && email.length <= 320 ? email : undefined;
}

const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

/**
 * The account an SSO sign-in signs in (Part A 4.6), found or provisioned just in time, in the organization's
 * transaction. The organization's admin chose the identity provider, so it is trusted only as far as the
 * organization reaches (docs/decisions.md "SSO trust model"):
 * 1. the asserted address must be on a domain the organization verified (Part A 4.7), and on the connection's
 *    `allowed_domains` when it lists any (they narrow the verified set, never widen it);
 * 2. an account another organization's SSO or SCIM created (owned by it) is never signed in;
 * 3. a person the provider signed in before (its `iss` + `sub`) is the same account again; their membership must
 *    be active, and an owner is signed in only through a link they confirmed themselves;
 * 4. otherwise an unknown address gets a new account owned by the organization (workforce, role `member` or the
 *    connection's `defaultRole`, a seat of the plan); an account the organization owns is linked; any other
 *    account, or an owner, is linked only once its holder opens the link mailed to the account's address
 *    (`link_needs_confirmation`).
 */
export async function provisionPerson(
  deps: ProvisioningDeps,
  tx: Tx,
  person: AssertedPerson,
  allowedDomains: readonly string[],
  defaultRole: string | null = null,
): Promise<{ userId: string } | { refused: ProvisioningRefusal }> {
  const { organizations, accounts, members } = deps;
  const { tenantId } = person;
  // The address as asserted, in the one form accounts are keyed on (a domain's root form is the same domain).
  const emailKey = emailKeyOf(person.email);
  person = { ...person, email: person.email.trim().replace(/\.+$/, '') };
  if (allowedDomains.length > 0 && !allowedDomains.includes(domainOf(person.email))) {
    return { refused: 'domain_not_allowed' };
  }
  if (!(await members.domains.isVerifiedFor(tx, tenantId, person.email))) return { refused: 'domain_not_verified' };
  const known = await signIns.identity(tx, person);
  const account = known
    ? await accounts.provisioning.accountById(tx, known.userId)
    : await accounts.provisioning.accountByEmailKey(tx, emailKey);
  if (account?.ownerTenantId && account.ownerTenantId !== tenantId) return { refused: 'account_owned_elsewhere' };
  const membership = account && (await organizations.memberships.ofUser(tx, tenantId, account.id));
  if (membership && membership.status !== 'active') return { refused: 'membership_inactive' };
  if (known) {
    if (!membership) return { refused: 'membership_inactive' };
    if (membership.role === 'owner' && known.linkedBy !== 'account_holder') {
      await requestAccountLink(deps, tx, person, known.userId);
      return { refused: 'owner_not_linked' };
    }
    await remember(deps, tx, person, known.userId, known.linkedBy);
    return { userId: known.userId };
  }
  if (account && (account.ownerTenantId !== tenantId || membership?.role === 'owner')) {
    await requestAccountLink(deps, tx, person, account.id);
    return { refused: membership?.role === 'owner' ? 'owner_not_linked' : 'link_needs_confirmation' };
  }
  if (!membership) {
    try {
      await members.assertSeatAvailable(tx, tenantId);
    } catch (error) {
      if (error instanceof HttpError && error.status === 403) return { refused: 'seat_limit_reached' };
      throw error;
    }
  }
  const userId = account?.id ?? newId();
  if (!account) {
    await accounts.provisioning.insertAccount(tx, {
      id: userId,
      email: person.email,
      emailKey,
      now: deps.clock.now(),
      name: person.name,
      givenName: person.givenName,
      familyName: person.familyName,
      // The organization's provider vouches for an address on the organization's own verified domain.
      emailVerified: true,
      profileSource: 'sso',
      ownerTenantId: tenantId,
    });
  }
  if (!membership) {
    await addMember(deps, tx, tenantId, userId, person.protocol, await roleOfNewMember(tx, tenantId, defaultRole));
  }
  await remember(deps, tx, person, userId, 'provisioning');
  return { userId };
}

/** Records the provider's account of the person (and the last address it sent). */
export async function remember(
  deps: { clock: Clock },
  tx: Tx,
  person: AssertedPerson,
  userId: string,
  linkedBy: 'provisioning' | 'account_holder',
): Promise<void> {
  const now = deps.clock.now();
  await signIns.upsertIdentity(tx, {
    tenantId: person.tenantId,
    protocol: person.protocol,
    issuer: person.issuer,
    subject: person.subject,
    userId,
    email: person.email,
    linkedBy,
    createdAt: now,
    lastSignInAt: now,
  });
}

/**
 * The role a connection's `defaultRole` (set by an IAM manifest whose approver held its permissions) gives a person
 * it provisions: a system role other than owner and customer, or a custom role the organization still has;
 * `member` otherwise (a deleted custom role never strands a sign-in).
 */
export async function roleOfNewMember(tx: Tx, tenantId: string, defaultRole: string | null): Promise<string> {
  if (defaultRole === null || defaultRole === 'owner' || defaultRole === 'customer') return 'member';
  if (isSystemRole(defaultRole)) return defaultRole;
  return (await findCustomRole(tx, tenantId, defaultRole)) ? defaultRole : 'member';
}

/** Makes the person a member (role `member` unless the connection names another) and records it. */
export async function addMember(
  deps: Pick<ProvisioningDeps, 'organizations' | 'events'>,
  tx: Tx,
  tenantId: string,
  userId: string,
  protocol: 'oidc' | 'saml',
  role = 'member',
): Promise<void> {
  await deps.organizations.memberships.add(tx, { tenantId, userId, role });
  // Whether an account existed is left out: the organization's admins read this, and it would tell them who has
  // an account on the service (as SCIM's events do).
  await deps.events.emit(tx, {
    tenantId,
    actor: { id: userId, type: 'human' },
    category: 'admin',
    action: 'sso.user_provisioned',
    subjectUserId: userId,
    data: { user_id: userId, protocol, role },
  });
}
