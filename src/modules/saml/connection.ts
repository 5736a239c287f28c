import type { Principal } from '../../kernel/auth/index.js';
import { notFound, unprocessable } from '../../kernel/http/index.js';
import { isUuid } from '../../kernel/ids.js';
import { validDomains } from '../sso/common.js';
import { type CertificateDetails, detailsOf, pemOf, validCertificates } from './certificates.js';
import {
  assertPlanAllowsSso,
  configured,
  emitAdmin,
  NOT_CONFIGURED,
  type SamlDeps,
  type ServiceProvider,
  serviceProviderOf,
} from './common.js';
import { describeIdentityProvider } from './idp-metadata.js';
import { serviceProviderMetadata } from './service-provider.js';
import * as store from './store.js';

export interface SamlConfigInput {
  idp_entity_id: string;
  sso_url: string;
  slo_url?: string | null | undefined;
  idp_certificates: string[];
  allowed_domains?: string[] | undefined;
  enabled?: boolean | undefined;
}

export interface SamlConfigView {
  idp_entity_id: string;
  sso_url: string;
  slo_url: string | null;
  /** PEM, in the order given. */
  idp_certificates: string[];
  certificates: CertificateDetails[];
  allowed_domains: string[];
  enabled: boolean;
  created_at: string;
  updated_at: string;
}

/** SAML 2.0 metadata 2.3.2: an entityID is a URI of at most 1024 characters; compared exactly, never normalised. */
export function validEntityId(raw: string): string {
  if (raw.length === 0 || raw.length > 1024 || /[\s\p{Cc}]/u.test(raw)) {
    throw unprocessable('idp_entity_id: must be 1 to 1024 characters without white space');
  }
  return raw;
}

/**
 * An identity provider endpoint the browser is sent to (never fetched by this service): an absolute https URL
 * without credentials or fragment. A query is kept (some providers name the application in it).
 */
export function validEndpoint(raw: string, field: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw unprocessable(`${field}: must be an absolute URL`);
  }
  if (url.protocol !== 'https:') throw unprocessable(`${field}: must use https`);
  if (url.username || url.password) throw unprocessable(`${field}: must not carry credentials`);
  if (url.hash) throw unprocessable(`${field}: must not carry a fragment`);
  return raw;
}

