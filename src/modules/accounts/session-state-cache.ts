import type { Database, Transactions } from '../../kernel/db/index.js';
import type { SessionState } from './store.js';

export const AUTH_STATE_CHANNEL = 'svc_auth_state';

interface Entry {
  state: SessionState;
  tenantId: string;
  userId: string;
  cachedAt: number;
}

/**
 * Caches what principal resolution reads about a live session (ARCHITECTURE.md, scale-out: a cache is allowed
 * once it is invalidated across nodes). Database triggers notify `svc_auth_state` on every change that can
 * end a session's validity, and every node drops the affected organization's or user's entries; a commit on
 * this node drops its organizations' entries at once, before its answer is sent. While the notification
 * connection is down nothing is cached or served from cache. Only live states are cached: anything else is
 * read again. Entries also age out after `maxAgeMs`.
 */
export function createSessionStateCache(options: { maxEntries?: number; maxAgeMs?: number } = {}) {
  const maxEntries = options.maxEntries ?? 50_000;
  const maxAgeMs = options.maxAgeMs ?? 60_000;
  const entries = new Map<string, Entry>();
  const byTenant = new Map<string, Set<string>>();
  const byUser = new Map<string, Set<string>>();
  let live = false;
  let generation = 0;

  const index = (map: Map<string, Set<string>>, key: string, sessionId: string) => {
    const set = map.get(key) ?? new Set<string>();
    set.add(sessionId);
    map.set(key, set);
  };

  function drop(sessionId: string): void {
    const entry = entries.get(sessionId);
    if (!entry) return;
    entries.delete(sessionId);
    byTenant.get(entry.tenantId)?.delete(sessionId);
    byUser.get(entry.userId)?.delete(sessionId);
  }

  function clear(): void {
    generation += 1;
    entries.clear();
    byTenant.clear();
    byUser.clear();
  }

  /** `tenant:<id>`, `user:<id>`, or anything else to drop everything. */
  function invalidate(subject: string): void {
    generation += 1;
    const [kind, id] = subject.split(':');
    const sessions = kind === 'tenant' ? byTenant.get(id!) : kind === 'user' ? byUser.get(id!) : undefined;
    if (!sessions) {
      if (kind !== 'tenant' && kind !== 'user') clear();
      return;
    }
    for (const sessionId of [...sessions]) drop(sessionId);
  }

  return {
    /** Subscribes to the notifications and to this node's commits. */
    async attach(database: Database, transactions: Transactions): Promise<void> {
      transactions.onCommit((tenantIds) => {
        for (const tenantId of tenantIds) invalidate(`tenant:${tenantId}`);
      });
      await database.listen(AUTH_STATE_CHANNEL, {
        message(payload) {
          const [schema, subject] = payload.split(' ');
          if (schema === database.schema && subject) invalidate(subject);
        },
        status(isLive) {
          live = isLive;
          clear();
        },
      });
    },

    /** The session's state, from the cache when it holds a live entry, else from `load`. */
    async read(
      tenantId: string,
      sessionId: string,
      load: () => Promise<SessionState | undefined>,
      isLive: (state: SessionState) => boolean,
    ): Promise<SessionState | undefined> {
      const cached = live ? entries.get(sessionId) : undefined;
      if (
        cached &&
        cached.tenantId === tenantId &&
        performance.now() - cached.cachedAt < maxAgeMs &&
        isLive(cached.state)
      ) {
        return cached.state;
      }
      const before = generation;
      const state = await load();
      // An invalidation that arrived while reading may concern what was read: do not keep it.
      if (live && state && before === generation && isLive(state)) {
        drop(sessionId);
        if (entries.size >= maxEntries) drop(entries.keys().next().value!);
        entries.set(sessionId, { state, tenantId, userId: state.userId, cachedAt: performance.now() });
        index(byTenant, tenantId, sessionId);
        index(byUser, state.userId, sessionId);
      }
      return state;
    },

    size: () => entries.size,
  };
}

export type SessionStateCache = ReturnType<typeof createSessionStateCache>;
