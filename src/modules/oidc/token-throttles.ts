import { planOf } from '../../kernel/authz/plans.js';
import type { Clock } from '../../kernel/clock.js';
import { OAuthError } from '../../kernel/http/index.js';
import { type LimitDecision, type Limiter, type LimitPolicy, rateLimitHeaders } from '../../kernel/limits/index.js';

/**
 * The budgets of the OAuth endpoints (Part A 5.5 and 8). Each counts in fixed 5-minute windows aligned to
 * `deps.clock` (the window's index is part of the key): the kernel limiter keeps the counter, the clock says
 * which window a request falls in, so `RateLimit-Reset` and `Retry-After` name the end of that window and tests
 * move time instead of waiting. A key outlives its window (the limiter keeps it 5 minutes from its first use),
 * so a window is never cut short.
 */
export const WINDOW_SECONDS = 300;

/** The per-IP floor on /token (Part A 8, "a per-IP floor also applies"), whatever the client or the outcome. */
export const OAUTH_REQUESTS_PER_IP: LimitPolicy = { name: 'oauth-ip', points: 300, durationSeconds: WINDOW_SECONDS };
/** Failed client authentications per client id (Part A 5.5): refused with 429 before any verification. */
export const CLIENT_AUTH_FAILURES_PER_CLIENT: LimitPolicy = {
  name: 'oauth-client-auth-failures',
  points: 10,
  durationSeconds: WINDOW_SECONDS,
};
/** Failed client authentications per source IP, whichever client ids it names. */
export const CLIENT_AUTH_FAILURES_PER_IP: LimitPolicy = {
  name: 'oauth-client-auth-failures-ip',
  points: 50,
  durationSeconds: WINDOW_SECONDS,
};

/**
 * The per-client allowance on /authorize and /token of the organization's plan (Part A 8: 60 free, 600 pro,
 * 6,000 enterprise per 5 minutes), one policy per plan since a policy's budget is fixed; null when the plan
 * sets no cap. Not yet negotiable per organization (docs/oidc.md).
 */
export function clientAllowance(planCode: string): LimitPolicy | null {
  const plan = planOf(planCode);
  const points = plan.caps.oauth_client_requests_per_5min;
  if (points === null) return null;
  return { name: `oauth-client-${plan.code}`, points, durationSeconds: WINDOW_SECONDS };
}

/** Read (never spent) for an unknown client id, so its answer costs the same store round trip as a known one's. */
export const UNKNOWN_CLIENT_PEEK: LimitPolicy = clientAllowance('free')!;

/** The 429 of the OAuth endpoints: an RFC 6749 section 5.2 body with the rate-limit headers (docs/oidc.md). */
export const oauthThrottled = (decision: LimitDecision, description: string) =>
  new OAuthError('temporarily_unavailable', description, 429, rateLimitHeaders(decision));

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
    async reset(policy: LimitPolicy, key: string): Promise<void> {
      await limiter.reset(policy, `${key}@${windowOf().index}`);
    },
  };
}

export type WindowedLimiter = ReturnType<typeof createWindowedLimiter>;
