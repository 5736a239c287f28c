import { notFound, OAuthError } from '../../kernel/http/index.js';
import { isUuid } from '../../kernel/ids.js';
import { NOT_CONFIGURED, type SsoDeps } from './common.js';
import { FederationError, type RelyingParty } from './relying-party.js';
import * as signIns from './sign-in-store.js';
import * as store from './store.js';

/**
 * `POST /auth/sso/oidc/{tenant}/backchannel-logout` (Part A 3 and 4.6; OpenID Connect Back-Channel Logout 1.0):
 * the organization's identity provider signs a person out, and their SSO sessions here end with it.
 */
export function createBackchannelLogout(deps: SsoDeps & { relyingParty: RelyingParty }) {
  const { transactions, clock, relyingParty, events, sessions } = deps;

  return {
    /**
     * Validates the logout token (section 2.6) against the provider's keys fetched through the egress client, then
     * ends the live SSO sessions of the person it names: by `sub` (the provider's id of the person), or by `sid`
     * (the provider's session; each SSO sign-in records the one it came with). Sessions the person began another
     * way (password, passkey…) are not the provider's to end. 404 while the organization has no enabled OIDC
     * connection (dormant); 400 `invalid_request` for a token that fails validation (section 2.8). A token naming
     * nobody known still answers 200: there is nothing left to sign out.
     */
    async receive(tenantId: string, logoutToken: string | undefined): Promise<{ sessionsEnded: number }> {
      const connection = isUuid(tenantId)
        ? await transactions.tenant(tenantId, (tx) => store.connectionOf(tx, tenantId))
        : undefined;
      if (!connection?.enabled) throw notFound(NOT_CONFIGURED);
      if (!logoutToken) throw new OAuthError('invalid_request', 'logout_token is required');
      let named: { sub?: string; sid?: string };
      try {
        const metadata = await relyingParty.discover(connection.issuer);
        named = await relyingParty.verifyLogoutToken(metadata, logoutToken, connection.clientId);
      } catch (error) {
        if (error instanceof FederationError) throw new OAuthError('invalid_request', error.reason);
        throw error;
      }
      return transactions.tenant(tenantId, async (tx) => {
        const bySub = named.sub
          ? await signIns.identity(tx, { tenantId, protocol: 'oidc', issuer: connection.issuer, subject: named.sub })
          : undefined;
        let users = named.sid ? await signIns.usersOfProviderSession(tx, tenantId, connection.issuer, named.sid) : [];
        // Both named: the session of that person only (section 2.4); `sub` alone: every SSO session of the person.
        if (named.sub) users = named.sid ? users.filter((id) => id === bySub?.userId) : bySub ? [bySub.userId] : [];
        const live = await signIns.liveSessionsToEnd(tx, tenantId, { ssoOfUsers: users }, clock.now());
        let ended = 0;
        for (const session of live) {
          if (await sessions.revoke(tx, session.sessionId, 'idp_logout')) ended += 1;
        }
        for (const userId of users) {
          await events.emit(tx, {
            tenantId,
            actor: { id: 'identity-provider', type: 'system' },
            category: 'session',
            action: 'sso.backchannel_logout',
            severity: 'info',
            subjectUserId: userId,
            data: {
              user_id: userId,
              protocol: 'oidc',
              sessions: live.filter((session) => session.userId === userId).length,
            },
          });
        }
        return { sessionsEnded: ended };
      });
    },
  };
}

export type BackchannelLogout = ReturnType<typeof createBackchannelLogout>;
