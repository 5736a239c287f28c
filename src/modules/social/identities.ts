import type { Principal } from '../../kernel/auth/index.js';
import { conflict, notFound, unauthorized } from '../../kernel/http/index.js';
import { requireOwnFactorSession } from '../sign-in/index.js';
import { providerOf, type SocialDeps } from './common.js';
import type { ProviderId, SocialProvider } from './providers.js';
import * as store from './store.js';

export interface IdentityView {
  provider: string;
  email: string | null;
  linked_at: string;
  last_used_at: string | null;
}

/** Part A 2.16 and 4.5: the caller's linked provider accounts in the organization they are signed in to. */
export function createSocialIdentities(deps: SocialDeps, providers: Map<ProviderId, SocialProvider>) {
  const { transactions, events } = deps;

  function self(principal: Principal) {
    if (!principal.userId) throw unauthorized();
    return { tenantId: principal.tenantId, userId: principal.userId };
  }

  return {
    /** `GET /auth/social/identities`. */
    async list(principal: Principal): Promise<{ identities: IdentityView[] }> {
      const me = self(principal);
      const rows = await transactions.tenant(me.tenantId, (tx) => store.identitiesOfUser(tx, me.tenantId, me.userId));
      return {
        identities: rows.map((row) => ({
          provider: row.provider,
          email: row.email,
          linked_at: row.createdAt.toISOString(),
          last_used_at: row.lastUsedAt?.toISOString() ?? null,
        })),
      };
    },

    /**
     * `POST /auth/social/{provider}/unlink`: re-proves the person with their password when the account has one
     * (400 wrong or missing, throttled like password changes), then removes the link. 404 when this provider is
     * not configured or not linked. A passwordless account keeps one way in: 409 when the identity is its last
     * (other linked providers and passkeys count; magic links do not, an organization can turn them off).
     */
    async unlink(principal: Principal, provider: string, password: string | undefined): Promise<void> {
      const me = self(principal);
      providerOf(providers, provider);
      // An SSO session is confined to its organization (docs/decisions.md "SSO trust model").
      await requireOwnFactorSession(deps, principal);
      const { hasPassword } = await deps.accounts.confirmPassword(principal, password);
      const passkeys = hasPassword ? 0 : (await deps.passkeys.listPasskeys(principal)).length;
      await transactions.tenant(me.tenantId, async (tx) => {
        const mine = await store.identitiesOfUser(tx, me.tenantId, me.userId);
        const target = mine.find((row) => row.provider === provider);
        if (!target) throw notFound(`No ${provider} account is linked`);
        if (!hasPassword && mine.length - 1 + passkeys === 0) {
          throw conflict(
            'This is the last way to sign in to an account without a password: set a password or add a passkey first',
          );
        }
        await store.deleteIdentity(tx, me.tenantId, target.id);
        await events.emit(tx, {
          tenantId: me.tenantId,
          actor: { id: me.userId, type: 'human' },
          category: 'auth',
          action: 'social.identity_unlinked',
          subjectUserId: me.userId,
          data: { user_id: me.userId, provider, identity_id: target.id },
        });
        await deps.notify(
          tx,
          me.userId,
          `A ${provider} account was unlinked`,
          `Your ${provider} account can no longer be used to sign in.`,
        );
      });
    },
  };
}

export type SocialIdentities = ReturnType<typeof createSocialIdentities>;
