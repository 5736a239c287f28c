import { hasPermission, type Principal } from '../../kernel/auth/index.js';
import { conflict, decodeCursor, forbidden, notFound, pageOf } from '../../kernel/http/index.js';
import { isUuid, newId } from '../../kernel/ids.js';
import type { ApprovalsDeps } from './deps.js';
import type { ApprovalDetailType, ApprovalQueueQueryType, ApprovalViewType, DecideInput } from './http-schemas.js';
import { approvalStatus } from './status.js';
import * as store from './store.js';

// The approval queue and its decisions (Part B 2.3, 3, 4.3; ARCHITECTURE.md "approvals"). Every kind of ask
// (`action`, `content`, …) is listed, read and decided here; what an approval then lets happen is the business of
// the path that spends it (park.ts for actions).

export const READ_PERMISSION = 'agents:approvals:read';
export const DECIDE_PERMISSION = 'agents:approvals:decide';
/** Part B 4.2, 5.4: people decide, never agents (nor API keys or other services). */
export const PEOPLE_DECIDE = 'Approvals are decided by people: AI agents and service credentials may not decide them';
/** Detection raised by every break-glass decision (critical). */
export const BREAK_GLASS_DETECTION = 'approval-break-glass';

const NOT_FOUND = 'Approval request not found';
const iso = (date: Date | null) => date?.toISOString() ?? null;

/** Who asked: the recorded requester, else (asks recorded before it was) the agent. */
export const requesterOf = (row: store.ApprovalRequestRow) => row.requestedBy ?? row.agentId;

export function approvalView(row: store.ApprovalRequestRow, now: Date): ApprovalViewType {
  return {
    id: row.id,
    approval_id: row.id,
    status: approvalStatus(row, now),
    agent_id: row.agentId,
    resource_type: row.resourceType,
    resource: row.resource ?? null,
    fingerprint: row.fingerprint,
    required_permission: row.requiredPermission,
    required_approvals: row.requiredApprovals,
    approvals_recorded: row.approvalsRecorded,
    justification: row.justification,
    requested_by: requesterOf(row),
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
    decided_at: iso(row.decidedAt),
    decided_by: row.decidedBy,
    reason: row.reason,
    consumed_at: iso(row.consumedAt),
  };
}

function detailView(
  row: store.ApprovalRequestRow,
  decisions: store.ApprovalDecisionRow[],
  now: Date,
): ApprovalDetailType {
  return {
    ...approvalView(row, now),
    decisions: decisions.map((decision) => ({
      decided_by: decision.decidedBy,
      approve: decision.approve,
      reason: decision.reason,
      break_glass: decision.breakGlass,
      decided_at: decision.decidedAt.toISOString(),
    })),
  };
}

/** The event of a decision: the ask settled one way or the other, or one more approval towards the count. */
function decisionEvent(status: string): string {
  if (status === 'approved') return 'approval.approved';
  if (status === 'denied') return 'approval.denied';
  return 'approval.approval_recorded';
}

