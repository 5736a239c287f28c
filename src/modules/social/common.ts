import type { Config } from '../../config.js';
import type { Clock } from '../../kernel/clock.js';
import type { Transactions } from '../../kernel/db/index.js';
import type { Events } from '../../kernel/events/index.js';
import { notFound } from '../../kernel/http/index.js';
import type { Limiter } from '../../kernel/limits/index.js';
import type { Egress } from '../../kernel/net/index.js';
import type { PersonalDataRegistry } from '../../kernel/personal-data.js';
import type { AccountService, SecurityNotices } from '../accounts/index.js';
import type { OrganizationService } from '../organizations/index.js';
import type { PasskeyService } from '../passkeys/index.js';
import type { SettingsService } from '../settings/index.js';
import type { SessionService, SignIn } from '../sign-in/index.js';
import type { RelyingParty } from '../sso/index.js';
import type { ProviderId, SocialProvider } from './providers.js';

export interface SocialDeps {
  config: Pick<Config, 'baseUrl' | 'signInReturnUrl' | 'social'>;
  transactions: Transactions;
  events: Events;
  clock: Clock;
  egress: Egress;
  limiter: Pick<Limiter, 'consume'>;
  /** `auth.social_login_enabled` and `auth.ciam_signup_enabled` of the organization. */
  settings: Pick<SettingsService, 'enabled' | 'read'>;
  /** A link's callback checks that the session which asked is still live. */
  sessions: Pick<SessionService, 'liveSession'>;
  organizations: Pick<OrganizationService, 'memberships'>;
  /** New accounts (`provisioning`), re-proving the person (`confirmPassword`, `assertRecentSignIn`). */
  accounts: Pick<AccountService, 'provisioning' | 'confirmPassword' | 'assertRecentSignIn'>;
  /** The sign-in module's finishing step: a social sign-in never bypasses an enrolled TOTP factor (Part A 4.2). */
  signIn: SignIn;
  /** Whether the account has TOTP on: linking a provider then needs a session signed in with it. */
  mfaEnabled(userId: string): Promise<boolean>;
  /** A passwordless account keeps one way in: its passkeys count when an identity is unlinked. */
  passkeys: Pick<PasskeyService, 'listPasskeys'>;
  /** The OIDC relying party (Google) of the sso module. */
  relyingParty: RelyingParty;
  /** Mails the account's owner when a provider is linked or unlinked. */
  notify: SecurityNotices;
  personalData: PersonalDataRegistry;
  logger: { info(obj: object, msg: string): void };
}

/** Part A 7: 404 for a provider this deployment did not configure (and for an unknown name). */
export const NOT_CONFIGURED = 'Social provider not configured';

export function providerOf(providers: Map<ProviderId, SocialProvider>, id: string): SocialProvider {
  const provider = providers.get(id as ProviderId);
  if (!provider) throw notFound(NOT_CONFIGURED);
  return provider;
}

export const callbackPath = (provider: ProviderId) => `/api/v1/auth/social/${provider}/callback`;
