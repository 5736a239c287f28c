import { type AuthStateListener, createAuthStateCache } from '../../kernel/auth/index.js';
import type { SessionState } from './store.js';

/**
 * What principal resolution reads about a live session, cached per node and dropped by organization or by
 * person whenever the auth-state triggers (migration 0001) or a local commit say it may have changed.
 */
export function createSessionStateCache(listener: AuthStateListener) {
  const cache = createAuthStateCache<SessionState>(listener, {
    tenantOf: (state) => state.tenantId,
    userOf: (state) => state.userId,
  });
  return {
    /** The session's state, from the cache when it holds a live entry, else from `load`. */
    read: (
      tenantId: string,
      sessionId: string,
      load: () => Promise<SessionState | undefined>,
      isLive: (state: SessionState) => boolean,
    ) => cache.read(`${tenantId}/${sessionId}`, load, isLive),
    size: cache.size,
  };
}

export type SessionStateCache = ReturnType<typeof createSessionStateCache>;
