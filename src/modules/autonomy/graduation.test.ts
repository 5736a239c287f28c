import { describe, expect, it } from 'vitest';
import { approvalsNeeded, graduationOf, wilsonLowerBound } from './graduation.js';
import type { DecisionRow } from './store.js';

// Graduation arithmetic (Part B 4.9, 8): the Wilson score lower bound (95 %), the approvals still needed (null
// when out of reach), and the criteria of one class from its ledger rows.

const DAY = 86_400_000;
const now = new Date('2026-06-01T00:00:00Z');

function verdict(approved: boolean, daysAgo: number, extra: Partial<DecisionRow> = {}): DecisionRow {
  const at = new Date(now.getTime() - daysAgo * DAY);
  return {
    blastClass: 'revoke_access',
    adjudication: approved ? 'approved' : 'denied',
    mode: approved ? 'executed' : 'denied',
    createdAt: at,
    decidedAt: at,
    revertedAt: null,
    ...extra,
  } as DecisionRow;
}

describe('Wilson lower bound', () => {
  it('matches the closed form for known values and is 0 with no verdict', () => {
    expect(wilsonLowerBound(0, 0)).toBe(0);
    // 10 of 10: (1 + z²/20 - z·sqrt(z²/400)) / (1 + z²/10) with z = 1.96
    expect(wilsonLowerBound(10, 10)).toBeCloseTo(0.7225, 4);
    expect(wilsonLowerBound(95, 100)).toBeCloseTo(0.8882, 3);
    expect(wilsonLowerBound(50, 100)).toBeCloseTo(0.4038, 3);
  });

  it('needs more approvals for the 0.95 bar than for 0.90, and null when out of reach', () => {
    const forNinety = approvalsNeeded(0, 0, 0.9)!;
    const forNinetyFive = approvalsNeeded(0, 0, 0.95)!;
    expect(forNinety).toBeGreaterThan(0);
    expect(forNinetyFive).toBeGreaterThan(forNinety);
    expect(wilsonLowerBound(forNinetyFive, forNinetyFive)).toBeGreaterThanOrEqual(0.95);
    expect(wilsonLowerBound(forNinetyFive - 1, forNinetyFive - 1)).toBeLessThan(0.95);
    expect(approvalsNeeded(0, 100, 0.95)).toBeNull();
  });
});

describe('graduationOf', () => {
  it('is eligible only with the bound at the bar, a 14-day span and no reversal in 30 days', () => {
    const many = Array.from({ length: 80 }, (_, i) => verdict(true, 20 - (i % 20)));
    const ok = graduationOf(many, 'revoke_access', now);
    expect(ok).toMatchObject({ eligible: true, bar: 0.95, approvals: 80, total: 80, approvals_needed: 0, unmet: [] });

    const reversed = [...many, verdict(true, 40, { mode: 'reversed', revertedAt: new Date(now.getTime() - DAY) })];
    const held = graduationOf(reversed, 'revoke_access', now);
    expect(held.eligible).toBe(false);
    expect(held.reversals_recent).toBe(1);
    expect(held.unmet.join(' ')).toContain('reversal');

    const recent = Array.from({ length: 80 }, () => verdict(true, 1));
    expect(graduationOf(recent, 'revoke_access', now).unmet.join(' ')).toContain('fewer than 14');

    const refused = Array.from({ length: 200 }, (_, i) => verdict(i < 100, i % 20));
    expect(graduationOf(refused, 'revoke_access', now)).toMatchObject({ eligible: false, approvals_needed: null });
    // Other classes' rows do not count.
    expect(graduationOf(many, 'contain_non_human', now)).toMatchObject({ total: 0, bar: 0.9, eligible: false });
  });
});
