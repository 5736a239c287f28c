import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_ROLE, rows } from '../../src/kernel/db/index.js';
import type { EventEnvelope } from '../../src/kernel/events/index.js';
import { newAccount, request } from '../support/http.js';
import { startService, type TestService } from '../support/service.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => {
  await svc?.close();
});

async function tenantOfNewAccount(): Promise<string> {
  const signup = await request<{ access_token: string }>(`${svc.url}/api/v1/auth/signup`, { json: newAccount() });
  const me = await request<{ tenant_id: string }>(`${svc.url}/api/v1/me`, { token: signup.body.access_token });
  return me.body.tenant_id;
}

describe('row-level security', () => {
  it('a tenant transaction sees only its own rows', async () => {
    const a = await tenantOfNewAccount();
    const b = await tenantOfNewAccount();
    for (const tenant of [a, b]) {
      const seen = await svc.deps.transactions.tenant(tenant, (tx) =>
        rows<{ tenant_id: string }>(tx, sql`select tenant_id from sessions`),
      );
      expect(seen.length).toBeGreaterThan(0);
      expect(new Set(seen.map((r) => r.tenant_id))).toEqual(new Set([tenant]));
      const events = await svc.deps.transactions.tenant(tenant, (tx) =>
        rows<{ tenant_id: string }>(tx, sql`select distinct tenant_id from events`),
      );
      expect(events).toEqual([{ tenant_id: tenant }]);
    }
  });

  it('the request role without a tenant setting sees no rows at all', async () => {
    await tenantOfNewAccount();
    const counts = await svc.deps.transactions.system(async (tx) => {
      await tx.execute(sql`select set_config('role', ${APP_ROLE}, true)`);
      return rows<{ sessions: number; memberships: number; audit: number }>(
        tx,
        sql`select (select count(*) from sessions)::int as sessions, (select count(*) from memberships)::int as memberships,
                   (select count(*) from audit_log)::int as audit`,
      );
    });
    expect(counts).toEqual([{ sessions: 0, memberships: 0, audit: 0 }]);
  });

  it('a tenant read transaction sees its own rows only and refuses every write, its own rows included', async () => {
    const a = await tenantOfNewAccount();
    const b = await tenantOfNewAccount();
    const seen = await svc.deps.transactions.tenantRead(a, (tx) =>
      rows<{ tenant_id: string }>(tx, sql`select distinct tenant_id from sessions`),
    );
    expect(seen.map((r) => r.tenant_id)).toEqual([a]);
    const refused = await svc.deps.transactions
      .tenantRead(a, (tx) =>
        tx.execute(sql`update sessions set revoked_at = now() where tenant_id = ${a} returning id`),
      )
      .then(
        () => undefined,
        (error: Error & { cause?: Error }) => error.cause?.message ?? error.message,
      );
    expect(refused).toMatch(/read-only transaction/);
    const live = await rows<{ live: number }>(
      svc.deps.database.db,
      sql`select count(*)::int as live from sessions where tenant_id in (${a}, ${b}) and revoked_at is null`,
    );
    expect(live[0]!.live).toBeGreaterThanOrEqual(2);
  });

  it('refuses to write a row of another tenant from a tenant transaction', async () => {
    const a = await tenantOfNewAccount();
    const b = await tenantOfNewAccount();
    await expect(
      svc.deps.transactions.tenant(a, (tx) =>
        tx.execute(sql`update sessions set revoked_at = now() where tenant_id = ${b} returning id`),
      ),
    ).resolves.toBeDefined();
    const untouched = await rows<{ live: number }>(
      svc.deps.database.db,
      sql`select count(*)::int as live from sessions where tenant_id = ${b} and revoked_at is null`,
    );
    expect(untouched[0]!.live).toBeGreaterThan(0);
    await expect(
      svc.deps.transactions.tenant(a, (tx) =>
        tx.execute(
          sql`insert into detections (id, tenant_id, scope, rule_id, group_key, severity, status, count, first_seen, last_seen, data)
              values (gen_random_uuid(), ${b}, ${b}, 'x', 'y', 'low', 'open', 1, now(), now(), '{}')`,
        ),
      ),
    ).rejects.toThrow();
  });

  it('puts every table with a tenant_id column under the restrictive policy', async () => {
    const unprotected = await rows<{ table_name: string }>(
      svc.deps.database.db,
      sql`select c.table_name from information_schema.columns c
          where c.table_schema = ${svc.schema} and c.column_name = 'tenant_id'
            and not exists (select 1 from pg_policies p where p.schemaname = c.table_schema and p.tablename = c.table_name
                            and p.policyname = 'tenant_isolation' and p.permissive = 'RESTRICTIVE')`,
    );
    expect(unprotected).toEqual([]);
  });
});

