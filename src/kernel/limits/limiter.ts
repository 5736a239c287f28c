import { hash } from 'node:crypto';
import { Redis } from 'ioredis';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

/** A budget declared by a module as a constant: `points` per fixed window of `durationSeconds`. */
export interface LimitPolicy {
  /** Unique per budget; letters, digits, `.`, `_`, `-` (it becomes part of the store key). */
  name: string;
  points: number;
  durationSeconds: number;
}

export interface LimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the current window ends. */
  resetSeconds: number;
  /** Seconds to wait before retrying; 0 when allowed. */
  retryAfterSeconds: number;
  /** The store could not answer: the request is refused (fail closed) and no counts are known. */
  unavailable: boolean;
}

export interface Limiter {
  /** Spends `points` from the key's budget; never throws for store failures (answers `unavailable`). */
  consume(policy: LimitPolicy, key: string, points?: number): Promise<LimitDecision>;
  /** Reads the key's budget without spending: `allowed` is false once the budget is spent. */
  peek(policy: LimitPolicy, key: string): Promise<LimitDecision>;
  /** `peek` for several budgets in one round trip to the store, answers in the same order. */
  peekMany(budgets: ReadonlyArray<{ policy: LimitPolicy; key: string }>): Promise<LimitDecision[]>;
  /** Gives `points` back. Best effort: a store failure leaves the counter higher, which only throttles more. */
  reward(policy: LimitPolicy, key: string, points?: number): Promise<void>;
  /** Clears the key's counter (a successful login clears the account counter). Best effort like `reward`. */
  reset(policy: LimitPolicy, key: string): Promise<void>;
  close(): Promise<void>;
}

export interface LimiterLogger {
  warn(obj: object, msg: string): void;
}

export interface LimiterOptions {
  /** Redis store when set (shared across nodes); process memory otherwise. */
  redisUrl?: string | undefined;
  /** Namespace of every key; tests give each limiter its own. */
  keyPrefix?: string | undefined;
  logger?: LimiterLogger | undefined;
}

/** Fixed `Retry-After` when the store cannot compute a limit (Part A section 8, "Throttling behaviour"). */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** Bounds how long a request waits for the store before failing closed. */
const STORE_TIMEOUT_MS = 1000;

const POLICY_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

function checkPolicy(policy: LimitPolicy): void {
  if (!POLICY_NAME.test(policy.name)) throw new Error(`limit policy name "${policy.name}" is not a plain token`);
  if (!Number.isInteger(policy.points) || policy.points < 1) throw new Error(`limit policy ${policy.name}: bad points`);
  if (!Number.isInteger(policy.durationSeconds) || policy.durationSeconds < 1) {
    throw new Error(`limit policy ${policy.name}: bad durationSeconds`);
  }
}

function checkPoints(points: number): void {
  if (!Number.isInteger(points) || points < 1)
    throw new Error(`limit points must be a positive integer, got ${points}`);
}

/**
 * Keys are often e-mail addresses or IPs: a shared store (Redis) sees only their digest, of fixed length. The
 * process's own memory holds them as they are: it already holds every request's addresses, and hashing was the
 * largest cost of a memory-store call.
 */
const digestKey = (key: string): string => hash('sha256', key, 'base64url');
const plainKey = (key: string): string => key;

function decide(policy: LimitPolicy, res: RateLimiterRes, allowed: boolean): LimitDecision {
  const resetSeconds = Math.max(0, Math.ceil(res.msBeforeNext / 1000));
  return {
    allowed,
    limit: policy.points,
    remaining: allowed ? Math.max(0, res.remainingPoints) : 0,
    resetSeconds: allowed ? resetSeconds : Math.max(1, resetSeconds),
    retryAfterSeconds: allowed ? 0 : Math.max(1, resetSeconds),
    unavailable: false,
  };
}

function unavailable(policy: LimitPolicy): LimitDecision {
  return {
    allowed: false,
    limit: policy.points,
    remaining: 0,
    resetSeconds: 0,
    retryAfterSeconds: UNAVAILABLE_RETRY_AFTER_SECONDS,
    unavailable: true,
  };
}

/** Resolves true once the client is ready, false when it fails, ends or takes longer than `timeoutMs`. */
function whenReady(client: Redis, timeoutMs: number): Promise<boolean> {
  if (client.status === 'ready') return Promise.resolve(true);
  // Lazy connect: the first use opens the connection; its failure is reported through the events below.
  if (client.status === 'wait') client.connect().catch(() => {});
  // While reconnecting after a failure the store is known to be down: fail at once instead of queueing requests.
  if (client.status !== 'connecting' && client.status !== 'connect') return Promise.resolve(false);
  return new Promise((resolve) => {
    const settle = (ready: boolean) => {
      clearTimeout(timer);
      client.off('ready', onReady);
      client.off('error', onFailure);
      client.off('close', onFailure);
      client.off('end', onFailure);
      resolve(ready);
    };
    const onReady = () => settle(true);
    const onFailure = () => settle(false);
    const timer = setTimeout(onFailure, timeoutMs);
    client.once('ready', onReady);
    client.once('error', onFailure);
    client.once('close', onFailure);
    client.once('end', onFailure);
  });
}

