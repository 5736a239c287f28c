import { hasPermission, type Principal } from '../../kernel/auth/index.js';
import type { Clock } from '../../kernel/clock.js';
import type { Transactions, Tx } from '../../kernel/db/index.js';
import type { Events } from '../../kernel/events/index.js';
import { badRequest, forbidden, notFound } from '../../kernel/http/index.js';
import { isUuid, newId } from '../../kernel/ids.js';
import { SETTINGS, type SettingDefinition, type SettingKey, type SettingValue, settingDefinition } from './registry.js';
import * as store from './store.js';

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;
const STRING_MAX = 256;

/** Part A 4.8: a value that breaks the key's type, bounds or allowed set is refused with 400 stating the rule. */
export function validateSetting(definition: SettingDefinition, value: unknown): SettingValue {
  const { key } = definition;
  switch (definition.type) {
    case 'boolean':
      if (typeof value !== 'boolean') throw badRequest(`${key} must be a boolean`);
      return value;
    case 'integer': {
      if (typeof value !== 'number' || !Number.isInteger(value)) throw badRequest(`${key} must be an integer`);
      const { bounds } = definition;
      if (bounds && (value < bounds.min || value > bounds.max)) {
        throw badRequest(`${key} must be between ${bounds.min} and ${bounds.max}`);
      }
      return value;
    }
    case 'string': {
      if (typeof value !== 'string') throw badRequest(`${key} must be a string`);
      if (definition.allowed && !definition.allowed.includes(value)) {
        throw badRequest(`${key} must be one of: ${definition.allowed.join(', ')}`);
      }
      if (value.length > STRING_MAX) throw badRequest(`${key} must be at most ${STRING_MAX} characters`);
      if (
        definition.format === 'instant' &&
        value !== '' &&
        !(INSTANT.test(value) && !Number.isNaN(Date.parse(value)))
      ) {
        throw badRequest(`${key} must be an ISO 8601 date-time with an offset, or empty`);
      }
      return value;
    }
  }
}

export interface SettingRecord {
  key: string;
  summary: string;
  type: SettingDefinition['type'];
  default: SettingValue;
  value: SettingValue;
  overridden: boolean;
  risk: SettingDefinition['risk'];
  bounds?: { min: number; max: number };
  allowed?: string[];
  format?: 'instant';
}

/** A setting's effective value: the organization's override when it has one, else the registry default. */
function effective(definition: SettingDefinition, stored: unknown): SettingValue {
  return stored === undefined ? definition.default : (stored as SettingValue);
}

function record(definition: SettingDefinition, stored: unknown): SettingRecord {
  return {
    key: definition.key,
    summary: definition.summary,
    type: definition.type,
    default: definition.default,
    value: effective(definition, stored),
    overridden: stored !== undefined,
    risk: definition.risk,
    ...(definition.bounds ? { bounds: definition.bounds } : {}),
    ...(definition.allowed ? { allowed: [...definition.allowed] } : {}),
    ...(definition.format ? { format: definition.format } : {}),
  };
}

export interface SettingChange {
  key: string;
  old_value: SettingValue;
  new_value: SettingValue;
  changed_by: { id: string | null; type: string };
  changed_at: string;
}

/**
 * A key another module owns the meaning of (ARCHITECTURE.md: `autonomy.disabled_until` is the autonomy kill
 * switch): changing it also needs `permission`, and `changed` runs in the change's transaction after the write.
 */
export interface SettingTie {
  permission?: string;
  changed?: (
    tx: Tx,
    change: { tenantId: string; key: string; previous: SettingValue; next: SettingValue; actor: Principal['actor'] },
    context: Record<string, unknown>,
  ) => Promise<void>;
}

