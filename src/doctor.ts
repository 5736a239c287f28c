import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import nodemailer from 'nodemailer';
import type { Config } from './config.js';
import { systemClock } from './kernel/clock.js';
import { createKeyring } from './kernel/crypto/keyring.js';
import { createTransactions, type Database, pendingMigrations, rows } from './kernel/db/index.js';

/** `svc doctor`: one line per concern; `fail` makes the command exit non-zero. */
export interface Check {
  name: 'configuration' | 'database' | 'keys' | 'smtp' | 'redis';
  status: 'ok' | 'warn' | 'fail';
  detail: string;
}

export function formatChecks(checks: Check[]): string[] {
  return checks.map((c) => `${c.status.padEnd(4)}  ${c.name}: ${c.detail}`);
}

export function failure(name: Check['name'], error: unknown): Check {
  return { name, status: 'fail', detail: error instanceof Error ? error.message : String(error) };
}

/** Migrations and signing keys of an open database; reads only (the doctor repairs nothing). */
export async function databaseChecks(database: Database, config: Config): Promise<Check[]> {
  const where = database.kind === 'pg' ? `PostgreSQL, schema ${database.schema}` : `embedded in ${config.dataDir}`;
  const checks: Check[] = [];
  try {
    const pending = await pendingMigrations(database);
    checks.push(
      pending.length
        ? {
            name: 'database',
            status: 'fail',
            detail: `${where}: ${pending.length} migrations pending; run \`svc migrate\``,
          }
        : { name: 'database', status: 'ok', detail: `${where}, migrations current` },
    );
    if (pending.length) return checks;
  } catch (error) {
    return [failure('database', error)];
  }
  checks.push(await keysCheck(database, config));
  return checks;
}

async function keysCheck(database: Database, config: Config): Promise<Check> {
  try {
    const byStatus = await rows<{ status: string; n: number | string }>(
      database.db,
      sql`select status, count(*) as n from signing_keys group by status`,
    );
    const count = (status: string) => Number(byStatus.find((r) => r.status === status)?.n ?? 0);
    if (!count('active')) {
      return { name: 'keys', status: 'warn', detail: 'no signing key yet; `svc serve` creates the first ones' };
    }
    const secretKey = storedSecretKey(config);
    if (!secretKey) {
      return {
        name: 'keys',
        status: 'fail',
        detail: `signing keys exist but no SECRET_KEY (nor ${config.dataDir}/secret.key) to open them`,
      };
    }
    const keyring = createKeyring({ transactions: createTransactions(database.db), secretKey, clock: systemClock });
    await keyring.reload();
    const staged = count('next') ? 'a staged next key' : 'no staged key (`svc keys rotate` stages one)';
    return { name: 'keys', status: 'ok', detail: `active signing key opens with SECRET_KEY; ${staged}` };
  } catch (error) {
    return failure('keys', error);
  }
}

function storedSecretKey(config: Config): Buffer | undefined {
  if (config.secretKey) return config.secretKey;
  const file = join(config.dataDir, 'secret.key');
  return existsSync(file) ? Buffer.from(readFileSync(file, 'utf8').trim(), 'base64url') : undefined;
}

/** Mail and Redis, reached with the configured URLs (a few seconds at most each). */
export async function serviceChecks(config: Config): Promise<Check[]> {
  return Promise.all([smtpCheck(config), redisCheck(config)]);
}

async function smtpCheck(config: Config): Promise<Check> {
  if (!config.smtpUrl) {
    return config.env === 'production'
      ? { name: 'smtp', status: 'fail', detail: 'SMTP_URL unset: in production no mail is sent (verification, resets)' }
      : { name: 'smtp', status: 'ok', detail: 'SMTP_URL unset: mail is written to the log' };
  }
  const transport = nodemailer.createTransport(config.smtpUrl, {
    connectionTimeout: 5_000,
    greetingTimeout: 5_000,
    socketTimeout: 5_000,
  });
  try {
    await transport.verify();
    return { name: 'smtp', status: 'ok', detail: `${new URL(config.smtpUrl).host} answers` };
  } catch (error) {
    return failure('smtp', new Error(`SMTP_URL: ${(error as Error).message}`));
  } finally {
    transport.close();
  }
}

async function redisCheck(config: Config): Promise<Check> {
  if (!config.redisUrl) {
    return { name: 'redis', status: 'ok', detail: 'REDIS_URL unset: rate limits and replay caches are per node' };
  }
  const redis = new Redis(config.redisUrl, {
    lazyConnect: true,
    connectTimeout: 3_000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.ping();
    return { name: 'redis', status: 'ok', detail: `${new URL(config.redisUrl).host} answers` };
  } catch (error) {
    return failure('redis', new Error(`REDIS_URL: ${(error as Error).message}`));
  } finally {
    redis.disconnect();
  }
}
