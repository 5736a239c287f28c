import type { Principal } from '../../kernel/auth/index.js';
import { type Clock, minutes } from '../../kernel/clock.js';
import { afterCommit, type Transactions, type Tx } from '../../kernel/db/index.js';
import type { Events } from '../../kernel/events/index.js';
import type { Mailer } from '../../kernel/mail/index.js';
import { requireOwnFactorSession } from '../sign-in/index.js';
import * as links from './link-store.js';

/** Changing who may vouch for the organization's people needs a sign-in at most this old. */
export const CONNECTION_CHANGE_SIGN_IN_WINDOW_MS = minutes(10);

/**
 * An SSO connection decides who signs in to the organization, so changing it is guarded like changing one's own
 * sign-in methods (docs/decisions.md "SSO trust model"): a person who signed in with their account's own factors
 * (not through SSO) within 10 minutes; each change raises a detection and is mailed to every owner, so a
 * compromised admin cannot quietly install an identity provider of their own.
 */
export function createConnectionChanges(deps: {
  transactions: Transactions;
  clock: Clock;
  events: Events;
  mailer: Mailer;
  logger: { warn(obj: object, msg: string): void };
}) {
  const { clock, events } = deps;
  return {
    /** 403 unless the caller is a person whose session signed in with their own factors within 10 minutes. */
    assertAllowed: (principal: Principal) =>
      requireOwnFactorSession(deps, principal, {
        withinMs: CONNECTION_CHANGE_SIGN_IN_WINDOW_MS,
        what: 'Changing the organization’s single sign-on',
      }),

    /** In the change's transaction: the detection, and (after commit) the owners' mail. */
    async record(tx: Tx, principal: Principal, change: { action: string; summary: string }): Promise<void> {
      const { tenantId } = principal;
      await events.detect(tx, {
        tenantId,
        ruleId: 'sso-connection-changed',
        groupKey: `tenant:${tenantId}`,
        severity: 'high',
        data: { action: change.action, actor_id: principal.actor.id },
      });
      const [owners, organization] = await Promise.all([
        links.ownerAddresses(tx, tenantId),
        links.organizationName(tx, tenantId),
      ]);
      const actor = principal.userId ? await links.addressOf(tx, principal.userId) : undefined;
      const subject = `Single sign-on of ${organization ?? 'your organization'} changed`;
      const text =
        `${change.summary}\n\nBy: ${actor ?? principal.actor.id}\nWhen: ${clock.now().toISOString()}\n\n` +
        'The identity provider of an organization decides who signs in to it. If this change was not expected, ' +
        'review the organization’s single sign-on settings and its administrators now.\n';
      afterCommit(tx, () => {
        for (const to of owners) {
          void deps.mailer.send({ to, subject, text }).catch((error: Error) => {
            deps.logger.warn({ err: error.message }, 'sso change notice not delivered');
          });
        }
      });
    },
  };
}

export type ConnectionChanges = ReturnType<typeof createConnectionChanges>;
