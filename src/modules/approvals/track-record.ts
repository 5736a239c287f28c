// An agent's earned-autonomy evidence (Part B 4.3, `GET /approvals/content/track-record/{agent_id}`): how its
// content asks were decided, the Wilson score lower bound of its approval rate, and reversals of its published
// content. Pure arithmetic and the bar; the counts come from content-store.ts.

/** The bar an agent's content record must clear (docs/approvals.md, "Content approvals"). */
export const EARNED_AUTONOMY_BAR = {
  /** The Wilson lower bound of the approval rate must reach this. */
  lowerBound: 0.9,
  /** At least this many decided asks (approved or denied) before the record says anything. */
  minDecided: 20,
  /** No reversal of published content within the window. */
  maxReversals: 0,
  reversalWindowDays: 30,
  /** Confidence of the interval: 95 %, z = 1.96. */
  confidence: 0.95,
  z: 1.96,
} as const;

/**
 * The lower end of the Wilson score interval (E. B. Wilson, 1927) of a proportion: `successes` out of `trials`
 * at normal quantile `z`. With no trials the interval is all of [0, 1], so the bound is 0.
 */
export function wilsonLowerBound(successes: number, trials: number, z: number = EARNED_AUTONOMY_BAR.z): number {
  if (trials <= 0) return 0;
  const p = successes / trials;
  const z2 = z * z;
  const centre = p + z2 / (2 * trials);
  const margin = z * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials));
  return Math.max(0, (centre - margin) / (1 + z2 / trials));
}

export type Criterion = 'min_decided' | 'lower_bound' | 'reversals_30d';

export interface TrackRecord {
  agent_id: string;
  decided: number;
  approvals: number;
  denials: number;
  approval_rate: number | null;
  lower_bound: number;
  bar: number;
  min_decided: number;
  confidence: number;
  reversals_30d: number;
  eligible: boolean;
  unmet: Array<{ criterion: Criterion; detail: string }>;
}

/** The record of an agent from its counts: every criterion of the bar it does not meet is listed in `unmet`. */
export function trackRecordOf(agentId: string, counts: { approvals: number; denials: number; reversals: number }) {
  const bar = EARNED_AUTONOMY_BAR;
  const { approvals, denials, reversals } = counts;
  const decided = approvals + denials;
  const lowerBound = wilsonLowerBound(approvals, decided);
  const unmet: TrackRecord['unmet'] = [];
  if (decided < bar.minDecided) {
    unmet.push({
      criterion: 'min_decided',
      detail: `${decided} decided asks; at least ${bar.minDecided} are needed`,
    });
  }
  if (lowerBound < bar.lowerBound) {
    unmet.push({
      criterion: 'lower_bound',
      detail: `the approval rate's lower bound ${lowerBound.toFixed(4)} is under the bar of ${bar.lowerBound}`,
    });
  }
  if (reversals > bar.maxReversals) {
    unmet.push({
      criterion: 'reversals_30d',
      detail: `${reversals} published content pulled in the last ${bar.reversalWindowDays} days; at most ${bar.maxReversals} allowed`,
    });
  }
  const record: TrackRecord = {
    agent_id: agentId,
    decided,
    approvals,
    denials,
    approval_rate: decided === 0 ? null : approvals / decided,
    lower_bound: lowerBound,
    bar: bar.lowerBound,
    min_decided: bar.minDecided,
    confidence: bar.confidence,
    reversals_30d: reversals,
    eligible: unmet.length === 0,
    unmet,
  };
  return record;
}