describe('live stream', () => {
  it('publishes an event after its transaction commits, and nothing from a rolled-back one', async () => {
    const seen: string[] = [];
    const unsubscribe = svc.deps.events.live.subscribe((event) => seen.push(event.action));
    try {
      // With Redis the subscription is made in the background: act once the stream is known to deliver.
      await expect
        .poll(async () => {
          await svc.deps.events.live.publish({ action: 'test.probe' } as EventEnvelope);
          return seen.includes('test.probe');
        })
        .toBe(true);
      const tenant = await tenantOfNewAccount();
      await expect(
        svc.deps.transactions.tenant(tenant, async (tx) => {
          await svc.deps.events.emit(tx, {
            tenantId: tenant,
            actor: { id: 'test', type: 'system' },
            category: 'admin',
            action: 'tenant.bootstrapped',
          });
          expect(seen).not.toContain('tenant.bootstrapped'); // not before commit
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
      // Fan-out keeps publication order (one connection): anything the rolled-back transaction had published
      // would arrive before a marker published now.
      await svc.deps.events.live.publish({ action: 'test.after-rollback' } as EventEnvelope);
      await expect.poll(() => seen).toContain('test.after-rollback');
      expect(seen).toContain('user.signed_up');
      expect(seen).not.toContain('tenant.bootstrapped');
      const stored = await rows(
        svc.deps.database.db,
        sql`select 1 from events where action = 'tenant.bootstrapped' and tenant_id = ${tenant}`,
      );
      expect(stored).toEqual([]);
    } finally {
      unsubscribe();
    }
  });
});

describe('audit chain', () => {
  it('verifies from genesis, then finds the first tampered entry', async () => {
    await tenantOfNewAccount();
    await tenantOfNewAccount();
    const intact = await svc.deps.events.verifyAudit();
    expect(intact.verified).toBe(true);
    expect(intact.broken_seq).toBeNull();
    expect(intact.entries).toBeGreaterThanOrEqual(4);

    const [target] = await rows<{ seq: number }>(
      svc.deps.database.db,
      sql`select seq::int as seq from audit_log order by seq limit 1 offset 2`,
    );
    await svc.deps.database.db.execute(
      sql`update audit_log set data = '{"user_id":"forged"}'::jsonb where seq = ${target!.seq}`,
    );
    const tampered = await svc.deps.events.verifyAudit();
    expect(tampered).toEqual({ verified: false, entries: target!.seq - 1, broken_seq: target!.seq });
  });

  it('finds entries removed from the tip', async () => {
    const other = await startService();
    try {
      await request(`${other.url}/api/v1/auth/signup`, { json: newAccount() });
      await request(`${other.url}/api/v1/auth/signup`, { json: newAccount() });
      const before = await other.deps.events.verifyAudit();
      expect(before.verified).toBe(true);
      await other.deps.database.db.execute(sql`delete from audit_log where seq = (select max(seq) from audit_log)`);
      const after = await other.deps.events.verifyAudit();
      expect(after).toEqual({ verified: false, entries: before.entries - 1, broken_seq: before.entries });
    } finally {
      await other.close();
    }
  });
});
