import type { Config } from '../../config.js';
import type { AfterAnswer } from '../../kernel/after-answer.js';
import type { Clock } from '../../kernel/clock.js';
import type { Transactions } from '../../kernel/db/index.js';
import type { Events } from '../../kernel/events/index.js';
import type { Limiter } from '../../kernel/limits/index.js';
import type { PersonalDataRegistry } from '../../kernel/personal-data.js';
import type { AccountService, SecurityNotices } from '../accounts/index.js';
import type { SignIn } from '../sign-in/index.js';
import { passkeyPersonalData } from './personal-data.js';
import { createPasskeyRegistration } from './registration.js';
import { relyingPartyOf } from './relying-party.js';
import { createPasskeySignIn } from './sign-in.js';

/**
 * Part A 4.3 passkeys (WebAuthn, with `@simplewebauthn/server`): an account registers, lists and removes its
 * passkeys; anyone signs in with a discoverable passkey and an organization. The relying party is BASE_URL
 * (RP ID its host name, origin its origin).
 */
export function createPasskeyService(deps: {
  config: Config;
  transactions: Transactions;
  events: Events;
  clock: Clock;
  limiter: Limiter;
  personalData: PersonalDataRegistry;
  /** Finishes the sign-in: a user-verified passkey passes `multiFactor: true`. */
  signIn: SignIn;
  /** `confirmPassword` before a passkey is removed, `assertRecentSignIn` before one is added. */
  accounts: AccountService;
  /** Whether the account has TOTP on: adding a passkey then needs a session signed in with it. */
  mfaEnabled: (userId: string) => Promise<boolean>;
  /** Mails the account's owner when a passkey is added or removed. */
  notify: SecurityNotices;
  logger: { warn(obj: object, msg: string): void };
  afterAnswer: AfterAnswer;
}) {
  const rp = relyingPartyOf(deps.config);
  deps.personalData.add(passkeyPersonalData());
  return {
    relyingParty: rp,
    ...createPasskeyRegistration({ ...deps, rp }),
    ...createPasskeySignIn({ ...deps, rp }),
  };
}

export type PasskeyService = ReturnType<typeof createPasskeyService>;
