import { addMs, days, hours } from '../../kernel/clock.js';
import { atMost, CLASS_POLICY, type Level, REVERSAL_WINDOW_DAYS, type ResponseClass } from './catalogue.js';
import type { Mode } from './store.js';

// The engine's decision rule and its guards (Part B 4.9), over a view of the ledger (`GuardState`): the live
// engine reads the organization's ledger and kill switches in its transaction; the drill reads the same live
// state once and adds the executions its synthetic detections would have made, without writing anything. One
// code path decides both, so the drill reports what the engine would really do.

/** Which guard held an execution (or an unattended decision) back. */
export type GuardName = 'kill_switch' | 'rate_cap' | 'spread_cap' | 'reversal_breaker';

export interface Refusal {
  guard: GuardName;
  reason: string;
}

/** What the guards read: the organization's switches and its ledger's executions and reversals. */
export interface GuardState {
  /** The kill switch that stops autonomy in this organization now (its own, else the global one), if any. */
  stop(): Promise<{ until: string | null } | undefined>;
  /** Executions of a class since `since`, and the distinct targets they touched. */
  use(responseClass: string, since: Date): Promise<{ executions: number; targets: ReadonlySet<string> }>;
  /** The latest reversal of a class at or after `since`, if any. */
  latestReversal(responseClass: string, since: Date): Promise<Date | undefined>;
}

/** Why nothing of this class may run unattended now (kill switch, reversal circuit breaker), or null. */
export async function unattendedBlocked(state: GuardState, responseClass: string, now: Date): Promise<Refusal | null> {
  const stop = await state.stop();
  if (stop) return { guard: 'kill_switch', reason: `the autonomy kill switch is engaged until ${stop.until}` };
  const reversal = await state.latestReversal(responseClass, addMs(now, -days(REVERSAL_WINDOW_DAYS)));
  if (reversal) {
    const clean = addMs(reversal, days(REVERSAL_WINDOW_DAYS)).toISOString();
    return {
      guard: 'reversal_breaker',
      reason: `a reversal on ${reversal.toISOString()} holds ${responseClass} below unattended operation until ${clean}`,
    };
  }
  return null;
}

/**
 * The guards every execution passes: kill switch, per-class rate cap (executions per hour) and spread cap
 * (distinct targets per 24 hours), and for unattended runs the reversal circuit breaker. Null: it may run.
 */
export async function guard(
  state: GuardState,
  planned: { blastClass: string; targetId: string },
  unattended: boolean,
  now: Date,
): Promise<Refusal | null> {
  const stop = await state.stop();
  if (stop) return { guard: 'kill_switch', reason: `the autonomy kill switch is engaged until ${stop.until}` };
  const cls = planned.blastClass;
  const policy = CLASS_POLICY[cls as ResponseClass];
  const hour = await state.use(cls, addMs(now, -hours(1)));
  if (hour.executions >= policy.rateCap) {
    return {
      guard: 'rate_cap',
      reason: `rate cap: ${cls} executed ${hour.executions} times in the last hour (cap ${policy.rateCap})`,
    };
  }
  const day = await state.use(cls, addMs(now, -hours(24)));
  if (!day.targets.has(planned.targetId) && day.targets.size >= policy.spreadCap) {
    return {
      guard: 'spread_cap',
      reason: `spread cap: ${cls} reached ${day.targets.size} targets in 24 hours (cap ${policy.spreadCap})`,
    };
  }
  return unattended ? unattendedBlocked(state, cls, now) : null;
}

export interface Circumstances {
  executionEnabled: boolean;
  responseClass: ResponseClass;
  level: Level;
  attackerTrippable: boolean;
  /** The action has an executor and a declared approver permission. */
  actionable: boolean;
  /** Why nothing may run unattended now (kill switch, circuit breaker), if anything. */
  unattendedBlocked: Refusal | null;
  /** The class's graduation holds (only read at level `graduated`). */
  graduated: boolean;
}

export interface Choice {
  mode: Mode;
  adjudication: 'none' | 'pending' | 'automatic';
  level: Level;
  reason: string;
  /** The guard that kept an otherwise unattended decision for a person, if one did. */
  heldBy?: GuardName;
}

/** Which mode a new decision gets (Part B 2.8, 4.9). Pure. */
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
  if (c.unattendedBlocked) {
    return { ...proposed(`held for a person: ${c.unattendedBlocked.reason}`), heldBy: c.unattendedBlocked.guard };
  }
  if (level === 'graduated' && !c.graduated) {
    return proposed(`${cls} is at graduated but has not graduated yet: a person decides`);
  }
  return { mode: 'executing', adjudication: 'automatic', level, reason: `${cls} is at ${level}: runs unattended` };
}

/** A new decision's mode, as the engine records it: the choice over the live unattended guards. */
export async function decide(
  state: GuardState,
  c: Omit<Circumstances, 'unattendedBlocked'>,
  now: Date,
): Promise<Choice> {
  // With execution off every decision is a shadow row, whatever the guards say.
  const blocked = c.executionEnabled ? await unattendedBlocked(state, c.responseClass, now) : null;
  return choose({ ...c, unattendedBlocked: blocked });
}
