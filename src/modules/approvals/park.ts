import { type Action, actionFingerprint } from '../../kernel/authz/fingerprint.js';
import type { Clock } from '../../kernel/clock.js';
import type { Tx } from '../../kernel/db/index.js';
import type { Events } from '../../kernel/events/index.js';
import { newId } from '../../kernel/ids.js';
import { APPROVAL_TTL_MS, DENIAL_REPEAT_MS, requiredApprovalsFor } from './status.js';
import * as store from './store.js';

// A supervised agent's parked action (Part B 4.2, 4.3): the pending ask bound to the exact action, reused while
// pending, its denial repeated for an hour, and its approval spent once by the identical retry. The queue and the
// decision route (service.ts) work on the same table.

export interface ParkRequest {
  tenantId: string;
  agentId: string;
  /** The route call as the fingerprint binds it: method, route template, path parameters, body. */
  action: Action;
  /** The permission the action needs: its approver must hold it besides `agents:approvals:decide`. */
  requiredPermission: string | null;
  /** The task text of the agent's token, shown to approvers. */
  justification: string | null;
}

export type ParkOutcome =
  /** Waiting for a person: a new ask, or the identical one already pending (`created` false). */
  | { outcome: 'pending'; approvalRequestId: string; created: boolean }
  /**
   * A person approved this exact action. Nothing is spent yet: the caller spends it with `spendApproval` once every
   * other check passed and the request is known valid, so a refusal after this leaves the approval for the retry.
   */
  | { outcome: 'approved'; approvalRequestId: string }
  /** A person denied this exact action within the last hour. */
  | { outcome: 'denied'; approvalRequestId: string };

/**
 * A supervised agent's state-changing action meets oversight (Part B 4.2, 4.3): an approved ask for the same
 * action is found (spent later, by `spendApproval`), a recent denial is repeated, a pending ask is reused, else a
 * pending ask is created. Runs in the caller's transaction; concurrent identical calls queue on the ask's lock.
 */
export async function parkAction(
  tx: Tx,
  deps: { events: Events; clock: Clock },
  request: ParkRequest,
): Promise<ParkOutcome> {
  const { tenantId, agentId } = request;
  const now = deps.clock.now();
  const fingerprint = actionFingerprint(request.action);
  const actor = { id: agentId, type: 'agent' as const };
  await store.lockAsk(tx, tenantId, agentId, fingerprint);
  const live = await store.liveAsk(tx, {
    tenantId,
    agentId,
    fingerprint,
    now,
    deniedSince: new Date(now.getTime() - DENIAL_REPEAT_MS),
  });
  if (live?.status === 'approved') return { outcome: 'approved', approvalRequestId: live.id };
  if (live?.status === 'denied') return { outcome: 'denied', approvalRequestId: live.id };
  if (live?.status === 'pending') return { outcome: 'pending', approvalRequestId: live.id, created: false };
  const id = newId();
  const { method, route, params, body } = request.action;
  const requiredApprovals = requiredApprovalsFor(request.requiredPermission);
  await store.insertAsk(tx, {
    id,
    tenantId,
    agentId,
    status: 'pending',
    resourceType: 'action',
    fingerprint,
    resource: { method, route, params: params ?? {}, body: body ?? null },
    requiredPermission: request.requiredPermission,
    requiredApprovals,
    justification: request.justification,
    requestedBy: agentId,
    createdAt: now,
    expiresAt: new Date(now.getTime() + APPROVAL_TTL_MS),
  });
  await deps.events.emit(tx, {
    tenantId,
    actor,
    category: 'agent',
    action: 'approval.requested',
    data: {
      approval_request_id: id,
      agent_id: agentId,
      method,
      route,
      required_permission: request.requiredPermission,
      required_approvals: requiredApprovals,
      fingerprint,
    },
  });
  return { outcome: 'pending', approvalRequestId: id, created: true };
}

/**
 * Spends the approval `parkAction` found, in one statement (single use): false when a concurrent identical retry
 * spent it first, or it expired meanwhile; then the action is parked again.
 */
export async function spendApproval(
  tx: Tx,
  deps: { events: Events; clock: Clock },
  spend: { tenantId: string; agentId: string; approvalRequestId: string; action: Action },
): Promise<boolean> {
  const { tenantId, agentId, approvalRequestId } = spend;
  if (!(await store.consumeApproved(tx, tenantId, approvalRequestId, deps.clock.now()))) return false;
  await deps.events.emit(tx, {
    tenantId,
    actor: { id: agentId, type: 'agent' },
    category: 'agent',
    action: 'approval.consumed',
    data: { approval_request_id: approvalRequestId, agent_id: agentId, fingerprint: actionFingerprint(spend.action) },
  });
  return true;
}
