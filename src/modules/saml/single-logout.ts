import { inflateRawSync } from 'node:zlib';
import { addMs, minutes } from '../../kernel/clock.js';
import { badRequest, notFound } from '../../kernel/http/index.js';
import { isUuid } from '../../kernel/ids.js';
import { CLOCK_SKEW_MS, NOT_CONFIGURED, type SamlDeps, serviceProviderOf } from './common.js';
import { serviceProviderSaml } from './service-provider.js';
import * as store from './store.js';
import { attributeOf, childrenOf, is, NS, parseXml, textOf, XmlRefused } from './xml.js';

export const SLO_NOT_CONFIGURED =
  'SAML single logout is not configured for this organization: its connection has no slo_url';

/** A LogoutRequest is accepted this long after its IssueInstant (its id is remembered as long). */
const LOGOUT_REQUEST_LIFETIME_MS = minutes(5);
/** An inflated LogoutRequest over this is refused (a few hundred bytes is usual; DEFLATE bombs are not). */
const MAX_LOGOUT_REQUEST_BYTES = 64 * 1024;
/** SAML 2.0 bindings 3.4.4.1 signature algorithms accepted: SHA-1 is refused. */
const SIGNATURE_ALGORITHMS = new Set([
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha512',
]);

export type SloQuery = {
  SAMLRequest?: string | undefined;
  SAMLResponse?: string | undefined;
  RelayState?: string | undefined;
  SigAlg?: string | undefined;
  Signature?: string | undefined;
};

const instant = (value: string | undefined) => {
  const ms = value ? Date.parse(value) : Number.NaN;
  return Number.isNaN(ms) ? undefined : ms;
};

/**
 * `GET /auth/sso/saml/{tenant}/slo` (Part A 3 and 4.6; SAML 2.0 profiles 4.4, IdP-initiated single logout over the
 * HTTP-Redirect binding): the organization's identity provider signs a person out, and their SSO sessions here end.
 */
