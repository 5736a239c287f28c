import type { Principal } from '../../kernel/auth/index.js';
import { conflict, notFound } from '../../kernel/http/index.js';
import { isUuid } from '../../kernel/ids.js';
import { assertGrantableIn, assertSeparationOfDuties, type MembersDeps } from './common.js';
import * as store from './store.js';

export interface Member {
  membership_id: string;
  user_id: string;
  email: string;
  name: string | null;
  role: string;
  status: string;
  population: string;
  scim_managed: boolean;
  joined_at: string;
}

const toMember = (row: store.RosterRow): Member => ({
  membership_id: row.id,
  user_id: row.user_id,
  email: row.email,
  name: row.name,
  role: row.role,
  status: row.status,
  population: row.population,
  scim_managed: row.scim_managed,
  joined_at: new Date(row.created_at).toISOString(),
});

/** Part A 4.7: the roster, role changes and removal. */
export function createRosterService(deps: MembersDeps) {
  const { transactions, organizations, sessions, events } = deps;

  return {
    async list(
      principal: Principal,
      query: { population?: 'workforce' | 'customer'; limit?: number; offset?: number },
    ): Promise<Member[]> {
      return transactions.tenant(principal.tenantId, async (tx) =>
        (
          await store.roster(
            tx,
            principal.tenantId,
            query.population ?? 'workforce',
            query.limit ?? 100,
            query.offset ?? 0,
          )
        ).map(toMember),
      );
    },

    /**
     * `PATCH /members/{membership_id}`: 422 for a role that cannot be granted, 404 for a membership not in the
     * caller's organization, 409 for owner, SCIM-managed and customer memberships and for a
     * separation-of-duties breach (naming the rule).
     */
    async changeRole(principal: Principal, membershipId: string, role: string): Promise<Member> {
      const { tenantId } = principal;
      const target = await transactions.tenant(tenantId, async (tx) => {
        await assertGrantableIn(tx, principal, role);
        const membership = isUuid(membershipId)
          ? await organizations.memberships.byId(tx, tenantId, membershipId)
          : undefined;
        if (!membership || membership.status === 'removed') throw notFound();
        return membership;
      });
      if (target.role === 'owner') throw conflict('Owner memberships change only by ownership transfer');
      if (target.scimManaged) throw conflict('This membership is managed by SCIM; change it at the identity provider');
      if (target.population === 'customer') throw conflict('Customer memberships hold the customer role only');
      await assertSeparationOfDuties(deps, tenantId, target.userId, role);
      return transactions.tenant(tenantId, async (tx) => {
        // A custom role is held until commit: a concurrent delete of it counts this member, or wins and we 422.
        await assertGrantableIn(tx, principal, role);
        const membership = await organizations.memberships.byId(tx, tenantId, membershipId);
        // Re-read under lock: the checks above hold only if nothing changed meanwhile.
        if (!membership || membership.status === 'removed') throw notFound();
        if (membership.role === 'owner' || membership.scimManaged) throw conflict('Membership changed; try again');
        if (membership.role !== role) {
          await organizations.memberships.setRole(tx, tenantId, membershipId, role);
          await events.emit(tx, {
            tenantId,
            actor: principal.actor,
            category: 'admin',
            action: 'member.role_changed',
            subjectUserId: membership.userId,
            data: {
              membership_id: membershipId,
              user_id: membership.userId,
              old_role: membership.role,
              new_role: role,
            },
          });
        }
        const row = await store.rosterEntry(tx, tenantId, membershipId);
        if (!row) throw notFound();
        return toMember(row);
      });
    },

    /**
     * `DELETE /members/{membership_id}`: marks the membership removed and ends every session of the person in
     * this organization in the same transaction, so their tokens are refused from the next request. 409 for
     * the sole owner, an owner removed by a non-owner, and SCIM-managed memberships.
     */
    async remove(principal: Principal, membershipId: string): Promise<void> {
      const { tenantId } = principal;
      await transactions.tenant(tenantId, async (tx) => {
        const membership = isUuid(membershipId)
          ? await organizations.memberships.byId(tx, tenantId, membershipId)
          : undefined;
        if (!membership || membership.status === 'removed') throw notFound();
        if (membership.scimManaged)
          throw conflict('This membership is managed by SCIM; remove it at the identity provider');
        if (membership.role === 'owner') {
          if (!principal.isOwner) throw conflict('Only an owner can remove an owner');
          if ((await organizations.memberships.otherActiveOwners(tx, tenantId, membership.id)) === 0) {
            throw conflict('The sole owner cannot be removed; transfer ownership first');
          }
        }
        await organizations.memberships.markRemoved(tx, tenantId, membership.id);
        const ended = await sessions.revokeAllOfUser(tx, tenantId, membership.userId, 'member_removed');
        await events.emit(tx, {
          tenantId,
          actor: principal.actor,
          category: 'admin',
          action: 'member.removed',
          subjectUserId: membership.userId,
          data: { membership_id: membership.id, user_id: membership.userId, role: membership.role },
        });
        await events.emit(tx, {
          tenantId,
          actor: principal.actor,
          category: 'session',
          action: 'user.sessions_revoked',
          subjectUserId: membership.userId,
          data: { user_id: membership.userId, reason: 'member_removed', sessions: ended },
          webhook: { type: 'user.sessions_revoked', data: { user_id: membership.userId, reason: 'member_removed' } },
        });
      });
    },
  };
}

export type RosterService = ReturnType<typeof createRosterService>;
