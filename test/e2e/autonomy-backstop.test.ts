import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/kernel/db/index.js';
import { newId } from '../../src/kernel/ids.js';
import { request } from '../support/http.js';
import { signUpOwner } from '../support/organizations.js';
import { startService, type TestService } from '../support/service.js';

// Part B 4.9: a detection whose after-commit hook never ran (the node stopped between the commit and the hook) is
// picked up by the worker's backstop on its next run, once, even behind a page of detections that name no target.

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => {
  await svc?.close();
});

const api = (path: string) => `${svc.url}/api/v1${path}`;
const db = () => svc.deps.database.db;

/** A `refresh-token-replay` detection written straight into the table: no hook sees it. */
async function missedDetection(tenantId: string, groupKey: string, data: Record<string, unknown>, agoMs: number) {
  const seen = new Date(svc.clock.now().getTime() - agoMs);
  const id = newId();
  await db().execute(
    sql`insert into detections (id, tenant_id, scope, rule_id, group_key, severity, status, count, first_seen, last_seen, data)
        values (${id}, ${tenantId}, ${tenantId}, 'refresh-token-replay', ${groupKey}, 'high', 'open', 1, ${seen}, ${seen},
                ${JSON.stringify(data)}::jsonb)`,
  );
  return id;
}

describe('the autonomy backstop', () => {
  it('records a decision for a missed detection behind more untargetable ones than a page holds, once', async () => {
    const owner = await signUpOwner(svc.url);
    const hour = 3_600_000;
    // Older than the real one, so they come first in the backstop's order, and more of them than one page.
    for (let i = 0; i < 7; i++) {
      await missedDetection(owner.tenantId, `user:not-a-person-${i}`, { user_id: `not-a-uuid-${i}` }, 3 * hour);
    }
    const missed = await missedDetection(owner.tenantId, `user:${owner.userId}`, { user_id: owner.userId }, hour);
    // Older than the backstop's day: left alone.
    const stale = await missedDetection(owner.tenantId, `user:${newId()}`, { user_id: newId() }, 25 * hour);

    await svc.deps.autonomy.engine.runDue(3);
    await svc.deps.autonomy.engine.runDue(3);

    const decisions = await rows<{ detection_id: string; target_id: string; rule_id: string }>(
      db(),
      sql`select detection_id, target_id, rule_id from autonomy_decisions where tenant_id = ${owner.tenantId}`,
    );
    expect(decisions).toEqual([{ detection_id: missed, target_id: owner.userId, rule_id: 'refresh-token-replay' }]);
    expect(decisions.map((row) => row.detection_id)).not.toContain(stale);

    // The owner sees it in the ledger like any other decision.
    const listed = await request(api('/autonomy/decisions'), { token: owner.token });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.decisions).toHaveLength(1);
    expect(listed.body.decisions[0]).toMatchObject({ rule_id: 'refresh-token-replay', target_id: owner.userId });
  });
});
