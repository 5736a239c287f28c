import type { FastifyInstance } from 'fastify';
import type { AccessTokens } from '../kernel/auth/index.js';
import type { Transactions } from '../kernel/db/index.js';
import type { AccountService } from '../modules/accounts/index.js';
import type { EarlyAccessService } from '../modules/early-access/index.js';
import type { MagicLinkService } from '../modules/magic-link/index.js';
import type { MembersService } from '../modules/members/index.js';
import type { MfaService } from '../modules/mfa/index.js';
import type { OpenIdProvider } from '../modules/oidc/index.js';
import type { Onboarding } from '../modules/onboarding/index.js';
import type { OrganizationService } from '../modules/organizations/index.js';
import type { PasskeyService } from '../modules/passkeys/index.js';
import type { SessionService } from '../modules/sign-in/index.js';
import { createCsrf } from './csrf.js';
import { registerEarlyAccessConfirmPage } from './early-access-confirm-page.js';
import { registerInvitePage } from './invite-page.js';
import { registerMagicLinkPage } from './magic-link-page.js';
import { registerOidcPages } from './oidc-pages.js';
import { registerOnboardVerifyPage } from './onboard-verify-page.js';
import { createOrganizationNames } from './organization-names.js';
import { registerPasskeysPage } from './passkeys-page.js';
import { registerResetPasswordPage } from './reset-password-page.js';
import { registerSsoLinkPage } from './sso-link-page.js';
import { registerVerifyEmailPage } from './verify-email-page.js';

export { escapeHtml, html, PAGE_CSP, SafeHtml } from './html.js';

export interface WebDeps {
  config: { baseUrl: string };
  accounts: AccountService;
  members: MembersService;
  earlyAccess: EarlyAccessService;
  mfa: MfaService;
  passkeys: PasskeyService;
  magicLinks: MagicLinkService;
  openIdProvider: OpenIdProvider;
  sessions: SessionService;
  accessTokens: AccessTokens;
  sso: { confirmLink(token: string): Promise<void> };
  onboarding: Onboarding;
  organizations: OrganizationService;
  transactions: Transactions;
}

/**
 * The hosted pages that mailed links open (see docs/hosted-pages.md). Each calls the same service as its API
 * route; pages add only the browser concerns: HTML, CSRF, and never spending a token on GET.
 */
export function registerWebPages(app: FastifyInstance, deps: WebDeps): void {
  const csrf = createCsrf(deps.config.baseUrl);
  registerVerifyEmailPage(app, { accounts: deps.accounts, csrf });
  registerResetPasswordPage(app, { accounts: deps.accounts, csrf });
  registerInvitePage(app, { members: deps.members, csrf });
  registerEarlyAccessConfirmPage(app, { earlyAccess: deps.earlyAccess, csrf });
  registerSsoLinkPage(app, { sso: deps.sso, csrf });
  registerOnboardVerifyPage(app, { onboarding: deps.onboarding, csrf, baseUrl: deps.config.baseUrl });

  registerPasskeysPage(app, { config: deps.config });
  const continueAuthorization = registerOidcPages(app, {
    ...{ provider: deps.openIdProvider, accounts: deps.accounts, mfa: deps.mfa, sessions: deps.sessions },
    ...{ passkeys: deps.passkeys, magicLinks: deps.magicLinks, baseUrl: deps.config.baseUrl },
    accessTokens: deps.accessTokens,
    organizationNames: createOrganizationNames(deps),
    csrf,
  });
  registerMagicLinkPage(app, { magicLinks: deps.magicLinks, mfa: deps.mfa, csrf, continueAuthorization });
}
