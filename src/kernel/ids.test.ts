import { describe, expect, it } from 'vitest';
import { isUuid, newId } from './ids.js';

describe('newId', () => {
  it('makes RFC 9562 version-7 UUIDs that sort by creation time', async () => {
    const first = newId();
    await new Promise((resolve) => setTimeout(resolve, 2));
    const second = newId();
    for (const id of [first, second]) {
      expect(isUuid(id)).toBe(true);
      expect(id[14]).toBe('7');
      expect(['8', '9', 'a', 'b']).toContain(id[19]);
    }
    expect(first < second).toBe(true);
    const ms = Number.parseInt(second.replace(/-/g, '').slice(0, 12), 16);
    expect(Math.abs(ms - (performance.timeOrigin + performance.now()))).toBeLessThan(5_000);
  });

  it('does not repeat', () => {
    const ids = new Set(Array.from({ length: 10_000 }, newId));
    expect(ids.size).toBe(10_000);
  });
});
