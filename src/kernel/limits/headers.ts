import { HttpError } from '../http/errors.js';
import { type LimitDecision, type Limiter, type LimitPolicy, UNAVAILABLE_RETRY_AFTER_SECONDS } from './limiter.js';

/**
 * Rate-limit headers of a decision (draft-ietf-httpapi-ratelimit-headers fields, RFC 9110 `Retry-After`).
 * A throttled decision carries all four; an allowed one the three `RateLimit-*`; when the store could not
 * answer, only a fixed short `Retry-After`, since no counts are known (Part A section 8).
 */
export function rateLimitHeaders(decision: LimitDecision): Record<string, string> {
  if (decision.unavailable) return { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS) };
  const headers: Record<string, string> = {
    'RateLimit-Limit': String(decision.limit),
    'RateLimit-Remaining': String(decision.remaining),
    'RateLimit-Reset': String(decision.resetSeconds),
  };
  if (!decision.allowed) headers['Retry-After'] = String(Math.max(1, decision.retryAfterSeconds));
  return headers;
}

/** The 429 answer of a refused decision. */
export function throttled(decision: LimitDecision): HttpError {
  return new HttpError(429, 'Too many requests', rateLimitHeaders(decision));
}

/** Spends from the budget and throws the 429 when refused (throttled or store unavailable: fail closed). */
export async function enforce(limiter: Limiter, policy: LimitPolicy, key: string, points = 1): Promise<LimitDecision> {
  const decision = await limiter.consume(policy, key, points);
  if (!decision.allowed) throw throttled(decision);
  return decision;
}
