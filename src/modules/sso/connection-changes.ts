import type { Principal } from '../../kernel/auth/index.js';
import { type Clock, minutes } from '../../kernel/clock.js';
import { afterCommit, type Transactions, type Tx } from '../../kernel/db/index.js';
import type { Events, RaisedDetection } from '../../kernel/events/index.js';
import type { Mailer } from '../../kernel/mail/index.js';
import { requireOwnFactorSession } from '../sign-in/index.js';
import * as links from './link-store.js';
import { SCAFFOLD_ACTION } from './scaffold.js';

/** Changing who may vouch for the organization's people needs a sign-in at most this old. */
export const CONNECTION_CHANGE_SIGN_IN_WINDOW_MS = minutes(10);
/** The guard below in the words of the route descriptions, for every route that changes a connection. */
export const CONNECTION_CHANGE =
  'Changing the connection also needs a person whose session signed in with their account’s own factors (not ' +
  'through SSO) within 10 minutes (403 otherwise, also for API keys); each change is mailed to every owner and ' +
  'raises a detection. ';

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

  /** After `tx` commits, every active owner is mailed what changed and by whom. */
  async function mailOwners(tx: Tx, tenantId: string, summary: string, by: string): Promise<void> {
    const owners = await links.ownerAddresses(tx, tenantId);
    const organization = await links.organizationName(tx, tenantId);
    const subject = `Single sign-on of ${organization ?? 'your organization'} changed`;
    const text =
      `${summary}\n\nBy: ${by}\nWhen: ${clock.now().toISOString()}\n\n` +
      'The identity provider of an organization decides who signs in to it. If this change was not expected, ' +
      'review the organization’s single sign-on settings and its administrators now.\n';
    afterCommit(tx, () => {
      for (const to of owners) {
        void deps.mailer.send({ to, subject, text }).catch((error: Error) => {
          deps.logger.warn({ err: error.message }, 'sso change notice not delivered');
        });
      }
    });
  }

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
      const actor = principal.userId ? await links.addressOf(tx, principal.userId) : undefined;
      await mailOwners(tx, tenantId, change.summary, actor ?? principal.actor.id);
    },

    /**
     * The owners' mail of a connection an IAM manifest scaffolded (scaffold.ts). The manifest step that creates it
     * runs in the manifests module, which has no mailer: the scaffold raises this module's detection in its
     * transaction, and this listener (`events.onDetection`, after commit) mails the owners like any change.
     */
    async noticeOfScaffold(detection: RaisedDetection): Promise<void> {
      const { tenantId, data } = detection;
      if (detection.ruleId !== 'sso-connection-changed' || data.action !== SCAFFOLD_ACTION || !tenantId) return;
      await deps.transactions.tenant(tenantId, async (tx) => {
        const approver = typeof data.approved_by === 'string' ? await links.addressOf(tx, data.approved_by) : undefined;
        const summary =
          `An IAM manifest (${String(data.manifest_hash)}) created the OpenID Connect identity provider ` +
          `${String(data.issuer)} (client ${String(data.client_id)}), disabled and without a client secret: it signs ` +
          'nobody in until an administrator gives it its secret and enables it.';
        const by = `${String(data.actor_id)}${approver ? `, approved by ${approver}` : ''}`;
        await mailOwners(tx, tenantId, summary, by);
      });
    },
  };
}

export type ConnectionChanges = ReturnType<typeof createConnectionChanges>;
