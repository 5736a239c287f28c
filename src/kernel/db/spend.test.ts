import { eq, sql } from 'drizzle-orm';
import { integer, pgTable, timestamp } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../../test/support/service.js';
import { spendOnce, takeOnce } from './spend.js';

const probe = pgTable('spend_probe', {
  id: integer('id').primaryKey(),
  spentAt: timestamp('spent_at', { withTimezone: true }),
});

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
  await svc.deps.database.db.execute(sql`create table spend_probe (id int primary key, spent_at timestamptz)`);
  await svc.deps.database.db.execute(sql`insert into spend_probe (id) values (1), (2)`);
});
afterAll(async () => {
  await svc?.close();
});

describe('single-use primitives', () => {
  it('spendOnce: of many concurrent spenders exactly one wins', async () => {
    const attempts = await Promise.all(
      Array.from({ length: 8 }, () =>
        svc.deps.transactions.system((tx) =>
          spendOnce(tx, probe, probe.spentAt, eq(probe.id, 1), svc.clock.now(), { id: probe.id }),
        ),
      ),
    );
    expect(attempts.filter(Boolean)).toEqual([{ id: 1 }]);
    expect(
      await svc.deps.transactions.system((tx) =>
        spendOnce(tx, probe, probe.spentAt, eq(probe.id, 1), svc.clock.now(), { id: probe.id }),
      ),
    ).toBeUndefined();
  });

  it('takeOnce: a row deleted by one caller is gone for the others', async () => {
    const attempts = await Promise.all(
      Array.from({ length: 8 }, () =>
        svc.deps.transactions.system((tx) => takeOnce(tx, probe, eq(probe.id, 2), { id: probe.id })),
      ),
    );
    expect(attempts.filter(Boolean)).toEqual([{ id: 2 }]);
  });
});
