import type { Principal } from '../../kernel/auth/index.js';
import { isSystemRole, permissionsOfRole, ROLES } from '../../kernel/authz/catalog.js';
import { type HeldRole, separationOfDutiesBreach } from '../../kernel/authz/duties.js';
import { planOf } from '../../kernel/authz/plans.js';
import type { Clock } from '../../kernel/clock.js';
import type { Queryable, Transactions, Tx } from '../../kernel/db/index.js';
import type { Events } from '../../kernel/events/index.js';
import { forbidden, HttpError, unprocessable } from '../../kernel/http/index.js';
import type { Limiter, LimitPolicy } from '../../kernel/limits/index.js';
import type { Mailer } from '../../kernel/mail/index.js';
import type { Dns } from '../../kernel/net/index.js';
import type { AccountService } from '../accounts/index.js';
import type { OrganizationService } from '../organizations/index.js';
import { findCustomRole, mayGrant } from '../roles/index.js';
import type { SettingsService } from '../settings/index.js';
import type { SessionService } from '../sign-in/index.js';
import * as store from './store.js';

export interface MembersDeps {
  baseUrl: string;
  transactions: Transactions;
  organizations: OrganizationService;
  accounts: AccountService;
  sessions: SessionService;
  settings: SettingsService;
  events: Events;
  limiter: Limiter;
  mailer: Mailer;
  dns: Dns;
  clock: Clock;
}

/** Invitation preview, accept and accept-existing share one per-IP budget (Part A 4.7, 8). */
export const INVITE_REDEMPTION_PER_IP: LimitPolicy = { name: 'invite-redeem-ip', points: 30, durationSeconds: 900 };
/** Domain check and domain join share their own per-IP budget (Part A 4.7, 8). */
export const DOMAIN_JOIN_PER_IP: LimitPolicy = { name: 'domain-join-ip', points: 20, durationSeconds: 900 };

/** One rule for the form addresses are keyed on: the accounts module's. */
export { emailKeyOf } from '../accounts/index.js';

/**
 * A role an invitation or a role change may grant: a system role other than `owner` and `customer`, or one of
 * the organization's custom roles (Part A 5.9: `custom` is its permissions, as read by `assertGrantableIn`),
 * else 422; and none holding a permission the granting principal may not grant (403; the roles module's
 * `mayGrant`), so nobody hands out more than they hold. Permissions over one's own record only (`identity:self:…`)
 * give no power over anyone else: an API key without them may still invite a `member`; codes the organization's
 * own OAuth resources declare need `tenant:manage`.
 */
export function assertGrantable(principal: Principal, role: string, custom?: readonly string[] | null): void {
  let permissions: ReadonlySet<string>;
  if (isSystemRole(role)) {
    const definition = ROLES.find((r) => r.code === role);
    if (!definition?.grantable) throw unprocessable(`role: ${role} cannot be granted (never owner or customer)`);
    permissions = permissionsOfRole(role);
  } else {
    if (!custom) throw unprocessable(`role: unknown role ${JSON.stringify(role)}`);
    permissions = permissionsOfRole(role, custom);
  }
  const missing = [...permissions].filter((code) => !mayGrant(principal, code));
  if (missing.length > 0) {
    throw forbidden(`Role ${role} holds permissions you do not hold: ${missing.sort().join(', ')}`);
  }
}

/**
 * `assertGrantable` with the organization's custom roles read in `tx`, the transaction that writes the role: a
 * custom role is held there (FOR SHARE) until commit, so a concurrent delete either counts the new holder or
 * makes this one find no role.
 */
export async function assertGrantableIn(tx: Tx, principal: Principal, role: string): Promise<void> {
  const custom = isSystemRole(role) ? null : await findCustomRole(tx, principal.tenantId, role, { lock: 'share' });
  assertGrantable(principal, role, custom?.permissions);
}

/**
 * Part A 4.7: 409 naming the separation-of-duties rule that giving `role` to the person in the organization
 * would breach. What the person holds elsewhere is read across organizations (a system read); a custom role is
 * judged by the permissions it grants now (read with it), like a system role granting the same.
 */
export async function assertSeparationOfDuties(
  deps: Pick<MembersDeps, 'transactions' | 'organizations'>,
  tenantId: string,
  userId: string,
  role: string,
  /** A system transaction not yet held to a tenant, when the caller is inside one (one connection, no deadlock). */
  within?: Queryable,
): Promise<void> {
  const read = async (q: Queryable) => {
    const held: Array<{ tenantId: string; role: HeldRole }> = [];
    for (const m of await deps.organizations.memberships.activeOfUser(q, userId)) {
      held.push({ tenantId: m.tenantId, role: await heldRole(q, m.tenantId, m.role) });
    }
    return {
      held,
      given: await heldRole(q, tenantId, role),
      platformId: (await deps.organizations.platformOperator(q))?.id,
    };
  };
  const { held, given, platformId } = within ? await read(within) : await deps.transactions.systemRead(read);
  const checks =
    tenantId === platformId
      ? [
          { organization: [given], platform: [] },
          ...held.filter((m) => m.tenantId !== platformId).map((m) => ({ organization: [m.role], platform: [given] })),
        ]
      : [
          {
            organization: [given],
            platform: held.filter((m) => m.tenantId === platformId).map((m) => m.role),
          },
        ];
  for (const holdings of checks) {
    const rule = separationOfDutiesBreach(holdings);
    if (rule) {
      throw new HttpError(409, `Separation of duties (${rule.id}): ${rule.description}`, {}, { rule: rule.id });
    }
  }
}

/** A membership's role as the separation-of-duties rules judge it: a custom role with what it grants now. */
async function heldRole(q: Queryable, tenantId: string, role: string): Promise<HeldRole> {
  if (isSystemRole(role)) return role;
  return { code: role, permissions: (await findCustomRole(q, tenantId, role))?.permissions ?? [] };
}

/**
 * 403 naming the plan when a new seat would pass its cap (like the plan refusals of SCIM and SSO); members and
 * pending invitations both hold seats.
 */
export async function assertSeatAvailable(
  deps: Pick<MembersDeps, 'organizations' | 'clock'>,
  tx: Tx,
  tenantId: string,
): Promise<void> {
  await store.lockTenant(tx, tenantId);
  const plan = planOf((await deps.organizations.planCode(tx, tenantId)) ?? 'free');
  const cap = plan.caps.seats;
  if (cap === null) return;
  const used =
    (await deps.organizations.memberships.seated(tx, tenantId)) +
    (await store.pendingUnexpiredInvitations(tx, tenantId, deps.clock.now()));
  if (used >= cap) {
    throw forbidden(
      `Seat cap reached: the ${plan.name} plan allows ${cap} seats (members and pending invitations count); ` +
        'revoke a pending invitation, remove a member or upgrade the plan',
    );
  }
}
