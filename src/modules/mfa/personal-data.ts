import type { Tx } from '../../kernel/db/index.js';
import type { PersonalDataContributor } from '../../kernel/personal-data.js';
import { accountKeptElsewhere } from '../accounts/index.js';
import * as store from './store.js';

/**
 * Privacy rights over the TOTP factor: its state is exported, never the secret or the codes. The factor is
 * global like the account, so erasure removes it with the account's last membership; challenges are per
 * organization.
 */
export function mfaPersonalData(): PersonalDataContributor {
  return {
    name: 'mfa',
    tables: ['mfa_totp', 'mfa_recovery_codes', 'mfa_challenges'],
    async export(tx: Tx, tenantId: string, userId: string) {
      const factor = await store.factorOf(tx, userId);
      const challenges = await store.challengesOf(tx, tenantId, userId);
      return {
        totp: factor
          ? {
              enabled_at: factor.enabledAt?.toISOString() ?? null,
              created_at: factor.createdAt.toISOString(),
              recovery_codes_remaining: await store.recoveryCodesLeft(tx, userId),
            }
          : null,
        challenges: challenges.map((c) => ({
          created_at: c.createdAt.toISOString(),
          expires_at: c.expiresAt.toISOString(),
          spent_at: c.spentAt?.toISOString() ?? null,
          attempts: c.attempts,
        })),
      };
    },
    async erase(tx: Tx, tenantId: string, userId: string) {
      await store.deleteChallengesOf(tx, tenantId, userId);
      if (!(await accountKeptElsewhere(tx, userId, tenantId))) await store.removeFactor(tx, userId);
    },
  };
}
