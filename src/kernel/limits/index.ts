export { enforce, rateLimitHeaders, throttled } from './headers.js';
export {
  createLimiter,
  type LimitDecision,
  type Limiter,
  type LimiterLogger,
  type LimiterOptions,
  type LimitPolicy,
  UNAVAILABLE_RETRY_AFTER_SECONDS,
} from './limiter.js';