export function createSettingsService(deps: { transactions: Transactions; events: Events; clock: Clock }) {
  const { transactions, events, clock } = deps;
  const ties = new Map<string, SettingTie[]>();

  const known = (key: string): SettingDefinition => {
    const definition = settingDefinition(key);
    if (!definition) throw notFound('Unknown setting');
    return definition;
  };

  return {
    /** The effective value of a setting for an organization (the override, else the registry default). */
    async read(tx: Tx, tenantId: string, key: SettingKey): Promise<SettingValue> {
      const definition = settingDefinition(key);
      if (!definition) throw new Error(`unknown setting ${key}`);
      return effective(definition, await store.storedValue(tx, tenantId, key));
    },

    /** The effective value of every setting of an organization, in one statement. */
    async readAll(tx: Tx, tenantId: string): Promise<Array<{ definition: SettingDefinition; value: SettingValue }>> {
      const stored = await store.storedValues(tx, tenantId);
      return SETTINGS.map((definition) => ({ definition, value: effective(definition, stored.get(definition.key)) }));
    },

    async enabled(tx: Tx, tenantId: string, key: SettingKey): Promise<boolean> {
      return (await this.read(tx, tenantId, key)) === true;
    },

    /** `GET /tenants/config/schema`: every tenant-editable setting with its effective value. */
    async schema(principal: Principal): Promise<SettingRecord[]> {
      return transactions.tenant(principal.tenantId, async (tx) => {
        const stored = await store.storedValues(tx, principal.tenantId);
        return SETTINGS.map((definition) => record(definition, stored.get(definition.key)));
      });
    },

    /**
     * `PATCH /tenants/config/{key}`: validates, stores (a value equal to the default drops the override),
     * appends the history and emits `setting.changed`; a high-risk key also raises a detection.
     */
    async change(
      principal: Principal,
      key: string,
      value: unknown,
      context: Record<string, unknown> = {},
    ): Promise<SettingRecord> {
      const definition = known(key);
      for (const tie of ties.get(key) ?? []) {
        if (tie.permission && !hasPermission(principal, tie.permission)) {
          throw forbidden(`Missing permission: ${tie.permission}`);
        }
      }
      const next = validateSetting(definition, value);
      const { tenantId, actor } = principal;
      return transactions.tenant(tenantId, async (tx) => {
        const stored = await store.lockedValue(tx, tenantId, key);
        const previous = effective(definition, stored);
        const now = clock.now();
        const byId = isUuid(actor.id) ? actor.id : null;
        if (next === definition.default) await store.deleteValue(tx, tenantId, key);
        else await store.upsertValue(tx, { tenantId, key, value: next, updatedAt: now, updatedBy: byId });
        if (previous !== next) {
          await store.appendHistory(tx, {
            id: newId(),
            tenantId,
            key,
            oldValue: previous,
            newValue: next,
            changedBy: byId,
            changedByType: actor.type,
            changedAt: now,
          });
          const high = definition.risk === 'high';
          await events.emit(tx, {
            tenantId,
            actor,
            category: high ? 'security' : 'admin',
            action: 'setting.changed',
            severity: high ? 'warn' : 'info',
            data: { key, old_value: previous, new_value: next, risk: definition.risk },
          });
          if (high) {
            await events.detect(tx, {
              tenantId,
              ruleId: 'high-risk-setting-changed',
              groupKey: `setting:${key}`,
              severity: 'high',
              data: { key, old_value: previous, new_value: next, actor_id: actor.id, actor_type: actor.type },
            });
          }
          for (const tie of ties.get(key) ?? []) {
            await tie.changed?.(tx, { tenantId, key, previous, next, actor }, context);
          }
        }
        return record(definition, next === definition.default ? undefined : next);
      });
    },

    /** Ties a key to the module that owns its meaning (at wiring time, before the first request). */
    tie(key: SettingKey, tie: SettingTie): void {
      ties.set(key, [...(ties.get(key) ?? []), tie]);
    },

    /** `GET /tenants/config/{key}/history`: newest first. */
    async history(principal: Principal, key: string, limit = 100): Promise<SettingChange[]> {
      known(key);
      return transactions.tenant(principal.tenantId, async (tx) => {
        const found = await store.historyOf(tx, principal.tenantId, key, limit);
        return found.map((row) => ({
          key: row.key,
          old_value: row.oldValue as SettingValue,
          new_value: row.newValue as SettingValue,
          changed_by: { id: row.changedBy, type: row.changedByType },
          changed_at: row.changedAt.toISOString(),
        }));
      });
    },
  };
}

export type SettingsService = ReturnType<typeof createSettingsService>;
