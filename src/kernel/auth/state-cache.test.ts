import { describe, expect, it } from 'vitest';
import { type AuthStateListener, createAuthStateCache } from './state-cache.js';

/** A listener driven by the test: what the database notifications would say. */
function manualListener() {
  const subscribers: Array<Parameters<AuthStateListener['subscribe']>[0]> = [];
  const listener: AuthStateListener = {
    subscribe(subscriber) {
      subscribers.push(subscriber);
      subscriber.connection(true);
    },
    caughtUp: () => true,
    everyNodeHeard: async () => undefined,
    synced: async () => undefined,
    close: () => undefined,
  };
  const invalidate = (subject: string) => {
    for (const subscriber of subscribers) subscriber.invalidate(subject);
  };
  return { listener, invalidate };
}

interface Value {
  tenant: string;
  user: string;
  n: number;
}

function cacheOf(maxEntries: number) {
  const { listener, invalidate } = manualListener();
  const cache = createAuthStateCache<Value>(listener, {
    tenantOf: (v) => v.tenant,
    userOf: (v) => v.user,
    maxEntries,
  });
  let loads = 0;
  const read = (id: string, value: Value) =>
    cache.read(
      id,
      async () => {
        loads++;
        return value;
      },
      () => true,
    );
  return { cache, read, invalidate, loads: () => loads };
}

describe('auth-state cache', () => {
  it('stays within its bound, dropping the oldest entries first and keeping the newest', async () => {
    const { cache, read, loads } = cacheOf(100);
    for (let i = 0; i < 1000; i++) await read(`s${i}`, { tenant: 't', user: `u${i}`, n: i });
    expect(cache.size()).toBeLessThanOrEqual(100);
    expect(cache.size()).toBeGreaterThanOrEqual(90);
    const before = loads();
    await read('s999', { tenant: 't', user: 'u999', n: 999 }); // newest: cached
    expect(loads()).toBe(before);
    await read('s0', { tenant: 't', user: 'u0', n: 0 }); // oldest: evicted long ago, loaded again
    expect(loads()).toBe(before + 1);
  });

  it('drops what a person or an organization invalidation concerns, and nothing else', async () => {
    const { read, invalidate, loads } = cacheOf(100);
    await read('a', { tenant: 't1', user: 'u1', n: 1 });
    await read('b', { tenant: 't1', user: 'u2', n: 2 });
    await read('c', { tenant: 't2', user: 'u3', n: 3 });
    invalidate('user:u1');
    let before = loads();
    await read('a', { tenant: 't1', user: 'u1', n: 1 });
    await read('b', { tenant: 't1', user: 'u2', n: 2 });
    expect(loads()).toBe(before + 1);
    invalidate('tenant:t1');
    before = loads();
    for (const id of ['a', 'b', 'c']) await read(id, { tenant: id === 'c' ? 't2' : 't1', user: 'u', n: 0 });
    expect(loads()).toBe(before + 2);
  });
});
