import type { Config } from '../../config.js';
import type { Principal } from '../../kernel/auth/index.js';
import type { Clock } from '../../kernel/clock.js';
import { open, seal, sha256Hex } from '../../kernel/crypto/index.js';
import { afterCommit, type Transactions, type Tx } from '../../kernel/db/index.js';
import type { Events } from '../../kernel/events/index.js';
import { badRequest, conflict, forbidden, HttpError, unauthorized } from '../../kernel/http/index.js';
import { type LimitDecision, type Limiter, type LimitPolicy, throttled } from '../../kernel/limits/index.js';
import type { PersonalDataRegistry } from '../../kernel/personal-data.js';
import type { SecurityNotices } from '../accounts/index.js';
import {
  mayUseAccount,
  type RequestContext,
  requireOwnFactorSession,
  type SignIn,
  SSO_REQUIRED,
  signInSubject,
  ssoBlocks,
  type TokenPair,
} from '../sign-in/index.js';
import { isTotpCode, newRecoveryCodes, newTotpSecret, provisioningUri, recoveryCodeHash, totpStep } from './codes.js';
import { mfaPersonalData } from './personal-data.js';
import * as store from './store.js';

/** Part A 8: an MFA challenge is single use and takes 5 code attempts (its lifetime: second-factor-gate.ts). */
export const CHALLENGE_ATTEMPTS = 5;
/**
 * Wrong codes per account across challenges and self-service calls: a stolen password (or access token) buys
 * a few guesses at a 6-digit code, not a million.
 */
export const MFA_CODE_FAILURES: LimitPolicy = { name: 'mfa-code-failures', points: 10, durationSeconds: 900 };

const INVALID_CHALLENGE = 'Invalid or expired MFA challenge';
const WRONG_CODE = 'Invalid code';

/** Part A 2.16. `enrollment_pending` (set up, no code verified yet) is this service's addition. */
export interface MfaStatus {
  mfa_enabled: boolean;
  mfa_verified: boolean;
  mfa_verified_at: string | null;
  recovery_codes_remaining: number;
  enrollment_pending: boolean;
}

type ChallengeOutcome =
  | { kind: 'tokens'; tokens: TokenPair }
  | { kind: 'invalid' }
  | { kind: 'sso-required' }
  | { kind: 'wrong-code' }
  | { kind: 'throttled'; budget: LimitDecision }
  | { kind: 'other-key' };

