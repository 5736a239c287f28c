import { hasPermission, type Principal } from '../../kernel/auth/index.js';
import { conflict, forbidden, notFound } from '../../kernel/http/index.js';
import { isUuid } from '../../kernel/ids.js';
import { actionOf, type ResponseAction } from './catalogue.js';
import type { AutonomyDeps } from './deps.js';
import { effectOf, Superseded } from './effects.js';
import type { AutonomyEngine } from './engine.js';
import type { KillSwitch } from './kill-switch.js';
import * as store from './store.js';

// The decisions ledger's use cases (Part B 4.9): list, adjudicate, revert. Approving or undoing needs
// `autonomy:approve` (the route) and the permission to take the action yourself (here); an action with no
// declared approver permission can be neither approved nor reverted.

export interface DecisionView {
  id: string;
  tenant_id: string;
  detection_id: string;
  effect: string;
  rule_id: string;
  action_id: string;
  blast_class: string;
  target_id: string;
  mode: store.Mode;
  level: string;
  adjudication: string;
  decided_by: string | null;
  decision_reason: string | null;
  actionable: boolean;
  revertible: boolean;
  unattended: boolean;
  created_at: string;
  decided_at: string | null;
  executed_at: string | null;
  reverted_at: string | null;
  revert_reason: string | null;
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function viewOf(row: store.DecisionRow): DecisionView {
  const action = actionOf(row.actionId);
  const executable = action.approvePermission !== null && effectOf(row.actionId).execute !== undefined;
  return {
    id: row.id,
    tenant_id: row.tenantId,
    detection_id: row.detectionId,
    effect: row.effect,
    rule_id: row.ruleId,
    action_id: row.actionId,
    blast_class: row.blastClass,
    target_id: row.targetId,
    mode: row.mode,
    level: row.level,
    adjudication: row.adjudication,
    decided_by: row.decidedBy,
    decision_reason: row.decisionReason,
    actionable: row.mode === 'proposed' && executable,
    revertible: row.mode === 'executed' && action.revertible && action.revertPermission !== null,
    unattended: row.adjudication === 'automatic' && ['executing', 'executed', 'reversed'].includes(row.mode),
    created_at: row.createdAt.toISOString(),
    decided_at: iso(row.decidedAt),
    executed_at: iso(row.executedAt),
    reverted_at: iso(row.revertedAt),
    revert_reason: row.revertReason,
  };
}

function requireApprover(principal: Principal, permission: string | null, verb: string): void {
  if (permission === null) {
    throw forbidden(`This action declares no approver permission: it can be neither approved nor reverted (${verb})`);
  }
  if (!hasPermission(principal, permission)) throw forbidden(`Missing permission: ${permission} (to ${verb} it)`);
}

export function createAutonomyService(deps: AutonomyDeps, engine: AutonomyEngine, killSwitch: KillSwitch) {
  const { transactions, events, clock } = deps;

  async function found(principal: Principal, id: string): Promise<{ row: store.DecisionRow; action: ResponseAction }> {
    if (!isUuid(id)) throw notFound('Unknown decision');
    const row = await transactions.tenant(principal.tenantId, (tx) => store.decisionById(tx, principal.tenantId, id));
    if (!row) throw notFound('Unknown decision');
    return { row, action: actionOf(row.actionId) };
  }

  return {
    /** `GET /autonomy/decisions`: newest first; the platform operator reads every organization's. */
    async list(principal: Principal, query: { mode?: store.Mode | undefined; limit?: number | undefined }) {
      const platform = (await killSwitch.platformTenant()) === principal.tenantId;
      const filter = { mode: query.mode, limit: query.limit ?? 50 };
      const found = platform
        ? await transactions.system((tx) => store.listDecisions(tx, { ...filter, tenantId: null }))
        : await transactions.tenantRead(principal.tenantId, (tx) =>
            store.listDecisions(tx, { ...filter, tenantId: principal.tenantId }),
          );
      return { decisions: found.map(viewOf), viewer_scope: platform ? ('platform' as const) : ('tenant' as const) };
    },

    /**
     * `POST /autonomy/decisions/{id}/adjudicate`: the verdict is recorded (and committed) first; an approval is
     * then executed through the engine, which re-checks every guard and the world.
     */
    async adjudicate(principal: Principal, id: string, body: { approve: boolean; reason?: string | undefined }) {
      const { action } = await found(principal, id);
      requireApprover(principal, action.approvePermission, 'approve');
      const now = clock.now();
      const decided = await transactions.tenant(principal.tenantId, async (tx) => {
        const row = await store.decisionById(tx, principal.tenantId, id, true);
        if (!row) throw notFound('Unknown decision');
        if (row.mode !== 'proposed') throw conflict(`The decision is ${row.mode}: it is not awaiting a verdict`);
        const updated = await store.updateDecision(tx, principal.tenantId, id, {
          mode: body.approve ? 'executing' : 'denied',
          adjudication: body.approve ? 'approved' : 'denied',
          decidedBy: principal.actor.id,
          decidedByType: principal.actor.type,
          decidedAt: now,
          decisionReason: body.reason ?? null,
        });
        await events.emit(tx, {
          tenantId: principal.tenantId,
          actor: principal.actor,
          category: 'security',
          action: 'autonomy.decision_adjudicated',
          severity: 'warn',
          data: {
            decision_id: id,
            approve: body.approve,
            reason: body.reason ?? null,
            blast_class: row.blastClass,
            action_id: row.actionId,
            target_id: row.targetId,
          },
        });
        return updated;
      });
      if (!body.approve) {
        return { decision: viewOf(decided), executed: false, outcome: 'denied', reason: body.reason ?? null };
      }
      const after =
        (await engine.execute(principal.tenantId, id)) ??
        (await transactions.tenant(principal.tenantId, (tx) => store.decisionById(tx, principal.tenantId, id)))!;
      return {
        decision: viewOf(after),
        executed: after.mode === 'executed',
        outcome: after.mode,
        reason: after.mode === 'executed' ? null : after.decisionReason,
      };
    },

    /** `POST /autonomy/decisions/{id}/revert`: undoes an executed decision; 409 (nothing changed) if superseded. */
    async revert(principal: Principal, id: string, reason: string) {
      const { action } = await found(principal, id);
      if (action.revertByPeopleOnly && principal.actor.type !== 'human') {
        throw forbidden(`Only a person can revert ${action.responseClass}: it releases an agent's kill switch`);
      }
      requireApprover(principal, action.revertPermission, 'revert');
      const now = clock.now();
      try {
        return await transactions.tenant(principal.tenantId, async (tx) => {
          const row = await store.decisionById(tx, principal.tenantId, id, true);
          if (!row) throw notFound('Unknown decision');
          if (row.mode !== 'executed') throw conflict(`The decision is ${row.mode}: only an executed one reverts`);
          if (!action.revertible) throw conflict('This action cannot be reverted');
          const effect = effectOf(row.actionId);
          const target = { tenantId: row.tenantId, targetId: row.targetId, decisionId: row.id };
          const detail = await effect.revert!(
            tx,
            { events, clock, limiter: deps.limiter, sessions: deps.sessions },
            target,
            row.result,
            principal.actor,
            reason,
          );
          const updated = await store.updateDecision(tx, principal.tenantId, id, {
            mode: 'reversed',
            revertedAt: now,
            revertedBy: principal.actor.id,
            revertReason: reason,
          });
          await events.emit(tx, {
            tenantId: principal.tenantId,
            actor: principal.actor,
            category: 'security',
            action: 'autonomy.decision_reverted',
            severity: 'high',
            data: {
              decision_id: id,
              blast_class: row.blastClass,
              action_id: row.actionId,
              target_id: row.targetId,
              reason,
              detail,
            },
          });
          return { decision: viewOf(updated), reverted: true, detail };
        });
      } catch (error) {
        // The transaction rolled back: nothing changed.
        if (error instanceof Superseded) throw conflict(`Superseded: ${error.message}; nothing was changed`);
        throw error;
      }
    },
  };
}

export type AutonomyService = ReturnType<typeof createAutonomyService>;
