import type { PersonalDataContributor } from '../../kernel/personal-data.js';
import * as store from './store.js';

/**
 * Privacy rights (Part A 4.10) over the sign-in links mailed to a person in the organization: when each was
 * issued, until when it was valid and how it ended. The token hash is a secret and is never exported.
 * Erasure deletes the rows (an outstanding link dies with them).
 */
export function magicLinkPersonalData(): PersonalDataContributor {
  return {
    name: 'magic_links',
    tables: ['magic_links'],
    async export(tx, tenantId, userId) {
      const links = await store.linksOfUser(tx, tenantId, userId);
      return links.map((link) => ({
        link_id: link.id,
        created_at: link.createdAt.toISOString(),
        expires_at: link.expiresAt.toISOString(),
        spent_at: link.spentAt?.toISOString() ?? null,
        spent_reason: link.spentReason ?? null,
      }));
    },
    async erase(tx, tenantId, userId) {
      await store.deleteLinksOfUser(tx, tenantId, userId);
    },
  };
}
