import type { PersonalDataContributor } from '../../kernel/personal-data.js';
import type { OrganizationService } from '../organizations/index.js';
import * as store from './store.js';

/**
 * Privacy rights (Part A 4.10): the subject's membership in the organization and the invitations sent to
 * their address or redeemed by them. Erasure marks the membership removed and scrubs the invitations'
 * addresses; the audit log keeps its entries.
 */
export function membershipPersonalData(organizations: OrganizationService): PersonalDataContributor {
  return {
    name: 'membership',
    tables: ['memberships', 'invitations'],
    async export(tx, tenantId, userId) {
      const membership = await organizations.memberships.ofUser(tx, tenantId, userId);
      const emailKey = await store.emailKeyOfUser(tx, userId);
      const invitations = await store.invitationsOfSubject(tx, tenantId, userId, emailKey);
      return {
        membership: membership && {
          membership_id: membership.id,
          role: membership.role,
          population: membership.population,
          status: membership.status,
          scim_managed: membership.scimManaged,
          joined_at: membership.createdAt.toISOString(),
        },
        invitations: invitations.map((row) => ({
          invite_id: row.id,
          email: row.email,
          role: row.role,
          status: row.status,
          created_at: row.createdAt.toISOString(),
          expires_at: row.expiresAt.toISOString(),
          redeemed_at: row.redeemedAt?.toISOString() ?? null,
        })),
      };
    },
    async erase(tx, tenantId, userId) {
      const membership = await organizations.memberships.ofUser(tx, tenantId, userId);
      if (membership && membership.status !== 'removed') {
        await organizations.memberships.markRemoved(tx, tenantId, membership.id);
      }
      const emailKey = await store.emailKeyOfUser(tx, userId);
      const invitations = await store.invitationsOfSubject(tx, tenantId, userId, emailKey);
      await store.scrubInvitations(
        tx,
        tenantId,
        invitations.map((row) => row.id),
      );
    },
  };
}
