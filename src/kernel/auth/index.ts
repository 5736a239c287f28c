export {
  ACCESS_TOKEN_AUDIENCE,
  ACCESS_TOKEN_ISSUER,
  type AccessClaims,
  type AccessTokens,
  createAccessTokens,
} from './access-tokens.js';
export {
  createDpopVerifier,
  DPOP_ALGORITHMS,
  DPOP_IAT_WINDOW_SECONDS,
  type DpopCheck,
  DpopError,
  type DpopProof,
  type DpopVerifier,
  dpopRefused,
} from './dpop.js';
export {
  type Governance,
  type GovernanceCheck,
  type GovernedAction,
  type RefusalListener,
  runChecks,
} from './governance.js';
export {
  type AuthPolicy,
  admitsAgents,
  type CredentialResolver,
  NOT_AGENTS,
  type PresentedCredential,
  principalOf,
  type RoutePolicy,
  readCredential,
  registerGuard,
  routePolicies,
} from './guard.js';
export { hasPermission, type Population, type Principal, type PrincipalKind } from './principal.js';
export {
  AUTH_STATE_CHANNEL,
  type AuthStateCache,
  type AuthStateListener,
  CATCH_UP_LEASE_MS,
  createAuthStateCache,
  createAuthStateListener,
} from './state-cache.js';
