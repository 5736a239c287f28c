import { describe, expect, it } from 'vitest';
import { HttpError } from '../../kernel/http/index.js';
import { OPERATOR_SETTINGS, operatorSettingValue } from './service.js';

function outcome(key: keyof typeof OPERATOR_SETTINGS, value: unknown) {
  try {
    return operatorSettingValue(key, value);
  } catch (error) {
    if (error instanceof HttpError) return `${error.status} ${error.detail}`;
    throw error;
  }
}

describe('operator setting values', () => {
  it('reads no stored value as the shipped default', () => {
    for (const key of Object.keys(OPERATOR_SETTINGS) as (keyof typeof OPERATOR_SETTINGS)[]) {
      expect(outcome(key, undefined), key).toBe(0);
    }
  });

  it('accepts integers within the bounds, the bounds included', () => {
    expect(outcome('security.api_key_max_lifetime_days', 0)).toBe(0);
    expect(outcome('security.api_key_max_lifetime_days', 3650)).toBe(3650);
    expect(outcome('oauth.client_requests_per_5min', 100_000_000)).toBe(100_000_000);
  });

  it('answers 503 for a malformed stored value, so it never loosens a control', () => {
    const broken = (value: string) =>
      `503 Operator setting security.api_key_max_lifetime_days holds ${value}, not an integer from 0 to 3650: an operator must correct it`;
    expect(outcome('security.api_key_max_lifetime_days', 3651)).toBe(broken('3651'));
    expect(outcome('security.api_key_max_lifetime_days', -1)).toBe(broken('-1'));
    expect(outcome('security.api_key_max_lifetime_days', 1.5)).toBe(broken('1.5'));
    expect(outcome('security.api_key_max_lifetime_days', '30')).toBe(broken('"30"'));
    expect(outcome('security.api_key_max_lifetime_days', null)).toBe(broken('null'));
    expect(outcome('security.api_key_max_lifetime_days', { days: 30 })).toBe(broken('{"days":30}'));
  });
});
