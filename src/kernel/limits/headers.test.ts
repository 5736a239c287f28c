import { describe, expect, it } from 'vitest';
import { rateLimitHeaders, throttled } from './headers.js';
import type { LimitDecision } from './limiter.js';

const decision = (overrides: Partial<LimitDecision>): LimitDecision => ({
  allowed: true,
  limit: 60,
  remaining: 59,
  resetSeconds: 300,
  retryAfterSeconds: 0,
  unavailable: false,
  ...overrides,
});

describe('rate-limit headers', () => {
  it('gives an allowed request the three RateLimit fields and no Retry-After', () => {
    expect(rateLimitHeaders(decision({}))).toEqual({
      'RateLimit-Limit': '60',
      'RateLimit-Remaining': '59',
      'RateLimit-Reset': '300',
    });
  });

  it('adds Retry-After to a throttled one, never less than one second', () => {
    expect(rateLimitHeaders(decision({ allowed: false, remaining: 0, retryAfterSeconds: 42 }))).toEqual({
      'RateLimit-Limit': '60',
      'RateLimit-Remaining': '0',
      'RateLimit-Reset': '300',
      'Retry-After': '42',
    });
    expect(rateLimitHeaders(decision({ allowed: false, remaining: 0, retryAfterSeconds: 0 }))['Retry-After']).toBe('1');
  });

  it('gives only a short fixed Retry-After when the store could not answer (no counts known)', () => {
    expect(rateLimitHeaders(decision({ allowed: false, unavailable: true, retryAfterSeconds: 999 }))).toEqual({
      'Retry-After': '5',
    });
  });

  it('answers 429 with those headers', () => {
    const error = throttled(decision({ allowed: false, remaining: 0, retryAfterSeconds: 7 }));
    expect([error.status, error.detail, error.headers['Retry-After']]).toEqual([429, 'Too many requests', '7']);
  });
});
