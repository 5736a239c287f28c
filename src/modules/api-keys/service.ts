import { hasPermission, type Principal } from '../../kernel/auth/index.js';
import { PERMISSIONS } from '../../kernel/authz/catalog.js';
import { planOf } from '../../kernel/authz/plans.js';
import { addMs, type Clock, days } from '../../kernel/clock.js';
import type { Transactions, Tx } from '../../kernel/db/index.js';
import type { Events } from '../../kernel/events/index.js';
import { badRequest, conflict, forbidden, notFound } from '../../kernel/http/index.js';
import { isUuid, newId } from '../../kernel/ids.js';
import { readOperatorSetting } from '../operator-settings/index.js';
import { environmentOf, issueKey } from './format.js';
import { periodOf, type UsageMeter } from './meter.js';
import * as store from './store.js';

export const DEFAULT_LIFETIME_DAYS = 365;
const KNOWN_PERMISSIONS = new Set(PERMISSIONS.map((p) => p.code));

export interface ApiKeyView {
  id: string;
  label: string;
  scopes: string[];
  display_handle: string;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  revoked: boolean;
  revoked_at: string | null;
  reason: string | null;
  rotated_from_id: string | null;
}

export const viewOf = (row: store.ApiKeyRow): ApiKeyView => ({
  id: row.id,
  label: row.label,
  scopes: row.scopes,
  display_handle: row.displayHandle,
  created_at: row.createdAt.toISOString(),
  expires_at: row.expiresAt?.toISOString() ?? null,
  last_used_at: row.lastUsedAt?.toISOString() ?? null,
  revoked: row.revokedAt !== null,
  revoked_at: row.revokedAt?.toISOString() ?? null,
  reason: row.revokedReason,
  rotated_from_id: row.rotatedFromId,
});

/** Part A 4.9 and Part B: an AI agent never mints a key, and nobody grants more than they hold. */
const isAgent = (principal: Principal) => principal.kind === 'agent' || principal.actor.type === 'agent';

export function assertMayGrant(principal: Principal, scopes: readonly string[]): void {
  if (isAgent(principal)) throw forbidden('AI agents may not create or rotate API keys');
  // Part A 4.9 names one status for scopes beyond the caller's: an unknown code is held by nobody, so 403 too.
  const beyond = scopes.find((scope) => !KNOWN_PERMISSIONS.has(scope) || !hasPermission(principal, scope));
  if (beyond) throw forbidden(`Scopes exceed your permissions: ${beyond}`);
}

const keyIdOrNotFound = (id: string) => {
  if (!isUuid(id)) throw notFound('API key not found');
  return id;
};

