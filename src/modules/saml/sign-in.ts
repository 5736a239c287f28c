import { randomBytes } from 'node:crypto';
import { addMs, seconds } from '../../kernel/clock.js';
import type { Tx } from '../../kernel/db/index.js';
import { notFound } from '../../kernel/http/index.js';
import { isUuid } from '../../kernel/ids.js';
import { throttled } from '../../kernel/limits/index.js';
import {
  bindingHashOf,
  ROUND_TRIP_SECONDS,
  recordSignInRefusal,
  returnUrl,
  SSO_STARTS_PER_IP,
  tenantIdBySlug,
  usableEmail,
} from '../sso/index.js';
import { envelopeOf, SamlRefusal, verifyResponse } from './assertion.js';
import { NOT_CONFIGURED, type SamlDeps, serviceProviderOf } from './common.js';
import { serviceProviderSaml } from './service-provider.js';
import * as store from './store.js';

/** The ACS form (HTTP-POST binding, SAML 2.0 bindings 3.5.4). */
export interface AcsForm {
  SAMLResponse?: string | undefined;
  RelayState?: string | undefined;
}

/**
 * Part A 4.6 sign-in through the organization's SAML 2.0 identity provider (Web Browser SSO profile, SP-initiated):
 * an AuthnRequest over the HTTP-Redirect binding, the response over HTTP-POST to the organization's ACS, which
 * provisions the person and ends in the one-time code of every SSO round trip.
 */
