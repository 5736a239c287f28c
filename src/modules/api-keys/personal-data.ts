import type { PersonalDataContributor } from '../../kernel/personal-data.js';
import * as store from './store.js';

/**
 * API keys a person created (Part A 4.10). Export: summaries, never hashes. Erasure keeps the keys, which
 * belong to the organization and may run its integrations, and removes the link to the person.
 */
export const apiKeysPersonalData: PersonalDataContributor = {
  name: 'api_keys',
  tables: ['api_keys'],
  async export(tx, tenantId, userId) {
    const keys = await store.keysCreatedBy(tx, tenantId, userId);
    return keys.map((key) => ({
      id: key.id,
      label: key.label,
      display_handle: key.displayHandle,
      scopes: key.scopes,
      created_at: key.createdAt.toISOString(),
      expires_at: key.expiresAt?.toISOString() ?? null,
      last_used_at: key.lastUsedAt?.toISOString() ?? null,
      revoked_at: key.revokedAt?.toISOString() ?? null,
    }));
  },
  async erase(tx, tenantId, userId) {
    await store.forgetCreator(tx, tenantId, userId);
  },
};
