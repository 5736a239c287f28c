// The agents module (Part B 2.1, 2.2, 4.1, 4.2): what the app and other modules may use. Each part adds its exports.

export { registerAgentAdminRoutes } from './admin-routes.js';
// Administration and delegations (people only).
export { type AgentAdmin, createAgentAdmin } from './admin-service.js';
export { registerFederationRoutes } from './federation-routes.js';
// Federated workload identity: trusted issuers, their bindings and the federated exchange.
export { createFederation, type Federation } from './federation-service.js';
// Governance of every agent action (the guard's checks), the kill switch, the task budget and the breaker.
export { createAgentGovernance } from './governance.js';
export { engageKillSwitch, releaseKillSwitch } from './kill-switch.js';
// Agent tokens: the credential mint, the one mint path (federation uses it too), the resolver and the state cache.
export { type AgentAttributes, createAgentTokenResolver } from './resolver.js';
export { type AgentStateCache, createAgentStateCache } from './state-cache.js';
export {
  type AgentAccessClaims,
  type AgentTokenDeps,
  type CredentialExchange,
  createCredentialExchange,
  mintAgentToken,
} from './token-mint.js';
export { AgentTokenAnswer, registerAgentTokenRoutes } from './token-routes.js';
