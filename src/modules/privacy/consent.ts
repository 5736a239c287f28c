import type { Principal } from '../../kernel/auth/index.js';
import type { Clock } from '../../kernel/clock.js';
import type { Transactions } from '../../kernel/db/index.js';
import type { Events } from '../../kernel/events/index.js';
import { decodeCursor, forbidden, type PageQuery, pageOf } from '../../kernel/http/index.js';
import { newId } from '../../kernel/ids.js';
import * as store from './consent-store.js';

/** Part A 2.15 and 8: a consent purpose is a slug. */
export const CONSENT_TYPE_PATTERN = '^[a-z0-9_-]{1,64}$';

export type ConsentState = 'granted' | 'withdrawn';

export interface ConsentView {
  consent_type: string;
  state: ConsentState;
  granted: boolean;
  updated_at: string;
}

export interface ConsentHistoryEntry {
  id: string;
  consent_type: string;
  action: ConsentState;
  occurred_at: string;
}

const stateOf = (granted: boolean): ConsentState => (granted ? 'granted' : 'withdrawn');

export const consentView = (row: store.ConsentRow): ConsentView => ({
  consent_type: row.consentType,
  state: stateOf(row.granted),
  granted: row.granted,
  updated_at: row.updatedAt.toISOString(),
});

export const historyEntry = (row: store.ConsentEventRow): ConsentHistoryEntry => ({
  id: row.id,
  consent_type: row.consentType,
  action: row.action,
  occurred_at: row.occurredAt.toISOString(),
});

/** Part A 4.10 "tenant owner": the consent review is the owner's alone, whatever else a role holds. */
function assertOwner(principal: Principal): void {
  if (!principal.isOwner) throw forbidden('Only the organization owner can review consents');
}

export function createConsentService(deps: { transactions: Transactions; events: Events; clock: Clock }) {
  const { transactions, events, clock } = deps;

  /** Consent states, by person then purpose, one page. */
  async function states(tenantId: string, filter: store.ConsentFilter, page: PageQuery) {
    const after = decodeCursor(page.cursor, ['uuid', 'string']);
    const rows = await transactions.tenant(tenantId, (tx) => store.states(tx, tenantId, filter, page.limit + 1, after));
    return pageOf(rows, page.limit, (row) => [row.userId, row.consentType]);
  }

  /** Ledger entries, newest first, one page. */
  async function changes(tenantId: string, filter: store.ConsentFilter, page: PageQuery) {
    const after = decodeCursor(page.cursor, ['timestamp', 'integer']);
    const rows = await transactions.tenant(tenantId, (tx) =>
      store.history(tx, tenantId, filter, page.limit + 1, after),
    );
    return pageOf(rows, page.limit, (row) => [row.occurredAt.toISOString(), row.seq]);
  }

  /**
   * Grant or withdraw, idempotently: the state is set in one statement, and only a real change appends to
   * the ledger and emits its audited event.
   */
  async function set(principal: Principal, consentType: string, granted: boolean) {
    return transactions.tenant(principal.tenantId, async (tx) => {
      const now = clock.now();
      const userId = principal.userId!;
      const changed = await store.setState(tx, {
        tenantId: principal.tenantId,
        userId,
        consentType,
        granted,
        updatedAt: now,
      });
      if (changed) {
        const action = stateOf(granted);
        await store.appendEvent(tx, {
          tenantId: principal.tenantId,
          id: newId(),
          userId,
          consentType,
          action,
          occurredAt: now,
        });
        await events.emit(tx, {
          tenantId: principal.tenantId,
          actor: principal.actor,
          category: 'privacy',
          action: granted ? 'consent.granted' : 'consent.withdrawn',
          subjectUserId: userId,
          data: { user_id: userId, consent_type: consentType },
        });
        return { ...consentView(changed), changed: true };
      }
      const current = await store.stateOf(tx, principal.tenantId, userId, consentType);
      return { ...consentView(current!), changed: false };
    });
  }

  return {
    grant: (principal: Principal, consentType: string) => set(principal, consentType, true),
    withdraw: (principal: Principal, consentType: string) => set(principal, consentType, false),

    async current(principal: Principal, page: PageQuery) {
      const { rows, next } = await states(principal.tenantId, { userId: principal.userId }, page);
      return { consents: rows.map(consentView), next_cursor: next };
    },

    async history(principal: Principal, page: PageQuery) {
      const { rows, next } = await changes(principal.tenantId, { userId: principal.userId }, page);
      return { history: rows.map(historyEntry), next_cursor: next };
    },

    async adminCurrent(principal: Principal, filter: store.ConsentFilter, page: PageQuery) {
      assertOwner(principal);
      const { rows, next } = await states(principal.tenantId, filter, page);
      return { consents: rows.map((row) => ({ user_id: row.userId, ...consentView(row) })), next_cursor: next };
    },

    async adminHistory(principal: Principal, filter: store.ConsentFilter, page: PageQuery) {
      assertOwner(principal);
      const { rows, next } = await changes(principal.tenantId, filter, page);
      return { history: rows.map((row) => ({ user_id: row.userId, ...historyEntry(row) })), next_cursor: next };
    },
  };
}

export type ConsentService = ReturnType<typeof createConsentService>;
