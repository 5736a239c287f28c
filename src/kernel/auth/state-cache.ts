import { sql } from 'drizzle-orm';
import type { Database, OpenedBarrier, Transactions } from '../db/index.js';
import { newId } from '../ids.js';

/** The channel the auth-state triggers notify (migrations 0001 and 0005): `<schema> tenant:<id>` or `user:<id>`. */
export const AUTH_STATE_CHANNEL = 'svc_auth_state';

/**
 * How long a node trusts its caches after it last proved itself caught up with the notifications, and the
 * longest a revoking request waits for the other nodes' acknowledgements: the same bound, which is what makes
 * a revocation hold on every node from its answer on (docs/decisions.md, "Revocation across nodes").
 */
export const CATCH_UP_LEASE_MS = 1000;
/** How often a node proves itself caught up: well inside the lease, so a healthy node never loses it. */
export const CATCH_UP_PROBE_MS = 250;

/**
 * What principal resolution reads on every request (session state, API-key state) may be cached per node only
 * if no node serves it once a change has been answered (ARCHITECTURE.md, scale-out; Part A 3: a revoked token
 * is refused from its next use). Database triggers notify `svc_auth_state` on every such change and each
 * node's one listener fans the subject out to its caches; a commit on the node itself drops its organizations'
 * entries before its answer is sent. Notifications reach the other nodes a moment after the commit, so:
 * - a transaction that changed auth state answers only once every live node has acknowledged it, or once
 *   `CATCH_UP_LEASE_MS` have passed since its commit (a barrier marker notified within the transaction);
 * - a node serves from cache only while it holds a lease: its own probe, notified less than
 *   `CATCH_UP_LEASE_MS` ago, has come back, so it has heard everything committed before that (notifications
 *   arrive in commit order). A node that did not acknowledge in time has lost its lease by the time the
 *   revocation is answered, and reads the database until it catches up.
 * While the notification connection is down nothing is served from cache.
 */
export interface AuthStateListener {
  /** A cache to tell about invalidations (`tenant:<id>`, `user:<id>`) and about the connection's state. */
  subscribe(subscriber: { invalidate(subject: string): void; connection(isLive: boolean): void }): void;
  /** Whether this node's caches may answer now: connected, and caught up within the lease. */
  caughtUp(): boolean;
  /**
   * Resolves once every node known to be live has heard every change committed before the call, or once
   * `CATCH_UP_LEASE_MS` have passed, whichever is first; never fails. (Kernel transactions that change auth
   * state do this by themselves, with the marker in the transaction.)
   */
  everyNodeHeard(): Promise<void>;
  /**
   * Resolves once every change committed before the call has reached this node's caches: a marker is
   * notified on the same channel, and notifications arrive in commit order. For changes made outside the
   * service (an operator's SQL, tests).
   */
  synced(): Promise<void>;
  /** Stops probing (the notification connection closes with the database). */
  close(): void;
}

interface Barrier {
  heardOwn(): void;
  acknowledged(nodeId: string): void;
}

