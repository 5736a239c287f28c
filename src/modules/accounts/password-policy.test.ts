import { describe, expect, it } from 'vitest';
import { HttpError } from '../../kernel/http/index.js';
import { assertStrongPassword, PASSWORD_MAX, PASSWORD_MIN, passwordWeakness } from './password-policy.js';

const TOO_SHORT = 'Password must be at least 12 characters';
const TOO_LONG = 'Password must be at most 128 characters';
const TOO_COMMON = 'Password is too common; choose another';

describe('password policy (Part A 2.4)', () => {
  it('accepts 12 to 128 characters with no character-class rules', () => {
    expect(PASSWORD_MIN).toBe(12);
    expect(PASSWORD_MAX).toBe(128);
    expect(passwordWeakness('zq'.repeat(6))).toBeNull();
    expect(passwordWeakness('k7'.repeat(64))).toBeNull();
    expect(passwordWeakness('all lower case words here')).toBeNull();
  });

  it('refuses 11 characters and 129', () => {
    expect(passwordWeakness('zq'.repeat(5) + 'z')).toBe(TOO_SHORT);
    expect(passwordWeakness('')).toBe(TOO_SHORT);
    expect(passwordWeakness('k7'.repeat(64) + 'k')).toBe(TOO_LONG);
  });

  it('counts characters, not UTF-16 units', () => {
    // Each emoji is two UTF-16 units: 11 of them are 22 units but still too short.
    expect(passwordWeakness('🔑'.repeat(11))).toBe(TOO_SHORT);
    expect(passwordWeakness('🔑'.repeat(12))).toBeNull();
    expect(passwordWeakness('🔑'.repeat(128))).toBeNull();
    expect(passwordWeakness('🔑'.repeat(129))).toBe(TOO_LONG);
  });

  it('refuses a well-known password of policy length, whatever its case', () => {
    expect(passwordWeakness('comicpassword')).toBe(TOO_COMMON);
    expect(passwordWeakness('ComicPassword')).toBe(TOO_COMMON);
    expect(passwordWeakness('000000000000')).toBe(TOO_COMMON);
    expect(passwordWeakness('comicpassword!')).toBeNull();
  });

  it('answers 400 naming the rule', () => {
    expect(() => assertStrongPassword('short')).toThrowError(new HttpError(400, TOO_SHORT));
    try {
      assertStrongPassword('COMICPASSWORD');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(HttpError);
      expect([(error as HttpError).status, (error as HttpError).detail]).toEqual([400, TOO_COMMON]);
    }
    expect(() => assertStrongPassword('a sound passphrase')).not.toThrow();
  });
});
