import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '../../kernel/auth/index.js';
import type { PlanCode } from '../../kernel/authz/plans.js';
import { HttpError } from '../../kernel/http/index.js';
import { type LimitDecision, type Limiter, type LimitPolicy, rateLimitHeaders } from '../../kernel/limits/index.js';
import type { AgentState } from '../agents/index.js';

// MCP throttles (Part B 8): per source host, per organization and per agent, every JSON-RPC message counted (a
// batch spends one point per message), on the first-party server and the gateway alike. They fail closed: a store
// that cannot answer refuses with 429 and a short Retry-After (Part A 8). The per-agent and per-organization
// budgets follow the organization's plan; the source host's is one figure for everyone.

const MINUTE = 60;

/** Messages per minute per agent, by plan. */
export const MCP_AGENT_PER_MINUTE: Readonly<Record<PlanCode, LimitPolicy>> = {
  free: { name: 'mcp-agent-free', points: 600, durationSeconds: MINUTE },
  pro: { name: 'mcp-agent-pro', points: 6_000, durationSeconds: MINUTE },
  enterprise: { name: 'mcp-agent-enterprise', points: 60_000, durationSeconds: MINUTE },
};

/** Messages per minute per organization (all its agents), by plan. */
export const MCP_ORGANIZATION_PER_MINUTE: Readonly<Record<PlanCode, LimitPolicy>> = {
  free: { name: 'mcp-org-free', points: 3_000, durationSeconds: MINUTE },
  pro: { name: 'mcp-org-pro', points: 30_000, durationSeconds: MINUTE },
  enterprise: { name: 'mcp-org-enterprise', points: 300_000, durationSeconds: MINUTE },
};

/** Messages per minute per source address, before the caller is known. */
export const MCP_SOURCE_HOST_PER_MINUTE: LimitPolicy = {
  name: 'mcp-source-host',
  points: 3_000,
  durationSeconds: MINUTE,
};

function refuse(decision: LimitDecision): never {
  throw new HttpError(429, 'Too many requests', rateLimitHeaders(decision));
}

export function createMcpThrottles(limiter: Limiter) {
  /**
   * Spends `frames` from each budget; any refusal answers 429 with its headers (the tightest budget's headers
   * otherwise). The budgets are spent together: one round trip to a Redis store (auto-pipelined), and every frame
   * counts against each of them whichever refuses.
   */
  async function spend(budgets: Array<[LimitPolicy, string]>, reply: FastifyReply, frames: number) {
    const decisions = await Promise.all(budgets.map(([policy, key]) => limiter.consume(policy, key, frames)));
    let tightest: LimitDecision | undefined;
    for (const decision of decisions) {
      if (!decision.allowed) refuse(decision);
      if (!tightest || decision.remaining < tightest.remaining) tightest = decision;
    }
    if (tightest) reply.headers(rateLimitHeaders(tightest));
  }

  return {
    beforeAuthentication: (request: FastifyRequest, reply: FastifyReply, frames: number) =>
      spend([[MCP_SOURCE_HOST_PER_MINUTE, request.ip]], reply, frames),
    ofAgent(principal: Principal, reply: FastifyReply, frames: number) {
      const agent = principal.attributes.agent as AgentState;
      return spend(
        [
          [MCP_ORGANIZATION_PER_MINUTE[agent.plan], agent.tenantId],
          [MCP_AGENT_PER_MINUTE[agent.plan], `${agent.tenantId}:${agent.agentId}`],
        ],
        reply,
        frames,
      );
    },
  };
}