export function createLimiter(options: LimiterOptions = {}): Limiter {
  const prefix = options.keyPrefix ?? 'rl';
  const limiters = new Map<string, { policy: LimitPolicy; limiter: RateLimiterAbstract }>();
  const client = options.redisUrl
    ? new Redis(options.redisUrl, {
        lazyConnect: true,
        // Budgets checked together (a mint's address and credential brake) share one write to the store.
        enableAutoPipelining: true,
        enableOfflineQueue: false,
        maxRetriesPerRequest: 1,
        connectTimeout: STORE_TIMEOUT_MS,
        commandTimeout: STORE_TIMEOUT_MS,
      })
    : undefined;
  const storeKey = client ? digestKey : plainKey;
  let degraded = false;
  let closed = false;

  if (client) {
    // Without a listener ioredis prints every reconnect failure; report each outage once instead.
    client.on('error', (err: Error) => {
      if (degraded) return;
      degraded = true;
      options.logger?.warn({ err: err.message }, 'rate limit store unavailable: throttled surfaces refuse requests');
    });
    client.on('ready', () => {
      degraded = false;
    });
  }

  function limiterFor(policy: LimitPolicy): RateLimiterAbstract {
    const cached = limiters.get(policy.name);
    if (cached) {
      if (cached.policy.points !== policy.points || cached.policy.durationSeconds !== policy.durationSeconds) {
        throw new Error(`limit policy ${policy.name} is declared twice with different budgets`);
      }
      return cached.limiter;
    }
    checkPolicy(policy);
    // Policy names carry no ':', so `prefix:policy:digest` keys of different policies never collide.
    const base = { keyPrefix: `${prefix}:${policy.name}`, points: policy.points, duration: policy.durationSeconds };
    const limiter = client
      ? new RateLimiterRedis({ ...base, storeClient: client, rejectIfRedisNotReady: true })
      : new RateLimiterMemory(base);
    limiters.set(policy.name, { policy: { ...policy }, limiter });
    return limiter;
  }

  // Requests arriving while the connection opens share one wait (and one set of listeners).
  let pendingReady: Promise<boolean> | undefined;
  async function storeReady(): Promise<boolean> {
    if (closed) return false;
    if (!client || client.status === 'ready') return true;
    if (!pendingReady) {
      pendingReady = whenReady(client, STORE_TIMEOUT_MS).finally(() => {
        pendingReady = undefined;
      });
    }
    return pendingReady;
  }

  return {
    async consume(policy, key, points = 1) {
      const limiter = limiterFor(policy);
      checkPoints(points);
      if (!(await storeReady())) return unavailable(policy);
      try {
        return decide(policy, await limiter.consume(storeKey(key), points), true);
      } catch (err) {
        // The library rejects with a RateLimiterRes when the budget is spent, with an Error when the store failed.
        if (err instanceof RateLimiterRes) return decide(policy, err, false);
        return unavailable(policy);
      }
    },

    async peek(policy, key) {
      const limiter = limiterFor(policy);
      if (!(await storeReady())) return unavailable(policy);
      try {
        const res = await limiter.get(storeKey(key));
        if (!res) return decide(policy, new RateLimiterRes(policy.points, 0, 0, false), true);
        return decide(policy, res, res.consumedPoints < policy.points);
      } catch {
        return unavailable(policy);
      }
    },

    async peekMany(budgets) {
      if (!client) return Promise.all(budgets.map(({ policy, key }) => this.peek(policy, key)));
      const keys = budgets.map(({ policy, key }) => limiterFor(policy).getKey(storeKey(key)));
      if (!(await storeReady())) return budgets.map(({ policy }) => unavailable(policy));
      try {
        // The library's own `get` is MULTI GET PTTL per key: one pipeline here instead of one round trip each.
        const pipeline = client.pipeline();
        for (const key of keys) pipeline.get(key).pttl(key);
        const replies = (await pipeline.exec()) ?? [];
        return budgets.map(({ policy }, i) => {
          const [pointsError, points] = replies[2 * i] ?? [new Error('no reply')];
          const [ttlError, ttl] = replies[2 * i + 1] ?? [new Error('no reply')];
          if (pointsError || ttlError) return unavailable(policy);
          if (points === null) return decide(policy, new RateLimiterRes(policy.points, 0, 0, false), true);
          const consumed = Number.parseInt(points as string, 10);
          const res = new RateLimiterRes(Math.max(policy.points - consumed, 0), Number(ttl), consumed, false);
          return decide(policy, res, consumed < policy.points);
        });
      } catch {
        return budgets.map(({ policy }) => unavailable(policy));
      }
    },

    async reward(policy, key, points = 1) {
      const limiter = limiterFor(policy);
      checkPoints(points);
      if (!(await storeReady())) return;
      try {
        // Never give back more than was spent: a reward on a fresh key would otherwise raise its budget.
        const spent = (await limiter.get(storeKey(key)))?.consumedPoints ?? 0;
        if (spent > 0) await limiter.reward(storeKey(key), Math.min(points, spent));
      } catch {
        // Best effort, see the interface.
      }
    },

    async reset(policy, key) {
      const limiter = limiterFor(policy);
      if (!(await storeReady())) return;
      await limiter.delete(storeKey(key)).catch(() => {});
    },

    async close() {
      if (closed) return;
      closed = true;
      limiters.clear();
      if (!client) return;
      if (client.status === 'ready') {
        await client.quit().catch(() => client.disconnect());
      } else {
        client.disconnect();
      }
    },
  };
}
