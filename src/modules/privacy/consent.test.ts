import { describe, expect, it } from 'vitest';
import { CONSENT_TYPE_PATTERN } from './consent.js';

const isPurposeSlug = (value: string) => new RegExp(CONSENT_TYPE_PATTERN).test(value);

describe('consent purpose slug', () => {
  it('takes 1 to 64 lowercase letters, digits, underscores and hyphens', () => {
    for (const slug of ['marketing', 'a', 'product_updates', 'third-party-2', 'x'.repeat(64)]) {
      expect(isPurposeSlug(slug), slug).toBe(true);
    }
  });

  it('refuses empty, too long, capitals, spaces, dots and other scripts', () => {
    for (const slug of ['', 'x'.repeat(65), 'Marketing', 'email marketing', 'a.b', 'café', 'a/b', 'a\n']) {
      expect(isPurposeSlug(slug), JSON.stringify(slug)).toBe(false);
    }
  });
});
