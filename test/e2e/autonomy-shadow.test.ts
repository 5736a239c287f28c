import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../support/http.js';
import { signUpOwner } from '../support/organizations.js';
import { startService, type TestService } from '../support/service.js';

// Part B 4.9: while AUTONOMY_EXECUTION_ENABLED is off (the default) the engine records `shadow` rows of what it
// would have done and executes nothing; the endpoints still serve.

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
