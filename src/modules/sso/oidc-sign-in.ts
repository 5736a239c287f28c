import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { addMs, seconds } from '../../kernel/clock.js';
import { randomSecret, sha256Hex } from '../../kernel/crypto/index.js';
import type { Tx } from '../../kernel/db/index.js';
import { HttpError, notFound } from '../../kernel/http/index.js';
import { isUuid, newId } from '../../kernel/ids.js';
import { type LimitPolicy, throttled } from '../../kernel/limits/index.js';
import { bindingHashOf, challengeOf, derivedOf, ROUND_TRIP_SECONDS, returnUrl } from './browser-binding.js';
import { NOT_CONFIGURED, recordSignInRefusal, type SsoDeps } from './common.js';
import { type ProvisioningDeps, provisionPerson, usableEmail } from './provisioning.js';
import { FederationError, type RelyingParty } from './relying-party.js';
import type { SignInCodes } from './sign-in-codes.js';
import * as signIns from './sign-in-store.js';
import * as store from './store.js';

/**
 * Starts of federated round trips per source address: each writes a flow row and asks the identity provider's
 * metadata, so an unbounded public start would be a write and request amplifier. Far above what people need.
 */
export const SSO_STARTS_PER_IP: LimitPolicy = { name: 'sso-start-ip', points: 60, durationSeconds: 600 };

/**
 * The SAML module's start (Part A 4.6: `POST /auth/sso/start` is protocol-agnostic). It answers the identity
 * provider's URL, bound to the browser's SAML secret, when the organization has an enabled SAML connection;
 * undefined otherwise.
 */
export type SamlStart = (tenantId: string, browserSecret: string) => Promise<{ authorization_url: string } | undefined>;

/**
 * What the SAML module attaches (see `attachSaml`): its start, and its browser binding (the SAML flow's cookie has
 * its own name, path and SameSite), which `POST /auth/sso/start` sets when it starts SAML.
 */
export interface SamlSignIn {
  start: SamlStart;
  binding: { secretFor(request: FastifyRequest): string; remember(reply: FastifyReply, secret: string): void };
}

export type OidcSignInDeps = SsoDeps &
  ProvisioningDeps & {
    config: Pick<Config, 'baseUrl' | 'signInReturnUrl'>;
    relyingParty: RelyingParty;
    codes: SignInCodes;
    /** The connection's client secret in clear (sso/oidc-config.ts); undefined while it has none (a scaffold). */
    openSecret(row: store.OidcConnectionRow): string | undefined;
    /** The SAML module's start, once it is attached (sso/index.ts). */
    samlStart(): SamlStart | undefined;
    logger: { info(obj: object, msg: string): void };
  };

const callbackPath = (tenantId: string) => `/api/v1/auth/sso/oidc/${tenantId}/callback`;

/**
 * Part A 4.6 sign-in through the organization's OpenID Connect identity provider: authorization code flow with
 * PKCE (S256), `state` and `nonce`, bound to the browser that started it; the callback provisions the person and
 * ends in a one-time code for `POST /auth/sso/complete`.
 */
