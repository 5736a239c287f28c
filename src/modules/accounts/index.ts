export { deliverPair } from './cookie.js';
export { TokenPairSchema } from './http-schemas.js';
export { assertStrongPassword, passwordWeakness } from './password-policy.js';
export { createUserTokenResolver } from './resolver.js';
export { registerAccountRoutes } from './routes.js';
export { type AccountService, createAccountService } from './service.js';
export { createSessionStateCache, type SessionStateCache } from './session-state-cache.js';
export { createSessionService, type SessionService, type TokenPair } from './sessions.js';
