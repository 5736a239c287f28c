import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/kernel/db/index.js';
import { newId } from '../../src/kernel/ids.js';
import { request } from '../support/http.js';
import { signUpOwner } from '../support/organizations.js';
import { startService, type TestService } from '../support/service.js';

// Part B 4.9: while AUTONOMY_EXECUTION_ENABLED is off (the default) the engine records `shadow` rows of what it
// would have done and executes nothing; the endpoints still serve. A detection whose after-commit hook never ran
// (the node stopped between the commit and the hook) is picked up by the worker's backstop on its next run, once,
// even behind a page of detections that name no target.

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => {
  await svc?.close();
});

const api = (path: string) => `${svc.url}/api/v1${path}`;

async function replayRefresh(refresh: string) {
  const rotated = await request(api('/auth/refresh'), { json: { refresh_token: refresh } });
  expect(rotated.status, rotated.text).toBe(200);
  const replayed = await request(api('/auth/refresh'), { json: { refresh_token: refresh } });
  expect(replayed.status).toBe(401);
}

describe('autonomy with execution off', () => {
  it('records a shadow row for a refresh-token replay, executes nothing, and serves every endpoint', async () => {
    const owner = await signUpOwner(svc.url);
    const other = await request(api('/auth/login'), {
      json: { email: owner.email, password: owner.password, tenant_slug: owner.slug },
    });
    expect(other.status).toBe(200);
    // Even at recommend, nothing is proposed while execution is off.
    const level = await request(api('/tenants/config/autonomy.level_revoke_access'), {
      method: 'PATCH',
      token: owner.token,
      json: { value: 'recommend' },
    });
    expect(level.status, level.text).toBe(200);

    await replayRefresh(owner.refresh);
    // The replayed session (sign-up's) ended by itself; the owner works on from the other one.
    const token = other.body.access_token as string;

    const list = await request(api('/autonomy/decisions'), { token });
    expect(list.status, list.text).toBe(200);
    expect(list.body.viewer_scope).toBe('tenant');
    expect(list.body.decisions).toHaveLength(1);
    const [decision] = list.body.decisions;
    expect(decision).toMatchObject({
      rule_id: 'refresh-token-replay',
      action_id: 'end_all_sessions',
      blast_class: 'revoke_access',
      target_id: owner.userId,
      mode: 'shadow',
      adjudication: 'none',
      actionable: false,
      revertible: false,
      unattended: false,
    });
    expect(decision.effect).toContain(owner.userId);
    expect(decision.decision_reason).toContain('AUTONOMY_EXECUTION_ENABLED');

    // The worker finds nothing to run; the other session still works.
    await svc.deps.autonomy.engine.runDue();
    expect((await request(api('/me'), { token: other.body.access_token })).status).toBe(200);

    // A shadow row awaits no verdict.
    const adjudicate = await request(api(`/autonomy/decisions/${decision.id}/adjudicate`), {
      token,
      json: { approve: true },
    });
    expect(adjudicate.status).toBe(409);
    expect((await request(api('/me'), { token: other.body.access_token })).status).toBe(200);

    for (const path of ['/autonomy/metrics', '/autonomy/graduation', '/autonomy/kill-switch']) {
      expect((await request(api(path), { token })).status, path).toBe(200);
    }
    const metrics = await request(api('/autonomy/metrics'), { token });
    expect(metrics.body.by_mode.shadow).toBe(1);
    expect(metrics.body.pending).toEqual({ count: 0, actionable: 0, oldest_age_seconds: null });

    // Only shadow rows, filtered by mode too.
    const proposed = await request(api('/autonomy/decisions?mode=proposed'), { token });
    expect(proposed.body.decisions).toEqual([]);
  });
});

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
