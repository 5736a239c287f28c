import { addMs, days, hours } from '../../kernel/clock.js';
import type { Tx } from '../../kernel/db/index.js';
import type { Actor, RaisedDetection } from '../../kernel/events/index.js';
import { newId } from '../../kernel/ids.js';
import {
  actionOf,
  atMost,
  CLASS_POLICY,
  type Level,
  REVERSAL_WINDOW_DAYS,
  type ResponseClass,
  TRIGGERS,
  triggerOf,
} from './catalogue.js';
import type { AutonomyDeps } from './deps.js';
import { effectOf, targetOfDetection, worldFingerprint } from './effects.js';
import { GRADUATION_WINDOW_DAYS, graduationOf } from './graduation.js';
import type { KillSwitch } from './kill-switch.js';
import * as store from './store.js';

// The engine (Part B 1.7, 4.9): a detection comes in (the kernel's one detection hook, after commit), the engine
// records one decision for it (idempotent per detection group occurrence) at the mode its class level, the
// switches and the guards allow; `executing` rows are executed by the worker (SKIP LOCKED) or, right after a
// person's approval, by that request, through the same `execute`.

export interface Circumstances {
  executionEnabled: boolean;
  responseClass: ResponseClass;
  level: Level;
  attackerTrippable: boolean;
  /** The action has an executor and a declared approver permission. */
  actionable: boolean;
  /** Why nothing may run unattended now (kill switch, circuit breaker), if anything. */
  unattendedBlocked: string | null;
  /** The class's graduation holds (only read at level `graduated`). */
  graduated: boolean;
}

export interface Choice {
  mode: store.Mode;
  adjudication: 'none' | 'pending' | 'automatic';
  level: Level;
  reason: string;
}

/** Which mode a new decision gets (Part B 2.8, 4.9). Pure: the drill replays it too. */
export function choose(c: Circumstances): Choice {
  const level = c.attackerTrippable ? atMost(c.level, 'recommend') : c.level;
  const cls = c.responseClass;
  if (!c.executionEnabled) {
    return {
      mode: 'shadow',
      adjudication: 'none',
      level,
      reason: `execution is off (AUTONOMY_EXECUTION_ENABLED): recorded what ${cls} at ${level} would have done`,
    };
  }
  if (level === 'manual') {
    return { mode: 'dry_run', adjudication: 'none', level, reason: `${cls} is at manual: recorded, nothing proposed` };
  }
  const proposed = (reason: string): Choice => ({ mode: 'proposed', adjudication: 'pending', level, reason });
  if (c.attackerTrippable && c.level !== level) {
    return proposed('the detection can be tripped on purpose by someone else: held at recommend, a person decides');
  }
  if (!c.actionable) return proposed('a recommendation: this action has no declared approver permission');
  if (level === 'recommend') return proposed(`${cls} is at recommend: a person decides`);
  if (c.unattendedBlocked) return proposed(`held for a person: ${c.unattendedBlocked}`);
  if (level === 'graduated' && !c.graduated) {
    return proposed(`${cls} is at graduated but has not graduated yet: a person decides`);
  }
  return { mode: 'executing', adjudication: 'automatic', level, reason: `${cls} is at ${level}: runs unattended` };
}

export function createAutonomyEngine(deps: AutonomyDeps, killSwitch: KillSwitch) {
  const { transactions, events, clock, settings, config } = deps;
  const effectDeps = { events, clock, limiter: deps.limiter, sessions: deps.sessions };

  /** Why nothing of this class may run unattended now, or null. */
  async function unattendedBlocked(
    tx: Tx,
    tenantId: string,
    responseClass: string,
    global: Awaited<ReturnType<KillSwitch['globalSwitch']>>,
  ): Promise<string | null> {
    const stop = await killSwitch.engagedFor(tx, tenantId, global);
    if (stop) return `the autonomy kill switch is engaged until ${stop.until}`;
    const now = clock.now();
    const reversal = await store.latestReversal(tx, tenantId, responseClass, addMs(now, -days(REVERSAL_WINDOW_DAYS)));
    if (reversal) {
      const clean = addMs(reversal, days(REVERSAL_WINDOW_DAYS)).toISOString();
      return `a reversal on ${reversal.toISOString()} holds ${responseClass} below unattended operation until ${clean}`;
    }
    return null;
  }

  /** The guards every execution passes (Part B 4.9): kill switch, rate and spread caps, and for unattended runs
   * the reversal circuit breaker. A refusal says why. */
  async function guard(
    tx: Tx,
    row: store.DecisionRow,
    unattended: boolean,
    global: Awaited<ReturnType<KillSwitch['globalSwitch']>>,
  ): Promise<string | null> {
    const stop = await killSwitch.engagedFor(tx, row.tenantId, global);
    if (stop) return `the autonomy kill switch is engaged until ${stop.until}`;
    await store.lockClass(tx, row.tenantId, row.blastClass);
    const policy = CLASS_POLICY[row.blastClass as ResponseClass];
    const now = clock.now();
    const hour = await store.classUse(tx, row.tenantId, row.blastClass, addMs(now, -hours(1)));
    if (hour.executions >= policy.rateCap) {
      return `rate cap: ${row.blastClass} executed ${hour.executions} times in the last hour (cap ${policy.rateCap})`;
    }
    const day = await store.classUse(tx, row.tenantId, row.blastClass, addMs(now, -hours(24)));
    if (!day.targets.has(row.targetId) && day.targets.size >= policy.spreadCap) {
      return `spread cap: ${row.blastClass} reached ${day.targets.size} targets in 24 hours (cap ${policy.spreadCap})`;
    }
    if (unattended) return unattendedBlocked(tx, row.tenantId, row.blastClass, undefined);
    return null;
  }

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
      const choice = choose({
        executionEnabled: config.flags.autonomyExecutionEnabled,
        responseClass: action.responseClass,
        level,
        attackerTrippable: trigger.attackerTrippable,
        actionable: action.approvePermission !== null && effect.execute !== undefined,
        unattendedBlocked: await unattendedBlocked(tx, tenantId, action.responseClass, global),
        graduated,
      });
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
      let refusal = await guard(tx, row, unattended, global);
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
      const missed = await transactions.system((tx) =>
        store.detectionsWithoutDecision(
          tx,
          TRIGGERS.map((trigger) => trigger.ruleId),
          since,
          limit,
        ),
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
