import { randomUUID } from 'node:crypto';
import { type AddressInfo, createServer, type Socket } from 'node:net';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpError } from '../http/errors.js';
import { enforce, rateLimitHeaders, throttled } from './headers.js';
import { createLimiter, type Limiter, type LimitPolicy } from './limiter.js';

const LOGIN: LimitPolicy = { name: 'test-login', points: 3, durationSeconds: 60 };
const SIGNUP: LimitPolicy = { name: 'test-signup', points: 2, durationSeconds: 30 };

const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

/** With REDIS_URL set the Redis tests must run (and fail if it is down); otherwise they run when a local Redis answers. */
async function redisAnswers(url: string): Promise<boolean> {
  const probe = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 500,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  probe.on('error', () => {});
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}
const redisEnabled = Boolean(process.env.REDIS_URL) || (await redisAnswers(redisUrl));

const open: Limiter[] = [];
function track(limiter: Limiter): Limiter {
  open.push(limiter);
  return limiter;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((limiter) => limiter.close()));
});

/** The same behaviour on every store. */
function behaves(makeLimiter: () => Limiter) {
  it('allows the budget, then refuses with the rate headers', async () => {
    const limiter = track(makeLimiter());
    for (let i = 0; i < LOGIN.points; i++) {
      const decision = await limiter.consume(LOGIN, 'alice@example.com');
      expect(decision).toMatchObject({ allowed: true, unavailable: false, limit: 3, remaining: 2 - i });
      expect(decision.resetSeconds).toBeGreaterThan(0);
      expect(decision.resetSeconds).toBeLessThanOrEqual(60);
    }
    const refused = await limiter.consume(LOGIN, 'alice@example.com');
    expect(refused).toMatchObject({ allowed: false, unavailable: false, limit: 3, remaining: 0 });
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60);

    const headers = rateLimitHeaders(refused);
    expect(headers).toEqual({
      'RateLimit-Limit': '3',
      'RateLimit-Remaining': '0',
      'RateLimit-Reset': String(refused.resetSeconds),
      'Retry-After': String(refused.retryAfterSeconds),
    });
    const error = throttled(refused);
    expect(error).toBeInstanceOf(HttpError);
    expect(error.status).toBe(429);
    expect(error.headers).toEqual(headers);
    await expect(enforce(limiter, LOGIN, 'alice@example.com')).rejects.toMatchObject({ status: 429 });
  });

  it('reset clears the counter; reward gives points back but never beyond the budget', async () => {
    const limiter = track(makeLimiter());
    for (let i = 0; i < LOGIN.points; i++) await limiter.consume(LOGIN, 'bob@example.com');
    expect((await limiter.peek(LOGIN, 'bob@example.com')).allowed).toBe(false);
    await limiter.reset(LOGIN, 'bob@example.com');
    expect(await limiter.peek(LOGIN, 'bob@example.com')).toMatchObject({ allowed: true, remaining: 3 });
    expect((await limiter.consume(LOGIN, 'bob@example.com')).remaining).toBe(2);

    await limiter.reward(LOGIN, 'bob@example.com', 5);
    expect((await limiter.peek(LOGIN, 'bob@example.com')).remaining).toBe(3);
    await limiter.reward(LOGIN, 'fresh@example.com');
    expect((await limiter.consume(LOGIN, 'fresh@example.com')).remaining).toBe(2);
  });

  it('peekMany reads several budgets at once, as peek reads each', async () => {
    const limiter = track(makeLimiter());
    const key = randomUUID();
    await limiter.consume(LOGIN, key);
    await limiter.consume(LOGIN, key);
    await limiter.consume(SIGNUP, key);
    await limiter.consume(SIGNUP, key);
    const budgets = [
      { policy: LOGIN, key },
      { policy: SIGNUP, key },
      { policy: LOGIN, key: randomUUID() },
    ];
    const many = await limiter.peekMany(budgets);
    expect(many.map((d) => [d.allowed, d.remaining])).toEqual([
      [true, 1],
      [false, 0],
      [true, 3],
    ]);
    const one = await Promise.all(budgets.map(({ policy, key: k }) => limiter.peek(policy, k)));
    expect(many.map((d) => [d.allowed, d.remaining, d.limit])).toEqual(
      one.map((d) => [d.allowed, d.remaining, d.limit]),
    );
    expect(many[1]!.resetSeconds).toBeGreaterThan(0);
  });

  it('keeps keys and policies apart', async () => {
    const limiter = track(makeLimiter());
    for (let i = 0; i < SIGNUP.points; i++) await limiter.consume(SIGNUP, '203.0.113.7');
    expect((await limiter.consume(SIGNUP, '203.0.113.7')).allowed).toBe(false);
    expect((await limiter.consume(SIGNUP, '203.0.113.8')).allowed).toBe(true);
    expect(await limiter.consume(LOGIN, '203.0.113.7')).toMatchObject({ allowed: true, remaining: 2 });
    // A key that looks like "policy:key" of another policy stays its own.
    expect((await limiter.consume(LOGIN, 'test-signup:203.0.113.7')).allowed).toBe(true);
  });

  it('enforce returns the decision while allowed and spends several points at once', async () => {
    const limiter = track(makeLimiter());
    expect(await enforce(limiter, LOGIN, 'carol', 2)).toMatchObject({ allowed: true, remaining: 1 });
    expect(rateLimitHeaders(await limiter.peek(LOGIN, 'carol'))).toEqual({
      'RateLimit-Limit': '3',
      'RateLimit-Remaining': '1',
      'RateLimit-Reset': expect.stringMatching(/^\d+$/),
    });
    await expect(enforce(limiter, LOGIN, 'carol', 2)).rejects.toBeInstanceOf(HttpError);
  });
}

