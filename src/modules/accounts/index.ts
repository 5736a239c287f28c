export { deliverPair, deliverSignIn, noStore } from './cookie.js';
export { MfaRequiredSchema, SignInResultSchema, TokenPairSchema } from './http-schemas.js';
export { emailKeyOf, slugKeyOf } from './identifiers.js';
export {
  accountLabel,
  claimsSubject,
  emailKeyOfUser,
  emailOfUser,
  endGrantSessionsOfClient,
  liveSessionsToEnd,
  liveSsoSessionsOf,
  memberRoster,
  memberRosterEntry,
  ownerAddresses,
  type RosterRow,
} from './identity-store.js';
export { OWN_FACTOR_REQUIRED, requireOwnFactorSession } from './own-factor-session.js';
export { assertStrongPassword, passwordWeakness } from './password-policy.js';
export { accountKeptElsewhere } from './personal-data.js';
export type { AccountProfile, ProvisionedAccount } from './provisioning.js';
export { createUserTokenResolver } from './resolver.js';
export { registerAccountRoutes } from './routes.js';
export { createSecurityNotices, type SecurityNotices } from './security-notices.js';
export { type AccountService, createAccountService, type RequestContext } from './service.js';
export { createSessionStateCache, type SessionStateCache } from './session-state-cache.js';
export {
  createSessionService,
  isMfaRequired,
  type LiveSession,
  type MfaRequired,
  type NewGrantSession,
  type NewSession,
  type RefreshRefusal,
  type SessionService,
  type SignIn,
  type SignInResult,
  type TokenPair,
} from './sessions.js';
export { signInContext, signInProofKey } from './sign-in-context.js';
export {
  assertSsoAllows,
  mayUseAccount,
  type SignInSubject,
  SSO_REQUIRED,
  signInSubject,
  ssoBlocks,
} from './sign-in-subject.js';
