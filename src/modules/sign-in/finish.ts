import type { Tx } from '../../kernel/db/index.js';
import type { Events } from '../../kernel/events/index.js';
import type { Metrics } from '../../kernel/observability/index.js';
import type { NewSession, SessionService, TokenPair } from './sessions.js';

/** Part A 4.1 and 4.2: a first factor verified for an account with TOTP enrolled answers this instead of tokens. */
export interface MfaRequired {
  mfa_required: true;
  mfa_token: string;
}

/** What a sign-in answers: a token pair, or the MFA challenge to complete with `POST /mfa/challenge`. */
export type SignInResult = TokenPair | MfaRequired;

export const isMfaRequired = (result: SignInResult): result is MfaRequired => 'mfa_required' in result;

export interface FinishOptions {
  /**
   * The first factor already counts as two (a user-verified passkey), or the second factor was just answered
   * (an MFA challenge completed): the second-factor gate lets it through.
   */
  multiFactor?: boolean;
}

/**
 * A verified first factor on its way to a session, with the address the sign-in came from (the request's, as
 * TRUST_PROXY believes it). Required, so no sign-in method can reach a session without naming its source.
 */
export interface SignInAttempt extends NewSession {
  sourceIp: string;
}

/**
 * A check between a verified first factor and its session. `pass` lets the sign-in go on; anything else is
 * answered instead of tokens and holds what the person must do next (the MFA challenge); a gate may also refuse
 * by throwing (a contained source: 429). Gates are plugged in at wiring time (src/app.ts), so first factors never
 * know which gates exist.
 */
export type SignInGate = (tx: Tx, attempt: SignInAttempt, options: FinishOptions) => Promise<'pass' | MfaRequired>;

/** The finishing step, as the first factors receive it (`deps.signIn.finishSignIn(tx, …)`). */
export interface SignIn {
  /**
   * Finishes a verified first factor inside the caller's tenant transaction: runs the gates in order (the
   * first one that does not pass answers), then records `user.logged_in` and starts the session (Part A 4.1,
   * 4.2). Every sign-in method ends here: password, magic link, passkey, social, SSO (OIDC and SAML) and the
   * MFA challenge's answer.
   */
  finishSignIn(tx: Tx, attempt: SignInAttempt, options?: FinishOptions): Promise<SignInResult>;
}

export function createSignIn(deps: {
  sessions: Pick<SessionService, 'start'>;
  events: Events;
  gates: readonly SignInGate[];
  metrics?: Pick<Metrics, 'signIn'>;
}): SignIn {
  const { sessions, events, gates } = deps;
  return {
    async finishSignIn(tx, attempt, options = {}) {
      const { sourceIp: _source, ...firstFactor } = attempt;
      const method = firstFactor.amr[0] ?? 'unknown';
      for (const gate of gates) {
        const answer = await gate(tx, attempt, options);
        if (answer !== 'pass') {
          deps.metrics?.signIn(method, 'mfa_required');
          return answer;
        }
      }
      await events.emit(tx, {
        tenantId: firstFactor.tenantId,
        actor: { id: firstFactor.userId, type: 'human' },
        category: 'auth',
        action: 'user.logged_in',
        subjectUserId: firstFactor.userId,
        data: { user_id: firstFactor.userId, amr: firstFactor.amr },
      });
      deps.metrics?.signIn(method, 'success');
      return (await sessions.start(tx, firstFactor)).tokens;
    },
  };
}
