export { assertStrongPassword, passwordWeakness } from './password-policy.js';
export { createUserTokenResolver } from './resolver.js';
export { registerAccountRoutes, TokenPairSchema } from './routes.js';
export { type AccountService, createAccountService } from './service.js';
export { createSessionStateCache, type SessionStateCache } from './session-state-cache.js';
export { createSessionService, type SessionService, type TokenPair } from './sessions.js';
