import { sql } from 'drizzle-orm';
import type { Database, Transactions } from '../db/index.js';
import { newId } from '../ids.js';

/** The channel the auth-state triggers notify (migrations 0001 and 0005): `<schema> tenant:<id>` or `user:<id>`. */
export const AUTH_STATE_CHANNEL = 'svc_auth_state';

/**
 * What principal resolution reads on every request (session state, API-key state) may be cached per node only
 * if every node drops it as soon as it can have changed (ARCHITECTURE.md, scale-out). Database triggers notify
 * `svc_auth_state` on every such change and each node's one listener fans the subject out to its caches; a
 * commit on the node itself drops its organizations' entries before its answer is sent. While the
 * notification connection is down nothing is served from cache.
 */
export interface AuthStateListener {
  /** A cache to tell about invalidations (`tenant:<id>`, `user:<id>`) and about the connection's state. */
  subscribe(subscriber: { invalidate(subject: string): void; connection(isLive: boolean): void }): void;
  /**
   * Resolves once every change committed before the call has reached this node's caches: a marker is
   * notified on the same channel, and notifications arrive in commit order. For changes made outside the
   * service (an operator's SQL, tests).
   */
  synced(): Promise<void>;
}

export async function createAuthStateListener(database: Database, transactions: Transactions) {
  const subscribers: Array<Parameters<AuthStateListener['subscribe']>[0]> = [];
  const markers = new Map<string, () => void>();
  let connected = false;
  /** Told of the next change of the notification connection's state. */
  const statusWaiters = new Set<() => void>();
  const nextStatusChange = () => {
    let wake!: () => void;
    const changed = new Promise<void>((resolve) => {
      wake = resolve;
    });
    statusWaiters.add(wake);
    return { changed, forget: () => statusWaiters.delete(wake) };
  };
  transactions.onCommit((tenantIds) => {
    for (const tenantId of tenantIds) for (const s of subscribers) s.invalidate(`tenant:${tenantId}`);
  });
  await database.listen(AUTH_STATE_CHANNEL, {
    message(payload) {
      const [schema, subject] = payload.split(' ');
      if (schema !== database.schema || !subject) return;
      if (subject.startsWith('sync:')) {
        markers.get(subject)?.();
        return;
      }
      for (const s of subscribers) s.invalidate(subject);
    },
    status(isLive) {
      connected = isLive;
      for (const s of subscribers) s.connection(isLive);
      const waiters = [...statusWaiters];
      statusWaiters.clear();
      for (const wake of waiters) wake();
    },
  });
  const listener: AuthStateListener = {
    subscribe(subscriber) {
      subscribers.push(subscriber);
      subscriber.connection(connected);
    },
    async synced() {
      // A notification sent while the connection is down (it reconnects by itself) is never heard: the marker
      // goes out once delivery is live, and again if the connection is lost before it arrives.
      for (;;) {
        while (!connected) await nextStatusChange().changed;
        const marker = `sync:${newId()}`;
        const heard = new Promise<boolean>((resolve) => markers.set(marker, () => resolve(true)));
        const status = nextStatusChange();
        try {
          await database.db.execute(sql`select pg_notify(${AUTH_STATE_CHANNEL}, ${`${database.schema} ${marker}`})`);
          if (await Promise.race([heard, status.changed.then(() => false)])) return;
        } finally {
          status.forget();
          markers.delete(marker);
        }
      }
    },
  };
  return listener;
}

interface Entry<V> {
  value: V;
  tenantId: string;
  userId: string | undefined;
  cachedAt: number;
}

/**
 * A per-node cache of live auth state keyed by an id, dropped by organization or by person when the listener
 * hears of a change. Only live values are cached (a refusal is always read again); entries age out after
 * `maxAgeMs`; a value read while an invalidation arrived is not kept.
 */
export function createAuthStateCache<V>(
  listener: AuthStateListener,
  options: {
    tenantOf(value: V): string;
    /** The person a value belongs to; values without one ignore `user:` invalidations. */
    userOf?(value: V): string;
    maxEntries?: number;
    maxAgeMs?: number;
  },
) {
  const maxEntries = options.maxEntries ?? 50_000;
  const maxAgeMs = options.maxAgeMs ?? 60_000;
  const entries = new Map<string, Entry<V>>();
  const byTenant = new Map<string, Set<string>>();
  const byUser = new Map<string, Set<string>>();
  let live = false;
  let generation = 0;

  const index = (map: Map<string, Set<string>>, key: string, id: string) => {
    const set = map.get(key) ?? new Set<string>();
    set.add(id);
    map.set(key, set);
  };
  const unindex = (map: Map<string, Set<string>>, key: string, id: string) => {
    const set = map.get(key);
    if (set?.delete(id) && set.size === 0) map.delete(key);
  };

  function drop(id: string): void {
    const entry = entries.get(id);
    if (!entry) return;
    entries.delete(id);
    unindex(byTenant, entry.tenantId, id);
    if (entry.userId) unindex(byUser, entry.userId, id);
  }

  /**
   * Full: the oldest tenth goes at once. (Dropping one entry per insertion would find it by iterating the Map
   * from its start, past every slot deleted before: tens of microseconds per request once full.)
   */
  function evictOldest(): void {
    let count = Math.max(1, Math.ceil(maxEntries / 10));
    for (const id of entries.keys()) {
      if (count-- <= 0) break;
      drop(id);
    }
  }

  function clear(): void {
    generation += 1;
    entries.clear();
    byTenant.clear();
    byUser.clear();
  }

  listener.subscribe({
    invalidate(subject) {
      generation += 1;
      const [kind, id] = subject.split(':');
      if (kind === 'tenant') for (const key of [...(byTenant.get(id!) ?? [])]) drop(key);
      else if (kind === 'user') for (const key of [...(byUser.get(id!) ?? [])]) drop(key);
      else clear();
    },
    connection(isLive) {
      live = isLive;
      clear();
    },
  });

  return {
    /** The value under `id`, from the cache when it holds a live one, else from `load`. */
    async read(id: string, load: () => Promise<V | undefined>, isLive: (value: V) => boolean): Promise<V | undefined> {
      const cached = live ? entries.get(id) : undefined;
      if (cached && performance.now() - cached.cachedAt < maxAgeMs && isLive(cached.value)) return cached.value;
      const before = generation;
      const value = await load();
      // An invalidation that arrived while reading may concern what was read: do not keep it.
      if (live && value !== undefined && before === generation && isLive(value)) {
        drop(id);
        if (entries.size >= maxEntries) evictOldest();
        const tenantId = options.tenantOf(value);
        const userId = options.userOf?.(value);
        entries.set(id, { value, tenantId, userId, cachedAt: performance.now() });
        index(byTenant, tenantId, id);
        if (userId) index(byUser, userId, id);
      }
      return value;
    },

    size: () => entries.size,
  };
}

export type AuthStateCache<V> = ReturnType<typeof createAuthStateCache<V>>;
