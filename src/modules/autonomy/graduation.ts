import { days } from '../../kernel/clock.js';
import {
  actionOf,
  CLASS_POLICY,
  MIN_SPAN_DAYS,
  REVERSAL_WINDOW_DAYS,
  type ResponseClass,
  TRIGGERS,
} from './catalogue.js';
import type { DecisionRow } from './store.js';

// Graduation (Part B 4.9, 8): a class at level `graduated` runs unattended only once people have approved its
// proposals often enough that the Wilson score lower bound of the approval rate (95 %) reaches the class's bar
// (0.90 contain_non_human, 0.95 revoke_access), over at least MIN_SPAN_DAYS of verdicts, with no reversal in the
// trailing 30 days. A reversal of an unattended run counts as a failed verdict.

export const GRADUATION_WINDOW_DAYS = 90;
const Z = 1.96;
/** Beyond this many further approvals a bar is called unreachable (`approvals_needed` null). */
const REACHABLE_WITHIN = 1000;

/** Lower bound of the Wilson score interval for `successes` of `total` (0 when nothing was decided). */
export function wilsonLowerBound(successes: number, total: number): number {
  if (total === 0) return 0;
  const p = successes / total;
  const z2 = Z * Z;
  const centre = p + z2 / (2 * total);
  const margin = Z * Math.sqrt((p * (1 - p)) / total + z2 / (4 * total * total));
  return (centre - margin) / (1 + z2 / total);
}

export interface Graduation {
  eligible: boolean;
  bar: number;
  lower_bound: number;
  approvals: number;
  total: number;
  span_days: number;
  min_days: number;
  reversals_recent: number;
  catalogue: string[];
  unmet: string[];
  approvals_needed: number | null;
}

/** Further consecutive approvals that would lift the lower bound to the bar; null when out of reach. */
export function approvalsNeeded(approvals: number, total: number, bar: number): number | null {
  for (let more = 0; more <= REACHABLE_WITHIN; more += 1) {
    if (wilsonLowerBound(approvals + more, total + more) >= bar) return more;
  }
  return null;
}

/** One class's graduation from the decisions of the window (any order: nothing here depends on row order). */
export function graduationOf(rows: readonly DecisionRow[], responseClass: ResponseClass, now: Date): Graduation {
  const bar = CLASS_POLICY[responseClass].bar ?? 1;
  const own = rows.filter((row) => row.blastClass === responseClass);
  const verdicts = own.filter((row) => row.adjudication === 'approved' || row.adjudication === 'denied');
  const reversedUnattended = own.filter((row) => row.adjudication === 'automatic' && row.mode === 'reversed');
  const approvals = verdicts.filter((row) => row.adjudication === 'approved' && row.mode !== 'reversed').length;
  const total = verdicts.length + reversedUnattended.length;
  const instants = verdicts.map((row) => (row.decidedAt ?? row.createdAt).getTime());
  const spanDays = instants.length > 1 ? Math.floor((Math.max(...instants) - Math.min(...instants)) / days(1)) : 0;
  const reversalsRecent = own.filter(
    (row) => row.revertedAt && now.getTime() - row.revertedAt.getTime() < days(REVERSAL_WINDOW_DAYS),
  ).length;
  const lowerBound = wilsonLowerBound(approvals, total);
  const unmet: string[] = [];
  if (lowerBound < bar) unmet.push(`lower_bound ${lowerBound.toFixed(3)} is below the bar ${bar}`);
  if (spanDays < MIN_SPAN_DAYS) unmet.push(`verdicts span ${spanDays} days, fewer than ${MIN_SPAN_DAYS}`);
  if (reversalsRecent > 0) unmet.push(`${reversalsRecent} reversal(s) in the last ${REVERSAL_WINDOW_DAYS} days`);
  return {
    eligible: unmet.length === 0,
    bar,
    lower_bound: Math.round(lowerBound * 10_000) / 10_000,
    approvals,
    total,
    span_days: spanDays,
    min_days: MIN_SPAN_DAYS,
    reversals_recent: reversalsRecent,
    catalogue: TRIGGERS.filter((t) => actionOf(t.actionId).responseClass === responseClass).map((t) => t.ruleId),
    unmet,
    approvals_needed: approvalsNeeded(approvals, total, bar),
  };
}
