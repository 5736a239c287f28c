import { describe, expect, it } from 'vitest';
import { type CursorPart, decodeCursor, pageOf } from './cursor.js';
import { HttpError } from './errors.js';

const UUID = '0192f3a4-5b6c-7d8e-9f01-23456789abcd';
const encoded = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

function refusal(value: string, shape: readonly CursorPart[]) {
  try {
    decodeCursor(value, shape);
  } catch (error) {
    if (error instanceof HttpError) return `${error.status} ${error.detail}`;
    throw error;
  }
  return 'accepted';
}
const REFUSED = '422 cursor: is not a cursor this list answered';

describe('pageOf', () => {
  const rows = [1, 2, 3, 4].map((n) => ({ n, at: `2026-11-0${n}T00:00:00.000Z` }));
  const keyOf = (row: (typeof rows)[number]) => [row.at, row.n];

  it('answers every row and no cursor when they fit in the limit', () => {
    expect(pageOf(rows, 4, keyOf)).toEqual({ rows, next: null });
    expect(pageOf(rows, 10, keyOf)).toEqual({ rows, next: null });
    expect(pageOf([], 1, keyOf)).toEqual({ rows: [], next: null });
  });

  it('cuts the extra row and answers the last kept row’s key as the cursor', () => {
    const page = pageOf(rows, 3, keyOf);
    expect(page.rows.map((row) => row.n)).toEqual([1, 2, 3]);
    expect(page.next).toBe(encoded(['2026-11-03T00:00:00.000Z', 3]));
    expect(decodeCursor(page.next!, ['timestamp', 'integer'])).toEqual(['2026-11-03T00:00:00.000Z', 3]);
  });

  it('answers a URL-safe cursor (no +, / or =)', () => {
    const page = pageOf([{ s: '\u00ff\u00fe?>' }, { s: '' }], 1, (row) => [row.s]);
    expect(page.next).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(page.next!, ['string'])).toEqual(['\u00ff\u00fe?>']);
  });
});

describe('decodeCursor', () => {
  it('answers undefined when no cursor is passed', () => {
    expect(decodeCursor(undefined, ['uuid'])).toBeUndefined();
  });

  it('accepts a key whose parts fit the shape', () => {
    expect(
      decodeCursor(encoded([UUID, 'b', 7, '2026-11-26T10:00:00Z']), ['uuid', 'string', 'integer', 'timestamp']),
    ).toEqual([UUID, 'b', 7, '2026-11-26T10:00:00Z']);
  });

  it('refuses what is not base64url JSON', () => {
    expect(refusal('', ['string'])).toBe(REFUSED);
    expect(refusal('%%%', ['string'])).toBe(REFUSED);
    expect(refusal(Buffer.from('[1,').toString('base64url'), ['integer'])).toBe(REFUSED);
  });

  it('refuses JSON that is not an array of the shape’s length', () => {
    expect(refusal(encoded({ 0: 'a' }), ['string'])).toBe(REFUSED);
    expect(refusal(encoded('a'), ['string'])).toBe(REFUSED);
    expect(refusal(encoded(null), ['string'])).toBe(REFUSED);
    expect(refusal(encoded([]), ['string'])).toBe(REFUSED);
    expect(refusal(encoded(['a', 'b']), ['string'])).toBe(REFUSED);
    expect(refusal(encoded(['a']), ['string', 'string'])).toBe(REFUSED);
  });

  it('refuses a part of the wrong kind', () => {
    expect(refusal(encoded([1]), ['string'])).toBe(REFUSED);
    expect(refusal(encoded(['1']), ['integer'])).toBe(REFUSED);
    expect(refusal(encoded([1.5]), ['integer'])).toBe(REFUSED);
    expect(refusal(encoded([2 ** 53]), ['integer'])).toBe(REFUSED);
    expect(refusal(encoded([2 ** 53 - 1]), ['integer'])).toBe('accepted');
    expect(refusal(encoded(['not-a-uuid']), ['uuid'])).toBe(REFUSED);
    expect(refusal(encoded([`${UUID}0`]), ['uuid'])).toBe(REFUSED);
    expect(refusal(encoded(['yesterday']), ['timestamp'])).toBe(REFUSED);
    expect(refusal(encoded([0]), ['timestamp'])).toBe(REFUSED);
    // Instants `Date.parse` takes but the database does not: February 30th, year 0, a leap second.
    for (const instant of ['2026-02-30T00:00:00Z', '0000-06-01T00:00:00Z', '2026-06-30T23:59:60Z']) {
      expect(refusal(encoded([instant]), ['timestamp'])).toBe(REFUSED);
    }
  });

  it('checks each part against its own position', () => {
    expect(refusal(encoded([UUID, 3]), ['uuid', 'integer'])).toBe('accepted');
    expect(refusal(encoded([3, UUID]), ['uuid', 'integer'])).toBe(REFUSED);
  });
});
