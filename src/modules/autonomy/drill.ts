import type { Principal } from '../../kernel/auth/index.js';
import { addMs, days } from '../../kernel/clock.js';
import { SETTINGS } from '../settings/index.js';
import {
  actionOf,
  CLASS_POLICY,
  LEVELS,
  type Level,
  RESPONSE_CLASSES,
  type ResponseClass,
  TRIGGERS,
} from './catalogue.js';
import type { AutonomyDeps } from './deps.js';
import { effectOf } from './effects.js';
import { GRADUATION_WINDOW_DAYS, graduationOf } from './graduation.js';
import { decide, type GuardName, type GuardState, guard } from './guards.js';
import type { KillSwitch } from './kill-switch.js';
import * as store from './store.js';

// The soak drill (Part B 4.9 `GET /autonomy/drill`, platform operator only). Synthetic detections of every trigger
// are replayed through the engine's own decision rule and guards (src/modules/autonomy/guards.ts) in shadow: the
// guards read the operator organization's live state (its kill switch and the global one, its executions in the
// last hour and day, its reversals of the last 30 days, its graduation), and the executions the drill would have
// made count against the caps of the detections after them, in memory. Nothing is recorded, executed or emitted:
// one read-only transaction.

/** Detections per class and level in one soak: a burst on distinct targets within the hour. */
export const SOAK_DETECTIONS = 100;

type Outcome = 'dry_run' | 'proposed' | 'executed';

export interface SoakResult {
  detections: number;
  executed: number;
  proposed: number;
  dry_run: number;
  /** Of the proposed, how many a guard held back from running unattended, by guard. */
  held_by: Record<GuardName, number>;
}

/** Live reads, each made once per drill (the instant is fixed for the whole drill). */
function cachedState(live: GuardState): GuardState {
  const memo = new Map<string, Promise<unknown>>();
  const once = <T>(key: string, read: () => Promise<T>): Promise<T> => {
    if (!memo.has(key)) memo.set(key, read());
    return memo.get(key) as Promise<T>;
  };
  return {
    stop: () => once('stop', () => live.stop()),
    use: (cls, since) => once(`use|${cls}|${since.getTime()}`, () => live.use(cls, since)),
    latestReversal: (cls, since) => once(`rev|${cls}|${since.getTime()}`, () => live.latestReversal(cls, since)),
  };
}

/** The live state plus the executions this soak would have made (all at the drill's instant, in every window). */
function shadowState(base: GuardState) {
  const executed: Array<{ cls: string; targetId: string }> = [];
  const state: GuardState = {
    stop: () => base.stop(),
    latestReversal: (cls, since) => base.latestReversal(cls, since),
    async use(cls, since) {
      const live = await base.use(cls, since);
      const own = executed.filter((run) => run.cls === cls);
      return {
        executions: live.executions + own.length,
        targets: new Set([...live.targets, ...own.map((run) => run.targetId)]),
      };
    },
  };
  return { state, record: (cls: string, targetId: string) => executed.push({ cls, targetId }) };
}

/** The levels a class accepts (Part A 2.13 ceilings), from the settings registry. */
function levelsOf(cls: ResponseClass): Level[] {
  const allowed = SETTINGS.find((setting) => setting.key === `autonomy.level_${cls}`)?.allowed;
  return LEVELS.filter((level) => !allowed || (allowed as readonly string[]).includes(level));
}

