import type { Config } from '../../config.js';
import type { Mailer } from '../../kernel/mail/index.js';
import type { PersonalDataRegistry } from '../../kernel/personal-data.js';
import type { RequestContext, SignIn, SignInResult } from '../sign-in/index.js';
import { createAccountLinkConfirmation } from './account-link.js';
import { createBackchannelLogout } from './backchannel-logout.js';
import type { SsoDeps } from './common.js';
import { createConnectionChanges } from './connection-changes.js';
import { createConnectionTest } from './connection-test.js';
import { createEnforcementService } from './enforcement.js';
import { createOidcConfigService } from './oidc-config.js';
import { createOidcSignIn, type SamlSignIn } from './oidc-sign-in.js';
import { ssoPersonalData } from './personal-data.js';
import type { ProvisioningDeps } from './provisioning.js';
import { createRelyingParty } from './relying-party.js';
import { createSignInCodes } from './sign-in-codes.js';

export {
  type BrowserBinding,
  bindingHashOf,
  COMPLETION_CODE_SECONDS,
  challengeOf,
  createBrowserBinding,
  derivedOf,
  ROUND_TRIP_SECONDS,
  returnUrl,
} from './browser-binding.js';
export {
  AllowedDomainsField,
  assertPlanAllowsSso,
  CONFIGURED_ANSWER,
  emitAdmin,
  enabledField,
  recordSignInRefusal,
  SSO_ADMIN_ACCESS,
  sendConfigured,
  ssoAdminPolicy,
  ssoAdminSchema,
  validDomains,
} from './common.js';
export { CONNECTION_CHANGE, type ConnectionChanges } from './connection-changes.js';
export type { OidcConfigView } from './oidc-config.js';
export { type SamlSignIn, type SamlStart, SSO_STARTS_PER_IP } from './oidc-sign-in.js';
export { type AssertedPerson, type ProvisioningRefusal, provisionPerson, usableEmail } from './provisioning.js';
export { createRelyingParty, FederationError, type ProviderMetadata, type RelyingParty } from './relying-party.js';
export {
  answerCompletion,
  authorizationUrlAnswer,
  CompletionHeaders,
  completionBody,
  ProviderCallbackQuery,
  redirectBrowser,
  TenantParam,
  TenantSlugBody,
} from './round-trip-http.js';
export { registerSsoRoutes } from './routes.js';
export {
  isScaffoldOf,
  type OidcConnectionSummary,
  type OidcScaffold,
  oidcConnectionSummary,
  oidcScaffoldProblem,
  scaffoldOidcConnection,
} from './scaffold.js';
export type { SignInCodes, VouchedSignIn } from './sign-in-codes.js';
export { registerSsoSignInRoutes, SSO_FLOW_COOKIE } from './sign-in-routes.js';
export { signedInWithSessionIndex, tenantIdBySlug, userOfNameId } from './sign-in-store.js';

export interface SsoSignInDeps extends ProvisioningDeps {
  config: Pick<Config, 'baseUrl' | 'signInReturnUrl'>;
  mailer: Mailer;
  /** The sign-in module's finishing step: an SSO sign-in never bypasses an enrolled TOTP factor (Part A 4.2). */
  signIn: SignIn;
  personalData: PersonalDataRegistry;
  logger: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

/**
 * Enterprise SSO (Part A 4.6): the organization's OIDC identity provider (configuration, connection test, sign-in,
 * back-channel logout), SSO enforcement, and the one-time codes every SSO round trip ends in. SAML (its own module)
 * attaches its start with `attachSaml` and issues its codes with `signInCodes.issue`, so `POST /auth/sso/start` and
 * `POST /auth/sso/complete` serve both protocols.
 */
export function createSso(deps: SsoDeps & SsoSignInDeps) {
  deps.personalData.add(ssoPersonalData());
  const connectionChanges = createConnectionChanges(deps);
  // The owners' mail of a connection an IAM manifest scaffolded (the manifests module has no mailer).
  deps.events.onDetection((detection) => connectionChanges.noticeOfScaffold(detection));
  const oidc = createOidcConfigService({ ...deps, connectionChanges });
  const relyingParty = createRelyingParty(deps);
  const signInCodes = createSignInCodes(deps);
  let saml: SamlSignIn | undefined;
  const samlStart = () => saml?.start;
  const samlBinding = () => saml?.binding;
  return {
    oidc,
    connectionTest: createConnectionTest({ ...deps, config: oidc }),
    enforcement: createEnforcementService({ ...deps, connectionChanges }),
    /** The guard and record of every change to an SSO connection (the SAML module's too). */
    connectionChanges,
    /** The OIDC relying party on the kernel's egress (social login's Google provider uses it too). */
    relyingParty,
    signInCodes,
    oidcSignIn: createOidcSignIn({
      ...deps,
      relyingParty,
      codes: signInCodes,
      openSecret: oidc.openSecret,
      samlStart,
    }),
    backchannelLogout: createBackchannelLogout({ ...deps, relyingParty }),
    /** The SAML module's browser binding, once attached: `POST /auth/sso/start` sets its cookie for SAML. */
    samlBinding,

    /**
     * `POST /auth/sso/complete`: the one-time code of an OIDC callback or a SAML ACS (the SAML module issues its
     * codes into the same store with `signInCodes.issue`).
     */
    complete: (code: string, context: RequestContext): Promise<SignInResult> => signInCodes.redeem(code, context),

    /** `POST /auth/sso/link/confirm` (and the `/sso/link` page): the account holder links their account. */
    confirmLink: createAccountLinkConfirmation(deps),

    /**
     * Plugs the SAML module in: its start (and its browser binding) is used by `POST /auth/sso/start` when the
     * organization has no enabled OIDC connection.
     */
    attachSaml(hook: SamlSignIn): void {
      saml = hook;
    },
  };
}

export type Sso = ReturnType<typeof createSso>;
