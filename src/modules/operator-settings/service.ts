import { and, eq } from 'drizzle-orm';
import type { Tx } from '../../kernel/db/index.js';
import { HttpError } from '../../kernel/http/index.js';
import { operatorSettings } from './schema.js';

/**
 * Operator setting keys (Part B, tenant operator settings) with their shipped defaults, bounds, and how much a
 * change weighs (`risk`, as in the organization-settings registry). The platform operator sets them with
 * `PATCH /operator/tenants/{id}/config/{key}` (src/modules/operator).
 */
export const OPERATOR_SETTINGS = {
  /** 0 means no cap (shipped); a positive value refuses non-expiring and longer API keys. */
  'security.api_key_max_lifetime_days': {
    default: 0,
    min: 0,
    max: 3650,
    risk: 'medium',
    summary:
      'Longest API key lifetime in days; 0 means no cap. A positive value refuses non-expiring and longer keys, and rotated keys inherit it.',
  },
  /** 0 means no maximum; past it a detection is raised, the agent is never blocked. */
  'security.agent_max_credential_age_days': {
    default: 0,
    min: 0,
    max: 3650,
    risk: 'low',
    summary:
      'Age in days past which minting with an agent credential raises agent-credential-stale; 0 means no maximum.',
  },
  /**
   * Part A 8 "negotiable per tenant": requests per 5-minute window each OAuth client of the organization may make
   * at /authorize and /token. 0 (shipped) means the plan's allowance.
   */
  'oauth.client_requests_per_5min': {
    default: 0,
    min: 0,
    max: 100_000_000,
    risk: 'medium',
    summary: "Calls per OAuth client per 5 minutes at /authorize and /token; 0 means the plan's allowance.",
  },
} as const;

export const isOperatorSettingKey = (key: string): key is OperatorSettingKey => Object.hasOwn(OPERATOR_SETTINGS, key);

/** Every stored operator setting of an organization (key to raw value); keys without a row are absent. */
export async function storedOperatorSettings(tx: Tx, tenantId: string): Promise<Map<string, unknown>> {
  const found = await tx
    .select({ key: operatorSettings.key, value: operatorSettings.value })
    .from(operatorSettings)
    .where(eq(operatorSettings.tenantId, tenantId));
  return new Map(found.map((row) => [row.key, row.value]));
}

/**
 * Stores one value (the caller validated it) and answers the previous stored value (undefined: none). A value
 * equal to the default drops the row, so "not set" and "set to the default" read alike.
 */
export async function writeOperatorSetting(
  tx: Tx,
  tenantId: string,
  key: OperatorSettingKey,
  value: number,
  now: Date,
): Promise<unknown> {
  const [previous] = await tx
    .select({ value: operatorSettings.value })
    .from(operatorSettings)
    .where(and(eq(operatorSettings.tenantId, tenantId), eq(operatorSettings.key, key)))
    .for('update');
  if (value === OPERATOR_SETTINGS[key].default) {
    await tx
      .delete(operatorSettings)
      .where(and(eq(operatorSettings.tenantId, tenantId), eq(operatorSettings.key, key)));
  } else {
    await tx
      .insert(operatorSettings)
      .values({ tenantId, key, value, updatedAt: now })
      .onConflictDoUpdate({
        target: [operatorSettings.tenantId, operatorSettings.key],
        set: { value, updatedAt: now },
      });
  }
  return previous?.value;
}

export type OperatorSettingKey = keyof typeof OPERATOR_SETTINGS;

/**
 * The effective value for an organization: the stored integer, or the default when none is stored. A stored
 * value that is not an integer within bounds must not loosen a control (a malformed cap read as "no cap"):
 * what depends on it answers 503 until an operator corrects it.
 */
export async function readOperatorSetting(tx: Tx, tenantId: string, key: OperatorSettingKey): Promise<number> {
  const [row] = await tx
    .select({ value: operatorSettings.value })
    .from(operatorSettings)
    .where(and(eq(operatorSettings.tenantId, tenantId), eq(operatorSettings.key, key)));
  return operatorSettingValue(key, row ? row.value : undefined);
}

/** A stored value (undefined: no row) as the effective integer, or the 503 of a malformed one. */
export function operatorSettingValue(key: OperatorSettingKey, value: unknown): number {
  const definition = OPERATOR_SETTINGS[key];
  if (value === undefined) return definition.default;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < definition.min || value > definition.max) {
    throw new HttpError(
      503,
      `Operator setting ${key} holds ${JSON.stringify(value)}, not an integer from ${definition.min} to ${definition.max}: an operator must correct it`,
    );
  }
  return value;
}

export function createOperatorSettingsService() {
  return { read: readOperatorSetting };
}

export type OperatorSettingsService = ReturnType<typeof createOperatorSettingsService>;
