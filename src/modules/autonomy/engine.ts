import { addMs, days } from '../../kernel/clock.js';
import type { Tx } from '../../kernel/db/index.js';
import type { Actor, RaisedDetection } from '../../kernel/events/index.js';
import { newId } from '../../kernel/ids.js';
import { actionOf, type Level, TRIGGERS, triggerOf } from './catalogue.js';
import type { AutonomyDeps } from './deps.js';
import { effectOf, targetOfDetection, worldFingerprint } from './effects.js';
import { GRADUATION_WINDOW_DAYS, graduationOf } from './graduation.js';
import { decide, type GuardState, guard } from './guards.js';
import type { KillSwitch } from './kill-switch.js';
import * as store from './store.js';

/** Pages of missed detections the backstop reads per run (of `limit` each): the rest waits for the next run. */
const BACKSTOP_PAGES = 20;

// The engine (Part B 1.7, 4.9): a detection comes in (the kernel's one detection hook, after commit), the engine
// records one decision for it (idempotent per detection group occurrence) at the mode its class level, the
// switches and the guards allow; `executing` rows are executed by the worker (SKIP LOCKED) or, right after a
// person's approval, by that request, through the same `execute`.

export function createAutonomyEngine(deps: AutonomyDeps, killSwitch: KillSwitch) {
  const { transactions, events, clock, settings, config } = deps;
  const effectDeps = { events, clock, limiter: deps.limiter, sessions: deps.sessions };

  /** The guards' view of an organization's live ledger and switches, in its transaction. */
  const liveState = (
    tx: Tx,
    tenantId: string,
    global: Awaited<ReturnType<KillSwitch['globalSwitch']>>,
  ): GuardState => ({
    stop: () => killSwitch.engagedFor(tx, tenantId, global),
    use: (responseClass, since) => store.classUse(tx, tenantId, responseClass, since),
    latestReversal: (responseClass, since) => store.latestReversal(tx, tenantId, responseClass, since),
  });

  async function ingest(detection: RaisedDetection): Promise<void> {
    const { tenantId } = detection;
    const trigger = triggerOf(detection.ruleId);
    if (!tenantId || !trigger) return;
    const targetId = targetOfDetection(trigger.target, detection);
    if (!targetId) return;
    const action = actionOf(trigger.actionId);
    const effect = effectOf(action.id);
    const global = await killSwitch.globalSwitch();
    await transactions.tenant(tenantId, async (tx) => {
      const id = newId();
      const level = (await settings.read(tx, tenantId, `autonomy.level_${action.responseClass}`)) as Level;
      const graduated =
        level === 'graduated'
          ? (
              await graduationOf(
                await store.decisionsSince(tx, tenantId, addMs(clock.now(), -days(GRADUATION_WINDOW_DAYS))),
                action.responseClass,
                clock.now(),
              )
            ).eligible
          : false;
      const choice = await decide(
        liveState(tx, tenantId, global),
        {
          executionEnabled: config.flags.autonomyExecutionEnabled,
          responseClass: action.responseClass,
          level,
          attackerTrippable: trigger.attackerTrippable,
          actionable: action.approvePermission !== null && effect.execute !== undefined,
          graduated,
        },
        clock.now(),
      );
      const row = await store.insertDecision(tx, {
        id,
        tenantId,
        detectionId: detection.id,
        ruleId: detection.ruleId,
        actionId: action.id,
        blastClass: action.responseClass,
        targetId,
        effect: effect.sentence(targetId),
        mode: choice.mode,
        level: choice.level,
        adjudication: choice.adjudication,
        decidedBy: choice.adjudication === 'automatic' ? 'system' : null,
        decidedByType: choice.adjudication === 'automatic' ? 'system' : null,
        decisionReason: choice.reason,
        worldFingerprint: await worldFingerprint(tx, effectDeps, action.id, { tenantId, targetId, decisionId: id }),
        createdAt: clock.now(),
        decidedAt: choice.adjudication === 'automatic' ? clock.now() : null,
      });
      if (!row) return;
      await events.emit(tx, {
        tenantId,
        actor: { id: 'system', type: 'system' },
        category: 'security',
        action: 'autonomy.decision_recorded',
        severity: choice.mode === 'executing' || choice.mode === 'proposed' ? 'warn' : 'info',
        data: {
          decision_id: row.id,
          detection_id: detection.id,
          rule_id: row.ruleId,
          action_id: row.actionId,
          blast_class: row.blastClass,
          target_id: row.targetId,
          mode: row.mode,
          level: row.level,
          reason: row.decisionReason,
        },
      });
    });
  }

  /**
   * Executes one `executing` decision (the worker's, or right after a person's approval): guards and the world
   * re-checked first. Undefined when another worker holds it or it is no longer `executing`.
   */
  async function execute(tenantId: string, id: string): Promise<store.DecisionRow | undefined> {
    const global = await killSwitch.globalSwitch();
    return transactions.tenant(tenantId, async (tx) => {
      const row = await store.claimExecuting(tx, tenantId, id);
      if (!row) return undefined;
      const unattended = row.adjudication === 'automatic';
      const by: Actor | null =
        unattended || !row.decidedBy
          ? null
          : { id: row.decidedBy, type: (row.decidedByType ?? 'human') as Actor['type'] };
      const target = { tenantId, targetId: row.targetId, decisionId: row.id };
      const effect = effectOf(row.actionId);
      // One advisory lock per organization and class: the caps are exact under concurrent executions.
      await store.lockClass(tx, tenantId, row.blastClass);
      // A decision made while execution was on meets a node where it is off: nothing executes (Part B 4.9).
      let refusal = config.flags.autonomyExecutionEnabled
        ? ((await guard(liveState(tx, tenantId, global), row, unattended, clock.now()))?.reason ?? null)
        : 'execution is off (AUTONOMY_EXECUTION_ENABLED): nothing executes';
      if (!refusal && (await worldFingerprint(tx, effectDeps, row.actionId, target)) !== row.worldFingerprint) {
        refusal = `the world changed since the proposal: ${effect.changed}`;
      }
      if (!refusal && !effect.execute) refusal = 'this action has no executor: a person acts by hand';
      const now = clock.now();
      let updated: store.DecisionRow;
      let detail: string;
      if (refusal && unattended) {
        // Nothing unattended runs past a guard: a person may still decide it.
        updated = await store.updateDecision(tx, tenantId, id, {
          mode: 'proposed',
          adjudication: 'pending',
          decidedBy: null,
          decidedByType: null,
          decidedAt: null,
          decisionReason: `held for a person: ${refusal}`,
        });
        detail = refusal;
      } else if (refusal) {
        updated = await store.updateDecision(tx, tenantId, id, { mode: 'expired', decisionReason: refusal });
        detail = refusal;
      } else {
        const done = await effect.execute!(tx, effectDeps, target, by);
        updated = await store.updateDecision(tx, tenantId, id, {
          mode: 'executed',
          executedAt: now,
          result: done.result,
        });
        detail = done.detail;
      }
      await events.emit(tx, {
        tenantId,
        actor: by ?? { id: 'system', type: 'system' },
        category: 'security',
        action: 'autonomy.decision_executed',
        severity: updated.mode === 'executed' ? 'high' : 'warn',
        outcome: updated.mode === 'executed' ? 'success' : 'denied',
        data: {
          decision_id: id,
          blast_class: row.blastClass,
          action_id: row.actionId,
          target_id: row.targetId,
          mode: updated.mode,
          unattended,
          detail,
        },
      });
      return updated;
    });
  }

  return {
    ingest,
    execute,

    /**
     * The worker's run: decisions whose detection hook never ran (a node stopped between commit and hook) are
     * recorded, then due `executing` rows are executed, each claimed with SKIP LOCKED in its own transaction.
     */
    async runDue(limit = 50): Promise<number> {
      const since = addMs(clock.now(), -days(1));
      const ruleIds = TRIGGERS.map((trigger) => trigger.ruleId);
      let after: store.DetectionPosition | undefined;
      for (let page = 0; page < BACKSTOP_PAGES; page++) {
        const missed = await transactions.systemRead((q) =>
          store.detectionsWithoutDecision(q, { ruleIds, since, limit, after }),
        );
        for (const row of missed) {
          await ingest({
            id: row.id,
            tenantId: row.tenant_id,
            ruleId: row.rule_id,
            groupKey: row.group_key,
            severity: row.severity as RaisedDetection['severity'],
            count: row.count,
            data: row.data,
          });
        }
        const last = missed.at(-1);
        if (!last || missed.length < limit) break;
        after = { lastSeen: new Date(last.last_seen), id: last.id };
      }
      // With execution off, unattended rows wait (their guards are checked when it is on again).
      if (!config.flags.autonomyExecutionEnabled) return 0;
      const due = await transactions.system((tx) => store.dueForExecution(tx, limit));
      let executed = 0;
      for (const { tenantId, id } of due) {
        if (await execute(tenantId, id)) executed += 1;
      }
      return executed;
    },
  };
}

export type AutonomyEngine = ReturnType<typeof createAutonomyEngine>;
