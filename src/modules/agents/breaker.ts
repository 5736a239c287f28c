import type { LimitDecision, Limiter, LimitPolicy } from '../../kernel/limits/index.js';

/**
 * The blast-radius breaker's counters (Part B 4.2, 8): each agent's writes and refusals per hour, kept by the
 * kernel limiter (Redis when configured, so every node counts into the same window). One policy per counter with
 * a ceiling nobody reaches: the limit that matters differs per agent (its plan's or its own write budget), so
 * the breaker reads how many were counted and compares it itself.
 */
const UNREACHED = 1_000_000_000;
export const AGENT_WRITES: LimitPolicy = { name: 'agent-breaker-writes', points: UNREACHED, durationSeconds: 3600 };
export const AGENT_REFUSALS: LimitPolicy = { name: 'agent-breaker-refusals', points: UNREACHED, durationSeconds: 3600 };
/** Refused actions an agent may collect in an hour before the breaker stops it ("about 50", Part B 8). */
export const REFUSAL_ALLOWANCE = 50;

export type BreakerCount =
  /** Counted and within the allowance. */
  | { tripped: false; unavailable: false }
  /** Counted, and this one is past the allowance: the breaker stops the agent. */
  | { tripped: true; unavailable: false; counted: number }
  /** The store could not count: fail closed (a write is refused with the limiter's 429), nothing tripped. */
  | { tripped: false; unavailable: true; decision: LimitDecision };

const keyOf = (tenantId: string, agentId: string) => `${tenantId}:${agentId}`;

export function createBreaker(limiter: Limiter) {
  async function count(policy: LimitPolicy, key: string, allowance: number): Promise<BreakerCount> {
    const decision = await limiter.consume(policy, key);
    if (decision.unavailable) return { tripped: false, unavailable: true, decision };
    const counted = decision.limit - decision.remaining;
    return counted > allowance
      ? { tripped: true, unavailable: false, counted }
      : { tripped: false, unavailable: false };
  }
  return {
    /** One write of an authorized, state-changing action; past `budget` in the hour it trips. */
    countWrite: (agent: { tenantId: string; agentId: string }, budget: number) =>
      count(AGENT_WRITES, keyOf(agent.tenantId, agent.agentId), budget),
    /** A write counted by a request that was refused after all (by a later check) is given back. */
    giveBackWrite: (agent: { tenantId: string; agentId: string }) =>
      limiter.reward(AGENT_WRITES, keyOf(agent.tenantId, agent.agentId)),
    /** One refused action; past the refusal allowance in the hour it trips. */
    countRefusal: (agent: { tenantId: string; agentId: string }) =>
      count(AGENT_REFUSALS, keyOf(agent.tenantId, agent.agentId), REFUSAL_ALLOWANCE),
  };
}

export type Breaker = ReturnType<typeof createBreaker>;

/**
 * A person released the kill switch: the agent starts a fresh hour, or its next write would trip the breaker
 * again at once. Best effort, like every limiter reset.
 */
export async function resetBreaker(limiter: Limiter, tenantId: string, agentId: string): Promise<void> {
  await Promise.all([
    limiter.reset(AGENT_WRITES, keyOf(tenantId, agentId)),
    limiter.reset(AGENT_REFUSALS, keyOf(tenantId, agentId)),
  ]);
}
