import type { Tx } from '../../kernel/db/index.js';
import type { PersonalDataContributor } from '../../kernel/personal-data.js';
import { accountKeptElsewhere } from '../accounts/index.js';
import { summaryOf } from './registration.js';
import * as store from './store.js';

/**
 * Privacy rights (Part A 4.10) over the account's passkeys and its open WebAuthn ceremonies. Export gives the
 * summaries (name, dates, device type, transports; never the public key or the authenticator's credential id).
 * Passkeys belong to the global account, like its profile: erasure in one organization removes them only when
 * no other organization still holds a membership of the account (as the account contributor scrubs the
 * account itself), otherwise the person would lose their sign-in everywhere else.
 */
export function passkeyPersonalData(): PersonalDataContributor {
  return {
    name: 'passkeys',
    tables: ['webauthn_credentials', 'webauthn_challenges'],

    async export(tx: Tx, _tenantId: string, userId: string) {
      return (await store.credentialsOf(tx, userId)).map(summaryOf);
    },

    async erase(tx: Tx, tenantId: string, userId: string) {
      if (await accountKeptElsewhere(tx, userId, tenantId)) return;
      await store.deleteAllOfUser(tx, userId);
    },
  };
}