export function createMfaService(deps: {
  config: Config;
  transactions: Transactions;
  /** The sign-in module's finishing step: an answered challenge starts its session there. */
  signIn: SignIn;
  events: Events;
  clock: Clock;
  limiter: Limiter;
  /** Mails the account's owner when the factor changes. */
  notify: SecurityNotices;
  personalData: PersonalDataRegistry;
}) {
  const { config, transactions, events, clock, limiter } = deps;
  deps.personalData.add(mfaPersonalData());
  const issuer = new URL(config.baseUrl).hostname;

  /** Part A 4.2: every MFA route answers 503 while MFA_ENCRYPTION_KEY is not provisioned. */
  function key(): Buffer {
    if (!config.mfaEncryptionKey) {
      throw new HttpError(503, 'MFA is unavailable: MFA_ENCRYPTION_KEY is not provisioned');
    }
    return config.mfaEncryptionKey;
  }
  // Bound to the account, so a sealed secret copied onto another account's row does not open.
  const sealContext = (userId: string) => `mfa-totp:${userId}`;

  /**
   * A TOTP code (accepted once: its step must be later than the last accepted one) or an unspent recovery
   * code. Spends what it accepts.
   */
  async function acceptCode(tx: Tx, factor: store.Factor, code: string): Promise<'totp' | 'recovery' | undefined> {
    const trimmed = code.trim();
    if (isTotpCode(trimmed)) {
      const step = totpStep(open(key(), factor.secretSealed, sealContext(factor.userId)), trimmed, clock.now());
      return step !== undefined && (await store.acceptStep(tx, factor.userId, step)) ? 'totp' : undefined;
    }
    if (!factor.enabledAt) return undefined;
    const spent = await store.spendRecoveryCode(tx, factor.userId, recoveryCodeHash(trimmed), clock.now());
    return spent ? 'recovery' : undefined;
  }

  /**
   * Spends one point of the wrong-code budget before a code is checked (given back when the code is right), so
   * parallel guesses cannot all pass a check made before any of them is counted. 429 once spent.
   */
  async function spendAttempt(userId: string): Promise<void> {
    const budget = await limiter.consume(MFA_CODE_FAILURES, userId);
    if (!budget.allowed) throw throttled(budget);
  }
  const refundAttempt = (userId: string) => limiter.reward(MFA_CODE_FAILURES, userId);

  const emit = (tx: Tx, me: { tenantId: string; userId: string }, action: string, data: object = {}) =>
    events.emit(tx, {
      tenantId: me.tenantId,
      actor: { id: me.userId, type: 'human' },
      category: 'security',
      action,
      severity: action === 'mfa.disabled' ? 'warn' : 'info',
      subjectUserId: me.userId,
      data: { user_id: me.userId, ...data },
    });

  const notify = deps.notify;

  function self(principal: Principal) {
    if (!principal.userId) throw unauthorized();
    return { tenantId: principal.tenantId, userId: principal.userId };
  }

  /**
   * Runs a self-service change that needs a correct code of an enabled factor (disable, regenerate). A wrong
   * code changes nothing but the failure budget (400, 429 once spent).
   */
  async function withEnabledFactorCode<T>(
    principal: Principal,
    code: string,
    work: (tx: Tx, me: { tenantId: string; userId: string }, used: 'totp' | 'recovery') => Promise<T>,
  ): Promise<T> {
    key();
    const me = self(principal);
    const factor = await transactions.tenant(me.tenantId, (tx) => store.factorOf(tx, me.userId));
    if (!factor?.enabledAt) throw conflict('MFA is not enabled');
    await spendAttempt(me.userId);
    const outcome = await transactions.tenant(me.tenantId, async (tx) => {
      const current = await store.factorOf(tx, me.userId);
      if (!current?.enabledAt) throw conflict('MFA is not enabled');
      const used = await acceptCode(tx, current, code);
      if (!used) return { wrong: true as const };
      return { wrong: false as const, value: await work(tx, me, used) };
    });
    if (outcome.wrong) throw badRequest(WRONG_CODE);
    await refundAttempt(me.userId);
    return outcome.value;
  }

  async function status(q: Tx, userId: string): Promise<MfaStatus> {
    const factor = await store.factorOf(q, userId);
    // The factor is enabled by its first verified code, so both flags move together.
    return {
      mfa_enabled: Boolean(factor?.enabledAt),
      mfa_verified: Boolean(factor?.enabledAt),
      mfa_verified_at: factor?.enabledAt?.toISOString() ?? null,
      recovery_codes_remaining: factor?.enabledAt ? await store.recoveryCodesLeft(q, userId) : 0,
      enrollment_pending: Boolean(factor && !factor.enabledAt),
    };
  }

  return {
    /** Whether the account has TOTP enabled (other sign-in modules ask before sensitive changes). */
    isEnabled: (userId: string): Promise<boolean> => transactions.systemRead((q) => store.isEnabled(q, userId)),

    /**
     * A TOTP code of the account's enabled factor for another module's step-up (payment step-up), in the caller's
     * transaction: accepted once across sign-ins and step-ups alike (its step must be later than the last accepted
     * one), counted against the same wrong-code budget (429 once spent; a right code gives its point back after
     * commit). Recovery codes are not accepted here. False for a wrong or replayed code, or no enabled factor.
     */
    async acceptStepUpCode(tx: Tx, userId: string, code: string): Promise<boolean> {
      key();
      await spendAttempt(userId);
      const factor = await store.factorOf(tx, userId);
      const trimmed = code.trim();
      if (!factor?.enabledAt || !isTotpCode(trimmed) || (await acceptCode(tx, factor, trimmed)) !== 'totp') {
        return false;
      }
      afterCommit(tx, () => refundAttempt(userId));
      return true;
    },

    /** Part A 4.2 `GET /mfa/status`. */
    async status(principal: Principal): Promise<MfaStatus> {
      key();
      const me = self(principal);
      return transactions.tenant(me.tenantId, (tx) => status(tx, me.userId));
    },

    /**
     * Part A 4.2 `POST /mfa/setup`: a new secret, its provisioning URI and 8 recovery codes, shown once. The
     * factor is enabled only by a correct code (`setup/verify`); 409 when one is enabled already.
     */
    async setup(principal: Principal) {
      const sealKey = key();
      const me = self(principal);
      // An SSO session is confined to its organization (docs/decisions.md "SSO trust model").
      await requireOwnFactorSession(deps, principal);
      const secret = newTotpSecret();
      const recoveryCodes = newRecoveryCodes();
      const email = await transactions.tenant(me.tenantId, async (tx) => {
        const started = await store.startEnrollment(tx, {
          userId: me.userId,
          secretSealed: seal(sealKey, secret, sealContext(me.userId)),
          codeHashes: recoveryCodes.map(recoveryCodeHash),
          now: clock.now(),
        });
        if (!started) throw conflict('MFA is already enabled');
        await emit(tx, me, 'mfa.enrollment_started');
        return store.emailOf(tx, me.userId);
      });
      return {
        secret,
        provisioning_uri: provisioningUri(secret, issuer, email ?? me.userId),
        recovery_codes: recoveryCodes,
      };
    },

    /** Part A 4.2 `POST /mfa/setup/verify`: the first correct code enables the pending factor. */
    async verifySetup(principal: Principal, code: string): Promise<MfaStatus> {
      key();
      const me = self(principal);
      await requireOwnFactorSession(deps, principal);
      const pending = await transactions.tenant(me.tenantId, (tx) => store.factorOf(tx, me.userId));
      if (pending?.enabledAt) throw conflict('MFA is already enabled');
      if (!pending) throw conflict('No MFA enrollment is pending: start one with POST /mfa/setup');
      await spendAttempt(me.userId);
      const outcome = await transactions.tenant(me.tenantId, async (tx) => {
        const factor = await store.factorOf(tx, me.userId);
        if (factor?.enabledAt) throw conflict('MFA is already enabled');
        if (!factor) throw conflict('No MFA enrollment is pending: start one with POST /mfa/setup');
        if (!isTotpCode(code.trim()) || !(await acceptCode(tx, factor, code))) return undefined;
        if (!(await store.enable(tx, me.userId, clock.now()))) throw conflict('MFA is already enabled');
        await emit(tx, me, 'mfa.enabled');
        await notify(tx, me.userId, 'Two-step verification is on', 'Two-step verification (TOTP) was turned on.');
        return status(tx, me.userId);
      });
      if (!outcome) throw badRequest(WRONG_CODE);
      await refundAttempt(me.userId);
      return outcome;
    },

    /** Part A 4.2 `POST /mfa/disable`: a correct TOTP or recovery code turns the factor off. */
    async disable(principal: Principal, code: string): Promise<void> {
      await requireOwnFactorSession(deps, principal);
      await withEnabledFactorCode(principal, code, async (tx, me, used) => {
        await store.removeFactor(tx, me.userId);
        await emit(tx, me, 'mfa.disabled', { with: used });
        await notify(tx, me.userId, 'Two-step verification is off', 'Two-step verification (TOTP) was turned off.');
      });
    },

    /** Part A 4.2 `POST /mfa/recovery-codes/regenerate`: 8 new codes, shown once; the old ones stop working. */
    async regenerateRecoveryCodes(principal: Principal, code: string): Promise<{ recovery_codes: string[] }> {
      await requireOwnFactorSession(deps, principal);
      const recoveryCodes = newRecoveryCodes();
      await withEnabledFactorCode(principal, code, async (tx, me) => {
        await store.replaceRecoveryCodes(tx, me.userId, recoveryCodes.map(recoveryCodeHash), clock.now());
        await emit(tx, me, 'mfa.recovery_codes_regenerated');
        await notify(
          tx,
          me.userId,
          'New recovery codes',
          'New recovery codes were made for two-step verification; the earlier ones no longer work.',
        );
      });
      return { recovery_codes: recoveryCodes };
    },

    /**
     * Part A 4.2 `POST /mfa/challenge`: a TOTP or recovery code completes the sign-in the challenge holds.
     * 401 for an unknown, expired, spent or exhausted challenge; 400 for a wrong code, which uses one of the
     * challenge's 5 attempts. The tokens bind to the request's DPoP key, or to the first factor's.
     */
    async completeChallenge(input: { mfaToken: string; code: string }, context: RequestContext): Promise<TokenPair> {
      key();
      const now = clock.now();
      const outcome = await transactions.system(async (tx): Promise<ChallengeOutcome> => {
        // System look-up by the token's hash (the organization is not known yet), then held to its tenant.
        const challenge = await store.takeAttempt(tx, sha256Hex(input.mfaToken), now, CHALLENGE_ATTEMPTS);
        if (!challenge) return { kind: 'invalid' };
        await transactions.enterTenant(tx, challenge.tenantId);
        const me = { tenantId: challenge.tenantId, userId: challenge.userId };
        // The account as it is now: a password change, sign-out-everywhere, a suspended or removed membership or
        // TOTP turned off since the first factor kills the challenge; SSO switched on refuses it like a login.
        const subject = await signInSubject(tx, { tenantId: challenge.tenantId, userId: challenge.userId });
        const factor = await store.factorOf(tx, challenge.userId);
        if (!mayUseAccount(subject) || subject.tokenEpoch !== challenge.epoch || !factor?.enabledAt) {
          await store.spendChallenge(tx, challenge.id, now);
          return { kind: 'invalid' };
        }
        // A first factor that was SSO itself passes the SSO requirement it was checked against.
        if (ssoBlocks(subject) && !challenge.amr.includes('sso')) {
          await store.spendChallenge(tx, challenge.id, now);
          return { kind: 'sso-required' };
        }
        const dpopJkt = context.dpopJkt ?? challenge.dpopJkt ?? undefined;
        if (challenge.dpopJkt && dpopJkt !== challenge.dpopJkt) return { kind: 'other-key' };
        const budget = await limiter.consume(MFA_CODE_FAILURES, me.userId);
        if (!budget.allowed) return { kind: 'throttled', budget };
        const used = await acceptCode(tx, factor, input.code);
        if (!used) {
          if (challenge.attempts >= CHALLENGE_ATTEMPTS) await store.spendChallenge(tx, challenge.id, now);
          await emit(tx, me, 'mfa.challenge_failed', { attempt: challenge.attempts });
          return { kind: 'wrong-code' };
        }
        afterCommit(tx, () => refundAttempt(me.userId));
        await store.spendChallenge(tx, challenge.id, now);
        if (used === 'recovery') {
          await emit(tx, me, 'mfa.recovery_code_used');
          const left = await store.recoveryCodesLeft(tx, me.userId);
          await notify(
            tx,
            me.userId,
            'A recovery code was used',
            `A recovery code was used to sign in. ${left} of 8 remain; make new ones if you lost your authenticator.`,
          );
        }
        const amr = [...challenge.amr.filter((method) => method !== 'mfa'), 'mfa'];
        // The second factor is answered: the sign-in module finishes it (its MFA gate lets `multiFactor` pass).
        const tokens = await deps.signIn.finishSignIn(
          tx,
          {
            tenantId: challenge.tenantId,
            userId: challenge.userId,
            population: challenge.population,
            epoch: challenge.epoch,
            amr,
            userAgent: challenge.userAgent ?? context.userAgent,
            dpopJkt,
            sourceIp: context.ip,
          },
          { multiFactor: true },
        );
        return { kind: 'tokens', tokens: tokens as TokenPair };
      });
      switch (outcome.kind) {
        case 'tokens':
          return outcome.tokens;
        case 'invalid':
          throw unauthorized(INVALID_CHALLENGE);
        case 'sso-required':
          throw forbidden(SSO_REQUIRED);
        case 'other-key':
          throw badRequest('The DPoP proof must use the key the sign-in was proven with');
        case 'throttled':
          throw throttled(outcome.budget);
        case 'wrong-code':
          throw badRequest(WRONG_CODE);
      }
    },
  };
}

export type MfaService = ReturnType<typeof createMfaService>;
