export { emailKeyOf, slugKeyOf } from './identifiers.js';
export {
  accountLabel,
  accountStanding,
  claimsSubject,
  emailKeyOfUser,
  emailOfUser,
  memberRoster,
  memberRosterEntry,
  ownerAddresses,
  type RosterRow,
  signInSubjectRow,
} from './identity-store.js';
export { assertStrongPassword, passwordWeakness } from './password-policy.js';
export { accountKeptElsewhere } from './personal-data.js';
export type { AccountProfile, ProvisionedAccount } from './provisioning.js';
export { registerAccountRoutes } from './routes.js';
export { createSecurityNotices, type SecurityNotices } from './security-notices.js';
export { type AccountService, createAccountService } from './service.js';
export {
  CONTAINMENT_SECONDS,
  CREDENTIAL_STUFFING_RULE,
  containSource,
  createSourceContainmentGate,
  releaseSource,
  type Source,
  sourceContainment,
} from './source-containment.js';
