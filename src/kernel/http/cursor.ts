import { isUuid } from '../ids.js';
import { unprocessable } from './errors.js';
import { isComparableInstant } from './instant.js';

/**
 * Keyset pagination: a page answers `next_cursor`, the sort key of its last row (opaque, base64url JSON), and
 * the next request passes it back as `cursor` to get the rows after it. Rows added meanwhile never shift a
 * page, unlike an offset.
 */
export type CursorKey = ReadonlyArray<string | number>;

/** What a paged list route passes to its service: `limit` rows after `cursor` (from the first row when absent). */
export interface PageQuery {
  limit: number;
  cursor?: string | undefined;
}

function encodeCursor(key: CursorKey): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

/** The key a `cursor` query parameter carries (undefined when absent); 422 naming `cursor` when it is not one. */
export type CursorPart = 'string' | 'integer' | 'uuid' | 'timestamp';

const fits: Record<CursorPart, (part: unknown) => boolean> = {
  string: (part) => typeof part === 'string',
  integer: (part) => Number.isSafeInteger(part),
  uuid: (part) => typeof part === 'string' && isUuid(part),
  // One the database can compare with: `Date.parse` also takes February 30th or year 0, which fail the statement.
  timestamp: (part) => typeof part === 'string' && isComparableInstant(part),
};

export function decodeCursor(value: string | undefined, shape: readonly CursorPart[]): CursorKey | undefined {
  if (value === undefined) return undefined;
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    key = undefined;
  }
  if (!Array.isArray(key) || key.length !== shape.length || key.some((part, i) => !fits[shape[i]!](part))) {
    throw unprocessable('cursor: is not a cursor this list answered');
  }
  return key as CursorKey;
}

/** One page of `rows` fetched with `limit + 1`: at most `limit` of them, and the cursor of the rest (or null). */
export function pageOf<T>(rows: T[], limit: number, keyOf: (row: T) => CursorKey): { rows: T[]; next: string | null } {
  if (rows.length <= limit) return { rows, next: null };
  const page = rows.slice(0, limit);
  return { rows: page, next: encodeCursor(keyOf(page[page.length - 1]!)) };
}