export function createSamlSignIn(deps: SamlDeps) {
  const { transactions, clock, limiter, config } = deps;

  async function enabledConnection(tx: Tx, tenantId: string) {
    const connection = await store.connectionOf(tx, tenantId);
    return connection?.enabled ? connection : undefined;
  }

  async function refused(tenantId: string, reason: string, detail?: string): Promise<void> {
    deps.logger.info({ tenantId, reason }, 'saml sign-in refused');
    await recordSignInRefusal(deps, { tenantId, protocol: 'saml', reason, detail });
  }

  /**
   * The identity provider's URL carrying a new AuthnRequest (unsigned, HTTP-Redirect binding, DEFLATE) for an
   * organization with an enabled SAML connection; undefined otherwise. The request's id is stored for
   * `InResponseTo`, bound to the browser's secret, for about 10 minutes.
   */
  async function startForTenant(
    tenantId: string,
    browserSecret: string,
  ): Promise<{ authorization_url: string } | undefined> {
    return transactions.tenant(tenantId, async (tx) => {
      const connection = await enabledConnection(tx, tenantId);
      if (!connection) return undefined;
      // An xsd:ID is an NCName (no leading digit); 160 random bits, as SAML 2.0 core 1.3.4 recommends.
      const requestId = `_${randomBytes(20).toString('hex')}`;
      const sp = serviceProviderOf(config.baseUrl, tenantId);
      const url = await serviceProviderSaml(connection, sp, { requestId }).getAuthorizeUrlAsync('', undefined, {});
      const now = clock.now();
      await store.purgeRequests(tx, tenantId, addMs(now, -seconds(ROUND_TRIP_SECONDS)));
      await store.insertRequest(tx, {
        tenantId,
        id: requestId,
        browserHash: bindingHashOf(browserSecret),
        createdAt: now,
        expiresAt: addMs(now, seconds(ROUND_TRIP_SECONDS)),
        spentAt: null,
      });
      return { authorization_url: url };
    });
  }

  return {
    startForTenant,

    /**
     * `POST /auth/sso/saml/start`: by the organization's slug. 404 alike for an unknown organization and one
     * without an enabled SAML connection (dormant); 429 past the per-address budget every SSO start shares.
     */
    async start(tenantSlug: string, browser: { secret: string; ip: string }): Promise<{ authorization_url: string }> {
      const budget = await limiter.consume(SSO_STARTS_PER_IP, browser.ip);
      if (!budget.allowed) throw throttled(budget);
      // System read: the organization is known only by its slug until this finds it.
      const tenantId = await transactions.system((tx) => tenantIdBySlug(tx, tenantSlug));
      const started = tenantId ? await startForTenant(tenantId, browser.secret) : undefined;
      if (!started) throw notFound(NOT_CONFIGURED);
      return started;
    },

    /**
     * The ACS (`POST /auth/sso/saml/{tenant}/acs`). 404 while the organization has no enabled SAML connection
     * (dormant). Otherwise answers where to send the browser: the app with `sso_code`, or with `sso_error=true`
     * for every failure alike (see `verifyResponse`; also a request not issued to this browser, already answered or
     * older than 10 minutes, a replayed assertion, no usable email, an address outside `allowed_domains`, no
     * account the organization may sign in). Each failure is recorded with its reason.
     */
    async acs(tenantId: string, form: AcsForm, browserSecret: string | undefined): Promise<string> {
      const connection = isUuid(tenantId)
        ? await transactions.tenant(tenantId, (tx) => enabledConnection(tx, tenantId))
        : undefined;
      if (!connection) throw notFound(NOT_CONFIGURED);
      const sp = serviceProviderOf(config.baseUrl, tenantId);
      try {
        if (!form.SAMLResponse) throw new SamlRefusal('no_saml_response');
        const envelope = envelopeOf(form.SAMLResponse);
        if (!browserSecret) throw new SamlRefusal('browser_not_bound');
        const request = { tenantId, id: envelope.inResponseTo ?? '', browserHash: bindingHashOf(browserSecret) };
        // Before any signature work: only responses to an open request of this browser are worth checking.
        if (!envelope.inResponseTo) throw new SamlRefusal('unsolicited_response');
        const open = await transactions.tenant(tenantId, (tx) => store.openRequestExists(tx, request, clock.now()));
        if (!open) throw new SamlRefusal('unknown_request');
        const verified = await verifyResponse(connection, sp, envelope, clock.now());
        const email = usableEmail(verified.email);
        if (email === undefined) throw new SamlRefusal('no_usable_email');
        // One transaction whose refusals are answers, not errors: the assertion id stays remembered and the request
        // spent even when the person is then refused, so neither can be tried again.
        const outcome = await transactions.tenant(
          tenantId,
          async (tx): Promise<{ code: string } | { refused: string }> => {
            const now = clock.now();
            const fresh = await store.rememberMessage(
              tx,
              { tenantId, kind: 'assertion', messageId: verified.assertionId, expiresAt: verified.acceptableUntil },
              now,
            );
            if (!fresh) return { refused: 'assertion_replayed' };
            if (!(await store.spendRequest(tx, { ...request, id: verified.inResponseTo }, now))) {
              return { refused: 'unknown_request' };
            }
            const person = await deps.provision(
              tx,
              {
                tenantId,
                protocol: 'saml',
                issuer: connection.idpEntityId,
                subject: verified.nameId,
                email,
                name: verified.name,
                givenName: verified.givenName,
                familyName: verified.familyName,
              },
              connection.allowedDomains,
            );
            if ('refused' in person) return person;
            const code = await deps.signInCodes.issue(tx, {
              tenantId,
              protocol: 'saml',
              userId: person.userId,
              issuer: connection.idpEntityId,
              subject: verified.nameId,
              providerSessionId: verified.sessionIndex?.slice(0, 255) ?? null,
            });
            return { code };
          },
        );
        if ('refused' in outcome) throw new SamlRefusal(outcome.refused);
        return returnUrl(config.signInReturnUrl, { sso_code: outcome.code });
      } catch (error) {
        if (!(error instanceof SamlRefusal)) throw error;
        await refused(tenantId, error.reason, error.detail);
        return returnUrl(config.signInReturnUrl, { sso_error: 'true' });
      }
    },
  };
}

export type SamlSignIn = ReturnType<typeof createSamlSignIn>;
