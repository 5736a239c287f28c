/**
 * The organization-settings registry (Part A 2.13): every tenant-editable key with its type, default, risk
 * and bounds. Values are stored only when overridden; a key absent from storage reads as its default.
 */
export type SettingValue = boolean | number | string;

export interface SettingDefinition {
  key: string;
  summary: string;
  type: 'boolean' | 'integer' | 'string';
  default: SettingValue;
  risk: 'low' | 'medium' | 'high';
  /** For integers. */
  bounds?: { min: number; max: number };
  /** For enumerated strings. */
  allowed?: readonly string[];
  /** For free strings: `instant` is an ISO 8601 date-time with an offset, or empty. */
  format?: 'instant';
}

const AUTONOMY_LEVELS = ['manual', 'recommend', 'graduated', 'full'] as const;
const levelsUpTo = (ceiling: (typeof AUTONOMY_LEVELS)[number]) =>
  AUTONOMY_LEVELS.slice(0, AUTONOMY_LEVELS.indexOf(ceiling) + 1);

export const SETTINGS: readonly SettingDefinition[] = [
  {
    key: 'auth.magic_link_enabled',
    summary: 'Allows emailed magic links; turning off also stops already-issued links redeeming.',
    type: 'boolean',
    default: true,
    risk: 'medium',
  },
  {
    key: 'auth.social_login_enabled',
    summary: 'Allows social sign-in.',
    type: 'boolean',
    default: true,
    risk: 'medium',
  },
  {
    key: 'auth.ciam_signup_enabled',
    summary: 'Allows customer self-registration.',
    type: 'boolean',
    default: false,
    risk: 'high',
  },
  {
    key: 'members.domain_join_enabled',
    summary: 'Allows anyone on a verified domain to join without an invitation.',
    type: 'boolean',
    default: false,
    risk: 'high',
  },
  ...(
    [
      ['contain_source', 'full'],
      ['contain_non_human', 'graduated'],
      ['raise_assurance', 'full'],
      ['revoke_access', 'graduated'],
      ['disable_principal', 'recommend'],
    ] as const
  ).map(
    ([responseClass, ceiling]): SettingDefinition => ({
      key: `autonomy.level_${responseClass}`,
      summary: `Oversight level for the ${responseClass} autonomous-response class (ceiling: ${ceiling}).`,
      type: 'string',
      default: 'manual',
      risk: 'high',
      allowed: levelsUpTo(ceiling),
    }),
  ),
  {
    key: 'autonomy.disabled_until',
    summary: 'Emergency-stop expiry instant (ISO 8601); empty means autonomous response is enabled.',
    type: 'string',
    default: '',
    risk: 'high',
    format: 'instant',
  },
];

const BY_KEY = new Map(SETTINGS.map((definition) => [definition.key, definition]));

export const settingDefinition = (key: string): SettingDefinition | undefined => BY_KEY.get(key);

/** Keys other modules read; a typo is a type error, not a silent default. */
export type SettingKey =
  | 'auth.magic_link_enabled'
  | 'auth.social_login_enabled'
  | 'auth.ciam_signup_enabled'
  | 'members.domain_join_enabled'
  | 'autonomy.level_contain_source'
  | 'autonomy.level_contain_non_human'
  | 'autonomy.level_raise_assurance'
  | 'autonomy.level_revoke_access'
  | 'autonomy.level_disable_principal'
  | 'autonomy.disabled_until';
