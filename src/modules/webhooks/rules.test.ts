import { describe, expect, it } from 'vitest';
import { webhookEventTypes } from '../../kernel/events/index.js';
import { HttpError } from '../../kernel/http/index.js';
import { assertEventTypes, MAX_ENDPOINTS_PER_ORGANIZATION } from './rules.js';

function outcome(types: string[]) {
  try {
    return assertEventTypes(types);
  } catch (error) {
    if (error instanceof HttpError) return `${error.status} ${error.detail}`;
    throw error;
  }
}

describe('webhook event types', () => {
  it('accepts known types, dropping repeats and keeping the first order', () => {
    expect(outcome(['apikey.issued', 'user.signed_up', 'apikey.issued'])).toEqual(['apikey.issued', 'user.signed_up']);
    expect(outcome([])).toEqual([]);
  });

  it('accepts every type the catalogue offers to webhooks', () => {
    const all = webhookEventTypes().map((type) => type.name);
    expect(outcome(all)).toEqual(all);
  });

  it('refuses an unknown type with 400 naming the first one', () => {
    expect(outcome(['user.signed_up', 'user.exploded', 'also.unknown'])).toBe('400 Unknown event type: user.exploded');
    expect(outcome(['User.Signed_Up'])).toBe('400 Unknown event type: User.Signed_Up');
    expect(outcome(['user.*'])).toBe('400 Unknown event type: user.*');
  });

  it('refuses a type the catalogue keeps off webhooks', () => {
    expect(outcome(['user.logged_in'])).toBe('400 Unknown event type: user.logged_in');
  });

  it('caps an organization at 25 endpoints', () => {
    expect(MAX_ENDPOINTS_PER_ORGANIZATION).toBe(25);
  });
});