export function createApiKeyService(deps: {
  svcEnv: string;
  transactions: Transactions;
  events: Events;
  clock: Clock;
  meter: UsageMeter;
}) {
  const { transactions, events, clock, meter } = deps;
  const environment = environmentOf(deps.svcEnv);

  /**
   * The lifetime a key gets. `security.api_key_max_lifetime_days` (operator setting, 0 = no cap) refuses a
   * non-expiring or longer key when positive; an omitted lifetime is the default capped by it. A rotation
   * (`inherited`) keeps its predecessor's lifetime, capped by the setting.
   */
  async function lifetimeFor(
    tx: Tx,
    tenantId: string,
    asked: number | null | undefined,
    inherited: boolean,
  ): Promise<number | null> {
    const max = await readOperatorSetting(tx, tenantId, 'security.api_key_max_lifetime_days');
    if (max <= 0) return asked === undefined ? DEFAULT_LIFETIME_DAYS : asked;
    if (asked === undefined) return Math.min(DEFAULT_LIFETIME_DAYS, max);
    if (inherited) return asked === null ? max : Math.min(asked, max);
    if (asked === null || asked > max) {
      throw badRequest(`expires_in_days: this organization allows API keys of at most ${max} days`);
    }
    return asked;
  }

  async function insertKey(
    tx: Tx,
    principal: Principal,
    input: { label: string; scopes: string[]; lifetimeDays: number | null; rotatedFromId: string | null },
  ) {
    const now = clock.now();
    const issued = issueKey(environment);
    const row: store.ApiKeyRow = {
      id: newId(),
      tenantId: principal.tenantId,
      label: input.label,
      keyHash: issued.hash,
      environment,
      displayHandle: issued.displayHandle,
      scopes: input.scopes,
      lifetimeDays: input.lifetimeDays,
      expiresAt: input.lifetimeDays === null ? null : addMs(now, days(input.lifetimeDays)),
      createdByUserId: principal.kind === 'user' ? (principal.userId ?? null) : null,
      createdById: principal.actor.id,
      createdByType: principal.actor.type,
      rotatedFromId: input.rotatedFromId,
      createdAt: now,
      lastUsedAt: null,
      revokedAt: null,
      revokedReason: null,
    };
    await store.insertKey(tx, row);
    return { row, plaintext: issued.plaintext };
  }

  return {
    /** `POST /tenants/api-keys`: the plaintext once; only its hash is kept. */
    async create(principal: Principal, input: { label: string; scopes: string[]; expiresInDays?: number | null }) {
      const scopes = [...new Set(input.scopes)];
      assertMayGrant(principal, scopes);
      return transactions.tenant(principal.tenantId, async (tx) => {
        const lifetimeDays = await lifetimeFor(tx, principal.tenantId, input.expiresInDays, false);
        const { row, plaintext } = await insertKey(tx, principal, {
          label: input.label,
          scopes,
          lifetimeDays,
          rotatedFromId: null,
        });
        const data = { api_key_id: row.id, label: row.label, scopes, expires_at: viewOf(row).expires_at };
        await events.emit(tx, {
          tenantId: principal.tenantId,
          actor: principal.actor,
          category: 'admin',
          action: 'apikey.issued',
          data,
          webhook: { type: 'apikey.issued', data },
        });
        return { ...viewOf(row), key: plaintext };
      });
    },

    async list(principal: Principal): Promise<ApiKeyView[]> {
      return transactions.tenant(principal.tenantId, async (tx) =>
        (await store.listKeys(tx, principal.tenantId)).map(viewOf),
      );
    },

    /** `POST /{id}/rotate`: a successor with the same scopes; the old key works until it is revoked. */
    async rotate(principal: Principal, id: string) {
      keyIdOrNotFound(id);
      if (isAgent(principal)) throw forbidden('AI agents may not create or rotate API keys');
      return transactions.tenant(principal.tenantId, async (tx) => {
        const old = await store.keyForUpdate(tx, principal.tenantId, id);
        if (!old) throw notFound('API key not found');
        assertMayGrant(principal, old.scopes);
        if (old.revokedAt) throw conflict('API key is revoked');
        if (old.expiresAt && old.expiresAt.getTime() <= clock.now().getTime()) throw conflict('API key has expired');
        const lifetimeDays = await lifetimeFor(tx, principal.tenantId, old.lifetimeDays, true);
        const { row, plaintext } = await insertKey(tx, principal, {
          label: old.label,
          scopes: old.scopes,
          lifetimeDays,
          rotatedFromId: old.id,
        });
        const data = { api_key_id: row.id, rotated_from_id: old.id, expires_at: viewOf(row).expires_at };
        await events.emit(tx, {
          tenantId: principal.tenantId,
          actor: principal.actor,
          category: 'admin',
          action: 'apikey.rotated',
          data,
          webhook: { type: 'apikey.rotated', data },
        });
        return { ...viewOf(row), key: plaintext };
      });
    },

    /** `POST /{id}/revoke`: refused from the key's next request on, on every node. */
    async revoke(principal: Principal, id: string, reason: string): Promise<ApiKeyView> {
      keyIdOrNotFound(id);
      return transactions.tenant(principal.tenantId, async (tx) => {
        const key = await store.keyForUpdate(tx, principal.tenantId, id);
        if (!key) throw notFound('API key not found');
        if (key.revokedAt) throw conflict('API key is already revoked');
        const now = clock.now();
        await store.revokeKey(tx, principal.tenantId, id, now, reason);
        const data = { api_key_id: id, reason };
        await events.emit(tx, {
          tenantId: principal.tenantId,
          actor: principal.actor,
          category: 'admin',
          action: 'apikey.revoked',
          data,
          webhook: { type: 'apikey.revoked', data },
        });
        return viewOf({ ...key, revokedAt: now, revokedReason: reason });
      });
    },

    /** `GET /usage`: this period's (or `period`'s) calls per key, against the plan's quota. */
    async usage(principal: Principal, period?: string) {
      const wanted = period ?? periodOf(clock.now());
      await meter.flush();
      return transactions.tenant(principal.tenantId, async (tx) => {
        const rows = await store.usageRows(tx, principal.tenantId, wanted);
        const plan = await store.planOfTenant(tx, principal.tenantId);
        return {
          period: wanted,
          total: rows.reduce((sum, row) => sum + Number(row.calls), 0),
          quota: planOf(plan ?? 'free').caps.api_calls_monthly,
          rows: rows.map((row) => ({
            api_key_id: row.api_key_id,
            label: row.label,
            display_handle: row.display_handle,
            calls: Number(row.calls),
          })),
        };
      });
    },

    /** Fires `apikey.quota_exceeded` once per organization and period, whichever node sees it first. */
    async recordQuotaSpent(tenantId: string, period: string): Promise<void> {
      await transactions.tenant(tenantId, async (tx) => {
        if (!(await store.noteQuotaSpent(tx, tenantId, period, clock.now()))) return;
        const plan = await store.planOfTenant(tx, tenantId);
        const data = { period, quota: planOf(plan ?? 'free').caps.api_calls_monthly };
        await events.emit(tx, {
          tenantId,
          actor: { id: 'svc-quota', type: 'system' },
          category: 'admin',
          action: 'apikey.quota_exceeded',
          severity: 'warn',
          data,
          webhook: { type: 'apikey.quota_exceeded', data },
        });
      });
    },
  };
}

export type ApiKeyService = ReturnType<typeof createApiKeyService>;
