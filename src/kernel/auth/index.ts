export {
  ACCESS_TOKEN_AUDIENCE,
  ACCESS_TOKEN_ISSUER,
  type AccessClaims,
  type AccessTokens,
  createAccessTokens,
} from './access-tokens.js';
export {
  type AuthPolicy,
  type CredentialResolver,
  type PresentedCredential,
  principalOf,
  readCredential,
  registerGuard,
} from './guard.js';
export { hasPermission, type Population, type Principal, type PrincipalKind } from './principal.js';
