import type { Principal } from '../../kernel/auth/index.js';
import { days } from '../../kernel/clock.js';
import type { Tx } from '../../kernel/db/index.js';
import type { Actor } from '../../kernel/events/index.js';
import { conflict, forbidden, HttpError, notFound } from '../../kernel/http/index.js';
import { isUuid, newId } from '../../kernel/ids.js';
import type { ContentRequestInput, ContentStateType, ReversalInput } from './content-http-schemas.js';
import * as store from './content-store.js';
import type { ApprovalsDeps } from './deps.js';
import { APPROVAL_TTL_MS, approvalStatus, requiredApprovalsFor } from './status.js';
import type { ApprovalRequestRow } from './store.js';
import { insertAsk } from './store.js';
import { EARNED_AUTONOMY_BAR, trackRecordOf } from './track-record.js';

// Content approvals (Part B 4.3 "Agent-authored content"; ARCHITECTURE.md "Content approvals"): an agent asks a
// person to review content it wrote, keyed on the SHA-256 of the exact bytes. The ask is an approval request with
// `resource_type` content, decided through POST /approvals/{id}/decide like any other; here it is asked for, read
// back by its agent, spent once by whoever publishes the bytes, and, when published content had to be pulled,
// recorded as a reversal that counts against the agent's track record.

/** What a person deciding a content ask must hold besides `agents:approvals:decide`. */
export const CONTENT_REVIEW_PERMISSION = 'content:review';

/** Why content cannot be spent, by its ask's state (the 409's `message`). */
const NOT_READY: Record<Exclude<ContentStateType, 'approved'>, string> = {
  pending: 'No person has decided on this content yet: it cannot be published until it is approved',
  denied: 'A person denied this content: it may not be published',
  expired: 'Nobody decided on this content within 24 hours: the agent must ask for review again',
  consumed: 'The approval of this content was already spent: publishing the same bytes again needs a new review',
};

const iso = (date: Date | null) => date?.toISOString() ?? null;

const stateOf = (row: ApprovalRequestRow, now: Date): ContentStateType => approvalStatus(row, now);

const askView = (row: ApprovalRequestRow, now: Date) => ({
  approval_id: row.id,
  content_hash: row.fingerprint,
  status: stateOf(row, now),
});

function agentIdOf(principal: Principal): string {
  // The routes admit agents only; this holds the rule where it is used.
  if (principal.kind !== 'agent' || !principal.agentId) throw forbidden('Only an AI agent asks for content review');
  return principal.agentId;
}

/** The task text of the agent's token, if it holds a task token: shown to reviewers as the justification. */
const taskTextOf = (principal: Principal): string | null => {
  const task = principal.attributes.task as { task?: unknown } | undefined;
  return typeof task?.task === 'string' ? task.task : null;
};

export type ContentApprovals = ReturnType<typeof createContentApprovals>;

type NewAsk = Parameters<typeof insertAsk>[1];

