import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  type PublicKeyCredentialRequestOptionsJSON,
  verifyAuthenticationResponse,
} from '@simplewebauthn/server';
import type { AfterAnswer } from '../../kernel/after-answer.js';
import type { Clock } from '../../kernel/clock.js';
import type { Queryable, Transactions } from '../../kernel/db/index.js';
import type { Events } from '../../kernel/events/index.js';
import { unauthorized } from '../../kernel/http/index.js';
import { type Limiter, type LimitPolicy, throttled } from '../../kernel/limits/index.js';
import {
  assertSsoAllows,
  mayUseAccount,
  type RequestContext,
  type SignIn,
  type SignInResult,
  type SignInSubject,
  signInSubject,
} from '../sign-in/index.js';
import { CEREMONY_TTL_MS, challengeOf, type RelyingParty, userHandleText } from './relying-party.js';
import * as store from './store.js';

/** Sign-in ceremonies started per source IP: each stores a challenge, so the table cannot be flooded. */
export const LOGIN_OPTIONS_PER_IP: LimitPolicy = { name: 'passkey-login-options-ip', points: 60, durationSeconds: 900 };
/** Refused passkey sign-ins per source IP (like failed password sign-ins, Part A 8): 429 once spent. */
export const LOGIN_FAILURES_PER_IP: LimitPolicy = {
  name: 'passkey-login-failures-ip',
  points: 50,
  durationSeconds: 900,
};

/** Part A 4.3 and 7: one answer for every refused passkey sign-in. */
const INVALID_CREDENTIALS = 'Invalid credentials';

/**
 * WebAuthn section 6.1.1: a signature counter that does not move forward (and is not zero on both sides, which
 * is how authenticators without a counter report) means two copies of the private key are in use.
 */
export const counterWentBack = (stored: number, presented: number) =>
  (presented > 0 || stored > 0) && presented <= stored;

