import type { Principal } from '../../kernel/auth/index.js';
import { addMs, days, hours } from '../../kernel/clock.js';
import { actionOf, CLASS_POLICY, RESPONSE_CLASSES } from './catalogue.js';
import type { AutonomyDeps } from './deps.js';
import { effectOf } from './effects.js';
import { GRADUATION_WINDOW_DAYS, graduationOf } from './graduation.js';
import * as store from './store.js';

// What the ledger says about itself (Part B 4.9): metrics and graduation (the soak drill is drill.ts).

const MODES: store.Mode[] = ['dry_run', 'shadow', 'proposed', 'denied', 'expired', 'executing', 'executed', 'reversed'];

function percentile95(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(0.95 * sorted.length) - 1)]!;
}

export function createAutonomyInsight(deps: AutonomyDeps) {
  const { transactions, clock } = deps;

  return {
    /** `GET /autonomy/metrics`: the caller's organization. */
    async metrics(principal: Principal) {
      const now = clock.now();
      const tenantId = principal.tenantId;
      return transactions.tenantRead(tenantId, async (tx) => {
        const window = await store.decisionsSince(tx, tenantId, addMs(now, -days(30)));
        const byMode = Object.fromEntries(MODES.map((mode) => [mode, 0])) as Record<store.Mode, number>;
        for (const row of window) byMode[row.mode] += 1;
        const executed = window.filter((row) => row.executedAt);
        const latencies = executed.map((row) => (row.executedAt!.getTime() - row.createdAt.getTime()) / 1000);
        const classes: Record<
          string,
          { rate_used: number; rate_cap: number; spread_used: number; spread_cap: number }
        > = {};
        for (const cls of RESPONSE_CLASSES) {
          const hour = await store.classUse(tx, tenantId, cls, addMs(now, -hours(1)));
          const day = await store.classUse(tx, tenantId, cls, addMs(now, -hours(24)));
          classes[cls] = {
            rate_used: hour.executions,
            rate_cap: CLASS_POLICY[cls].rateCap,
            spread_used: day.targets.size,
            spread_cap: CLASS_POLICY[cls].spreadCap,
          };
        }
        const pending = await store.pendingProposals(tx, tenantId);
        const oldest = pending.reduce<Date | null>(
          (min, row) => (!min || row.createdAt < min ? row.createdAt : min),
          null,
        );
        return {
          by_mode: byMode,
          execution_latency_seconds: {
            mean: latencies.length ? latencies.reduce((a, b) => a + b, 0) / latencies.length : null,
            p95: percentile95(latencies),
            executed_30d: latencies.length,
          },
          unattended_30d: executed.filter((row) => row.adjudication === 'automatic').length,
          classes,
          pending: {
            count: pending.length,
            actionable: pending.filter((row) => {
              const action = actionOf(row.actionId);
              return action.approvePermission !== null && effectOf(row.actionId).execute !== undefined;
            }).length,
            oldest_age_seconds: oldest ? Math.round((now.getTime() - oldest.getTime()) / 1000) : null,
          },
        };
      });
    },

    /** `GET /autonomy/graduation`: own organization only; no entry for disable_principal (ceiling recommend). */
    async graduation(principal: Principal) {
      const now = clock.now();
      const rows = await transactions.tenantRead(principal.tenantId, (tx) =>
        store.decisionsSince(tx, principal.tenantId, addMs(now, -days(GRADUATION_WINDOW_DAYS))),
      );
      const classes = RESPONSE_CLASSES.filter((cls) => CLASS_POLICY[cls].bar !== null);
      return {
        window_days: GRADUATION_WINDOW_DAYS,
        classes: Object.fromEntries(classes.map((cls) => [cls, graduationOf(rows, cls, now)])),
      };
    },
  };
}

export type AutonomyInsight = ReturnType<typeof createAutonomyInsight>;
