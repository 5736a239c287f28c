import { describe, expect, it } from 'vitest';
import { HttpError } from '../../kernel/http/index.js';
import { type SettingDefinition, settingDefinition } from './registry.js';
import { validateSetting } from './service.js';

function outcome(definition: SettingDefinition, value: unknown) {
  try {
    return validateSetting(definition, value);
  } catch (error) {
    if (error instanceof HttpError) return `${error.status} ${error.detail}`;
    throw error;
  }
}

const known = (key: string) => settingDefinition(key)!;
const bounded: SettingDefinition = {
  key: 'test.bounded',
  summary: 'An integer between 1 and 10',
  type: 'integer',
  default: 5,
  risk: 'low',
  bounds: { min: 1, max: 10 },
};
const freeString: SettingDefinition = { key: 'test.text', summary: 'Text', type: 'string', default: '', risk: 'low' };

describe('validateSetting: booleans', () => {
  const flag = known('auth.magic_link_enabled');

  it('accepts true and false only', () => {
    expect(outcome(flag, false)).toBe(false);
    expect(outcome(flag, true)).toBe(true);
    for (const value of ['true', 0, 1, null, undefined]) {
      expect(outcome(flag, value), String(value)).toBe('400 auth.magic_link_enabled must be a boolean');
    }
  });
});

describe('validateSetting: integers', () => {
  it('accepts the bounds themselves and refuses one past either', () => {
    expect(outcome(bounded, 1)).toBe(1);
    expect(outcome(bounded, 10)).toBe(10);
    expect(outcome(bounded, 0)).toBe('400 test.bounded must be between 1 and 10');
    expect(outcome(bounded, 11)).toBe('400 test.bounded must be between 1 and 10');
  });

  it('refuses fractions, numeric strings and non-finite numbers', () => {
    for (const value of [1.5, '3', Number.NaN, Number.POSITIVE_INFINITY, true]) {
      expect(outcome(bounded, value), String(value)).toBe('400 test.bounded must be an integer');
    }
  });

  it('takes any integer when the key has no bounds', () => {
    const { bounds: _bounds, ...unbounded } = bounded;
    expect(outcome(unbounded, -1_000_000)).toBe(-1_000_000);
  });
});

describe('validateSetting: strings', () => {
  it('accepts only the allowed levels up to the class’s ceiling', () => {
    const level = known('autonomy.level_disable_principal');
    expect(outcome(level, 'recommend')).toBe('recommend');
    expect(outcome(level, 'graduated')).toBe('400 autonomy.level_disable_principal must be one of: manual, recommend');
    expect(outcome(level, 'Manual')).toBe('400 autonomy.level_disable_principal must be one of: manual, recommend');
    expect(outcome(level, 1)).toBe('400 autonomy.level_disable_principal must be a string');
  });

  it('refuses a string longer than 256 characters', () => {
    expect(outcome(freeString, 'x'.repeat(256))).toBe('x'.repeat(256));
    expect(outcome(freeString, 'x'.repeat(257))).toBe('400 test.text must be at most 256 characters');
  });

  it('accepts an instant with an offset, or empty', () => {
    const until = known('autonomy.disabled_until');
    for (const value of ['', '2026-11-26T10:00:00Z', '2026-11-26T10:00Z', '2026-11-26T10:00:00.123456+02:00']) {
      expect(outcome(until, value), value).toBe(value);
    }
  });

  it('refuses an instant without an offset, in another layout, or not on the calendar', () => {
    const until = known('autonomy.disabled_until');
    const refused = '400 autonomy.disabled_until must be an ISO 8601 date-time with an offset, or empty';
    for (const value of [
      '2026-11-26T10:00:00',
      '2026-11-26 10:00:00Z',
      '2026-11-26',
      '2026-13-01T00:00:00Z',
      '2026-11-26T25:00:00Z',
      '2026-11-26T10:00:00+0200',
      'tomorrow',
    ]) {
      expect(outcome(until, value), value).toBe(refused);
    }
  });
});
