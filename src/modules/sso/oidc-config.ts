import type { Principal } from '../../kernel/auth/index.js';
import type { Tx } from '../../kernel/db/index.js';
import { notFound, unprocessable } from '../../kernel/http/index.js';
import { assertOutboundUrl } from '../../kernel/net/index.js';
import { assertPlanAllowsSso, configured, emitAdmin, NOT_CONFIGURED, type SsoDeps } from './common.js';
import { openClientSecret, sealClientSecret, sealingKeyOf } from './sealing.js';
import * as store from './store.js';

/** OpenID Connect Core 1.0 section 5.4: the claims an SSO sign-in needs (subject, verified email, name). */
export const DEFAULT_SCOPES = ['openid', 'email', 'profile'];

export interface OidcConfigInput {
  issuer: string;
  client_id: string;
  client_secret?: string | undefined;
  scopes?: string[] | undefined;
  allowed_domains?: string[] | undefined;
  enabled?: boolean | undefined;
}

export interface OidcConfigView {
  issuer: string;
  client_id: string;
  /** Always true: a connection cannot exist without a secret, and the secret itself is never answered. */
  client_secret_set: true;
  scopes: string[];
  allowed_domains: string[];
  enabled: boolean;
  last_test: { tested_at: string; ok: boolean } | null;
  created_at: string;
  updated_at: string;
}

const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * The issuer as written (OIDC Discovery 4.3 compares it exactly, so it is not normalised): https on 443, a public
 * host name (the kernel's outbound rule), and, as OIDC Discovery section 2 requires of an issuer, no query or
 * fragment.
 */
export function validIssuer(raw: string): string {
  if (/\s/.test(raw)) throw unprocessable('issuer: must not contain white space');
  assertOutboundUrl(raw, 'issuer');
  if (new URL(raw).search) throw unprocessable('issuer: must not carry a query');
  return raw;
}

function validScopes(scopes: string[] | undefined): string[] {
  if (scopes === undefined) return [...DEFAULT_SCOPES];
  // OpenID Connect Core 1.0 section 3.1.2.1: without `openid` the request is plain OAuth, no ID token.
  if (!scopes.includes('openid')) throw unprocessable('scopes: must include openid');
  return [...new Set(scopes)];
}

function validDomains(domains: string[] | undefined): string[] {
  const out = new Set<string>();
  for (const raw of domains ?? []) {
    const domain = raw.trim().toLowerCase().replace(/\.$/, '');
    if (!DOMAIN.test(domain)) throw unprocessable(`allowed_domains: "${raw}" is not a domain name`);
    out.add(domain);
  }
  return [...out].sort();
}

export function viewOf(row: store.OidcConnectionRow): OidcConfigView {
  return {
    issuer: row.issuer,
    client_id: row.clientId,
    client_secret_set: true,
    scopes: row.scopes,
    allowed_domains: row.allowedDomains,
    enabled: row.enabled,
    last_test:
      row.lastTestedAt && row.lastTestOk !== null
        ? { tested_at: row.lastTestedAt.toISOString(), ok: row.lastTestOk }
        : null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/**
 * Turns enforcement off when the organization no longer has a usable connection (removed or disabled): otherwise
 * only owners could sign in at all.
 */
async function releaseEnforcement(deps: SsoDeps, tx: Tx, principal: Principal, reason: string): Promise<boolean> {
  const before = await deps.organizations.setSsoRequired(tx, principal.tenantId, false);
  if (!before) return false;
  await emitAdmin(deps.events, tx, principal, 'sso.enforcement_changed', { required: false, reason });
  return true;
}

/** `GET|PUT|DELETE /tenants/sso/oidc` (Part A 4.6, `tenant:manage`). */
export function createOidcConfigService(deps: SsoDeps) {
  const { transactions, events, clock } = deps;
  const key = sealingKeyOf(deps.secretKey);

  return {
    async get(principal: Principal): Promise<OidcConfigView> {
      return transactions.tenant(principal.tenantId, async (tx) => viewOf(await configured(tx, principal.tenantId)));
    },

    /**
     * Replaces the configuration (PUT semantics: an omitted optional field takes its default), except the client
     * secret, which cannot be read back: omitted, the stored one is kept; required when there is none. Answers
     * whether the connection was created by this call (201) or replaced (200).
     */
    async put(principal: Principal, input: OidcConfigInput): Promise<{ view: OidcConfigView; created: boolean }> {
      return transactions.tenant(principal.tenantId, async (tx) => {
        await assertPlanAllowsSso(deps, tx, principal.tenantId);
        const issuer = validIssuer(input.issuer);
        const scopes = validScopes(input.scopes);
        const allowedDomains = validDomains(input.allowed_domains);
        const previous = await store.connectionOf(tx, principal.tenantId, true);
        if (!previous && input.client_secret === undefined) {
          throw unprocessable('client_secret: required when the connection is first configured');
        }
        const now = clock.now();
        const secretChanged =
          input.client_secret !== undefined &&
          (!previous || openClientSecret(key, principal.tenantId, previous.clientSecretSealed) !== input.client_secret);
        const row: store.OidcConnectionRow = {
          tenantId: principal.tenantId,
          issuer,
          clientId: input.client_id,
          clientSecretSealed:
            input.client_secret !== undefined
              ? sealClientSecret(key, principal.tenantId, input.client_secret)
              : (previous?.clientSecretSealed as string),
          scopes,
          allowedDomains,
          enabled: input.enabled ?? true,
          // A changed configuration has not been proven yet.
          lastTestedAt: null,
          lastTestOk: null,
          createdAt: previous?.createdAt ?? now,
          updatedAt: now,
        };
        if (previous) await store.updateConnection(tx, principal.tenantId, row);
        else await store.insertConnection(tx, row);
        // Never the secret, sealed or not: only whether it changed.
        await emitAdmin(events, tx, principal, 'sso.oidc_configured', {
          protocol: 'oidc',
          created: !previous,
          issuer,
          client_id: row.clientId,
          client_secret_changed: secretChanged,
          scopes,
          allowed_domains: allowedDomains,
          enabled: row.enabled,
        });
        if (!row.enabled) await releaseEnforcement(deps, tx, principal, 'connection_disabled');
        return { view: viewOf(row), created: !previous };
      });
    },

    /** Removes the connection: SSO is dormant again, and enforcement is turned off with it. 404 when none. */
    async remove(principal: Principal): Promise<void> {
      await transactions.tenant(principal.tenantId, async (tx) => {
        const removed = await store.deleteConnection(tx, principal.tenantId);
        if (!removed) throw notFound(NOT_CONFIGURED);
        const enforcementOff = await releaseEnforcement(deps, tx, principal, 'connection_removed');
        await emitAdmin(events, tx, principal, 'sso.oidc_removed', {
          protocol: 'oidc',
          issuer: removed.issuer,
          client_id: removed.clientId,
          enforcement_turned_off: enforcementOff,
        });
      });
    },

    /** The stored secret in clear, for the connection test (and later the sign-in flow); never answered. */
    openSecret: (row: store.OidcConnectionRow) => openClientSecret(key, row.tenantId, row.clientSecretSealed),
  };
}

export type OidcConfigService = ReturnType<typeof createOidcConfigService>;
