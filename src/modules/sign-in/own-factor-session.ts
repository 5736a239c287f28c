import type { Principal } from '../../kernel/auth/index.js';
import type { Clock } from '../../kernel/clock.js';
import type { Transactions } from '../../kernel/db/index.js';
import { forbidden, HttpError } from '../../kernel/http/index.js';
import { sessionAuthentication } from './store.js';

export const OWN_FACTOR_REQUIRED =
  'Sign in with one of your account’s own sign-in methods first (password, passkey, magic link or a linked social ' +
  'account): a session through an organization’s identity provider cannot change how the account signs in, nor ' +
  'the organization’s single sign-on';

/**
 * A session an organization's identity provider established (amr `sso`, with or without `mfa`) vouches for the
 * person only inside that organization (docs/decisions.md "SSO trust model"): the organization's admin chose the
 * provider. Changes to the account's own, cross-organization sign-in methods (passkeys, password, TOTP and
 * recovery codes, social links) and to the organization's SSO connection need a session that signed in with one
 * of the account's own factors; 403 otherwise. With `withinMs`, that sign-in must also be this recent.
 */
export async function requireOwnFactorSession(
  deps: { transactions: Pick<Transactions, 'tenant'>; clock?: Clock },
  principal: Principal,
  recent?: { withinMs: number; what: string },
): Promise<void> {
  if (principal.kind !== 'user' || !principal.userId || !principal.sessionId) {
    throw forbidden(
      recent ? `${recent.what} needs a person signed in with their own sign-in method` : OWN_FACTOR_REQUIRED,
    );
  }
  const sessionId = principal.sessionId;
  const session = await deps.transactions.tenant(principal.tenantId, (tx) =>
    sessionAuthentication(tx, principal.tenantId, sessionId),
  );
  if (!session) throw new HttpError(401, 'Not authenticated');
  if (session.amr.includes('sso')) throw forbidden(OWN_FACTOR_REQUIRED);
  if (recent && deps.clock && deps.clock.now().getTime() - session.authTime.getTime() > recent.withinMs) {
    throw forbidden(
      `${recent.what} needs a sign-in with your own sign-in method within the last ${recent.withinMs / 60_000} minutes: sign in again first`,
    );
  }
}
