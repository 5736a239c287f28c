import { addMs, type Clock, minutes } from '../../kernel/clock.js';
import { randomSecret, sha256Hex } from '../../kernel/crypto/index.js';
import { newId } from '../../kernel/ids.js';
import type { SignInGate } from '../sign-in/index.js';
import * as store from './store.js';

/** Part A 8: an MFA challenge lives about 5 minutes. */
export const CHALLENGE_LIFETIME = minutes(5);

/**
 * The second factor as a gate of the sign-in module (Part A 4.2): an account with TOTP enabled gets a challenge
 * (`mfa_token`, answered at `POST /mfa/challenge`) instead of tokens, unless the first factor already counts as
 * two. The challenge keeps what the session will need, so its answer can finish the sign-in later.
 */
export function createSecondFactorGate(deps: { clock: Clock }): SignInGate {
  const { clock } = deps;
  return async function secondFactorGate(tx, firstFactor, options) {
    if (options.multiFactor || !(await store.isEnabled(tx, firstFactor.userId))) return 'pass';
    const token = randomSecret();
    const now = clock.now();
    await store.insertChallenge(tx, {
      id: newId(),
      tenantId: firstFactor.tenantId,
      userId: firstFactor.userId,
      tokenHash: sha256Hex(token),
      population: firstFactor.population,
      epoch: firstFactor.epoch,
      amr: firstFactor.amr,
      userAgent: firstFactor.userAgent?.slice(0, 512) ?? null,
      dpopJkt: firstFactor.dpopJkt ?? null,
      createdAt: now,
      expiresAt: addMs(now, CHALLENGE_LIFETIME),
    });
    return { mfa_required: true, mfa_token: token };
  };
}
