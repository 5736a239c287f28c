import { and, eq } from 'drizzle-orm';
import type { Tx } from '../../kernel/db/index.js';
import type { PersonalDataContributor } from '../../kernel/personal-data.js';
import { oidcBackchannelLogouts } from './schema.js';
import * as store from './store.js';

/**
 * Privacy rights over what the OpenID Provider keeps of a person in an organization: consents (connected apps)
 * are exported; erasure removes them with any outstanding code and queued logout. Grant sessions are sessions,
 * handled with the account's.
 */
export function oidcPersonalData(): PersonalDataContributor {
  return {
    name: 'oidc',
    tables: ['oauth_consents', 'oauth_authorization_codes', 'oidc_backchannel_logouts'],
    async export(tx: Tx, tenantId: string, userId: string) {
      const consents = await store.consentsOf(tx, tenantId, userId);
      return {
        connected_apps: consents.map(({ consent, clientName }) => ({
          client_id: consent.clientId,
          name: clientName,
          scopes: consent.scopes,
          granted_at: consent.createdAt.toISOString(),
          updated_at: consent.updatedAt.toISOString(),
        })),
      };
    },
    async erase(tx: Tx, tenantId: string, userId: string) {
      await store.deleteGrantsOf(tx, tenantId, userId);
      await tx
        .delete(oidcBackchannelLogouts)
        .where(and(eq(oidcBackchannelLogouts.tenantId, tenantId), eq(oidcBackchannelLogouts.userId, userId)));
    },
  };
}
