import type { Transactions } from '../../kernel/db/index.js';
import type { Events } from '../../kernel/events/index.js';
import type { Egress } from '../../kernel/net/index.js';
import type { IdTokens } from './id-tokens.js';
import * as store from './store.js';

/** A slow receiver never holds the sender long (Part A 4.14: best effort, never blocking a logout). */
export const BACKCHANNEL_TIMEOUT_MS = 5000;
const BATCH = 20;

/**
 * Sends the queued back-channel logout tokens (Part A 4.14, OIDC Back-Channel Logout 1.0). The revocation
 * cascade queues one per client and provider session whenever a grant ends (src/modules/oidc/revocation.ts); this takes each once and
 * POSTs the logout token through the kernel's egress, which refuses private addresses without connecting. No
 * retry: a failure is recorded as an event and dropped.
 */
export function createBackchannelLogoutSender(deps: {
  transactions: Transactions;
  events: Events;
  egress: Egress;
  idTokens: IdTokens;
}) {
  const { transactions, events, egress, idTokens } = deps;

  async function deliver(row: Awaited<ReturnType<typeof store.claimBackchannelLogouts>>[number]): Promise<void> {
    if (!row.backchannel_logout_uri) return;
    const logoutToken = await idTokens.logoutToken({ clientId: row.client_id, userId: row.user_id, sid: row.sid });
    let outcome: { ok: boolean; status: number | null; error: string | null };
    try {
      const response = await egress.request(row.backchannel_logout_uri, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ logout_token: logoutToken }).toString(),
        timeoutMs: BACKCHANNEL_TIMEOUT_MS,
        maxBodyBytes: 1024,
      });
      outcome = { ok: response.status === 200, status: response.status, error: null };
    } catch (error) {
      outcome = { ok: false, status: null, error: (error as { code?: string }).code ?? 'connection' };
    }
    await transactions.tenant(row.tenant_id, (tx) =>
      events.emit(tx, {
        tenantId: row.tenant_id,
        actor: { id: 'system', type: 'system' },
        category: 'session',
        action: outcome.ok ? 'oauth.backchannel_logout_sent' : 'oauth.backchannel_logout_failed',
        severity: outcome.ok ? 'info' : 'low',
        outcome: outcome.ok ? 'success' : 'failure',
        subjectUserId: row.user_id,
        data: { client_id: row.client_id, sid: row.sid, status: outcome.status, error: outcome.error },
      }),
    );
  }

  return {
    /** One pass: claims a batch and sends it; answers how many were claimed. */
    async sendPending(): Promise<number> {
      const claimed = await transactions.systemWrite((q) => store.claimBackchannelLogouts(q, BATCH));
      await Promise.all(claimed.map((row) => deliver(row)));
      return claimed.length;
    },
  };
}

export type BackchannelLogoutSender = ReturnType<typeof createBackchannelLogoutSender>;
