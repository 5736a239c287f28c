import type { Principal } from '../../kernel/auth/index.js';
import { secretsEqual } from '../../kernel/crypto/index.js';
import type { Tx } from '../../kernel/db/index.js';
import { notFound, unprocessable } from '../../kernel/http/index.js';
import { assertOutboundUrl } from '../../kernel/net/index.js';
import { assertPlanAllowsSso, configured, emitAdmin, NOT_CONFIGURED, type SsoDeps, validDomains } from './common.js';
import type { ConnectionChanges } from './connection-changes.js';
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
  /**
   * Whether a client secret is stored (the secret itself is never answered). False only on a connection an IAM
   * manifest scaffolded: disabled until an admin supplies the secret.
   */
  client_secret_set: boolean;
  /** Set by the manifest that scaffolded the connection; null otherwise. */
  display_name: string | null;
  /** The role of the people this connection provisions (set by a manifest); null: `member`. */
  default_role: string | null;
  scopes: string[];
  allowed_domains: string[];
  enabled: boolean;
  last_test: { tested_at: string; ok: boolean } | null;
  created_at: string;
  updated_at: string;
}

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

export function viewOf(row: store.OidcConnectionRow): OidcConfigView {
  return {
    issuer: row.issuer,
    client_id: row.clientId,
    client_secret_set: row.clientSecretSealed !== null,
    display_name: row.displayName,
    default_role: row.defaultRole,
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
export function createOidcConfigService(deps: SsoDeps & { connectionChanges: ConnectionChanges }) {
  const { transactions, events, clock } = deps;
  const key = sealingKeyOf(deps.secretKey);

  return {
    async get(principal: Principal): Promise<OidcConfigView> {
      return transactions.tenant(principal.tenantId, async (tx) => viewOf(await configured(tx, principal.tenantId)));
    },

    /**
     * Replaces the configuration (PUT semantics: an omitted optional field takes its default), except the client
     * secret, which cannot be read back: omitted, the stored one is kept, but only for the same issuer and client
     * (422 otherwise); required when there is none. Answers whether the connection was created by this call (201)
     * or replaced (200).
     *
     * A change of issuer, client id or secret makes the last test meaningless: `last_test` is reset, and since
     * enforcement needs a passed test of the current connection, a required SSO is turned off with it.
     */
    async put(principal: Principal, input: OidcConfigInput): Promise<{ view: OidcConfigView; created: boolean }> {
      await deps.connectionChanges.assertAllowed(principal);
      return transactions.tenant(principal.tenantId, async (tx) => {
        await assertPlanAllowsSso(deps, tx, principal.tenantId);
        const issuer = validIssuer(input.issuer);
        const scopes = validScopes(input.scopes);
        const allowedDomains = validDomains(input.allowed_domains);
        const previous = await store.connectionOf(tx, principal.tenantId, true);
        if (!previous && input.client_secret === undefined) {
          throw unprocessable('client_secret: required when the connection is first configured');
        }
        const enabled = input.enabled ?? true;
        // A connection a manifest scaffolded has no secret: it stays disabled until one is given (scaffold.ts).
        if (previous && previous.clientSecretSealed === null && input.client_secret === undefined && enabled) {
          throw unprocessable(
            'client_secret: required to enable a connection that has none yet (a manifest scaffolded it); ' +
              'send it, or keep enabled: false',
          );
        }
        // The kept secret belongs to the provider and client it was given for. Kept across a new issuer, the
        // connection test would send it to whatever token endpoint the new issuer's discovery names: anyone who
        // can configure SSO (an admin, a leaked API key) could collect it without ever having known it.
        const sameClient =
          previous !== undefined && previous.issuer === issuer && previous.clientId === input.client_id;
        if (previous?.clientSecretSealed && !sameClient && input.client_secret === undefined) {
          throw unprocessable('client_secret: required when the issuer or client_id changes');
        }
        const now = clock.now();
        // Constant time (digests compared): how long the comparison takes says nothing about the stored secret.
        const secretChanged =
          input.client_secret !== undefined &&
          (!previous?.clientSecretSealed ||
            !secretsEqual(openClientSecret(key, principal.tenantId, previous.clientSecretSealed), input.client_secret));
        const connectionChanged = !sameClient || secretChanged;
        const row: store.OidcConnectionRow = {
          tenantId: principal.tenantId,
          issuer,
          clientId: input.client_id,
          clientSecretSealed:
            input.client_secret !== undefined
              ? sealClientSecret(key, principal.tenantId, input.client_secret)
              : (previous?.clientSecretSealed ?? null),
          // Only a manifest sets these; a PUT keeps them (DELETE removes them with the connection).
          displayName: previous?.displayName ?? null,
          defaultRole: previous?.defaultRole ?? null,
          scopes,
          allowedDomains,
          enabled,
          // The test proves issuer, client id and secret; scopes, domains and `enabled` do not change what it proved.
          lastTestedAt: connectionChanged ? null : (previous?.lastTestedAt ?? null),
          lastTestOk: connectionChanged ? null : (previous?.lastTestOk ?? null),
          createdAt: previous?.createdAt ?? now,
          updatedAt: now,
        };
        if (previous) await store.updateConnection(tx, principal.tenantId, row);
        else await store.insertConnection(tx, row);
        // An untested connection cannot stay required (enforcement's own rule); a disabled one cannot either.
        const releaseReason = !row.enabled
          ? 'connection_disabled'
          : previous && connectionChanged
            ? 'connection_changed'
            : undefined;
        const enforcementOff = releaseReason ? await releaseEnforcement(deps, tx, principal, releaseReason) : false;
        // Never the secret, sealed or not: only whether it changed.
        await emitAdmin(
          events,
          tx,
          principal,
          'sso.oidc_configured',
          {
            protocol: 'oidc',
            created: !previous,
            issuer,
            client_id: row.clientId,
            client_secret_changed: secretChanged,
            scopes,
            allowed_domains: allowedDomains,
            enabled: row.enabled,
            enforcement_turned_off: enforcementOff,
          },
          'high',
        );
        const completed = previous?.clientSecretSealed === null && row.clientSecretSealed !== null;
        await deps.connectionChanges.record(tx, principal, {
          action: 'sso.oidc_configured',
          summary: completed
            ? `The OpenID Connect identity provider a manifest scaffolded was given its client secret${row.enabled ? ' and enabled' : ''}: ${issuer} (client ${row.clientId}).`
            : `The OpenID Connect identity provider was ${previous ? 'changed' : 'configured'}: ${issuer} (client ${row.clientId}).`,
        });
        return { view: viewOf(row), created: !previous };
      });
    },

    /** Removes the connection: SSO is dormant again, and enforcement is turned off with it. 404 when none. */
    async remove(principal: Principal): Promise<void> {
      await deps.connectionChanges.assertAllowed(principal);
      await transactions.tenant(principal.tenantId, async (tx) => {
        const removed = await store.deleteConnection(tx, principal.tenantId);
        if (!removed) throw notFound(NOT_CONFIGURED);
        const enforcementOff = await releaseEnforcement(deps, tx, principal, 'connection_removed');
        await emitAdmin(
          events,
          tx,
          principal,
          'sso.oidc_removed',
          {
            protocol: 'oidc',
            issuer: removed.issuer,
            client_id: removed.clientId,
            enforcement_turned_off: enforcementOff,
          },
          'high',
        );
        await deps.connectionChanges.record(tx, principal, {
          action: 'sso.oidc_removed',
          summary: `The OpenID Connect identity provider ${removed.issuer} was removed.`,
        });
      });
    },

    /**
     * The stored secret in clear, for the connection test and the sign-in flow; never answered. Undefined for a
     * scaffolded connection that has none yet (never enabled, so never used for a sign-in).
     */
    openSecret: (row: store.OidcConnectionRow): string | undefined =>
      row.clientSecretSealed === null ? undefined : openClientSecret(key, row.tenantId, row.clientSecretSealed),
  };
}

export type OidcConfigService = ReturnType<typeof createOidcConfigService>;
