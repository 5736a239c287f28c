import type { Principal } from '../../kernel/auth/index.js';
import { isSystemRole } from '../../kernel/authz/catalog.js';
import type { Clock } from '../../kernel/clock.js';
import type { Queryable, Tx } from '../../kernel/db/index.js';
import type { Events } from '../../kernel/events/index.js';
import { conflict, HttpError, unprocessable } from '../../kernel/http/index.js';
import { isCustomRoleCode } from '../roles/index.js';
import { DEFAULT_SCOPES, validIssuer } from './oidc-config.js';
import * as store from './store.js';

// The organization's OIDC connection as an IAM manifest declares it (Part B 2.4 `sso`): created disabled and
// without a client secret (a manifest never carries one). It signs nobody in and cannot be enabled, tested for its
// credentials or used for a sign-in until an admin supplies the secret through `PUT /tenants/sso/oidc`, which is
// guarded like every connection change (docs/decisions.md "SSO trust model"). The manifests module plans and
// applies it through these functions, in its own transactions.

/** The detection's `action` (and the owners' notice it sets off, connection-changes.ts) of a scaffold. */
export const SCAFFOLD_ACTION = 'sso.oidc_scaffolded';

export interface OidcScaffold {
  display_name: string;
  issuer: string;
  client_id: string;
  /** A system role other than owner and customer, or a custom role; null: `member`. */
  default_role: string | null;
}

/** The organization's connection in the terms a manifest compares (never the secret). */
export interface OidcConnectionSummary extends OidcScaffold {
  client_secret_set: boolean;
  enabled: boolean;
}

const VSCHAR = /^[\x20-\x7E]{1,255}$/;

/**
 * What the SSO module's rules find wrong with a scaffold, or undefined: the issuer rule of `PUT /tenants/sso/oidc`
 * (https on 443, a public host name, no query or fragment), the client id's syntax (RFC 6749 VSCHAR), and a
 * default role a member may hold. Whether a custom role exists is the caller's to check (a manifest may define it).
 */
export function oidcScaffoldProblem(input: OidcScaffold): string | undefined {
  try {
    validIssuer(input.issuer);
  } catch (error) {
    if (error instanceof HttpError) return error.detail;
    throw error;
  }
  if (!VSCHAR.test(input.client_id)) return 'client_id: must be 1 to 255 visible ASCII characters';
  if (input.display_name.trim() === '' || input.display_name.length > 100) {
    return 'display_name: must be 1 to 100 characters';
  }
  const role = input.default_role;
  if (role !== null && (role === 'owner' || role === 'customer' || !(isSystemRole(role) || isCustomRoleCode(role)))) {
    return `default_role: ${role} cannot be the role of people an identity provider signs in`;
  }
  return undefined;
}

/** The organization's OIDC connection, if any, as a manifest compares it. */
export async function oidcConnectionSummary(
  q: Queryable,
  tenantId: string,
): Promise<OidcConnectionSummary | undefined> {
  const row = await store.connectionOf(q, tenantId);
  if (!row) return undefined;
  return {
    display_name: row.displayName ?? '',
    issuer: row.issuer,
    client_id: row.clientId,
    default_role: row.defaultRole,
    client_secret_set: row.clientSecretSealed !== null,
    enabled: row.enabled,
  };
}

/**
 * Whether the organization's connection is the one the manifest declares: the four fields a manifest sets. The
 * secret, `enabled`, scopes and domains are the admin's to set afterwards, so completing a scaffold keeps it the
 * same connection (a re-plan reads `noop`); any other connection is a conflict (nothing is updated in place).
 */
export const isScaffoldOf = (connection: OidcScaffold, wanted: OidcScaffold): boolean =>
  connection.display_name === wanted.display_name &&
  connection.issuer === wanted.issuer &&
  connection.client_id === wanted.client_id &&
  connection.default_role === wanted.default_role;

/**
 * Creates the scaffold in `tx`: 422 for a problem of `oidcScaffoldProblem`, 409 when the organization has a
 * connection already. Recorded like any connection change: `sso.oidc_configured` with severity high, the
 * `sso-connection-changed` detection, and (after commit) the owners' mail. `principal` is the applying actor under
 * the approving person's authority (its `userId`).
 */
export async function scaffoldOidcConnection(
  tx: Tx,
  deps: { events: Events; clock: Clock },
  principal: Principal,
  input: OidcScaffold & { manifestHash: string },
): Promise<void> {
  const scaffold: OidcScaffold = {
    display_name: input.display_name,
    issuer: input.issuer,
    client_id: input.client_id,
    default_role: input.default_role,
  };
  const problem = oidcScaffoldProblem(scaffold);
  if (problem) throw unprocessable(problem);
  const now = deps.clock.now();
  const inserted = await store.insertConnectionIfNone(tx, {
    tenantId: principal.tenantId,
    issuer: scaffold.issuer,
    clientId: scaffold.client_id,
    clientSecretSealed: null,
    displayName: scaffold.display_name,
    defaultRole: scaffold.default_role,
    scopes: [...DEFAULT_SCOPES],
    allowedDomains: [],
    enabled: false,
    lastTestedAt: null,
    lastTestOk: null,
    createdAt: now,
    updatedAt: now,
  });
  if (!inserted) throw conflict('The organization has an SSO connection already');
  // Correlated with the manifest's other changes (its hash), like the step's own audit event.
  await deps.events.emit(tx, {
    tenantId: principal.tenantId,
    actor: principal.actor,
    category: 'admin',
    action: 'sso.oidc_configured',
    severity: 'high',
    correlationId: input.manifestHash,
    data: {
      protocol: 'oidc',
      created: true,
      scaffolded: true,
      manifest_hash: input.manifestHash,
      issuer: scaffold.issuer,
      client_id: scaffold.client_id,
      client_secret_changed: false,
      display_name: scaffold.display_name,
      default_role: scaffold.default_role,
      scopes: [...DEFAULT_SCOPES],
      allowed_domains: [],
      enabled: false,
      enforcement_turned_off: false,
    },
  });
  await deps.events.detect(tx, {
    tenantId: principal.tenantId,
    ruleId: 'sso-connection-changed',
    groupKey: `tenant:${principal.tenantId}`,
    severity: 'high',
    data: {
      action: SCAFFOLD_ACTION,
      actor_id: principal.actor.id,
      approved_by: principal.userId ?? null,
      manifest_hash: input.manifestHash,
      issuer: scaffold.issuer,
      client_id: scaffold.client_id,
    },
  });
}
