import { describe, expect, it } from 'vitest';
import { normalizeDomain } from './domains.js';
import { isPublicEmailProvider } from './public-email-providers.js';

describe('normalizeDomain', () => {
  it('lowercases, trims and drops a final dot', () => {
    expect(normalizeDomain('  Example.COM. ')).toBe('example.com');
    expect(normalizeDomain('sub.example.co.uk')).toBe('sub.example.co.uk');
  });

  it('accepts an alphabetic or punycode top label only', () => {
    expect(normalizeDomain('example.xn--p1ai')).toBe('example.xn--p1ai');
    expect(normalizeDomain('example.c')).toBeNull();
    expect(normalizeDomain('example.123')).toBeNull();
    expect(normalizeDomain('192.0.2.1')).toBeNull();
    expect(normalizeDomain('example.co1')).toBeNull();
  });

  it('refuses one label, empty labels, bad hyphens and other characters', () => {
    for (const input of ['localhost', '', '.com', 'example..com', '-a.com', 'a-.com', 'a_b.com', 'a b.com', 'ü.com']) {
      expect(normalizeDomain(input), input).toBeNull();
    }
  });

  it('takes labels up to 63 characters and names up to 253', () => {
    expect(normalizeDomain(`${'a'.repeat(63)}.com`)).toBe(`${'a'.repeat(63)}.com`);
    expect(normalizeDomain(`${'a'.repeat(64)}.com`)).toBeNull();
    const label = 'a'.repeat(49);
    const longest = `${[label, label, label, label, label].join('.')}.com`;
    expect(longest.length).toBe(253);
    expect(normalizeDomain(longest)).toBe(longest);
    expect(normalizeDomain(`a${longest}`)).toBeNull();
  });
});

describe('isPublicEmailProvider (Part A 4.7: such domains cannot be claimed)', () => {
  it('matches a provider and any name under it', () => {
    expect(isPublicEmailProvider('gmail.com')).toBe(true);
    expect(isPublicEmailProvider('mail.gmail.com')).toBe(true);
    expect(isPublicEmailProvider('a.b.hotmail.co.uk')).toBe(true);
  });

  it('does not match a name that only ends with the same letters, or a suffix of a provider', () => {
    expect(isPublicEmailProvider('notgmail.com')).toBe(false);
    expect(isPublicEmailProvider('gmail.com.example')).toBe(false);
    expect(isPublicEmailProvider('co.uk')).toBe(false);
    expect(isPublicEmailProvider('com')).toBe(false);
    expect(isPublicEmailProvider('example.com')).toBe(false);
  });
});