export async function createAuthStateListener(
  database: Database,
  transactions: Transactions,
  timing: { leaseMs: number; probeMs: number } = { leaseMs: CATCH_UP_LEASE_MS, probeMs: CATCH_UP_PROBE_MS },
) {
  const subscribers: Array<Parameters<AuthStateListener['subscribe']>[0]> = [];
  const markers = new Map<string, () => void>();
  const nodeId = newId();
  // Embedded PostgreSQL delivers a commit's notifications to every listener of the process before the commit
  // returns (and no other process can open it): nothing to wait for, nothing to prove.
  const inProcess = database.kind === 'pglite';
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
  /** When this node sent the last probe it has heard back (monotonic milliseconds). */
  let caughtUpSince = Number.NEGATIVE_INFINITY;
  const probesInFlight = new Map<string, number>();
  let probeCount = 0;
  /** Other nodes of this installation, by when they were last heard (probes and acknowledgements). */
  const lastHeard = new Map<string, number>();
  const barriers = new Map<string, Barrier>();

  const notify = (subject: string) =>
    database.db.execute(sql`select pg_notify(${AUTH_STATE_CHANNEL}, ${`${database.schema} ${subject}`})`);

  function probe(): void {
    if (!connected) return;
    const id = String(++probeCount);
    probesInFlight.set(id, performance.now());
    notify(`probe:${nodeId}:${id}`).catch(() => probesInFlight.delete(id));
    const forgotten = performance.now() - timing.leaseMs;
    for (const [node, at] of lastHeard) if (at < forgotten) lastHeard.delete(node);
  }

  /** Messages of the catch-up protocol (`<kind>:<node>:<id>[:<acknowledging node>]`); false for invalidations. */
  function handledProtocol(subject: string): boolean {
    const [kind, node, id, acknowledging] = subject.split(':');
    if (kind === 'sync') markers.get(subject)?.();
    else if (kind === 'probe' && node === nodeId) {
      const sentAt = probesInFlight.get(id!);
      probesInFlight.delete(id!);
      if (sentAt !== undefined && sentAt > caughtUpSince) caughtUpSince = sentAt;
    } else if (kind === 'probe') lastHeard.set(node!, performance.now());
    else if (kind === 'barrier' && node === nodeId) barriers.get(id!)?.heardOwn();
    else if (kind === 'barrier') {
      lastHeard.set(node!, performance.now());
      // Everything committed before the barrier has reached this node's caches: say so.
      notify(`ack:${node}:${id}:${nodeId}`).catch(() => undefined);
    } else if (kind === 'ack') {
      if (acknowledging !== nodeId) lastHeard.set(acknowledging!, performance.now());
      if (node === nodeId) barriers.get(id!)?.acknowledged(acknowledging!);
    } else return false;
    return true;
  }

  transactions.onCommit((tenantIds) => {
    for (const tenantId of tenantIds) for (const s of subscribers) s.invalidate(`tenant:${tenantId}`);
  });
  await database.listen(AUTH_STATE_CHANNEL, {
    message(payload) {
      const [schema, subject] = payload.split(' ');
      if (schema !== database.schema || !subject || handledProtocol(subject)) return;
      for (const s of subscribers) s.invalidate(subject);
    },
    status(isLive) {
      connected = isLive;
      // Whatever was in flight may have been lost with the connection: the lease starts again from a new probe.
      caughtUpSince = Number.NEGATIVE_INFINITY;
      probesInFlight.clear();
      for (const s of subscribers) s.connection(isLive);
      const waiters = [...statusWaiters];
      statusWaiters.clear();
      for (const wake of waiters) wake();
      if (isLive && !inProcess) probe();
    },
  });
  const prober = inProcess ? undefined : setInterval(probe, timing.probeMs);
  prober?.unref();

  /**
   * A barrier: its marker, once committed, reaches every node after everything committed before it; `wait`
   * resolves when every node heard within the lease has acknowledged it, or when the lease has passed since
   * `wait` was called (after the commit), whichever is first. It never fails.
   */
  function openBarrier(): OpenedBarrier {
    const id = newId();
    let expected: string[] | undefined;
    const acknowledged = new Set<string>();
    let done: () => void = () => undefined;
    const finished = new Promise<void>((resolve) => {
      done = resolve;
    });
    const check = () => {
      if (expected?.every((node) => acknowledged.has(node))) done();
    };
    barriers.set(id, {
      // Every node heard within the lease may hold one; a node heard of earlier has lost it by now.
      heardOwn() {
        const since = performance.now() - timing.leaseMs;
        expected = [...lastHeard].filter(([, at]) => at > since).map(([node]) => node);
        check();
      },
      acknowledged(node) {
        acknowledged.add(node);
        check();
      },
    });
    return {
      payload: `${database.schema} barrier:${nodeId}:${id}`,
      async wait() {
        const timeout = setTimeout(done, timing.leaseMs);
        try {
          await finished;
        } finally {
          clearTimeout(timeout);
          barriers.delete(id);
        }
      },
      abandon: () => barriers.delete(id),
    };
  }
  // The marker is notified inside the changing transaction itself, right after its own notifications.
  if (!inProcess) transactions.onAuthStateCommit({ channel: AUTH_STATE_CHANNEL, open: openBarrier });

  const listener: AuthStateListener = {
    subscribe(subscriber) {
      subscribers.push(subscriber);
      subscriber.connection(connected);
    },
    caughtUp: () => connected && (inProcess || performance.now() - caughtUpSince < timing.leaseMs),
    async everyNodeHeard() {
      if (inProcess) return;
      const barrier = openBarrier();
      await database.db
        .execute(sql`select pg_notify(${AUTH_STATE_CHANNEL}, ${barrier.payload})`)
        .catch(() => undefined);
      await barrier.wait();
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
    close() {
      if (prober) clearInterval(prober);
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
      // Only while this node is known to have heard every change answered so far (see AuthStateListener).
      const cached = live && listener.caughtUp() ? entries.get(id) : undefined;
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
