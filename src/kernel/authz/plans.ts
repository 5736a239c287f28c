/**
 * The entitlements catalogue: what each plan includes (feature codes) and allows (caps). A `null` cap is
 * unlimited. The pricing document (Part A 2.16) and `GET /entitlements` derive their features and caps from
 * here; enforcement (seat cap, monthly API quota, OAuth client allowance, agent write budget) reads the same
 * numbers, so a plan is described once.
 */
export type PlanCode = 'free' | 'pro' | 'enterprise';

export interface PlanCaps {
  /** Workforce members plus pending invitations. */
  seats: number | null;
  /** Monthly active users (customers and workforce). */
  mau: number | null;
  /** API-key-authenticated calls per calendar month (UTC), whole organization. */
  api_calls_monthly: number | null;
  /**
   * Calls to /authorize and /token per OAuth client per 5-minute window (Part A 8: 60 free, 600 pro, 6,000
   * enterprise; negotiable per organization).
   */
  oauth_client_requests_per_5min: number | null;
  /**
   * Writes each AI agent may make per rolling hour before its blast-radius breaker engages (Part B 4.2, 8: 200
   * free, 2,000 pro, 20,000 enterprise; an agent's own `write_budget_per_hour` overrides it).
   */
  agent_writes_per_hour: number;
}

export interface Plan {
  code: PlanCode;
  name: string;
  features: readonly string[];
  caps: PlanCaps;
}

const CORE = ['password_login', 'magic_link', 'totp_mfa', 'passkeys', 'api_keys', 'webhooks', 'oidc_provider'];

export const PLANS: Readonly<Record<PlanCode, Plan>> = {
  free: {
    code: 'free',
    name: 'Free',
    features: CORE,
    caps: {
      seats: 5,
      mau: 1_000,
      api_calls_monthly: 10_000,
      oauth_client_requests_per_5min: 60,
      agent_writes_per_hour: 200,
    },
  },
  pro: {
    code: 'pro',
    name: 'Pro',
    features: [...CORE, 'social_login', 'customer_signup', 'domain_join', 'ai_agents', 'audit_export'],
    caps: {
      seats: 50,
      mau: 50_000,
      api_calls_monthly: 1_000_000,
      oauth_client_requests_per_5min: 600,
      agent_writes_per_hour: 2_000,
    },
  },
  enterprise: {
    code: 'enterprise',
    name: 'Enterprise',
    features: [
      ...CORE,
      'social_login',
      'customer_signup',
      'domain_join',
      'ai_agents',
      'audit_export',
      'enterprise_sso',
      'scim',
      'autonomous_response',
    ],
    caps: {
      seats: null,
      mau: null,
      api_calls_monthly: null,
      oauth_client_requests_per_5min: 6_000,
      agent_writes_per_hour: 20_000,
    },
  },
};

export const isPlanCode = (code: string): code is PlanCode => Object.hasOwn(PLANS, code);

/** The seat cap counts workforce members and pending invitations (Part A 4.7). */
export const seatCapOf = (code: string): number | null => planOf(code).caps.seats;

/** The plan of an organization; an unknown code (a plan retired from the catalogue) falls back to free. */
export const planOf = (code: string): Plan => (isPlanCode(code) ? PLANS[code] : PLANS.free);

/** Whether an organization's plan includes a feature (a capability the plan opens, e.g. `scim`). */
export const planIncludes = (code: string | undefined, feature: string): boolean =>
  planOf(code ?? 'free').features.includes(feature);
