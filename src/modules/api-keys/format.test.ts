import { describe, expect, it } from 'vitest';
import { displayHandleOf, environmentOf, issueKey, isWellFormedKey } from './format.js';

describe('API key format', () => {
  it('issues svc_live_ in production and svc_test_ elsewhere, with a check segment', () => {
    expect(environmentOf('production')).toBe('live');
    expect(environmentOf('development')).toBe('test');
    const live = issueKey('live');
    const test = issueKey('test');
    expect(live.plaintext).toMatch(/^svc_live_[0-9A-Za-z]{43}_[0-9A-Za-z]{6}$/);
    expect(test.plaintext).toMatch(/^svc_test_[0-9A-Za-z]{43}_[0-9A-Za-z]{6}$/);
    expect(isWellFormedKey(live.plaintext, 'live')).toBe(true);
    expect(isWellFormedKey(test.plaintext, 'test')).toBe(true);
  });

  it('refuses the other environment, a changed character and a truncated key without a look-up', () => {
    const { plaintext } = issueKey('test');
    expect(isWellFormedKey(plaintext, 'live')).toBe(false);
    const middle = 20;
    const flipped = plaintext.slice(0, middle) + (plaintext[middle] === 'a' ? 'b' : 'a') + plaintext.slice(middle + 1);
    expect(isWellFormedKey(flipped, 'test')).toBe(false);
    expect(isWellFormedKey(plaintext.slice(0, -1), 'test')).toBe(false);
    expect(isWellFormedKey(`${plaintext}x`, 'test')).toBe(false);
  });

  it('shows a handle with the middle elided', () => {
    const { plaintext, displayHandle } = issueKey('test');
    expect(displayHandle).toBe(displayHandleOf(plaintext));
    expect(displayHandle).toMatch(/^svc_test_[0-9A-Za-z]{4}…[0-9A-Za-z]{4}$/);
    expect(displayHandle.length).toBeLessThan(plaintext.length / 3);
  });

  it('never issues the same key twice', () => {
    const keys = new Set(Array.from({ length: 200 }, () => issueKey('test').plaintext));
    expect(keys.size).toBe(200);
  });
});