export function createOidcSignIn(deps: OidcSignInDeps) {
  const { transactions, clock, relyingParty, codes, limiter } = deps;

  /**
   * The enabled connection of an organization, read in its transaction; undefined when there is none. A connection
   * without a secret (a manifest's scaffold) is never enabled (a check constraint), and never used either way.
   */
  async function enabledConnection(tx: Tx, tenantId: string) {
    const connection = await store.connectionOf(tx, tenantId);
    return connection?.enabled && connection.clientSecretSealed !== null ? connection : undefined;
  }

  async function refused(tenantId: string, reason: string): Promise<void> {
    deps.logger.info({ tenantId, reason }, 'sso sign-in refused');
    await recordSignInRefusal(deps, { tenantId, protocol: 'oidc', reason });
  }

  return {
    /**
     * `POST /auth/sso/start` (Part A 4.6): the identity provider's authorization URL for the organization. Its
     * OIDC connection when enabled, else its SAML connection (when that module is attached); 404 alike when it has
     * neither and when the organization is unknown (dormant). 502 when the provider's metadata cannot be read.
     * Answers which protocol it started, so the caller sets that protocol's browser cookie.
     */
    async start(
      tenantSlug: string,
      browser: { secret: string; samlSecret?: string | undefined; ip: string },
    ): Promise<{ answer: { authorization_url: string }; protocol: 'oidc' | 'saml' }> {
      const budget = await limiter.consume(SSO_STARTS_PER_IP, browser.ip);
      if (!budget.allowed) throw throttled(budget);
      const found = await transactions.system(async (tx) => {
        // System read: the organization is known only by its slug until this finds it.
        const tenantId = await signIns.tenantIdBySlug(tx, tenantSlug);
        if (!tenantId) return undefined;
        await transactions.enterTenant(tx, tenantId);
        return { tenantId, connection: await enabledConnection(tx, tenantId) };
      });
      if (!found) throw notFound(NOT_CONFIGURED);
      const { tenantId, connection } = found;
      if (!connection) {
        const samlStart = deps.samlStart();
        const saml = samlStart && browser.samlSecret ? await samlStart(tenantId, browser.samlSecret) : undefined;
        if (saml) return { answer: saml, protocol: 'saml' };
        throw notFound(NOT_CONFIGURED);
      }
      let metadata: Awaited<ReturnType<RelyingParty['discover']>>;
      try {
        metadata = await relyingParty.discover(connection.issuer);
      } catch (error) {
        if (!(error instanceof FederationError)) throw error;
        await refused(tenantId, error.reason);
        throw new HttpError(502, 'The identity provider could not be reached; try again later');
      }
      const flowId = newId();
      const state = randomSecret();
      const now = clock.now();
      const authorizationUrl = relyingParty.authorizationUrl(metadata, {
        clientId: connection.clientId,
        redirectUri: `${deps.config.baseUrl}${callbackPath(tenantId)}`,
        scope: connection.scopes.join(' '),
        state,
        nonce: derivedOf(browser.secret, flowId, 'nonce'),
        challenge: challengeOf(derivedOf(browser.secret, flowId, 'pkce')),
      });
      await transactions.tenant(tenantId, async (tx) => {
        await signIns.purgeFlows(tx, addMs(now, -seconds(ROUND_TRIP_SECONDS)));
        await signIns.insertFlow(tx, {
          tenantId,
          id: flowId,
          stateHash: sha256Hex(state),
          browserHash: bindingHashOf(browser.secret),
          createdAt: now,
          expiresAt: addMs(now, seconds(ROUND_TRIP_SECONDS)),
          spentAt: null,
        });
      });
      return { answer: { authorization_url: authorizationUrl }, protocol: 'oidc' };
    },

    /**
     * The identity provider's redirect back (`GET /auth/sso/oidc/{tenant}/callback`). Always answers where to
     * send the browser: the app with `sso_code`, or with `sso_error=true` for every failure alike (unknown or
     * spent state, another browser, a round trip over 10 minutes, a provider error, an ID token that fails
     * OIDC Core 3.1.3.7, an address outside `allowed_domains`, no account the organization may sign in).
     */
    async callback(
      tenantId: string,
      query: { code?: string | undefined; state?: string | undefined; error?: string | undefined },
      browserSecret: string | undefined,
    ): Promise<string> {
      const failed = returnUrl(deps.config.signInReturnUrl, { sso_error: 'true' });
      if (!isUuid(tenantId) || !query.state || !browserSecret) return failed;
      const now = clock.now();
      const opened = await transactions.tenant(tenantId, async (tx) => {
        const flow = await signIns.spendFlow(
          tx,
          { tenantId, stateHash: sha256Hex(query.state!), browserHash: bindingHashOf(browserSecret) },
          now,
        );
        if (!flow) return undefined;
        return { flow, connection: await enabledConnection(tx, tenantId) };
      });
      if (!opened) return failed;
      const { flow, connection } = opened;
      try {
        if (flow.expiresAt <= now) throw new FederationError('round trip took longer than 10 minutes');
        if (!connection) throw new FederationError('the connection was removed or disabled');
        if (query.error || !query.code) throw new FederationError(`provider answered error ${query.error ?? ''}`);
        const metadata = await relyingParty.discover(connection.issuer);
        const clientSecret = deps.openSecret(connection);
        if (clientSecret === undefined) throw new FederationError('the connection has no client secret');
        const client = { clientId: connection.clientId, clientSecret };
        const tokens = await relyingParty.exchangeCode(metadata, client, {
          code: query.code,
          redirectUri: `${deps.config.baseUrl}${callbackPath(tenantId)}`,
          verifier: derivedOf(browserSecret, flow.id, 'pkce'),
        });
        const idToken = await relyingParty.verifyIdToken(metadata, tokens.idToken, {
          clientId: connection.clientId,
          nonce: derivedOf(browserSecret, flow.id, 'nonce'),
        });
        // Providers that keep scope claims out of the ID token answer them at UserInfo (OIDC Core 5.4).
        const claims: Record<string, unknown> =
          typeof idToken.email !== 'string' && tokens.accessToken && relyingParty.hasUserinfo(metadata)
            ? { ...(await relyingParty.userinfo(metadata, tokens.accessToken, idToken.sub)), ...idToken }
            : idToken;
        const email = usableEmail(claims.email);
        if (email === undefined) throw new FederationError('the provider sent no usable email');
        // The organization's own provider vouches for its directory; only an explicit "not verified" is refused.
        if (claims.email_verified === false || claims.email_verified === 'false') {
          throw new FederationError('the provider says the email is not verified');
        }
        const text = (name: string) =>
          typeof claims[name] === 'string' ? (claims[name] as string).slice(0, 255) || null : null;
        const code = await transactions.tenant(tenantId, async (tx) => {
          const outcome = await provisionPerson(
            deps,
            tx,
            {
              tenantId,
              protocol: 'oidc',
              issuer: connection.issuer,
              subject: idToken.sub,
              email,
              name: text('name'),
              givenName: text('given_name'),
              familyName: text('family_name'),
            },
            connection.allowedDomains,
            connection.defaultRole,
          );
          if ('refused' in outcome) return outcome;
          return codes.issue(tx, {
            tenantId,
            protocol: 'oidc',
            userId: outcome.userId,
            issuer: connection.issuer,
            subject: idToken.sub,
            providerSessionId: typeof idToken.sid === 'string' ? idToken.sid.slice(0, 255) : null,
          });
        });
        if (typeof code !== 'string') throw new FederationError(code.refused);
        return returnUrl(deps.config.signInReturnUrl, { sso_code: code });
      } catch (error) {
        if (!(error instanceof FederationError)) throw error;
        await refused(tenantId, error.reason);
        return failed;
      }
    },
  };
}

export type OidcSignIn = ReturnType<typeof createOidcSignIn>;
