import type { PersonalDataContributor } from '../../kernel/personal-data.js';
import * as store from './store.js';

/**
 * Privacy rights (Part A 4.10) over social login in an organization: the provider accounts linked to the person
 * (provider, the provider's id of them, the address it vouched for, when linked and last used). Round trips hold
 * only hashes of secrets and are not exported; erasure deletes both, so the person can no longer sign in with a
 * provider until they link it again.
 */
export function socialPersonalData(): PersonalDataContributor {
  return {
    name: 'social_identities',
    tables: ['social_identities', 'social_flows'],
    async export(tx, tenantId, userId) {
      const rows = await store.identitiesOfUser(tx, tenantId, userId);
      return rows.map((row) => ({
        provider: row.provider,
        subject: row.subject,
        email: row.email,
        linked_at: row.createdAt.toISOString(),
        last_used_at: row.lastUsedAt?.toISOString() ?? null,
      }));
    },
    async erase(tx, tenantId, userId) {
      await store.deleteOfUser(tx, tenantId, userId);
    },
  };
}
