import { addMs, type Clock, minutes } from '../../kernel/clock.js';
import { randomSecret, sha256Hex } from '../../kernel/crypto/index.js';
import { afterCommit, type Transactions, type Tx } from '../../kernel/db/index.js';
import type { Events } from '../../kernel/events/index.js';
import { badRequest, HttpError } from '../../kernel/http/index.js';
import { newId } from '../../kernel/ids.js';
import type { Mailer } from '../../kernel/mail/index.js';
import type { AccountService } from '../accounts/index.js';
import type { DomainService, MembersService } from '../members/index.js';
import type { OrganizationService } from '../organizations/index.js';
import * as links from './link-store.js';
import type { AssertedPerson } from './provisioning.js';
import { addMember, remember, roleOfNewMember } from './provisioning.js';
import * as store from './store.js';

/** How long the mailed link to confirm an SSO link works. */
export const LINK_LIFETIME_MINUTES = 30;
export const INVALID_LINK = 'Invalid or expired link';

export interface AccountLinkDeps {
  config: { baseUrl: string };
  mailer: Mailer;
  events: Events;
  clock: Clock;
  logger: { warn(obj: object, msg: string): void };
}

/**
 * The identity provider asserted the address of an account the organization may not sign in by that alone (one
 * people created, or an owner's): the account's holder gets a link at the account's own address, and only their
 * click links the provider's account of them (docs/decisions.md "SSO trust model"). One pending link per person
 * and provider account, so repeated attempts do not flood the mailbox.
 */
export async function requestAccountLink(
  deps: AccountLinkDeps & { accounts: Pick<AccountService, 'provisioning'> },
  tx: Tx,
  person: AssertedPerson,
  userId: string,
): Promise<void> {
  const now = deps.clock.now();
  const key = { tenantId: person.tenantId, issuer: person.issuer, subject: person.subject, userId };
  await links.purgeLinkRequests(tx, addMs(now, -minutes(LINK_LIFETIME_MINUTES)));
  if (await links.pendingLinkRequest(tx, key, now)) return;
  const account = await deps.accounts.provisioning.accountById(tx, userId);
  if (!account) return;
  const token = randomSecret();
  await links.insertLinkRequest(tx, {
    ...key,
    id: newId(),
    protocol: person.protocol,
    email: account.email,
    tokenHash: sha256Hex(token),
    createdAt: now,
    expiresAt: addMs(now, minutes(LINK_LIFETIME_MINUTES)),
    spentAt: null,
  });
  await deps.events.emit(tx, {
    tenantId: person.tenantId,
    actor: { id: 'sso', type: 'system' },
    category: 'auth',
    action: 'sso.link_requested',
    severity: 'warn',
    subjectUserId: userId,
    data: { user_id: userId, protocol: person.protocol },
  });
  const organization = (await links.organizationName(tx, person.tenantId)) ?? 'An organization';
  const text =
    `${organization}'s identity provider (single sign-on) just asked to sign in to your account ${account.email}.\n\n` +
    'If that was you, and you want to sign in through it from now on, confirm the link (it works once, for ' +
    `${LINK_LIFETIME_MINUTES} minutes):\n\n${deps.config.baseUrl}/sso/link?token=${token}\n\n` +
    'If it was not you, ignore this mail: nothing changes, and the identity provider cannot sign you in.\n';
  afterCommit(tx, () => {
    void deps.mailer
      .send({ to: account.email, subject: `Confirm signing in through ${organization}'s single sign-on`, text })
      .catch((error: Error) => deps.logger.warn({ err: error.message }, 'sso link mail not delivered'));
  });
}

/**
 * `POST /auth/sso/link/confirm`: the account's holder opened the mailed link. Spends it once, then links the
 * provider's account of the person (`account_holder`), making them a member when they are not yet (a seat, and
 * the domain still verified). 400 alike for an unknown, spent or expired link and an account whose address,
 * owner or membership changed since.
 */
export function createAccountLinkConfirmation(
  deps: AccountLinkDeps & {
    transactions: Transactions;
    organizations: Pick<OrganizationService, 'memberships'>;
    accounts: Pick<AccountService, 'provisioning'>;
    members: Pick<MembersService, 'assertSeatAvailable'> & { domains: Pick<DomainService, 'isVerifiedFor'> };
  },
) {
  const { transactions, clock, events } = deps;
  return async function confirm(token: string): Promise<void> {
    const linked = await transactions.system(async (tx) => {
      const now = clock.now();
      // System look-up by the token's hash: the organization is unknown until the row is found.
      const request = await links.spendLinkRequest(tx, sha256Hex(token), now);
      if (!request) return false;
      await transactions.enterTenant(tx, request.tenantId);
      const { tenantId, userId } = request;
      const account = await deps.accounts.provisioning.accountById(tx, userId);
      if (account?.status !== 'active' || account.emailKey !== request.email.toLowerCase()) return false;
      if (account.ownerTenantId && account.ownerTenantId !== tenantId) return false;
      if (!(await deps.members.domains.isVerifiedFor(tx, tenantId, account.email))) return false;
      const membership = await deps.organizations.memberships.ofUser(tx, tenantId, userId);
      if (membership && membership.status !== 'active') return false;
      if (!membership) {
        try {
          await deps.members.assertSeatAvailable(tx, tenantId);
        } catch (error) {
          if (error instanceof HttpError && error.status === 403) return false;
          throw error;
        }
        // The OIDC connection's default role (a manifest's) when it is still the provider of this request.
        const connection = request.protocol === 'oidc' ? await store.connectionOf(tx, tenantId) : undefined;
        const defaultRole = connection?.issuer === request.issuer ? connection.defaultRole : null;
        const role = await roleOfNewMember(tx, tenantId, defaultRole);
        await addMember(deps, tx, tenantId, userId, request.protocol, role);
      }
      const person: AssertedPerson = {
        tenantId,
        protocol: request.protocol,
        issuer: request.issuer,
        subject: request.subject,
        email: account.email,
        name: null,
        givenName: null,
        familyName: null,
      };
      await remember(deps, tx, person, userId, 'account_holder');
      await events.emit(tx, {
        tenantId,
        actor: { id: userId, type: 'human' },
        category: 'auth',
        action: 'sso.identity_linked',
        severity: 'warn',
        subjectUserId: userId,
        data: { user_id: userId, protocol: request.protocol, linked_by: 'account_holder' },
      });
      return true;
    });
    if (!linked) throw badRequest(INVALID_LINK);
  };
}
