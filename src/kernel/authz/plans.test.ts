import { describe, expect, it } from 'vitest';
import { isPlanCode, PLANS, type PlanCode, planIncludes, planOf, seatCapOf } from './plans.js';

const CODES: PlanCode[] = ['free', 'pro', 'enterprise'];

describe('plan resolution', () => {
  it('knows exactly free, pro and enterprise', () => {
    for (const code of CODES) expect(isPlanCode(code), code).toBe(true);
    expect(isPlanCode('Free')).toBe(false);
    expect(isPlanCode('')).toBe(false);
  });

  it('does not take an inherited property for a plan', () => {
    for (const code of ['toString', 'constructor', '__proto__', 'hasOwnProperty']) {
      expect(isPlanCode(code), code).toBe(false);
      expect(planOf(code).code, code).toBe('free');
    }
  });

  it('falls back to free for a retired or unknown plan', () => {
    expect(planOf('platinum')).toBe(PLANS.free);
    expect(planOf('')).toBe(PLANS.free);
    expect(planOf('enterprise')).toBe(PLANS.enterprise);
  });
});

describe('caps', () => {
  it('caps seats at 5, 50 and none', () => {
    expect(seatCapOf('free')).toBe(5);
    expect(seatCapOf('pro')).toBe(50);
    expect(seatCapOf('enterprise')).toBeNull();
    expect(seatCapOf('retired-plan')).toBe(5);
  });

  it('allows 60, 600 and 6,000 OAuth client requests per 5 minutes (Part A 8)', () => {
    expect(CODES.map((code) => planOf(code).caps.oauth_client_requests_per_5min)).toEqual([60, 600, 6_000]);
  });

  it('never gives a higher plan a lower cap (null is unlimited)', () => {
    const rank = (cap: number | null) => cap ?? Number.POSITIVE_INFINITY;
    for (const [lower, higher] of [
      ['free', 'pro'],
      ['pro', 'enterprise'],
    ] as const) {
      for (const [name, cap] of Object.entries(PLANS[lower].caps)) {
        const higherCap = PLANS[higher].caps[name as keyof typeof PLANS.free.caps];
        expect(rank(higherCap), `${higher}.${name}`).toBeGreaterThan(rank(cap));
      }
    }
  });
});

describe('features', () => {
  it('includes every lower plan’s features in the higher one', () => {
    for (const feature of PLANS.free.features) expect(PLANS.pro.features, feature).toContain(feature);
    for (const feature of PLANS.pro.features) expect(PLANS.enterprise.features, feature).toContain(feature);
  });

  it('opens enterprise SSO, SCIM and autonomous response only on enterprise', () => {
    for (const feature of ['enterprise_sso', 'scim', 'autonomous_response']) {
      expect(
        CODES.filter((code) => planIncludes(code, feature)),
        feature,
      ).toEqual(['enterprise']);
    }
  });

  it('opens social login and AI agents from pro up', () => {
    for (const feature of ['social_login', 'ai_agents', 'customer_signup']) {
      expect(
        CODES.filter((code) => planIncludes(code, feature)),
        feature,
      ).toEqual(['pro', 'enterprise']);
    }
  });

  it('reads no plan, or an unknown one, as free', () => {
    expect(planIncludes(undefined, 'password_login')).toBe(true);
    expect(planIncludes(undefined, 'social_login')).toBe(false);
    expect(planIncludes('retired-plan', 'scim')).toBe(false);
    expect(planIncludes('enterprise', 'no_such_feature')).toBe(false);
  });
});
