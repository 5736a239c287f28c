import type { Population } from '../../kernel/auth/index.js';
import { addMs, type Clock, days, seconds } from '../../kernel/clock.js';
import { randomSecret, sha256Hex } from '../../kernel/crypto/index.js';
import type { Transactions, Tx } from '../../kernel/db/index.js';
import { unauthorized } from '../../kernel/http/index.js';
import { newId } from '../../kernel/ids.js';
import { mayUseAccount, type RequestContext, type SignIn, type SignInResult, signInSubject } from '../sign-in/index.js';
import { COMPLETION_CODE_SECONDS } from './browser-binding.js';
import * as signIns from './sign-in-store.js';

export const INVALID_CODE = 'Invalid or expired code';
/**
 * Sign-in records are kept as long as the longest session (customers, 30 days): a back-channel logout naming the
 * provider's session must still find the person.
 */
const SIGN_IN_RECORD_LIFETIME = days(30);

/** A federated sign-in the identity provider vouched for, waiting for `POST /auth/sso/complete`. */
export interface VouchedSignIn {
  tenantId: string;
  protocol: 'oidc' | 'saml';
  userId: string;
  /** The provider (OIDC issuer, SAML entity id) and its id of the person (`sub`, NameID). */
  issuer: string;
  subject: string;
  /** The provider's session: OIDC `sid`, SAML `SessionIndex`; a provider logout naming it ends the sessions. */
  providerSessionId: string | null;
}

/**
 * The one-time codes that end every SSO round trip, whatever the protocol (Part A 4.6): the callback issues one
 * (60 seconds, stored as SHA-256) and `POST /auth/sso/complete` redeems it for what password login returns.
 */
export function createSignInCodes(deps: { transactions: Transactions; clock: Clock; signIn: SignIn }) {
  const { transactions, clock } = deps;
  return {
    /** Issues the code inside the callback's tenant transaction (the SAML ACS calls this too). */
    async issue(tx: Tx, vouched: VouchedSignIn): Promise<string> {
      const code = randomSecret();
      const now = clock.now();
      await signIns.purgeSignIns(tx, addMs(now, -SIGN_IN_RECORD_LIFETIME));
      await signIns.insertSignIn(tx, {
        ...vouched,
        id: newId(),
        codeHash: sha256Hex(code),
        createdAt: now,
        codeExpiresAt: addMs(now, seconds(COMPLETION_CODE_SECONDS)),
        completedAt: null,
      });
      return code;
    },

    /**
     * Spends the code (once, even when late) and signs in with amr `sso` through the sign-in module's `finishSignIn`: a
     * token pair, or an MFA challenge when the account has TOTP enrolled. 401 alike for an unknown, expired or
     * used code and an account or membership no longer active. SSO enforcement never refuses this: it is SSO.
     */
    async redeem(code: string, context: RequestContext): Promise<SignInResult> {
      const result = await transactions.system(async (tx) => {
        const now = clock.now();
        // System transaction: the code's organization is unknown until its row is found by the code's hash.
        const vouched = await signIns.spendSignIn(tx, sha256Hex(code), now);
        if (!vouched || vouched.codeExpiresAt <= now) return undefined;
        await transactions.enterTenant(tx, vouched.tenantId);
        const subject = await signInSubject(tx, { tenantId: vouched.tenantId, userId: vouched.userId });
        if (!mayUseAccount(subject)) return undefined;
        return deps.signIn.finishSignIn(tx, {
          tenantId: subject.tenantId,
          userId: subject.userId,
          population: subject.population as Population,
          epoch: subject.tokenEpoch,
          amr: ['sso'],
          userAgent: context.userAgent,
          dpopJkt: context.dpopJkt,
          sourceIp: context.ip,
        });
      });
      if (!result) throw unauthorized(INVALID_CODE);
      return result;
    },
  };
}

export type SignInCodes = ReturnType<typeof createSignInCodes>;