/** Part A 4.3 `POST /webauthn/login/*`: signing in with a discoverable passkey. */
export function createPasskeySignIn(deps: {
  rp: RelyingParty;
  transactions: Transactions;
  events: Events;
  clock: Clock;
  limiter: Limiter;
  signIn: SignIn;
  logger: { warn(obj: object, msg: string): void };
  afterAnswer: AfterAnswer;
}) {
  const { rp, transactions, events, clock, limiter } = deps;

  /** Counts the refusal against the source address, then answers the generic 401. */
  async function refuse(context: RequestContext): Promise<never> {
    await limiter.consume(LOGIN_FAILURES_PER_IP, context.ip);
    throw unauthorized(INVALID_CREDENTIALS);
  }

  /**
   * A verified assertion whose counter went backwards: refused, and recorded as a high-severity security event
   * with a detection in the organization the sign-in named, when the account is a member there (events belong
   * to an organization; an outsider's attempt is only refused).
   */
  async function recordClone(
    credential: store.CredentialRow,
    member: SignInSubject | undefined,
    presented: number,
  ): Promise<void> {
    if (!member || member.membershipStatus === 'removed') return;
    const userId = credential.userId;
    await transactions.tenant(member.tenantId, async (tx) => {
      await events.emit(tx, {
        tenantId: member.tenantId,
        actor: { id: userId, type: 'human' },
        category: 'security',
        action: 'passkey.clone_suspected',
        severity: 'high',
        outcome: 'denied',
        subjectUserId: userId,
        data: {
          user_id: userId,
          credential_id: credential.id,
          stored_counter: credential.counter,
          presented_counter: presented,
        },
      });
      await events.detect(tx, {
        tenantId: member.tenantId,
        ruleId: 'passkey-clone-suspected',
        groupKey: `actor:${userId}`,
        severity: 'high',
        data: { user_id: userId, credential_id: credential.id },
      });
    });
  }

  /**
   * Checks the assertion with the passkey's public key. The stored counter is not given to the library: it
   * compares counters before it checks the signature, and the clone rule must only ever judge an assertion
   * that really was signed by the passkey (a forged one must not raise alarms). Undefined when it fails.
   */
  async function verifyAssertion(response: AuthenticationResponseJSON, challenge: string, row: store.CredentialRow) {
    try {
      const result = await verifyAuthenticationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.id,
        credential: {
          id: row.credentialId,
          publicKey: new Uint8Array(Buffer.from(row.publicKey, 'base64url')),
          counter: 0,
          transports: row.transports,
        },
        // Asked as "preferred": without verification the passkey is one factor (amr `webauthn` only).
        requireUserVerification: false,
      });
      return result.verified ? result.authenticationInfo : undefined;
    } catch {
      return undefined;
    }
  }

  return {
    /**
     * `POST /webauthn/login/options`: request options for discoverable credentials (no allowCredentials, so
     * nothing reveals which accounts exist), user verification preferred. The challenge is stored unbound,
     * single use, about 5 minutes.
     */
    async loginOptions(context: RequestContext): Promise<PublicKeyCredentialRequestOptionsJSON> {
      const budget = await limiter.consume(LOGIN_OPTIONS_PER_IP, context.ip);
      if (!budget.allowed) throw throttled(budget);
      const options = await generateAuthenticationOptions({
        rpID: rp.id,
        allowCredentials: [],
        userVerification: 'preferred',
        timeout: CEREMONY_TTL_MS,
      });
      const now = clock.now();
      await transactions.system((tx) =>
        store.issueChallenge(tx, { challenge: options.challenge, purpose: 'authentication', userId: null, now }),
      );
      return options;
    },

    /**
     * `POST /webauthn/login/verify`: the assertion of a discoverable passkey and the organization to sign in
     * to. Every refusal is the same 401 (unknown passkey, bad assertion, unknown organization or not a member,
     * replayed or expired challenge, suspected clone). A user-verified passkey is two factors (Part A 4.2): amr
     * `webauthn` + `mfa`, and an enrolled TOTP factor is not asked for.
     */
    async signInWithPasskey(
      input: { response: AuthenticationResponseJSON; tenantSlug: string },
      context: RequestContext,
    ): Promise<SignInResult> {
      const budget = await limiter.peek(LOGIN_FAILURES_PER_IP, context.ip);
      if (!budget.allowed) throw throttled(budget);
      const { response } = input;
      const challenge = challengeOf(response.response.clientDataJSON);
      if (!challenge) return refuse(context);
      const now = clock.now();
      // Spent before anything is checked, in its own statement: a refused answer cannot be sent again.
      const spent = await transactions.systemWrite((q) =>
        store.spendChallenge(q, { challenge, purpose: 'authentication', userId: null, now }),
      );
      if (!spent) return refuse(context);
      // Global tables (passkeys, and the account as a member of the named organization): system reads.
      const credential = await transactions.systemRead((q) => store.credentialByCredentialId(q, response.id));
      if (!credential) return refuse(context);
      const info = await verifyAssertion(response, challenge, credential);
      if (!info) return refuse(context);
      // A discoverable credential names its account; it must be the account the passkey was registered to.
      const handle = response.response.userHandle;
      if (handle && handle !== userHandleText(credential.userId)) return refuse(context);
      const member = await transactions.systemRead((q) =>
        signInSubject(q, { tenantSlug: input.tenantSlug, userId: credential.userId }),
      );
      if (counterWentBack(credential.counter, info.newCounter)) {
        // Not awaited: the refusal must take as long as any other (Part A 4.3, one generic 401).
        deps.afterAnswer.run(
          () => recordClone(credential, member, info.newCounter),
          (error) => deps.logger.warn({ err: error.message }, 'suspected passkey clone not recorded'),
        );
        return refuse(context);
      }
      if (!mayUseAccount(member)) return refuse(context);
      // An account an organization's SSO or SCIM created belongs to that organization (docs/decisions.md "SSO
      // trust model"): its passkey signs in there only, never to an organization the person reaches through it.
      if (member.ownerTenantId && member.ownerTenantId !== member.tenantId) return refuse(context);
      // As for passwords (Part A 4.1): only after the passkey verified, so it reveals nothing; owners pass.
      assertSsoAllows(member);
      const userVerified = info.userVerified;
      const result = await transactions.system(async (tx) => {
        // A concurrent sign-in moved the counter on since it was read: this one is refused.
        const advanced = await store.advanceCounter(tx, {
          id: credential.id,
          expected: credential.counter,
          counter: info.newCounter,
          now,
        });
        if (!advanced) return undefined;
        await transactions.enterTenant(tx, member.tenantId);
        // `signIn` records `user.logged_in` (with the session's amr) when the session starts.
        return deps.signIn.finishSignIn(
          tx,
          {
            tenantId: member.tenantId,
            userId: credential.userId,
            population: member.population,
            epoch: member.tokenEpoch,
            amr: userVerified ? ['webauthn', 'mfa'] : ['webauthn'],
            userAgent: context.userAgent,
            dpopJkt: context.dpopJkt,
            sourceIp: context.ip,
          },
          { multiFactor: userVerified },
        );
      });
      return result ?? refuse(context);
    },

    /** The account's passkeys' credential ids (a step-up's `allowCredentials`, and whether it has one). */
    async credentialIdsOf(q: Queryable, userId: string): Promise<string[]> {
      return (await store.credentialsOf(q, userId)).map((row) => row.credentialId);
    },

    /**
     * A step-up assertion (payment step-up): one of the account's own passkeys answering `challenge`, which the
     * caller issued and spends itself. Checked as a sign-in's is (signature, origin, RP ID, the counter moving
     * forward, a suspected clone recorded in `tenantId`), the counter advanced with `q`. Undefined when refused.
     */
    async verifyOwnAssertion(
      q: Queryable,
      input: { tenantId: string; userId: string; response: AuthenticationResponseJSON; challenge: string },
    ): Promise<{ userVerified: boolean; credentialId: string } | undefined> {
      const credential = await store.credentialByCredentialId(q, input.response.id);
      if (!credential || credential.userId !== input.userId) return undefined;
      const info = await verifyAssertion(input.response, input.challenge, credential);
      if (!info) return undefined;
      if (counterWentBack(credential.counter, info.newCounter)) {
        const member = await signInSubject(q, { tenantId: input.tenantId, userId: input.userId });
        deps.afterAnswer.run(
          () => recordClone(credential, member, info.newCounter),
          (error) => deps.logger.warn({ err: error.message }, 'suspected passkey clone not recorded'),
        );
        return undefined;
      }
      const advanced = await store.advanceCounter(q, {
        id: credential.id,
        expected: credential.counter,
        counter: info.newCounter,
        now: clock.now(),
      });
      return advanced ? { userVerified: info.userVerified, credentialId: credential.credentialId } : undefined;
    },
  };
}
