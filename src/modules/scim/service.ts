import type { Principal } from '../../kernel/auth/index.js';
import { planIncludes, planOf } from '../../kernel/authz/plans.js';
import type { Clock } from '../../kernel/clock.js';
import { prefixedSecret, sha256Hex } from '../../kernel/crypto/index.js';
import type { Transactions, Tx } from '../../kernel/db/index.js';
import type { Events } from '../../kernel/events/index.js';
import { forbidden, notFound } from '../../kernel/http/index.js';
import { newId } from '../../kernel/ids.js';
import type { OrganizationService } from '../organizations/index.js';
import { scimBaseUrl } from './common.js';
import * as store from './store.js';

/**
 * SCIM tokens start with `scim_` (256 random bits follow), so the guard's resolvers tell them from access tokens
 * (JWTs) and API keys (`svc_…`) without a look-up, and a leaked one is recognisable in a scan.
 */
export const TOKEN_PREFIX = 'scim_';
const HINT_LENGTH = TOKEN_PREFIX.length + 4;

const NOT_CONFIGURED =
  'SCIM is not configured for this organization: POST /api/v1/tenants/scim/token creates its token';

export interface ScimConfigView {
  enabled: boolean;
  base_url: string;
  token_hint: string;
  token_created_at: string;
  created_at: string;
  updated_at: string;
}

/**
 * The organization's SCIM configuration (Part A 4.6, `tenant:manage`). It exists from the first token on and goes
 * with the token: a configuration without a token would be a surface nothing can reach. While it does not exist
 * every SCIM surface of the organization is dormant (404).
 */
export function createScimAdminService(deps: {
  config: { baseUrl: string };
  transactions: Transactions;
  organizations: Pick<OrganizationService, 'planCode'>;
  events: Events;
  clock: Clock;
}) {
  const { transactions, events, clock } = deps;
  const baseUrl = scimBaseUrl(deps.config.baseUrl);

  const viewOf = (row: store.ConfigRow): ScimConfigView => ({
    enabled: row.enabled,
    base_url: baseUrl,
    token_hint: row.tokenHint,
    token_created_at: row.tokenCreatedAt.toISOString(),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  });

  const emit = (tx: Tx, principal: Principal, action: string, data: Record<string, unknown>) =>
    events.emit(tx, { tenantId: principal.tenantId, actor: principal.actor, category: 'admin', action, data });

  async function configured(tx: Tx, tenantId: string, forUpdate = false) {
    const row = await store.configOf(tx, tenantId, forUpdate);
    if (!row) throw notFound(NOT_CONFIGURED);
    return row;
  }

  return {
    /** `GET /tenants/scim`: 404 while not configured. */
    async get(principal: Principal): Promise<ScimConfigView> {
      return transactions.tenant(principal.tenantId, async (tx) => viewOf(await configured(tx, principal.tenantId)));
    },

    /** `PATCH /tenants/scim`: `enabled: false` pauses provisioning (the token then gets 404) and keeps the token. */
    async update(principal: Principal, patch: { enabled?: boolean | undefined }): Promise<ScimConfigView> {
      return transactions.tenant(principal.tenantId, async (tx) => {
        const row = await configured(tx, principal.tenantId, true);
        if (patch.enabled === undefined || patch.enabled === row.enabled) return viewOf(row);
        const updated = { ...row, enabled: patch.enabled, updatedAt: clock.now() };
        await store.updateConfig(tx, principal.tenantId, { enabled: updated.enabled, updatedAt: updated.updatedAt });
        await emit(tx, principal, 'scim.config_changed', { enabled: updated.enabled });
        return viewOf(updated);
      });
    },

    /**
     * `POST /tenants/scim/token`: a new token, answered once with the base URL to configure. The first one
     * configures SCIM (enabled); a later one replaces the previous token in the same statement, which stops it at
     * once (the resolver reads the stored hash on every request, no cache).
     */
    async issueToken(principal: Principal): Promise<ScimConfigView & { token: string }> {
      const token = prefixedSecret(TOKEN_PREFIX);
      return transactions.tenant(principal.tenantId, async (tx) => {
        const plan = await deps.organizations.planCode(tx, principal.tenantId);
        if (!planIncludes(plan, 'scim')) {
          throw forbidden(`SCIM provisioning is not included in the ${planOf(plan ?? 'free').name} plan (Enterprise)`);
        }
        const now = clock.now();
        const previous = await store.configOf(tx, principal.tenantId, true);
        const tokenFields = {
          tokenId: newId(),
          tokenHash: sha256Hex(token),
          tokenHint: token.slice(0, HINT_LENGTH),
          tokenCreatedAt: now,
          updatedAt: now,
        };
        const row: store.ConfigRow = previous
          ? { ...previous, ...tokenFields }
          : { tenantId: principal.tenantId, enabled: true, createdAt: now, ...tokenFields };
        if (previous) await store.updateConfig(tx, principal.tenantId, tokenFields);
        else await store.insertConfig(tx, row);
        await emit(tx, principal, 'scim.token_issued', {
          token_id: row.tokenId,
          token_hint: row.tokenHint,
          rotated: Boolean(previous),
          ...(previous ? { previous_token_id: previous.tokenId } : {}),
        });
        return { ...viewOf(row), token };
      });
    },

    /** `DELETE /tenants/scim/token`: the token stops at once and SCIM is dormant again; 404 when there is none. */
    async revokeToken(principal: Principal): Promise<void> {
      await transactions.tenant(principal.tenantId, async (tx) => {
        const removed = await store.deleteConfig(tx, principal.tenantId);
        if (!removed) throw notFound(NOT_CONFIGURED);
        await emit(tx, principal, 'scim.token_revoked', { token_id: removed.tokenId });
      });
    },
  };
}

export type ScimAdminService = ReturnType<typeof createScimAdminService>;
