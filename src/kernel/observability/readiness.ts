import { sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { type Database, pendingMigrations } from '../db/index.js';

/** Each probe's own bound: a load balancer's readiness check must answer well inside its timeout. */
const CHECK_TIMEOUT_MS = 1000;

export type CheckName = 'database' | 'migrations' | 'redis' | 'signing_keys';

export interface ReadinessReport {
  ready: boolean;
  /**
   * Each check's verdict: `ok`, or a short reason. The probe is unauthenticated, so a failure's details (addresses,
   * driver messages) go to the log, not into the answer.
   */
  checks: Partial<Record<CheckName, string>>;
}

export interface Readiness {
  check(): Promise<ReadinessReport>;
  close(): Promise<void>;
}

function withTimeout<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what} did not answer within ${CHECK_TIMEOUT_MS} ms`)),
      CHECK_TIMEOUT_MS,
    );
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * `GET /readyz`: the database answers, every migration this build knows is applied (another node's newer build
 * may have applied more), Redis answers when it is configured, and the signing keys are loaded.
 */
export function createReadiness(deps: {
  database: Database;
  redisUrl: string | undefined;
  signingKeysLoaded: () => boolean;
  logger: { warn(obj: object, msg: string): void };
}): Readiness {
  const { database } = deps;
  // Migrations are never undone: once current, always current for this build.
  let migrationsCurrent = false;
  // Its own connection, opened at the first probe: the limiter's client reports failures by failing closed.
  const redis = deps.redisUrl
    ? new Redis(deps.redisUrl, {
        lazyConnect: true,
        enableOfflineQueue: false,
        maxRetriesPerRequest: 0,
        connectTimeout: CHECK_TIMEOUT_MS,
        retryStrategy: () => CHECK_TIMEOUT_MS,
      })
    : undefined;
  redis?.on('error', () => undefined);

  async function databaseCheck(): Promise<string> {
    await withTimeout(database.db.execute(sql`select 1`), 'the database');
    return 'ok';
  }

  async function migrationsCheck(): Promise<string> {
    if (migrationsCurrent) return 'ok';
    const pending = await withTimeout(pendingMigrations(database), 'the database');
    if (pending.length > 0) return `pending: ${pending.join(', ')}`;
    migrationsCurrent = true;
    return 'ok';
  }

  async function redisCheck(client: Redis): Promise<string> {
    if (client.status === 'wait') await withTimeout(client.connect(), 'Redis');
    await withTimeout(client.ping(), 'Redis');
    return 'ok';
  }

  const verdict = (name: CheckName, work: () => Promise<string>) =>
    work().catch((error: unknown) => {
      deps.logger.warn({ check: name, err: error instanceof Error ? error.message : String(error) }, 'not ready');
      return 'unavailable';
    });

  return {
    async check() {
      const [databaseState, migrations, redisState] = await Promise.all([
        verdict('database', databaseCheck),
        verdict('migrations', migrationsCheck),
        redis ? verdict('redis', () => redisCheck(redis)) : Promise.resolve(undefined),
      ]);
      const checks: ReadinessReport['checks'] = { database: databaseState, migrations };
      if (redisState) checks.redis = redisState;
      checks.signing_keys = deps.signingKeysLoaded() ? 'ok' : 'not loaded';
      return { ready: Object.values(checks).every((state) => state === 'ok'), checks };
    },
    async close() {
      redis?.disconnect();
    },
  };
}
