export { errors, MfaRequiredSchema, SignInResultSchema, TokenPairSchema } from './http-schemas.js';
export { emailKeyOf, slugKeyOf } from './identifiers.js';
export { assertStrongPassword, passwordWeakness } from './password-policy.js';
export { accountKeptElsewhere } from './personal-data.js';
export type { AccountProfile, ProvisionedAccount } from './provisioning.js';
export { registerAccountRoutes } from './routes.js';
export { createSecurityNotices, type SecurityNotices } from './security-notices.js';
export { type AccountService, createAccountService } from './service.js';