export function viewOf(row: store.SamlConnectionRow): SamlConfigView {
  return {
    idp_entity_id: row.idpEntityId,
    sso_url: row.ssoUrl,
    slo_url: row.sloUrl,
    idp_certificates: row.idpCertificates.map(pemOf),
    certificates: row.idpCertificates.map(detailsOf),
    allowed_domains: row.allowedDomains,
    enabled: row.enabled,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/**
 * `GET|PUT|DELETE /tenants/sso/saml`, `POST /tenants/sso/saml/import-metadata` and `GET /tenants/sso/saml/sp`
 * (Part A 4.6, `tenant:manage`), with the OIDC connection's plan and dormancy rules.
 */
export function createSamlConnectionService(deps: SamlDeps) {
  const { transactions, events, clock, config } = deps;

  /**
   * Creates or replaces the connection (PUT semantics: an omitted optional field takes its default). The input is
   * read once the plan allows SSO, so a plan refusal (403) comes before any complaint about the input (422).
   */
  async function put(
    principal: Principal,
    readInput: () => SamlConfigInput,
    source: 'api' | 'metadata',
  ): Promise<{ view: SamlConfigView; created: boolean }> {
    await deps.connectionChanges.assertAllowed(principal);
    return transactions.tenant(principal.tenantId, async (tx) => {
      await assertPlanAllowsSso(deps, tx, principal.tenantId);
      const input = readInput();
      const previous = await store.connectionOf(tx, principal.tenantId, true);
      const now = clock.now();
      const row: store.SamlConnectionRow = {
        tenantId: principal.tenantId,
        idpEntityId: validEntityId(input.idp_entity_id),
        ssoUrl: validEndpoint(input.sso_url, 'sso_url'),
        sloUrl: input.slo_url ? validEndpoint(input.slo_url, 'slo_url') : null,
        idpCertificates: validCertificates(input.idp_certificates),
        // Metadata does not carry these: an import keeps the current values.
        allowedDomains: source === 'metadata' ? (previous?.allowedDomains ?? []) : validDomains(input.allowed_domains),
        enabled: source === 'metadata' ? (previous?.enabled ?? true) : (input.enabled ?? true),
        createdAt: previous?.createdAt ?? now,
        updatedAt: now,
      };
      if (previous) await store.updateConnection(tx, principal.tenantId, row);
      else await store.insertConnection(tx, row);
      const view = viewOf(row);
      await emitAdmin(
        events,
        tx,
        principal,
        'sso.saml_configured',
        {
          protocol: 'saml',
          created: !previous,
          source,
          idp_entity_id: row.idpEntityId,
          sso_url: row.ssoUrl,
          slo_url: row.sloUrl,
          certificate_fingerprints: view.certificates.map((certificate) => certificate.fingerprint_sha256),
          allowed_domains: row.allowedDomains,
          enabled: row.enabled,
        },
        'high',
      );
      await deps.connectionChanges.record(tx, principal, {
        action: 'sso.saml_configured',
        summary: `The SAML identity provider was ${previous ? 'changed' : 'configured'}: ${row.idpEntityId}.`,
      });
      return { view, created: !previous };
    });
  }

  return {
    async get(principal: Principal): Promise<SamlConfigView> {
      return transactions.tenant(principal.tenantId, async (tx) => viewOf(await configured(tx, principal.tenantId)));
    },

    put: (principal: Principal, input: SamlConfigInput) => put(principal, () => input, 'api'),

    /**
     * Fills the connection from the identity provider's metadata: entity id, endpoints and certificates come from
     * the document; `allowed_domains` and `enabled` keep their current values (defaults on a new connection), as
     * metadata does not carry them.
     */
    async importMetadata(principal: Principal, xml: string): Promise<{ view: SamlConfigView; created: boolean }> {
      return put(
        principal,
        () => {
          const described = describeIdentityProvider(xml);
          return {
            idp_entity_id: described.idpEntityId,
            sso_url: described.ssoUrl,
            slo_url: described.sloUrl,
            idp_certificates: described.certificates,
          };
        },
        'metadata',
      );
    },

    /** Removes the connection: SAML is dormant again, and requests still open can no longer be answered. */
    async remove(principal: Principal): Promise<void> {
      await deps.connectionChanges.assertAllowed(principal);
      await transactions.tenant(principal.tenantId, async (tx) => {
        const removed = await store.deleteConnection(tx, principal.tenantId);
        if (!removed) throw notFound(NOT_CONFIGURED);
        await emitAdmin(
          events,
          tx,
          principal,
          'sso.saml_removed',
          { protocol: 'saml', idp_entity_id: removed.idpEntityId },
          'high',
        );
        await deps.connectionChanges.record(tx, principal, {
          action: 'sso.saml_removed',
          summary: `The SAML identity provider ${removed.idpEntityId} was removed.`,
        });
      });
    },

    /**
     * The values to register at the identity provider. Answered before any connection exists (the identity
     * provider's metadata, which a connection needs, usually exists only once these are registered there), on a
     * plan with Enterprise SSO; once configured, also after a downgrade, like the connection itself.
     */
    async serviceProvider(principal: Principal): Promise<ServiceProvider> {
      return transactions.tenant(principal.tenantId, async (tx) => {
        if (!(await store.connectionOf(tx, principal.tenantId))) {
          await assertPlanAllowsSso(deps, tx, principal.tenantId);
        }
        return serviceProviderOf(config.baseUrl, principal.tenantId);
      });
    },

    /** `GET /auth/sso/saml/{tenant}/metadata` (public): the SP metadata XML; 404 while not configured (dormant). */
    async serviceProviderMetadata(tenantId: string): Promise<string> {
      const found = isUuid(tenantId) && (await transactions.tenant(tenantId, (tx) => store.connectionOf(tx, tenantId)));
      if (!found) throw notFound(NOT_CONFIGURED);
      return serviceProviderMetadata(serviceProviderOf(config.baseUrl, tenantId));
    },
  };
}

export type SamlConnectionService = ReturnType<typeof createSamlConnectionService>;