export function createSingleLogout(deps: SamlDeps) {
  const { transactions, clock, events, sessions, config } = deps;

  return {
    /**
     * Validates the LogoutRequest: signed with the redirect binding's query signature (SHA-256 or stronger) by a
     * configured certificate, issued by the configured identity provider, sent to this endpoint, recent (5 minutes
     * after IssueInstant, 60 s skew), not seen before. Then ends the live SSO sessions of the person its NameID
     * names (only when they signed in through one of its SessionIndexes, if it names any) and answers the
     * LogoutResponse URL at the identity provider (Success; also when nobody was signed in any more). 404 while the
     * organization has no enabled SAML connection or no `slo_url` (dormant); 400 for a request that fails
     * validation (no LogoutResponse: nothing proves who asked).
     */
    async receive(tenantId: string, query: SloQuery, rawQuery: string): Promise<string> {
      const connection = isUuid(tenantId)
        ? await transactions.tenant(tenantId, (tx) => store.connectionOf(tx, tenantId))
        : undefined;
      if (!connection?.enabled) throw notFound(NOT_CONFIGURED);
      if (!connection.sloUrl) throw notFound(SLO_NOT_CONFIGURED);
      if (!query.SAMLRequest) {
        throw badRequest('SAMLRequest is required: this endpoint takes logout requests of the identity provider');
      }
      if (!query.Signature || !query.SigAlg) {
        throw badRequest('The LogoutRequest must be signed (HTTP-Redirect binding: SigAlg and Signature)');
      }
      if (!SIGNATURE_ALGORITHMS.has(query.SigAlg)) throw badRequest('SigAlg: RSA with SHA-256 or SHA-512 is required');
      let xml: string;
      try {
        xml = inflateRawSync(Buffer.from(query.SAMLRequest, 'base64'), {
          maxOutputLength: MAX_LOGOUT_REQUEST_BYTES,
        }).toString('utf8');
      } catch {
        throw badRequest('SAMLRequest: not a DEFLATE-encoded message of at most 64 KiB');
      }
      let root: ReturnType<typeof parseXml>;
      try {
        root = parseXml(xml);
      } catch (error) {
        if (error instanceof XmlRefused) throw badRequest(`SAMLRequest: ${error.message}`);
        throw error;
      }
      if (!is(root, NS.protocol, 'LogoutRequest')) throw badRequest('SAMLRequest: not a LogoutRequest');
      const sp = serviceProviderOf(config.baseUrl, tenantId);
      const saml = serviceProviderSaml(connection, sp);
      let profile: Awaited<ReturnType<typeof saml.validateRedirectAsync>>['profile'];
      try {
        ({ profile } = await saml.validateRedirectAsync(query, rawQuery));
      } catch (error) {
        const message = error instanceof Error ? error.message : '';
        throw badRequest(
          /issuer/i.test(message)
            ? 'Invalid LogoutRequest: not issued by the configured identity provider'
            : /signature/i.test(message)
              ? 'Invalid LogoutRequest: the signature does not verify with a configured certificate'
              : 'Invalid LogoutRequest',
        );
      }
      if (!profile?.ID || !profile.nameID) throw badRequest('Invalid LogoutRequest: no ID or NameID');
      const destination = attributeOf(root, 'Destination');
      if (destination !== undefined && destination !== sp.slo_url) {
        throw badRequest('Invalid LogoutRequest: its Destination is not this endpoint');
      }
      const now = clock.now();
      const issued = instant(attributeOf(root, 'IssueInstant'));
      const notOnOrAfter = instant(attributeOf(root, 'NotOnOrAfter'));
      if (
        issued === undefined ||
        now.getTime() + CLOCK_SKEW_MS < issued ||
        now.getTime() - CLOCK_SKEW_MS >= issued + LOGOUT_REQUEST_LIFETIME_MS ||
        (notOnOrAfter !== undefined && now.getTime() - CLOCK_SKEW_MS >= notOnOrAfter)
      ) {
        throw badRequest('Invalid LogoutRequest: expired or not yet valid (IssueInstant, NotOnOrAfter)');
      }
      const nameId = profile.nameID;
      const sessionIndexes = childrenOf(root, NS.protocol, 'SessionIndex')
        .map((element) => textOf(element))
        .filter((value): value is string => value !== undefined);
      await transactions.tenant(tenantId, async (tx) => {
        const fresh = await store.rememberMessage(
          tx,
          {
            tenantId,
            kind: 'logout_request',
            messageId: profile.ID!,
            expiresAt: addMs(new Date(issued), LOGOUT_REQUEST_LIFETIME_MS + CLOCK_SKEW_MS),
          },
          now,
        );
        if (!fresh) throw badRequest('Invalid LogoutRequest: replayed');
        const key = { tenantId, issuer: connection.idpEntityId };
        const userId = await store.userOfNameId(tx, { ...key, nameId });
        // SessionIndexes named: only a person signed in through one of those provider sessions (core 3.7.3.2).
        const concerned =
          userId !== undefined &&
          (sessionIndexes.length === 0 ||
            (await store.signedInWithSessionIndex(tx, { ...key, userId, sessionIndexes })));
        if (!concerned) return;
        const live = await store.liveSsoSessionsOf(tx, tenantId, userId, now);
        let ended = 0;
        for (const sessionId of live) if (await sessions.revoke(tx, sessionId, 'idp_logout')) ended += 1;
        await events.emit(tx, {
          tenantId,
          actor: { id: 'identity-provider', type: 'system' },
          category: 'session',
          action: 'sso.single_logout',
          severity: 'info',
          subjectUserId: userId,
          data: { user_id: userId, protocol: 'saml', sessions: ended },
        });
      });
      // SAML 2.0 bindings 3.4.3: the RelayState of the request comes back unchanged.
      return saml.getLogoutResponseUrlAsync(profile, query.RelayState ?? '', {}, true);
    },
  };
}

export type SingleLogout = ReturnType<typeof createSingleLogout>;