export function createContentApprovals(deps: ApprovalsDeps) {
  const { transactions, events, clock } = deps;

  const emit = (tx: Tx, tenantId: string, actor: Actor, action: string, data: Record<string, unknown>) =>
    events.emit(tx, { tenantId, actor, category: 'agent', action, data });

  return {
    /**
     * `POST /approvals/content/request`: the calling agent asks for review of its own content. A live ask of this
     * agent for the same bytes (pending, or approved and unspent) is answered again (`created` false); bytes
     * another agent of the organization asked about are not this agent's (403).
     */
    async request(principal: Principal, input: ContentRequestInput) {
      const agentId = agentIdOf(principal);
      const { tenantId } = principal;
      const contentHash = input.content_hash;
      return transactions.tenant(tenantId, async (tx) => {
        await store.lockContent(tx, tenantId, contentHash);
        if (await store.askedByAnotherAgent(tx, tenantId, contentHash, agentId)) {
          throw forbidden(
            'Another agent asked for review of these bytes: an agent asks for review of its own content only',
          );
        }
        const now = clock.now();
        const newest = await store.newestAskOfAgent(tx, tenantId, agentId, contentHash);
        if (newest) {
          const state = stateOf(newest, now);
          if (state === 'pending' || state === 'approved') return { created: false, ask: askView(newest, now) };
        }
        for (const id of await store.markRunOut(tx, tenantId, agentId, contentHash, now)) {
          await emit(tx, tenantId, { id: 'system', type: 'system' }, 'content.review_expired', {
            approval_id: id,
            agent_id: agentId,
            content_hash: contentHash,
          });
        }
        const row: NewAsk = {
          id: newId(),
          tenantId,
          agentId,
          status: 'pending',
          resourceType: 'content',
          fingerprint: contentHash,
          resource: { content_hash: contentHash, title: input.title ?? null, summary: input.summary ?? null },
          requiredPermission: CONTENT_REVIEW_PERMISSION,
          requiredApprovals: requiredApprovalsFor(CONTENT_REVIEW_PERMISSION),
          justification: taskTextOf(principal),
          requestedBy: agentId,
          createdAt: now,
          expiresAt: new Date(now.getTime() + APPROVAL_TTL_MS),
        };
        await insertAsk(tx, row);
        await emit(tx, tenantId, principal.actor, 'content.review_requested', {
          approval_id: row.id,
          agent_id: agentId,
          content_hash: contentHash,
          title: input.title ?? null,
          required_permission: CONTENT_REVIEW_PERMISSION,
        });
        return { created: true, ask: { approval_id: row.id, content_hash: contentHash, status: 'pending' as const } };
      });
    },

    /** `POST /approvals/content/feedback`: the calling agent reads its newest ask about these bytes (404: none). */
    async feedback(principal: Principal, contentHash: string) {
      const agentId = agentIdOf(principal);
      const row = await transactions.tenant(principal.tenantId, (tx) =>
        store.newestAskOfAgent(tx, principal.tenantId, agentId, contentHash),
      );
      if (!row) throw notFound('This agent asked for no review of content with this hash');
      const state = stateOf(row, clock.now());
      const decided = row.decidedAt !== null;
      return {
        approval_id: row.id,
        content_hash: row.fingerprint,
        state,
        reason: decided ? row.reason : null,
        decided_at: iso(row.decidedAt),
        expires_at: row.expiresAt.toISOString(),
      };
    },

    /**
     * `POST /approvals/content/consume`: spends the organization's approval of these exact bytes once (one
     * statement; of concurrent consumers exactly one gets it). Otherwise 409 with the state of the newest ask
     * (not decided, denied, expired, already consumed), or 404 when nobody asked about these bytes.
     */
    async consume(principal: Principal, contentHash: string) {
      const { tenantId } = principal;
      return transactions.tenant(tenantId, async (tx) => {
        const now = clock.now();
        const spent = await store.consumeApprovedContent(tx, tenantId, contentHash, now);
        if (spent) {
          await emit(tx, tenantId, principal.actor, 'content.approval_consumed', {
            approval_id: spent.id,
            agent_id: spent.agentId,
            content_hash: contentHash,
          });
          return {
            approval_id: spent.id,
            content_hash: contentHash,
            agent_id: spent.agentId!,
            state: 'consumed' as const,
            consumed_at: now.toISOString(),
          };
        }
        const newest = await store.newestAsk(tx, tenantId, contentHash);
        if (!newest) throw notFound('Nobody in this organization asked for review of content with this hash');
        const state = stateOf(newest, now);
        // Approved but not spendable cannot happen (the statement above spends an approved, unexpired ask); should
        // a decision land in between, the caller is told to try again rather than being told something false.
        if (state === 'approved') throw conflict('The approval changed while it was being spent: try again');
        const message = NOT_READY[state];
        throw new HttpError(409, message, {}, { state, message, approval_id: newest.id });
      });
    },

    /**
     * `POST /approvals/content/reversal`: a person records that published content had to be pulled. It counts
     * against the agent that wrote it, on the ask that let it out; repeating it answers the first record.
     */
    async reverse(principal: Principal, input: ReversalInput) {
      const { tenantId } = principal;
      const contentHash = input.content_hash;
      return transactions.tenant(tenantId, async (tx) => {
        const ask = await store.askToReverse(tx, tenantId, contentHash);
        if (!ask?.agentId) throw notFound('Nobody in this organization asked for review of content with this hash');
        const recorded = await store.recordReversal(tx, {
          id: newId(),
          tenantId,
          approvalId: ask.id,
          agentId: ask.agentId,
          contentHash,
          reason: input.reason,
          recordedAt: clock.now(),
        });
        const { reversal } = recorded;
        if (recorded.created) {
          // The actor is the reviewing person; the agent whose content it was is in the data (Part B 6.2).
          await events.emit(tx, {
            tenantId,
            actor: principal.actor,
            category: 'agent',
            action: 'content.reversal_recorded',
            severity: 'warn',
            data: {
              reversal_id: reversal.id,
              approval_id: reversal.approvalId,
              agent_id: reversal.agentId,
              content_hash: contentHash,
              reason: reversal.reason,
            },
          });
        }
        return {
          created: recorded.created,
          reversal: {
            reversal_id: reversal.id,
            approval_id: reversal.approvalId,
            content_hash: reversal.contentHash,
            agent_id: reversal.agentId,
            reason: reversal.reason,
            recorded_at: reversal.recordedAt.toISOString(),
          },
        };
      });
    },

    /** `GET /approvals/content/track-record/{agent_id}`: an agent of the organization's earned-autonomy evidence. */
    async trackRecord(principal: Principal, agentId: string) {
      if (!isUuid(agentId)) throw notFound('Agent not found');
      const id = agentId.toLowerCase();
      const { tenantId } = principal;
      const counts = await transactions.tenant(tenantId, async (tx) => {
        if (!(await store.agentOfOrganization(tx, tenantId, id))) throw notFound('Agent not found');
        const since = new Date(clock.now().getTime() - days(EARNED_AUTONOMY_BAR.reversalWindowDays));
        return store.trackRecordCounts(tx, tenantId, id, since);
      });
      return trackRecordOf(id, counts);
    },
  };
}
