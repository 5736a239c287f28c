import type { Principal } from '../../kernel/auth/index.js';
import { addMs, type Clock, days } from '../../kernel/clock.js';
import type { Transactions, Tx } from '../../kernel/db/index.js';
import type { Actor, Events } from '../../kernel/events/index.js';
import { conflict, decodeCursor, notFound, type PageQuery, pageOf } from '../../kernel/http/index.js';
import { newId } from '../../kernel/ids.js';
import type { PersonalDataRegistry } from '../../kernel/personal-data.js';
import { assemblePersonalData, type PersonalDataDocument } from './export-document.js';
import * as store from './requests-store.js';
import { OPEN_STATUSES, type RequestStatus, type RequestType } from './schema.js';

/** Part A 8: the statutory clock of a data-subject request (GDPR Art. 12(3): one month). */
export const REQUEST_DUE_DAYS = 30;

export interface RequestView {
  id: string;
  user_id: string;
  request_type: RequestType;
  description: string | null;
  status: RequestStatus;
  created_at: string;
  due_at: string;
  verified_at: string | null;
  resolved_at: string | null;
  rejection_reason: string | null;
}

export interface ProcessOutcome {
  request: RequestView;
  /** The subject's export, for `access` and `export` requests. */
  data: PersonalDataDocument | null;
  /** The export sections whose data was scrubbed, for `erasure` requests. */
  erased_sections: string[] | null;
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function requestView(row: store.RequestRow): RequestView {
  return {
    id: row.id,
    user_id: row.userId,
    request_type: row.requestType,
    description: row.description,
    status: row.status,
    created_at: row.createdAt.toISOString(),
    due_at: row.dueAt.toISOString(),
    verified_at: iso(row.verifiedAt),
    resolved_at: iso(row.resolvedAt),
    rejection_reason: row.rejectionReason,
  };
}

type Step = 'cancel' | 'verify' | 'reject' | 'process';

export function createRequestService(deps: {
  transactions: Transactions;
  events: Events;
  clock: Clock;
  personalData: PersonalDataRegistry;
  sessions: { revokeAllOfUser(tx: Tx, tenantId: string, userId: string, reason: string): Promise<number> };
}) {
  const { transactions, events, clock, personalData, sessions } = deps;

  /** Why a transition did not happen: 404 for an unknown (or someone else's) request, else 409 naming the state. */
  async function refusal(tx: Tx, tenantId: string, id: string, step: Step, ownerId?: string): Promise<Error> {
    const row = await store.requestById(tx, tenantId, id);
    if (!row || (ownerId && row.userId !== ownerId)) return notFound('Request not found');
    if (!OPEN_STATUSES.includes(row.status)) return conflict(`Request already resolved (${row.status})`);
    return conflict(step === 'verify' ? 'Request already verified' : `Request is ${row.status}`);
  }

  /**
   * `pending` to `verified`: the compliance administrator confirms the subject's identity. `implicit` marks the
   * confirmation that processing a still-pending request records (docs/privacy.md).
   */
  async function markVerified(tx: Tx, tenantId: string, id: string, actor: Actor, implicit: boolean) {
    const where = { tenantId, id, from: ['pending'] as const };
    const row = await store.transition(tx, where, {
      status: 'verified',
      verifiedAt: clock.now(),
      verifiedBy: actor.id,
    });
    if (row) await audit(tx, row, actor, 'privacy.request_verified', implicit ? { verified_by: 'process' } : {});
    return row;
  }

  /** Newest first, one page; `next_cursor` continues it. */
  async function list(
    tenantId: string,
    filter: Parameters<typeof store.listRequests>[2],
    page: PageQuery,
  ): Promise<{ requests: RequestView[]; next_cursor: string | null }> {
    const after = decodeCursor(page.cursor, ['timestamp', 'uuid']);
    const rows = await transactions.tenant(tenantId, (tx) =>
      store.listRequests(tx, tenantId, filter, page.limit + 1, after),
    );
    const { rows: shown, next } = pageOf(rows, page.limit, (row) => [row.createdAt.toISOString(), row.id]);
    return { requests: shown.map(requestView), next_cursor: next };
  }

  async function audit(
    tx: Tx,
    row: store.RequestRow,
    actor: Actor,
    action: string,
    data: Record<string, unknown> = {},
  ) {
    await events.emit(tx, {
      tenantId: row.tenantId,
      actor,
      category: 'privacy',
      action,
      subjectUserId: row.userId,
      data: { request_id: row.id, request_type: row.requestType, status: row.status, ...data },
    });
  }

  /** Erasure (GDPR Art. 17) through every registered contributor; never the audit log. */
  async function erase(tx: Tx, row: store.RequestRow, actor: Actor): Promise<string[]> {
    const owners = await store.activeOwners(tx, row.tenantId);
    if (owners.includes(row.userId) && owners.length === 1) {
      throw conflict('The subject is the sole owner of the organization; transfer ownership before erasure');
    }
    const erased: string[] = [];
    // Reverse registration order. Each contributor finds its rows by the person's id (or by the address it
    // reads before the account is scrubbed, which the account contributor does after the membership one).
    for (const contributor of [...personalData.contributors()].reverse()) {
      await contributor.erase(tx, row.tenantId, row.userId);
      erased.push(contributor.name);
    }
    // Whatever a contributor did, no session of an erased person outlives the erasure.
    await sessions.revokeAllOfUser(tx, row.tenantId, row.userId, 'erased');
    const data = { user_id: row.userId, reason: 'erasure' };
    await events.emit(tx, {
      tenantId: row.tenantId,
      actor,
      category: 'session',
      action: 'user.sessions_revoked',
      severity: 'warn',
      subjectUserId: row.userId,
      data,
      webhook: { type: 'user.sessions_revoked', data },
    });
    return erased;
  }

  return {
    /** `GET /gdpr/my-data`: the caller's export within the calling organization only. */
    async myData(principal: Principal): Promise<PersonalDataDocument> {
      return transactions.tenant(principal.tenantId, async (tx) => {
        const document = await assemblePersonalData(tx, personalData, {
          tenantId: principal.tenantId,
          userId: principal.userId!,
          now: clock.now(),
        });
        await events.emit(tx, {
          tenantId: principal.tenantId,
          actor: principal.actor,
          category: 'privacy',
          action: 'privacy.data_exported',
          subjectUserId: principal.userId,
          data: { user_id: principal.userId, sections: Object.keys(document.sections) },
        });
        return document;
      });
    },

    /** `POST /gdpr/requests`: a pending request, due 30 days after receipt. */
    async create(principal: Principal, input: { type: RequestType; description?: string | undefined }) {
      return transactions.tenant(principal.tenantId, async (tx) => {
        const now = clock.now();
        const row: store.RequestRow = {
          tenantId: principal.tenantId,
          id: newId(),
          userId: principal.userId!,
          requestType: input.type,
          description: input.description?.trim() || null,
          status: 'pending',
          createdAt: now,
          dueAt: addMs(now, days(REQUEST_DUE_DAYS)),
          verifiedAt: null,
          verifiedBy: null,
          resolvedAt: null,
          resolvedBy: null,
          rejectionReason: null,
        };
        await store.insertRequest(tx, row);
        await audit(tx, row, principal.actor, 'privacy.request_created', { due_at: row.dueAt.toISOString() });
        return requestView(row);
      });
    },

    async listOwn(principal: Principal, page: PageQuery) {
      return list(principal.tenantId, { userId: principal.userId }, page);
    },

    /** `POST /gdpr/requests/{id}/cancel`: only the subject, only while open; 409 once resolved. */
    async cancel(principal: Principal, id: string): Promise<RequestView> {
      return transactions.tenant(principal.tenantId, async (tx) => {
        const where = { tenantId: principal.tenantId, id, userId: principal.userId, from: OPEN_STATUSES };
        const now = clock.now();
        const row = await store.transition(tx, where, {
          status: 'cancelled',
          resolvedAt: now,
          resolvedBy: principal.actor.id,
        });
        if (!row) throw await refusal(tx, principal.tenantId, id, 'cancel', principal.userId);
        await audit(tx, row, principal.actor, 'privacy.request_cancelled');
        return requestView(row);
      });
    },

    async adminList(
      principal: Principal,
      filter: { status?: RequestStatus | undefined; type?: RequestType | undefined },
      page: PageQuery,
    ) {
      return list(principal.tenantId, filter, page);
    },

    /** Identity confirmed: `pending` to `verified`. */
    async verify(principal: Principal, id: string): Promise<RequestView> {
      return transactions.tenant(principal.tenantId, async (tx) => {
        const row = await markVerified(tx, principal.tenantId, id, principal.actor, false);
        if (!row) throw await refusal(tx, principal.tenantId, id, 'verify');
        return requestView(row);
      });
    },

    async reject(principal: Principal, id: string, reason: string): Promise<RequestView> {
      return transactions.tenant(principal.tenantId, async (tx) => {
        const where = { tenantId: principal.tenantId, id, from: OPEN_STATUSES };
        const row = await store.transition(tx, where, {
          status: 'rejected',
          resolvedAt: clock.now(),
          resolvedBy: principal.actor.id,
          rejectionReason: reason.trim(),
        });
        if (!row) throw await refusal(tx, principal.tenantId, id, 'reject');
        await audit(tx, row, principal.actor, 'privacy.request_rejected');
        return requestView(row);
      });
    },

    /**
     * Fulfils an open request in one transaction: access and export return the subject's document,
     * erasure scrubs them from every contributor (409 for the sole owner, leaving the request as it was),
     * rectification records that the corrections were made. A still-pending request is first verified by the
     * processing administrator (recorded and audited as such): Part A 4.10 makes `verify` no precondition of
     * `process`. The audit log is never touched.
     */
    async process(principal: Principal, id: string): Promise<ProcessOutcome> {
      return transactions.tenant(principal.tenantId, async (tx) => {
        await markVerified(tx, principal.tenantId, id, principal.actor, true);
        const now = clock.now();
        const where = { tenantId: principal.tenantId, id, from: ['verified'] as const };
        const row = await store.transition(tx, where, {
          status: 'completed',
          resolvedAt: now,
          resolvedBy: principal.actor.id,
        });
        if (!row) throw await refusal(tx, principal.tenantId, id, 'process');
        let data: PersonalDataDocument | null = null;
        let erased: string[] | null = null;
        if (row.requestType === 'access' || row.requestType === 'export') {
          data = await assemblePersonalData(tx, personalData, { tenantId: row.tenantId, userId: row.userId, now });
        } else if (row.requestType === 'erasure') {
          erased = await erase(tx, row, principal.actor);
        }
        await audit(tx, row, principal.actor, 'privacy.request_processed', erased ? { erased_sections: erased } : {});
        const current = (await store.requestById(tx, row.tenantId, row.id)) ?? row;
        return { request: requestView(current), data, erased_sections: erased };
      });
    },
  };
}

export type RequestService = ReturnType<typeof createRequestService>;
