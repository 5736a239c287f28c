import type { Population, Principal } from '../../kernel/auth/index.js';
import { addMs, minutes, seconds } from '../../kernel/clock.js';
import { randomSecret, sha256Hex } from '../../kernel/crypto/index.js';
import type { Tx } from '../../kernel/db/index.js';
import { forbidden, HttpError, unauthorized } from '../../kernel/http/index.js';
import { newId } from '../../kernel/ids.js';
import { type LimitPolicy, throttled } from '../../kernel/limits/index.js';
import {
  mayUseAccount,
  type RequestContext,
  requireOwnFactorSession,
  type SignInResult,
  SSO_REQUIRED,
  signInSubject,
  ssoBlocks,
} from '../sign-in/index.js';
import {
  bindingHashOf,
  COMPLETION_CODE_SECONDS,
  challengeOf,
  derivedOf,
  FederationError,
  ROUND_TRIP_SECONDS,
  returnUrl,
  tenantIdBySlug,
} from '../sso/index.js';
import { callbackPath, providerOf, type SocialDeps } from './common.js';
import { resolvePerson } from './person.js';
import { PROVIDER_IDS, type ProviderId, type SocialProvider } from './providers.js';
import * as store from './store.js';

/**
 * Starts per source address: each may write a flow row and ask the provider's metadata, so an unbounded public
 * start would be a write and request amplifier. Far above what people need.
 */
export const SOCIAL_STARTS_PER_IP: LimitPolicy = { name: 'social-start-ip', points: 60, durationSeconds: 600 };
/** Linking a provider adds a way in: like adding a passkey, it needs a sign-in this recent (docs/decisions.md). */
export const LINK_SIGN_IN_WINDOW_MS = minutes(10);
export const INVALID_CODE = 'Invalid or expired code';
const SOCIAL_SETTING = 'auth.social_login_enabled';

/**
 * Part A 4.5 social login: the round trip to Google (OpenID Connect) or GitHub (OAuth 2.0 and its API), bound to
 * the browser that started it, ending in a one-time completion code redeemed by `POST /auth/social/complete`; and
 * the same round trip started by a signed-in person to link a provider account to themselves.
 */
