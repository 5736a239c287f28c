import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../../test/support/service.js';
import { rows } from '../../kernel/db/index.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => {
  await svc?.close();
});

describe('the revocation cascade as wired (src/app.ts)', () => {
  it('lists what ending a session, an account’s sessions and a membership also does', () => {
    expect(svc.deps.revocation.consequences()).toEqual({
      sessionsEnded: ['endGrantSessionsMadeFromThem', 'queueBackchannelLogouts'],
      accountSessionsEnded: ['queueBackchannelLogoutsOfAccount'],
      membershipEnded: ['queueBackchannelLogoutsOfMembership'],
      agentRetired: ['endDelegationsOfRetiredAgent'],
    });
  });

  it('runs in TypeScript only: no revocation trigger is left on sessions, users or memberships', async () => {
    const triggers = await rows<{ tgname: string }>(
      svc.deps.database.db,
      sql`select t.tgname from pg_trigger t join pg_class c on c.oid = t.tgrelid
          join pg_namespace n on n.oid = c.relnamespace
          where not t.tgisinternal and n.nspname = current_schema()
            and c.relname in ('sessions', 'users', 'memberships')
            and t.tgname in ('sessions_ended', 'users_grants_ended', 'memberships_grants_ended',
                             'memberships_deleted_grants_ended')`,
    );
    expect(triggers).toEqual([]);
  });
});
