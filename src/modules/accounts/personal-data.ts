import type { Clock } from '../../kernel/clock.js';
import type { Tx } from '../../kernel/db/index.js';
import type { PersonalDataContributor } from '../../kernel/personal-data.js';
import type { RevocationCascade } from '../../kernel/revocation.js';
import type { SessionService } from '../sign-in/index.js';
import * as store from './store.js';

/**
 * Privacy rights (Part A 4.10) over what this module holds about a person: the account (profile), its
 * sessions and refresh tokens in the organization, and its pending verification and reset links.
 * The password hash is never exported.
 */
export function accountPersonalData(deps: {
  clock: Clock;
  sessions: Pick<SessionService, 'ofUser' | 'revokeAllOfUser' | 'deleteAllOfUser'>;
  revocation: RevocationCascade;
}): PersonalDataContributor {
  const { clock, sessions: sessionsOf, revocation } = deps;
  return {
    name: 'account',
    tables: ['users', 'sessions', 'refresh_tokens', 'account_tokens'],

    async export(tx: Tx, tenantId: string, userId: string) {
      const user = await store.userById(tx, userId);
      if (!user) return null;
      const sessions = await sessionsOf.ofUser(tx, tenantId, userId);
      return {
        profile: {
          user_id: user.id,
          email: user.email,
          email_verified: user.emailVerified,
          name: user.name,
          given_name: user.givenName,
          family_name: user.familyName,
          picture: user.picture,
          status: user.status,
          profile_source: user.profileSource,
          created_at: user.createdAt.toISOString(),
          password_changed_at: user.passwordChangedAt?.toISOString() ?? null,
        },
        sessions: sessions.map((s) => ({
          session_id: s.id,
          created_at: s.createdAt.toISOString(),
          last_used_at: s.lastUsedAt.toISOString(),
          expires_at: s.expiresAt.toISOString(),
          revoked_at: s.revokedAt?.toISOString() ?? null,
          user_agent: s.userAgent,
          amr: s.amr,
        })),
      };
    },

    async erase(tx: Tx, tenantId: string, userId: string) {
      const now = clock.now();
      // Revoke first, so every token of them dies through the auth-state notification, then delete the rows.
      await sessionsOf.revokeAllOfUser(tx, tenantId, userId, 'erased');
      await sessionsOf.deleteAllOfUser(tx, tenantId, userId);
      // The account is global: scrub it only when no other organization still holds a membership of it.
      if ((await store.membershipsElsewhere(tx, userId, tenantId)) === 0) {
        // Disabled, with a new epoch: every token of the account anywhere is refused (the cascade's account cause).
        const epoch = await store.scrubUser(tx, userId, now);
        await revocation.accountSessionsEnded(tx, { userId, previousEpoch: epoch - 1, at: now });
      }
    },
  };
}

/**
 * Whether an account keeps a membership in another organization: its global records (the account itself,
 * its second factors and passkeys) are erased only with its last membership.
 */
export async function accountKeptElsewhere(tx: Tx, userId: string, tenantId: string): Promise<boolean> {
  return (await store.membershipsElsewhere(tx, userId, tenantId)) > 0;
}