export function createSocialSignIn(deps: SocialDeps, providers: Map<ProviderId, SocialProvider>) {
  const { transactions, clock, limiter, events, settings } = deps;
  const redirectUriOf = (provider: ProviderId) => `${deps.config.baseUrl}${callbackPath(provider)}`;

  /** Records why a round trip of a known organization failed (Command Center; never shown to the browser). */
  async function refused(tenantId: string, provider: string, reason: string): Promise<void> {
    deps.logger.info({ tenantId, provider, reason }, 'social sign-in refused');
    await transactions.tenant(tenantId, (tx) =>
      events.emit(tx, {
        tenantId,
        actor: { id: 'social', type: 'system' },
        category: 'auth',
        action: 'social.sign_in_refused',
        severity: 'low',
        outcome: 'denied',
        data: { provider, reason },
      }),
    );
  }

  /** The provider's authorization URL for a new flow; the caller stores the flow (or, by design, does not). */
  async function authorization(provider: ProviderId, secret: string) {
    const flowId = newId();
    const state = randomSecret();
    let url: string;
    try {
      url = await providerOf(providers, provider).authorizationUrl({
        redirectUri: redirectUriOf(provider),
        state,
        nonce: derivedOf(secret, flowId, 'nonce'),
        challenge: challengeOf(derivedOf(secret, flowId, 'pkce')),
      });
    } catch (error) {
      if (!(error instanceof FederationError)) throw error;
      deps.logger.info({ provider, reason: error.reason }, 'social provider unreachable');
      throw new HttpError(502, 'The sign-in provider could not be reached; try again later');
    }
    const now = clock.now();
    const flow = {
      id: flowId,
      provider,
      stateHash: sha256Hex(state),
      browserHash: bindingHashOf(secret),
      createdAt: now,
      expiresAt: addMs(now, seconds(ROUND_TRIP_SECONDS)),
    };
    return { url, flow };
  }

  async function storeFlow(tx: Tx, row: Parameters<typeof store.insertFlow>[1]): Promise<void> {
    await store.purgeFlows(tx, addMs(clock.now(), -seconds(ROUND_TRIP_SECONDS)));
    await store.insertFlow(tx, row);
  }

  async function spendBudget(ip: string): Promise<void> {
    const budget = await limiter.consume(SOCIAL_STARTS_PER_IP, ip);
    if (!budget.allowed) throw throttled(budget);
  }

  return {
    /** `GET /auth/social/providers`: the configured ones only. */
    providers: (): ProviderId[] => PROVIDER_IDS.filter((id) => providers.has(id)),

    /** 404 for a provider this deployment did not configure (routes ask before anything else). */
    assertConfigured(provider: string): void {
      providerOf(providers, provider);
    },

    /**
     * `POST /auth/social/{provider}/start`: the provider's URL for a sign-in to the organization. The answer is
     * the same for an unknown organization and one that turned social sign-in off (nothing is stored then, and
     * the round trip ends in the generic error flag), so organizations cannot be probed here.
     */
    async start(provider: string, tenantSlug: string, browser: { secret: string; ip: string }) {
      const id = providerOf(providers, provider).id;
      await spendBudget(browser.ip);
      const { url, flow } = await authorization(id, browser.secret);
      await transactions.system(async (tx) => {
        // System read: the organization is known only by its slug until this finds it.
        const tenantId = await tenantIdBySlug(tx, tenantSlug);
        if (!tenantId) return;
        await transactions.enterTenant(tx, tenantId);
        if (!(await settings.enabled(tx, tenantId, SOCIAL_SETTING))) return;
        await storeFlow(tx, { ...flow, tenantId, purpose: 'sign_in' });
      });
      return { authorization_url: url };
    },

    /**
     * `POST /auth/social/{provider}/link/start`: the same round trip, bound to the signed-in person and session:
     * the callback links what the provider answers to them. Adding a way in needs a sign-in within 10 minutes,
     * with the second factor when TOTP is on (403 otherwise), and the organization's social sign-in on (403).
     */
    async startLink(provider: string, principal: Principal, browser: { secret: string; ip: string }) {
      const id = providerOf(providers, provider).id;
      if (!principal.userId || !principal.sessionId) throw unauthorized();
      // An SSO session is confined to its organization (docs/decisions.md "SSO trust model").
      await requireOwnFactorSession(deps, principal);
      await deps.accounts.assertRecentSignIn(principal, {
        withinMs: LINK_SIGN_IN_WINDOW_MS,
        needsMfa: await deps.mfaEnabled(principal.userId),
      });
      await spendBudget(browser.ip);
      const { url, flow } = await authorization(id, browser.secret);
      await transactions.tenant(principal.tenantId, async (tx) => {
        if (!(await settings.enabled(tx, principal.tenantId, SOCIAL_SETTING))) {
          throw forbidden('Social sign-in is turned off for this organization');
        }
        await storeFlow(tx, {
          ...flow,
          tenantId: principal.tenantId,
          purpose: 'link',
          linkUserId: principal.userId,
          linkSessionId: principal.sessionId,
        });
      });
      return { authorization_url: url };
    },

    /**
     * `GET /auth/social/{provider}/callback`: always answers where to send the browser. A sign-in goes to the
     * app with `social_code` (60 seconds, single use), a link with `social_linked=<provider>`; every failure alike
     * with `social_error=true`: unknown or spent state, another browser, a round trip over 10 minutes, a provider
     * error, a token that fails verification, an unverified provider email, social sign-in turned off, no
     * account the organization may sign in (customer sign-up off), an identity linked to someone else.
     */
    async callback(
      provider: string,
      query: { code?: string | undefined; state?: string | undefined; error?: string | undefined },
      browserSecret: string | undefined,
    ): Promise<string> {
      const id = providerOf(providers, provider).id;
      const failed = returnUrl(deps.config.signInReturnUrl, { social_error: 'true' });
      if (!query.state || !browserSecret || (query.code && query.code.length > 2048)) return failed;
      const now = clock.now();
      const flow = await transactions.system((tx) =>
        store.spendState(
          tx,
          { stateHash: sha256Hex(query.state!), browserHash: bindingHashOf(browserSecret), provider: id },
          now,
        ),
      );
      if (!flow) return failed;
      try {
        if (flow.expiresAt <= now) throw new FederationError('round trip took longer than 10 minutes');
        if (query.error || !query.code) throw new FederationError(`provider answered error ${query.error ?? ''}`);
        const identity = await providerOf(providers, id).identity({
          code: query.code,
          redirectUri: redirectUriOf(id),
          verifier: derivedOf(browserSecret, flow.id, 'pkce'),
          nonce: derivedOf(browserSecret, flow.id, 'nonce'),
        });
        if (!identity.email || !identity.emailVerified) {
          throw new FederationError('the provider email is missing or not verified');
        }
        const verified = { ...identity, email: identity.email.trim() };
        const outcome = await transactions.tenant(flow.tenantId, async (tx) => {
          if (!(await settings.enabled(tx, flow.tenantId, SOCIAL_SETTING))) {
            return { refused: 'social sign-in is turned off' };
          }
          const resolved = await resolvePerson(deps, tx, flow, verified);
          if ('refused' in resolved) return resolved;
          if (flow.purpose === 'link') return { linked: true as const };
          const code = randomSecret();
          await store.setCompletion(tx, flow.tenantId, flow.id, {
            userId: resolved.userId,
            completionHash: sha256Hex(code),
            completionExpiresAt: addMs(now, seconds(COMPLETION_CODE_SECONDS)),
          });
          return { code };
        });
        if ('refused' in outcome) throw new FederationError(outcome.refused);
        if ('linked' in outcome) return returnUrl(deps.config.signInReturnUrl, { social_linked: id });
        return returnUrl(deps.config.signInReturnUrl, { social_code: outcome.code });
      } catch (error) {
        if (!(error instanceof FederationError)) throw error;
        await refused(flow.tenantId, id, error.reason);
        return failed;
      }
    },

    /**
     * `POST /auth/social/complete`: spends the code (once, even when late) and signs in with amr `social`
     * through the sign-in module's `finishSignIn` (a token pair, or the MFA challenge when TOTP is enrolled). 401 alike
     * for an unknown, expired or used code, an account or membership no longer active and social sign-in turned
     * off since; 403 when the organization requires SSO of a member who is not an owner.
     */
    async complete(code: string, context: RequestContext): Promise<SignInResult> {
      const outcome = await transactions.system(async (tx) => {
        const now = clock.now();
        // System transaction: the code's organization is unknown until its row is found by the code's hash.
        const flow = await store.spendCompletion(tx, sha256Hex(code), now);
        if (!flow?.userId || !flow.completionExpiresAt || flow.completionExpiresAt <= now) return undefined;
        await transactions.enterTenant(tx, flow.tenantId);
        const subject = await signInSubject(tx, { tenantId: flow.tenantId, userId: flow.userId });
        if (!mayUseAccount(subject) || !(await settings.enabled(tx, flow.tenantId, SOCIAL_SETTING))) return undefined;
        // Checked only once the provider proved the person, like the password sign-in's SSO check.
        if (ssoBlocks(subject)) return 'sso-required' as const;
        return deps.signIn.finishSignIn(tx, {
          tenantId: subject.tenantId,
          userId: subject.userId,
          population: subject.population as Population,
          epoch: subject.tokenEpoch,
          amr: ['social'],
          userAgent: context.userAgent,
          dpopJkt: context.dpopJkt,
          sourceIp: context.ip,
        });
      });
      if (outcome === 'sso-required') throw forbidden(SSO_REQUIRED);
      if (!outcome) throw unauthorized(INVALID_CODE);
      return outcome;
    },
  };
}

export type SocialSignIn = ReturnType<typeof createSocialSignIn>;
