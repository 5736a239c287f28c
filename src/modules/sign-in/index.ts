/**
 * Sign-in: how a verified first factor becomes a session (Part A 3, 4.1, 4.2). It owns the session model
 * (sessions, refresh rotation, OAuth grant sessions), who may sign in (`signInSubject`), the request context and
 * DPoP binding of a sign-in, the refresh-token cookie, the own-factor rule, the user-token resolver and the
 * finishing step every first factor ends in (`finishSignIn`), with the second factor plugged in as a gate.
 */
export { clearRefreshCookie, deliverPair, deliverSignIn, noStore, refreshCookieOf } from './cookie.js';
export {
  createSignIn,
  type FinishOptions,
  isMfaRequired,
  type MfaRequired,
  type SignIn,
  type SignInAttempt,
  type SignInGate,
  type SignInResult,
} from './finish.js';
export {
  dpopProofHeaders,
  MfaRequiredSchema,
  SignInHeaders,
  SignInResultSchema,
  TokenPairSchema,
  UseCookie,
} from './http-schemas.js';
export {
  type GrantOfMember,
  grantsOfMember,
  liveSessionsOfUser,
  liveSessionsToEnd,
  liveSsoSessionsOf,
} from './live-sessions-store.js';
export { OWN_FACTOR_REQUIRED, requireOwnFactorSession } from './own-factor-session.js';
export { createUserTokenResolver } from './resolver.js';
export { endGrantSessionsMadeFromThem } from './revocation.js';
export { createSessionStateCache, type SessionStateCache } from './session-state-cache.js';
export {
  createSessionService,
  type LiveSession,
  type NewGrantSession,
  type NewSession,
  type RefreshRefusal,
  type SessionService,
  type TokenPair,
} from './sessions.js';
export { type RequestContext, signInContext, signInProofKey } from './sign-in-context.js';
export {
  assertSsoAllows,
  mayUseAccount,
  type SignInSubject,
  SSO_REQUIRED,
  signInSubject,
  ssoBlocks,
} from './sign-in-subject.js';
