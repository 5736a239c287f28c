// The agents module (Part B 2.1, 2.2, 4.1, 4.2): what the app and other modules may use. Administration and
// delegations (admin-*), agent tokens and their resolver (token-*, resolver, state-*), governance of every agent
// action (governance, kill-switch, task-budget, breaker) and federated workload identity (federation-*).

export { registerAgentAdminRoutes } from './admin-routes.js';
export { type AgentAdmin, createAgentAdmin } from './admin-service.js';
export { delegationsEndWithAgent } from './delegations.js';
export { registerFederationRoutes } from './federation-routes.js';
export { createFederation, type Federation } from './federation-service.js';
export { createAgentGovernance } from './governance.js';
export {
  engageKillSwitch,
  type KillSwitchStanding,
  killSwitchStanding,
  refuseHeldTokens,
  releaseKillSwitch,
} from './kill-switch.js';
// For the MCP server (issue 24): what governance reads about an agent principal.
export type { AgentState, AgentTask } from './model.js';
export { agentsPersonalData } from './personal-data.js';
export { type AgentAttributes, createAgentTokenResolver } from './resolver.js';
export { type AgentStateCache, createAgentStateCache } from './state-cache.js';
export {
  type AgentAccessClaims,
  type AgentTokenDeps,
  type CredentialExchange,
  createCredentialExchange,
  createPlainMintRecords,
  mintAgentToken,
} from './token-mint.js';
export { AgentTokenAnswer, registerAgentTokenRoutes } from './token-routes.js';
