import type { PlanCode } from '../../kernel/authz/plans.js';

/**
 * What governance reads about an agent on every request (Part B 4.2), loaded by the agent token resolver and
 * cached per node (dropped by the auth-state notifications of migration 0022 on every change to the agent, its
 * delegations, or its delegators' memberships). `principal.attributes.agent` holds it for an agent principal.
 */
export interface AgentState {
  agentId: string;
  tenantId: string;
  name: string;
  status: 'active' | 'suspended' | 'retired';
  oversightMode: 'autonomous' | 'supervised';
  /** 0-100. */
  riskCeiling: number;
  /** 0-1. */
  confidenceFloor: number;
  /** Writes per rolling hour before the blast-radius breaker engages: the agent's own, else the plan's. */
  writeBudgetPerHour: number;
  plan: PlanCode;
  killSwitchEngaged: boolean;
  killSwitchReason: string | null;
  tokenEpoch: number;
  credentialIssuedAt: Date;
  /**
   * The agent's authority: the union of its live delegations, each bounded by its delegator's current
   * permissions (an owner delegator: everything delegated; a removed or suspended delegator: nothing).
   */
  authority: ReadonlySet<string>;
}

/** A task token's scope and budget (Part B 4.1); `principal.attributes.task` of an agent principal, if any. */
export interface AgentTask {
  id: string;
  task: string;
  /** The concrete permission codes the task may use (patterns expanded at mint). */
  permissions: readonly string[];
  budget: number;
}

/** The answer of `POST /agents/token` and `POST /agents/token/federated` (Part B 2.1). */
export interface AgentTokenResponse {
  access_token: string;
  token_type: 'Bearer' | 'DPoP';
  expires_in: number;
  agent_id: string;
  task?: { id: string; task: string; permissions: string[]; budget: number };
}

/** Agent access tokens live 15 minutes and have no refresh token (Part B 5.3). */
export const AGENT_TOKEN_TTL_SECONDS = 900;
