import { describe, expect, it } from 'vitest';
import { HttpError } from '../../kernel/http/index.js';
import { validDomains } from './common.js';

function outcome(domains: string[] | undefined) {
  try {
    return validDomains(domains);
  } catch (error) {
    if (error instanceof HttpError) return `${error.status} ${error.detail}`;
    throw error;
  }
}

describe("a connection's allowed_domains", () => {
  it('reads none as an empty list', () => {
    expect(outcome(undefined)).toEqual([]);
    expect(outcome([])).toEqual([]);
  });

  it('lowercases, trims, drops a final dot and repeats, and sorts', () => {
    expect(outcome([' Example.COM. ', 'b.example.com', 'example.com', 'a.example.org'])).toEqual([
      'a.example.org',
      'b.example.com',
      'example.com',
    ]);
  });

  it('accepts hyphens inside labels, digits, punycode and 63-character labels', () => {
    const label63 = 'a'.repeat(63);
    expect(outcome(['my-corp.example', '3com.com', 'xn--bcher-kva.example', `${label63}.com`])).toEqual([
      '3com.com',
      `${label63}.com`,
      'my-corp.example',
      'xn--bcher-kva.example',
    ]);
  });

  it('refuses what is not a domain name, with 422 quoting the value as sent', () => {
    for (const raw of [
      'localhost',
      '',
      '.',
      'example..com',
      '-corp.com',
      'corp-.com',
      'exa_mple.com',
      '*.example.com',
      'user@example.com',
      'https://example.com',
      '192.0.2.1',
      'example.123',
      `${'a'.repeat(64)}.com`,
    ]) {
      expect(outcome([raw]), raw).toBe(`422 allowed_domains: "${raw}" is not a domain name`);
    }
  });

  it('refuses a name longer than 253 characters', () => {
    const label = 'a'.repeat(49);
    const long = `${[label, label, label, label, label].join('.')}.com`; // 5 * 50 + 3 = 253
    expect(long.length).toBe(253);
    expect(outcome([long])).toEqual([long]);
    expect(outcome([`a${long}`])).toBe(`422 allowed_domains: "a${long}" is not a domain name`);
  });

  it('refuses the whole list when one entry is bad', () => {
    expect(outcome(['example.com', 'bad_name'])).toBe('422 allowed_domains: "bad_name" is not a domain name');
  });
});
