import { and, eq } from 'drizzle-orm';
import type { Tx } from '../../kernel/db/index.js';
import { operatorSettings } from './schema.js';

/**
 * Operator setting keys (Part B, tenant operator settings) with their shipped defaults and bounds. The
 * operator plane API that writes them comes later; until then they are set in SQL (docs/api-keys.md).
 */
export const OPERATOR_SETTINGS = {
  /** 0 means no cap (shipped); a positive value refuses non-expiring and longer API keys. */
  'security.api_key_max_lifetime_days': { default: 0, min: 0, max: 3650 },
  /** 0 means no maximum; past it a detection is raised, the agent is never blocked. */
  'security.agent_max_credential_age_days': { default: 0, min: 0, max: 3650 },
} as const;

export type OperatorSettingKey = keyof typeof OPERATOR_SETTINGS;

/** The effective value for an organization: the stored integer when it is within bounds, else the default. */
export async function readOperatorSetting(tx: Tx, tenantId: string, key: OperatorSettingKey): Promise<number> {
  const definition = OPERATOR_SETTINGS[key];
  const [row] = await tx
    .select({ value: operatorSettings.value })
    .from(operatorSettings)
    .where(and(eq(operatorSettings.tenantId, tenantId), eq(operatorSettings.key, key)));
  const value = row?.value;
  // A malformed stored value must not loosen a control: it reads as the default.
  if (typeof value !== 'number' || !Number.isInteger(value) || value < definition.min || value > definition.max) {
    return definition.default;
  }
  return value;
}

export function createOperatorSettingsService() {
  return { read: readOperatorSetting };
}

export type OperatorSettingsService = ReturnType<typeof createOperatorSettingsService>;
