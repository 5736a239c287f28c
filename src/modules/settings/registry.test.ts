import { describe, expect, it } from 'vitest';
import { SETTINGS, settingDefinition } from './registry.js';
import { validateSetting } from './service.js';

describe('settings registry', () => {
  it('names each key once and finds it by key; an unknown key has no definition', () => {
    const keys = SETTINGS.map((definition) => definition.key);
    expect(new Set(keys).size).toBe(keys.length);
    for (const key of keys) expect(settingDefinition(key)?.key).toBe(key);
    expect(settingDefinition('auth.unknown')).toBeUndefined();
    expect(settingDefinition('')).toBeUndefined();
  });

  it('holds a default that passes its own rule', () => {
    for (const definition of SETTINGS) {
      expect(validateSetting(definition, definition.default), definition.key).toBe(definition.default);
    }
  });

  it('ships the risky sign-up paths off and sign-in methods on', () => {
    expect(settingDefinition('auth.ciam_signup_enabled')?.default).toBe(false);
    expect(settingDefinition('members.domain_join_enabled')?.default).toBe(false);
    expect(settingDefinition('auth.magic_link_enabled')?.default).toBe(true);
    expect(settingDefinition('auth.social_login_enabled')?.default).toBe(true);
  });

  it('caps each autonomous-response class at its ceiling, manual by default', () => {
    const levels = Object.fromEntries(
      SETTINGS.filter((d) => d.key.startsWith('autonomy.level_')).map((d) => [d.key, [d.default, d.allowed]]),
    );
    expect(levels).toEqual({
      'autonomy.level_contain_source': ['manual', ['manual', 'recommend', 'graduated', 'full']],
      'autonomy.level_contain_non_human': ['manual', ['manual', 'recommend', 'graduated']],
      'autonomy.level_raise_assurance': ['manual', ['manual', 'recommend', 'graduated', 'full']],
      'autonomy.level_revoke_access': ['manual', ['manual', 'recommend', 'graduated']],
      'autonomy.level_disable_principal': ['manual', ['manual', 'recommend']],
    });
  });

  it('marks every autonomy key and the sign-up paths high risk', () => {
    const high = SETTINGS.filter((d) => d.risk === 'high').map((d) => d.key);
    expect(high).toContain('autonomy.disabled_until');
    expect(high).toContain('auth.ciam_signup_enabled');
    expect(high).toContain('members.domain_join_enabled');
    expect(high.filter((key) => key.startsWith('autonomy.'))).toHaveLength(6);
  });
});