export function createDrill(deps: AutonomyDeps, killSwitch: KillSwitch) {
  const { transactions, clock, config } = deps;

  /** One synthetic detection through the engine: its recorded mode, then, if it would run, the execution guards. */
  async function replay(
    state: ReturnType<typeof shadowState>,
    input: { cls: ResponseClass; level: Level; ruleId: string; targetId: string; graduated: boolean; now: Date },
  ): Promise<{ outcome: Outcome; heldBy?: GuardName }> {
    const trigger = TRIGGERS.find((t) => t.ruleId === input.ruleId)!;
    const action = actionOf(trigger.actionId);
    const choice = await decide(
      state.state,
      {
        executionEnabled: true,
        responseClass: input.cls,
        level: input.level,
        attackerTrippable: trigger.attackerTrippable,
        actionable: action.approvePermission !== null && effectOf(action.id).execute !== undefined,
        graduated: input.graduated,
      },
      input.now,
    );
    if (choice.mode === 'dry_run') return { outcome: 'dry_run' };
    if (choice.mode !== 'executing')
      return { outcome: 'proposed', ...(choice.heldBy ? { heldBy: choice.heldBy } : {}) };
    const refusal = await guard(state.state, { blastClass: input.cls, targetId: input.targetId }, true, input.now);
    // Live, an unattended run a guard refuses goes back to a person's proposal.
    if (refusal) return { outcome: 'proposed', heldBy: refusal.guard };
    state.record(input.cls, input.targetId);
    return { outcome: 'executed' };
  }

  return {
    /** `GET /autonomy/drill`: the report, against the caller's (the platform operator's) organization. */
    async run(principal: Principal) {
      const now = clock.now();
      const tenantId = principal.tenantId;
      const global = await killSwitch.globalSwitch();
      return transactions.tenantRead(tenantId, async (tx) => {
        const base = cachedState({
          stop: () => killSwitch.engagedFor(tx, tenantId, global),
          use: (cls, since) => store.classUse(tx, tenantId, cls, since),
          latestReversal: (cls, since) => store.latestReversal(tx, tenantId, cls, since),
        });
        const ledger = await store.decisionsSince(tx, tenantId, addMs(now, -days(GRADUATION_WINDOW_DAYS)));
        const stop = await base.stop();
        const classes = [];
        for (const cls of RESPONSE_CLASSES) {
          const graduated = CLASS_POLICY[cls].bar !== null && graduationOf(ledger, cls, now).eligible;
          const triggers = TRIGGERS.filter((t) => actionOf(t.actionId).responseClass === cls);
          const levels = levelsOf(cls);
          const would = new Map(triggers.map((t) => [t.ruleId, {} as Record<string, Outcome>]));
          const soak: Record<string, SoakResult> = {};
          for (const level of levels) {
            const shadow = shadowState(base);
            const result: SoakResult = {
              detections: SOAK_DETECTIONS,
              executed: 0,
              proposed: 0,
              dry_run: 0,
              held_by: { kill_switch: 0, rate_cap: 0, spread_cap: 0, reversal_breaker: 0 },
            };
            for (let i = 0; i < SOAK_DETECTIONS; i += 1) {
              const trigger = triggers[i % triggers.length]!;
              const replayed = await replay(shadow, {
                cls,
                level,
                ruleId: trigger.ruleId,
                targetId: `drill:${trigger.target}:${i}`,
                graduated,
                now,
              });
              // A trigger's first detection: what one detection of it would do now.
              if (i < triggers.length) would.get(trigger.ruleId)![level] = replayed.outcome;
              result[replayed.outcome] += 1;
              if (replayed.heldBy) result.held_by[replayed.heldBy] += 1;
            }
            soak[level] = result;
          }
          classes.push({
            blast_class: cls,
            levels,
            graduated,
            rate_cap: CLASS_POLICY[cls].rateCap,
            spread_cap: CLASS_POLICY[cls].spreadCap,
            triggers: triggers.map((trigger) => ({
              rule_id: trigger.ruleId,
              action_id: trigger.actionId,
              attacker_trippable: trigger.attackerTrippable,
              effect: effectOf(trigger.actionId).sentence(`<${trigger.target}>`),
              would: would.get(trigger.ruleId)!,
            })),
            soak,
          });
        }
        return {
          mode: 'shadow' as const,
          execution_enabled: config.flags.autonomyExecutionEnabled,
          ran_at: now.toISOString(),
          tenant_id: tenantId,
          kill_switch: { engaged: stop !== undefined, until: stop?.until ?? null },
          detections_per_soak: SOAK_DETECTIONS,
          classes,
        };
      });
    },
  };
}

export type Drill = ReturnType<typeof createDrill>;
