import { planOf } from '../../kernel/authz/plans.js';
import type { Clock } from '../../kernel/clock.js';
import { OAuthError } from '../../kernel/http/index.js';
import { type LimitDecision, type Limiter, type LimitPolicy, rateLimitHeaders } from '../../kernel/limits/index.js';
import { operatorSettingValue } from '../operator-settings/index.js';

/**
 * The budgets of the OAuth endpoints (Part A 5.5 and 8). Each counts in fixed 5-minute windows aligned to
 * `deps.clock` (the window's index is part of the key): the kernel limiter keeps the counter, the clock says
 * which window a request falls in, so `RateLimit-Reset` and `Retry-After` name the end of that window and tests
 * move time instead of waiting. A key outlives its window (the limiter keeps it 5 minutes from its first use),
 * so a window is never cut short.
 */
export const WINDOW_SECONDS = 300;

/**
 * The per-IP floor on /token (Part A 8, "a per-IP floor also applies"). It counts unauthenticated traffic only:
 * a request spends a unit first, and gives it back once its client authenticates, so what is left counted is
 * every request that failed client authentication or named no known client (or never got that far). An
 * authenticated client is held to its plan's allowance instead, which may be far above the floor (6,000 for
 * enterprise) even when all its requests come from one server.
 */
export const OAUTH_REQUESTS_PER_IP: LimitPolicy = { name: 'oauth-ip', points: 300, durationSeconds: WINDOW_SECONDS };

/**
 * The per-IP floor on /authorize (Part A 8). Every request counts (a browser authenticates no client), so it
 * is wider than the token endpoint's: people behind one address (an office) each sign in through it. It is
 * its own budget, so a server's token traffic never closes its users' authorizations.
 */
export const AUTHORIZE_REQUESTS_PER_IP: LimitPolicy = {
  name: 'oauth-authorize-ip',
  points: 1200,
  durationSeconds: WINDOW_SECONDS,
};
/**
 * Failed client authentications per client id AND source IP (Part A 5.5): refused with 429 before any
 * verification. Per client id alone, anyone could lock a client out for everyone by failing ten times, since
 * client ids are not secret; per pair, an attacker's address locks out only itself. Guessing from many addresses
 * is bounded by the per-address budget below and the secret's 256 bits; a client-wide alert level is not
 * implemented (docs/oidc.md).
 */
export const CLIENT_AUTH_FAILURES_PER_CLIENT_IP: LimitPolicy = {
  name: 'oauth-client-ip-auth-failures',
  points: 10,
  durationSeconds: WINDOW_SECONDS,
};
/** Failed client authentications per source IP, whichever client ids it names. */
export const CLIENT_AUTH_FAILURES_PER_IP: LimitPolicy = {
  name: 'oauth-client-auth-failures-ip',
  points: 50,
  durationSeconds: WINDOW_SECONDS,
};

/** The key of the per-client-and-address failure budget (the limiter stores only its digest). */
export const clientAddressKey = (clientId: string, ip: string) => `${clientId}|${ip}`;

/** The operator setting that negotiates an organization's per-client allowance (Part A 8). */
export const NEGOTIATED_ALLOWANCE = 'oauth.client_requests_per_5min' as const;

/**
 * The per-client allowance on /authorize and /token (Part A 8): the one an operator negotiated for the
 * organization, else its plan's (60 free, 600 pro, 6,000 enterprise per 5 minutes); one policy per value since
 * a policy's budget is fixed; null when the plan sets no cap. A malformed negotiated value answers 503.
 */
export function clientAllowance(client: { plan: string; negotiatedAllowance: unknown }): LimitPolicy | null {
  const negotiated = operatorSettingValue(NEGOTIATED_ALLOWANCE, client.negotiatedAllowance);
  if (negotiated > 0) {
    return { name: `oauth-client-negotiated-${negotiated}`, points: negotiated, durationSeconds: WINDOW_SECONDS };
  }
  const plan = planOf(client.plan);
  const points = plan.caps.oauth_client_requests_per_5min;
  if (points === null) return null;
  return { name: `oauth-client-${plan.code}`, points, durationSeconds: WINDOW_SECONDS };
}

/** The 429 of the OAuth endpoints: an RFC 6749 section 5.2 body with the rate-limit headers (docs/oidc.md). */
export const oauthThrottled = (decision: LimitDecision, description: string) =>
  new OAuthError('temporarily_unavailable', description, 429, rateLimitHeaders(decision));

/** A unit spent from a budget, pending the request's outcome. */
export interface Spent {
  decision: LimitDecision;
  /** Best effort, like the kernel's `reward`: a failure leaves the counter higher, which only throttles more. */
  giveBack(): Promise<void>;
}

export function createWindowedLimiter(limiter: Limiter, clock: Clock) {
  const windowOf = () => {
    const nowMs = clock.now().getTime();
    const lengthMs = WINDOW_SECONDS * 1000;
    const index = Math.floor(nowMs / lengthMs);
    return { index, endsInSeconds: Math.max(1, Math.ceil(((index + 1) * lengthMs - nowMs) / 1000)) };
  };
  /** The limiter's decision with its reset taken from the clock's window (unknown counts stay as they are). */
  const aligned = (decision: LimitDecision, endsInSeconds: number): LimitDecision =>
    decision.unavailable
      ? decision
      : {
          ...decision,
          resetSeconds: endsInSeconds,
          retryAfterSeconds: decision.allowed ? 0 : endsInSeconds,
        };
  return {
    async consume(policy: LimitPolicy, key: string): Promise<LimitDecision> {
      const { index, endsInSeconds } = windowOf();
      return aligned(await limiter.consume(policy, `${key}@${index}`), endsInSeconds);
    },
    async peek(policy: LimitPolicy, key: string): Promise<LimitDecision> {
      const { index, endsInSeconds } = windowOf();
      return aligned(await limiter.peek(policy, `${key}@${index}`), endsInSeconds);
    },
    /** Several budgets of the current window in one round trip to the store. */
    async peekMany(budgets: ReadonlyArray<{ policy: LimitPolicy; key: string }>): Promise<LimitDecision[]> {
      const { index, endsInSeconds } = windowOf();
      const decisions = await limiter.peekMany(budgets.map(({ policy, key }) => ({ policy, key: `${key}@${index}` })));
      return decisions.map((decision) => aligned(decision, endsInSeconds));
    },
    /**
     * Spends a unit like `consume`, with a way to give it back to the window it was spent in (a request may end
     * after its window did; the kernel never gives back more than the key spent).
     */
    async spend(policy: LimitPolicy, key: string): Promise<Spent> {
      const { index, endsInSeconds } = windowOf();
      const windowKey = `${key}@${index}`;
      const decision = aligned(await limiter.consume(policy, windowKey), endsInSeconds);
      return { decision, giveBack: () => limiter.reward(policy, windowKey) };
    },
  };
}

export type WindowedLimiter = ReturnType<typeof createWindowedLimiter>;
