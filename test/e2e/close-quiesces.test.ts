import { randomBytes } from 'node:crypto';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../support/http.js';
import { signUpOwner } from '../support/organizations.js';
import { startService, type TestService } from '../support/service.js';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp.js';

/**
 * Issue 31: a test file's teardown drops its schema once the service is closed; anything of the service still
 * writing then (work left running after an answer, a job, a listener) deadlocks the DROP on PostgreSQL. So
 * `close()` must resolve only once the instance holds no connection and runs no query, its work done.
 */
const applicationName = `svc_close_${randomBytes(4).toString('hex')}`;
const databaseUrl = process.env.DATABASE_URL
  ? `${process.env.DATABASE_URL}${process.env.DATABASE_URL.includes('?') ? '&' : '?'}application_name=${applicationName}`
  : undefined;

let svc: TestService;
let smtp: TestSmtpServer;
beforeAll(async () => {
  smtp = await startSmtpServer();
  // Every connection of the instance (pool and LISTEN) carries this application_name on PostgreSQL.
  svc = await startService({
    SMTP_URL: smtp.url,
    TRUST_PROXY: '1',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
});
afterAll(async () => {
  await svc?.close();
  await smtp?.close();
});

type Driver = Record<string, unknown>;

/** Counts every call of the driver's query entry points (node-postgres pool, or PGlite) from now on. */
function countQueries(driver: Driver): { calls: number } {
  const counter = { calls: 0 };
  for (const name of ['query', 'exec', 'transaction', 'connect']) {
    const original = driver[name];
    if (typeof original !== 'function') continue;
    driver[name] = function (this: unknown, ...args: unknown[]) {
      counter.calls += 1;
      return original.apply(this, args);
    };
  }
  return counter;
}

/** Reads on a connection that is not the instance's: PGlite is one per process (shared), PostgreSQL its own. */
async function readAside<T>(driver: Driver, text: string): Promise<T[]> {
  if (!databaseUrl) return (await (driver as unknown as PGlite).query<T>(text)).rows;
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    return (await client.query(text)).rows as T[];
  } finally {
    await client.end();
  }
}

describe('closing an instance', () => {
  it('waits for the work its answers left running, then holds no connection and runs no query', async () => {
    const owners = await Promise.all([1, 2, 3].map(() => signUpOwner(svc.url, 'close')));
    const driver = (svc.deps.database.db as unknown as { $client: Driver }).$client;
    // The mail server answers when told to: the work after the answer is still running when the stop begins.
    const release = smtp.hold();
    // Part A 4.4: the answer (202) leaves before the look-up, the link and the mail.
    const asked = await Promise.all(
      owners.map((owner, i) =>
        request(`${svc.url}/api/v1/auth/magic-link`, {
          json: { email: owner.email, tenant_slug: owner.slug },
          headers: { 'x-forwarded-for': `198.18.200.${i + 1}` },
        }),
      ),
    );
    expect(asked.map((res) => res.status)).toEqual([202, 202, 202]);

    let closed = false;
    const closing = (async () => {
      await svc.app.close();
      await svc.deps.close();
      closed = true;
    })();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const closedWhileWorkWaited = closed;
    release();
    await closing;
    const queries = countQueries(driver);
    // Long enough for any work still going on to reach the database.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(closedWhileWorkWaited).toBe(false);
    expect(queries.calls).toBe(0);

    if (databaseUrl) {
      expect((driver as unknown as pg.Pool).totalCount).toBe(0);
      // A backend leaves pg_stat_activity a moment after its client hung up.
      await expect
        .poll(
          async () =>
            (
              await readAside<{ n: number }>(
                driver,
                `select count(*)::int as n from pg_stat_activity where application_name = '${applicationName}'`,
              )
            )[0]!.n,
          { timeout: 2000 },
        )
        .toBe(0);
    }
    // Nothing was cut off: every link the answers promised was issued and mailed before the instance let go.
    const sent = await readAside<{ subject_user_id: string }>(
      driver,
      `select subject_user_id from "${svc.schema}".events where action = 'magic_link.sent'`,
    );
    const byUserId = (a: string, b: string) => a.localeCompare(b);
    expect(sent.map((row) => row.subject_user_id).sort(byUserId)).toEqual(
      owners.map((owner) => owner.userId).sort(byUserId),
    );
    const mailed = owners.filter((owner) =>
      smtp.messages.some((mail) => mail.to.includes(owner.email.toLowerCase()) && /sign-in link/i.test(mail.subject)),
    );
    expect(mailed).toHaveLength(owners.length);
  });
});