export function createApprovalService(deps: ApprovalsDeps) {
  const { transactions, events, clock } = deps;

  /** An id that cannot be an ask is the same 404 as an unknown one (or another organization's). */
  const askId = (id: string) => {
    if (!isUuid(id)) throw notFound(NOT_FOUND);
    return id.toLowerCase();
  };

  return {
    /** `GET /approvals`: the organization's asks, newest first. */
    async queue(principal: Principal, query: ApprovalQueueQueryType) {
      const limit = query.limit ?? 100;
      const after = decodeCursor(query.cursor, ['timestamp', 'uuid']);
      const now = clock.now();
      const rows = await transactions.tenant(principal.tenantId, (tx) =>
        store.listAsks(tx, {
          tenantId: principal.tenantId,
          now,
          status: query.status,
          agentId: query.agent_id?.toLowerCase(),
          resourceType: query.resource_type,
          after: after ? { createdAt: new Date(after[0] as string), id: after[1] as string } : undefined,
          limit: limit + 1,
        }),
      );
      const page = pageOf(rows, limit, (row) => [row.createdAt.toISOString(), row.id]);
      return { approvals: page.rows.map((row) => approvalView(row, now)), next_cursor: page.next };
    },

    /**
     * `GET /approvals/{id}`: people and keys holding `agents:approvals:read`; an agent reads its own asks only,
     * and anyone else's is the same 404 as an unknown one.
     */
    async get(principal: Principal, id: string): Promise<ApprovalDetailType> {
      const isAgent = principal.kind === 'agent';
      if (!isAgent && !hasPermission(principal, READ_PERMISSION)) {
        throw forbidden(`Missing permission: ${READ_PERMISSION}`);
      }
      const askedId = askId(id);
      return transactions.tenant(principal.tenantId, async (tx) => {
        const row = await store.askById(tx, principal.tenantId, askedId);
        if (!row || (isAgent && row.agentId !== principal.agentId)) throw notFound(NOT_FOUND);
        return detailView(row, await store.decisionsOn(tx, principal.tenantId, row.id), clock.now());
      });
    },

    /**
     * `POST /approvals/{id}/decide` (the route admits people holding `agents:approvals:decide`). Refused: the
     * requester (403), break-glass by anyone but an owner (403), an approver lacking the asked action's permission
     * (403 naming it), an ask no longer pending (409), a person deciding the same ask twice (409). One denial
     * settles the ask; approvals count distinct people until `required_approvals`, or an owner's break-glass
     * settles it at once. Under the ask's row lock, so concurrent decisions take turns.
     */
    async decide(principal: Principal, id: string, input: DecideInput): Promise<ApprovalDetailType> {
      if (principal.kind !== 'user' || !principal.userId) throw forbidden(PEOPLE_DECIDE);
      const approver = principal.userId;
      const breakGlass = input.break_glass ?? false;
      const reason = input.reason ?? null;
      const askedId = askId(id);
      return transactions.tenant(principal.tenantId, async (tx) => {
        const now = clock.now();
        const row = await store.askForDecision(tx, principal.tenantId, askedId);
        if (!row) throw notFound(NOT_FOUND);
        if (requesterOf(row) === principal.actor.id) {
          throw forbidden('You requested this approval: another person must decide it');
        }
        if (breakGlass && !principal.isOwner) throw forbidden('Only an owner may break glass');
        if (row.requiredPermission && !hasPermission(principal, row.requiredPermission)) {
          throw forbidden(
            `Missing permission: ${row.requiredPermission} (the asked action needs it, so its approver must hold it)`,
          );
        }
        const status = approvalStatus(row, now);
        if (status === 'expired') {
          throw conflict(
            `This approval request expired at ${row.expiresAt.toISOString()}: it can no longer be decided`,
          );
        }
        if (status !== 'pending') throw conflict(`This approval request is already ${status}`);
        const recorded = await store.insertDecision(tx, {
          id: newId(),
          tenantId: principal.tenantId,
          approvalRequestId: row.id,
          decidedBy: approver,
          approve: input.approve,
          reason,
          breakGlass,
          decidedAt: now,
        });
        if (!recorded) {
          throw conflict('You already decided this approval request: another person must approve it');
        }
        const approvals = row.approvalsRecorded + (input.approve ? 1 : 0);
        const settled = !input.approve || breakGlass || approvals >= row.requiredApprovals;
        const next = !input.approve ? 'denied' : settled ? 'approved' : 'pending';
        const updated = await store.settlePending(tx, principal.tenantId, row.id, {
          status: next,
          approvalsRecorded: approvals,
          ...(settled ? { decidedAt: now, decidedBy: approver, reason } : {}),
        });
        if (!updated) throw conflict('This approval request is no longer pending');
        await events.emit(tx, {
          tenantId: principal.tenantId,
          actor: principal.actor,
          category: 'agent',
          action: decisionEvent(next),
          severity: breakGlass ? 'critical' : 'info',
          outcome: 'success',
          data: {
            approval_request_id: row.id,
            agent_id: row.agentId,
            resource_type: row.resourceType,
            fingerprint: row.fingerprint,
            required_permission: row.requiredPermission,
            approver,
            approve: input.approve,
            reason,
            break_glass: breakGlass,
            status: next,
            approvals_recorded: approvals,
            required_approvals: row.requiredApprovals,
          },
        });
        if (breakGlass) {
          await events.detect(tx, {
            tenantId: principal.tenantId,
            ruleId: BREAK_GLASS_DETECTION,
            groupKey: `approval:${row.id}`,
            severity: 'critical',
            data: { approval_request_id: row.id, approver, approve: input.approve, fingerprint: row.fingerprint },
          });
        }
        return detailView(updated, await store.decisionsOn(tx, principal.tenantId, row.id), now);
      });
    },
  };
}

export type ApprovalService = ReturnType<typeof createApprovalService>;
