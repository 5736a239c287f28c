export { MfaRequiredSchema, SignInResultSchema, TokenPairSchema } from './http-schemas.js';
export { emailKeyOf, slugKeyOf } from './identifiers.js';
export {
  accountLabel,
  claimsSubject,
  emailKeyOfUser,
  emailOfUser,
  grantsOfMember,
  liveSessionsToEnd,
  liveSsoSessionsOf,
  memberRoster,
  memberRosterEntry,
  ownerAddresses,
  type RosterRow,
} from './identity-store.js';
export { assertStrongPassword, passwordWeakness } from './password-policy.js';
export { accountKeptElsewhere } from './personal-data.js';
export type { AccountProfile, ProvisionedAccount } from './provisioning.js';
export { registerAccountRoutes } from './routes.js';
/**
 * Tables the sign-in module (which owns the session model) joins in its one-statement reads on hot paths (sign-in
 * subject, refresh rotation, principal resolution); every other module calls the functions above instead.
 */
export { refreshTokens, sessions, users } from './schema.js';
export { createSecurityNotices, type SecurityNotices } from './security-notices.js';
export { type AccountService, createAccountService } from './service.js';
