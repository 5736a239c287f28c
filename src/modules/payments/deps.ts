import type { Config } from '../../config.js';
import type { Clock } from '../../kernel/clock.js';
import type { Keyring } from '../../kernel/crypto/index.js';
import type { Transactions } from '../../kernel/db/index.js';
import type { Events } from '../../kernel/events/index.js';
import type { MfaService } from '../mfa/index.js';
import type { PasskeyService } from '../passkeys/index.js';
import type { SessionService } from '../sign-in/index.js';

/** What payment step-up needs: the factors are the MFA and passkey modules' own checks, called in-process. */
export interface PaymentsDeps {
  config: Config;
  transactions: Transactions;
  events: Events;
  clock: Clock;
  /** Signs attestations with the service's keys (published at /.well-known/jwks.json). */
  keyring: Keyring;
  mfa: Pick<MfaService, 'isEnabled' | 'acceptStepUpCode'>;
  passkeys: Pick<PasskeyService, 'relyingParty' | 'credentialIdsOf' | 'verifyOwnAssertion'>;
  /** When and how a session signed in (a recent password sign-in is the knowledge factor); a person's sessions. */
  sessions: Pick<SessionService, 'authentication' | 'ofUser'>;
}