describe('limiter, memory store', () => {
  behaves(() => createLimiter());

  it('refuses a policy name declared twice with different budgets', async () => {
    const limiter = track(createLimiter());
    await limiter.consume(LOGIN, 'x');
    await expect(limiter.consume({ ...LOGIN, points: 10 }, 'x')).rejects.toThrow(/declared twice/);
  });

  it('keeps separate limiters apart', async () => {
    const first = track(createLimiter());
    const second = track(createLimiter());
    for (let i = 0; i < LOGIN.points; i++) await first.consume(LOGIN, 'dave');
    expect((await second.consume(LOGIN, 'dave')).allowed).toBe(true);
  });
});

describe.runIf(redisEnabled)('limiter, Redis store', () => {
  let keyPrefix = '';
  afterEach(() => {
    keyPrefix = '';
  });
  const prefix = () => {
    keyPrefix ||= `test-rl-${randomUUID()}`;
    return keyPrefix;
  };

  behaves(() => createLimiter({ redisUrl, keyPrefix: prefix() }));

  it('shares one counter between nodes', async () => {
    const nodeA = track(createLimiter({ redisUrl, keyPrefix: prefix() }));
    const nodeB = track(createLimiter({ redisUrl, keyPrefix: prefix() }));
    await nodeA.consume(LOGIN, 'erin');
    await nodeB.consume(LOGIN, 'erin');
    expect(await nodeA.consume(LOGIN, 'erin')).toMatchObject({ allowed: true, remaining: 0 });
    expect((await nodeB.consume(LOGIN, 'erin')).allowed).toBe(false);
    await nodeB.reset(LOGIN, 'erin');
    expect((await nodeA.consume(LOGIN, 'erin')).allowed).toBe(true);
  });

  it('counts concurrent requests from two fresh nodes atomically', async () => {
    const nodeA = track(createLimiter({ redisUrl, keyPrefix: prefix() }));
    const nodeB = track(createLimiter({ redisUrl, keyPrefix: prefix() }));
    const decisions = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? nodeA : nodeB).consume(LOGIN, 'heidi')),
    );
    expect(decisions.filter((d) => d.unavailable)).toEqual([]);
    expect(decisions.filter((d) => d.allowed)).toHaveLength(LOGIN.points);
  });

  it('isolates limiters with different key prefixes', async () => {
    const mine = track(createLimiter({ redisUrl, keyPrefix: prefix() }));
    const other = track(createLimiter({ redisUrl, keyPrefix: `test-rl-${randomUUID()}` }));
    for (let i = 0; i < LOGIN.points; i++) await mine.consume(LOGIN, 'frank');
    expect((await other.consume(LOGIN, 'frank')).allowed).toBe(true);
  });

  it('keeps only digests of keys in Redis', async () => {
    const limiter = track(createLimiter({ redisUrl, keyPrefix: prefix() }));
    await limiter.consume(LOGIN, 'grace@example.com');
    const inspector = new Redis(redisUrl);
    try {
      const keys = await inspector.keys(`${prefix()}:*`);
      expect(keys).toHaveLength(1);
      expect(keys[0]).toMatch(new RegExp(`^${prefix()}:test-login:[A-Za-z0-9_-]{43}$`));
      await inspector.del(...keys);
    } finally {
      inspector.disconnect();
    }
  });
});

describe('limiter, store unavailable (fail closed)', () => {
  it('refuses quickly with only a short Retry-After when Redis cannot be reached', async () => {
    const limiter = track(createLimiter({ redisUrl: 'redis://127.0.0.1:1', keyPrefix: `test-rl-${randomUUID()}` }));
    for (let attempt = 0; attempt < 3; attempt++) {
      const started = performance.now();
      const decision = await limiter.consume(LOGIN, 'mallory@example.com');
      expect(performance.now() - started).toBeLessThan(2000);
      expect(decision).toMatchObject({ allowed: false, unavailable: true });
      expect(rateLimitHeaders(decision)).toEqual({ 'Retry-After': '5' });
      expect(throttled(decision).headers).toEqual({ 'Retry-After': '5' });
    }
    await expect(enforce(limiter, LOGIN, 'mallory@example.com')).rejects.toMatchObject({
      status: 429,
      headers: { 'Retry-After': '5' },
    });
    expect((await limiter.peek(LOGIN, 'mallory@example.com')).unavailable).toBe(true);
    await expect(limiter.reset(LOGIN, 'mallory@example.com')).resolves.toBeUndefined();
  });

  it('refuses within the timeout when Redis accepts connections but never answers', async () => {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    try {
      const limiter = track(createLimiter({ redisUrl: `redis://127.0.0.1:${port}` }));
      for (let attempt = 0; attempt < 2; attempt++) {
        const started = performance.now();
        expect(await limiter.consume(LOGIN, 'mallory')).toMatchObject({ allowed: false, unavailable: true });
        expect(performance.now() - started).toBeLessThan(2000);
      }
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('refuses once the limiter is closed', async () => {
    const limiter = createLimiter();
    await limiter.close();
    expect((await limiter.consume(LOGIN, 'x')).unavailable).toBe(true);
  });
});
