import type { Clock } from '../../kernel/clock.js';
import type { Tx } from '../../kernel/db/index.js';
import type { Events } from '../../kernel/events/index.js';
import { HttpError } from '../../kernel/http/index.js';
import { newId } from '../../kernel/ids.js';
import type { AccountService } from '../accounts/index.js';
import type { DomainService, MembersService } from '../members/index.js';
import type { OrganizationService } from '../organizations/index.js';
import * as signIns from './sign-in-store.js';

export interface ProvisioningDeps {
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
  | 'membership_inactive'
  | 'account_not_linkable'
  | 'seat_limit_reached';

const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

/**
 * The account an SSO sign-in signs in (Part A 4.6), found or provisioned just in time, in the organization's
 * transaction:
 * 1. the provider's address must be on the connection's `allowed_domains` (when it lists any);
 * 2. a person the provider signed in before (its `iss` + `sub`) is the same account again, whatever address the
 *    provider sends now; their membership must be active (a suspended or removed one is not re-opened here);
 * 3. otherwise the address decides, with SCIM's rule (accounts are global and the person never agreed to this
 *    organization): a member of the organization is linked; an account that is no member is linked, and made a
 *    member, only when its address is on a domain the organization verified; an unknown address gets a new
 *    account without a password (workforce, role `member`);
 * 4. a new membership takes a seat of the plan (members and pending invitations count).
 */
export async function provisionPerson(
  deps: ProvisioningDeps,
  tx: Tx,
  person: AssertedPerson,
  allowedDomains: readonly string[],
): Promise<{ userId: string } | { refused: ProvisioningRefusal }> {
  const { organizations, accounts, members, events, clock } = deps;
  const { tenantId } = person;
  if (allowedDomains.length > 0 && !allowedDomains.includes(domainOf(person.email))) {
    return { refused: 'domain_not_allowed' };
  }
  const now = clock.now();
  const known = await signIns.identity(tx, person);
  let userId = known?.userId;
  let membershipCreated = false;
  if (userId) {
    const membership = await organizations.memberships.ofUser(tx, tenantId, userId);
    if (membership?.status !== 'active') return { refused: 'membership_inactive' };
  } else {
    const emailKey = person.email.toLowerCase();
    const existing = await accounts.provisioning.accountByEmailKey(tx, emailKey);
    const membership = existing && (await organizations.memberships.ofUser(tx, tenantId, existing.id));
    if (membership && membership.status !== 'active') return { refused: 'membership_inactive' };
    if (existing && !membership && !(await members.domains.isVerifiedFor(tx, tenantId, person.email))) {
      return { refused: 'account_not_linkable' };
    }
    if (!membership) {
      try {
        await members.assertSeatAvailable(tx, tenantId);
      } catch (error) {
        if (error instanceof HttpError && error.status === 403) return { refused: 'seat_limit_reached' };
        throw error;
      }
    }
    userId = existing?.id ?? newId();
    if (!existing) {
      await accounts.provisioning.insertAccount(tx, {
        id: userId,
        email: person.email,
        emailKey,
        now,
        name: person.name,
        givenName: person.givenName,
        familyName: person.familyName,
        // The organization's own identity provider vouches for the address and keeps the names.
        emailVerified: true,
        profileSource: 'sso',
      });
    }
    if (!membership) {
      await organizations.memberships.add(tx, { tenantId, userId, role: 'member' });
      membershipCreated = true;
    }
  }
  await signIns.upsertIdentity(tx, {
    tenantId,
    protocol: person.protocol,
    issuer: person.issuer,
    subject: person.subject,
    userId,
    email: person.email,
    createdAt: now,
    lastSignInAt: now,
  });
  if (membershipCreated) {
    // Whether an account existed is left out: the organization's admins read this, and it would tell them who
    // has an account on the service (as SCIM's events do).
    await events.emit(tx, {
      tenantId,
      actor: { id: userId, type: 'human' },
      category: 'admin',
      action: 'sso.user_provisioned',
      subjectUserId: userId,
      data: { user_id: userId, protocol: person.protocol, role: 'member' },
    });
  }
  return { userId };
}
