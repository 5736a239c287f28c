import type { PersonalDataContributor } from '../../kernel/personal-data.js';
import type { OrganizationService } from '../organizations/index.js';
import * as store from './store.js';

/**
 * Privacy rights (Part A 4.10) over what SCIM provisioning holds about a person in an organization: the identity
 * provider's copy of them (userName, externalId, names, emails, active) and the groups they are in. Erasure deletes
 * that copy, which takes them out of every group (the group rows are the organization's, not about the person),
 * and hands the membership back to the members API; the membership itself is the membership contributor's.
 */
export function scimPersonalData(organizations: OrganizationService): PersonalDataContributor {
  return {
    name: 'scim',
    tables: ['scim_users', 'scim_group_members', 'scim_groups'],
    async export(tx, tenantId, userId) {
      const row = await store.scimUserOfAccount(tx, tenantId, userId);
      if (!row) return null;
      const groups = await store.groupsOfMember(tx, tenantId, row.id);
      return {
        scim_id: row.id,
        user_name: row.userName,
        external_id: row.externalId,
        display_name: row.displayName,
        given_name: row.givenName,
        family_name: row.familyName,
        formatted_name: row.formattedName,
        emails: row.emails,
        active: row.active,
        created_at: row.createdAt.toISOString(),
        updated_at: row.updatedAt.toISOString(),
        groups: groups.map((group) => ({ group_id: group.groupId, display_name: group.displayName })),
      };
    },
    async erase(tx, tenantId, userId) {
      await store.deleteScimUserOfAccount(tx, tenantId, userId);
      const membership = await organizations.memberships.ofUser(tx, tenantId, userId);
      if (membership?.scimManaged) await organizations.memberships.release(tx, tenantId, membership.id);
    },
  };
}
