import type { Principal } from '../../kernel/auth/index.js';
import type { Tx } from '../../kernel/db/index.js';
import { conflict, notFound } from '../../kernel/http/index.js';
import { assertPlanAllowsSso, configured, emitAdmin, type SsoDeps } from './common.js';
import type { ConnectionChanges } from './connection-changes.js';
import * as signIns from './sign-in-store.js';

export interface EnforcementView {
  required: boolean;
}

/**
 * `GET|PUT /tenants/sso/enforcement` (Part A 4.6, `tenant:manage`). The flag is the organization's
 * `sso_required`; the sign-in methods (password, magic link, passkey, social) read it and answer 403 to non-owner
 * members after their factor verified (sign-in/sign-in-subject.ts). Owners always pass: the break-glass path.
 */
export function createEnforcementService(deps: SsoDeps & { connectionChanges: ConnectionChanges }) {
  const { transactions, organizations, events, clock } = deps;

  /**
   * Once SSO is required, a member who is not an owner may only be signed in through SSO: their live sessions
   * that began another way (password, magic link, passkey, social) end with the switch, in its transaction, so
   * requiring SSO does not wait for those sessions to expire. Owners keep theirs (break-glass).
   */
  async function endNonSsoSessions(tx: Tx, tenantId: string): Promise<number> {
    const live = await signIns.liveSessionsToEnd(tx, tenantId, { nonSsoOfNonOwners: true }, clock.now());
    let ended = 0;
    for (const session of live) if (await deps.sessions.revoke(tx, session.sessionId, 'sso_required')) ended += 1;
    return ended;
  }

  return {
    /** 404 while no connection is configured (dormant). */
    async get(principal: Principal): Promise<EnforcementView> {
      return transactions.tenant(principal.tenantId, async (tx) => {
        await configured(tx, principal.tenantId);
        const tenant = await organizations.tenant(tx, principal.tenantId);
        if (!tenant) throw notFound();
        return { required: tenant.ssoRequired };
      });
    },

    /**
     * Requiring SSO needs the plan feature, an enabled connection, and a passed connection test of its current
     * configuration (409 otherwise: an unproven connection can lock every member who is not an owner out).
     * Turning it off is always allowed, also after a downgrade.
     */
    async put(principal: Principal, input: EnforcementView): Promise<EnforcementView> {
      await deps.connectionChanges.assertAllowed(principal);
      return transactions.tenant(principal.tenantId, async (tx) => {
        const connection = await configured(tx, principal.tenantId, true);
        if (input.required) {
          await assertPlanAllowsSso(deps, tx, principal.tenantId);
          if (!connection.enabled) {
            throw conflict('The OIDC connection is disabled: enable it before requiring SSO');
          }
          // Recorded by POST /tenants/sso/oidc/test, and reset whenever issuer, client id or secret change.
          if (connection.lastTestOk !== true) {
            throw conflict(
              connection.lastTestOk === false
                ? 'The last connection test of the OIDC connection failed: fix it and pass POST /api/v1/tenants/sso/oidc/test before requiring SSO'
                : 'The OIDC connection has not been tested since it last changed: pass POST /api/v1/tenants/sso/oidc/test before requiring SSO',
            );
          }
        }
        const before = await organizations.setSsoRequired(tx, principal.tenantId, input.required);
        if (before === undefined) throw notFound();
        if (before !== input.required) {
          const ended = input.required ? await endNonSsoSessions(tx, principal.tenantId) : 0;
          await emitAdmin(
            events,
            tx,
            principal,
            'sso.enforcement_changed',
            { required: input.required, ...(input.required ? { sessions_ended: ended } : {}) },
            'high',
          );
          await deps.connectionChanges.record(tx, principal, {
            action: 'sso.enforcement_changed',
            summary: input.required
              ? 'Single sign-on is now required: members who are not owners sign in only through it.'
              : 'Single sign-on is no longer required.',
          });
        }
        return { required: input.required };
      });
    },
  };
}

export type EnforcementService = ReturnType<typeof createEnforcementService>;
