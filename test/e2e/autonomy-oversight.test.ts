import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/kernel/ids.js';
import { request } from '../support/http.js';
import { addMember, signUpOwner } from '../support/organizations.js';
import { startService, type TestService } from '../support/service.js';

// Part B 4.9 with execution on: what each level records, the ceilings and who may change a level (each change a
// detection), recommendation-only actions (no declared approver permission: neither approved nor reverted), the
// read permissions, the `limit` bounds and the reason lengths.

let svc: TestService;
beforeAll(async () => {
  svc = await startService({ AUTONOMY_EXECUTION_ENABLED: 'true' });
});
afterAll(async () => {
  await svc?.close();
});

const api = (path: string) => `${svc.url}/api/v1${path}`;
type Owner = Awaited<ReturnType<typeof signUpOwner>>;

const setLevel = (token: string, cls: string, value: string) =>
  request(api(`/tenants/config/autonomy.level_${cls}`), { method: 'PATCH', token, json: { value } });

async function decisionsOf(token: string, query = '?limit=200') {
  const res = await request(api(`/autonomy/decisions${query}`), { token });
  expect(res.status, res.text).toBe(200);
  return res.body.decisions as Array<Record<string, any>>;
}

let occurrence = 0;
/** A detection of `ruleId` about `data` in the organization, and the decision the engine recorded for it. */
async function detect(owner: Owner, ruleId: string, data: Record<string, string>) {
  occurrence += 1;
  await svc.deps.transactions.tenant(owner.tenantId, (tx) =>
    svc.deps.events.detect(tx, {
      tenantId: owner.tenantId,
      ruleId,
      groupKey: `test:${occurrence}`,
      severity: 'high',
      data,
    }),
  );
  const wanted = Object.values(data)[0];
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const found = (await decisionsOf(owner.token)).find((d) => d.rule_id === ruleId && d.target_id === wanted);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no decision for ${ruleId}`);
}

describe('levels and who sets them', () => {
  it('records per level, refuses a level above the ceiling, needs autonomy:manage and detects each change', async () => {
    const owner = await signUpOwner(svc.url);
    // manual (the default): a dry run.
    const manual = await detect(owner, 'agent-task-scope-exceeded', { agent_id: newId() });
    expect(manual).toMatchObject({ mode: 'dry_run', adjudication: 'none', level: 'manual', actionable: false });
    // graduated without a graduation record: proposed for a person, saying why.
    expect((await setLevel(owner.token, 'contain_non_human', 'graduated')).status).toBe(200);
    const graduated = await detect(owner, 'agent-task-scope-exceeded', { agent_id: newId() });
    expect(graduated).toMatchObject({ mode: 'proposed', adjudication: 'pending', level: 'graduated' });
    expect(graduated.decision_reason).toContain('has not graduated');

    // Ceilings (Part A 2.13): 400 naming the allowed set.
    const tooHigh = await setLevel(owner.token, 'contain_non_human', 'full');
    expect(tooHigh.status).toBe(400);
    expect(tooHigh.body.detail).toContain('manual, recommend, graduated');
    const principal = await setLevel(owner.token, 'disable_principal', 'graduated');
    expect(principal.status).toBe(400);
    expect(principal.body.detail).toContain('manual, recommend');
    expect((await setLevel(owner.token, 'contain_source', 'unheard-of')).status).toBe(400);

    // autonomy:manage besides tenant:manage: a key with tenant:manage only, and a member, are refused.
    const key = await request(api('/tenants/api-keys'), {
      token: owner.token,
      json: { label: 'admin', scopes: ['tenant:manage'] },
    });
    expect(key.status, key.text).toBe(201);
    const byKey = await setLevel(key.body.key, 'contain_source', 'full');
    expect(byKey.status).toBe(403);
    expect(byKey.body.detail).toContain('autonomy:manage');
    const member = await addMember(svc, { tenantId: owner.tenantId, slug: owner.slug }, 'member');
    expect((await setLevel(member.token, 'contain_source', 'full')).status).toBe(403);

    // Each change is a detection (Part B 6.3), naming the class, the levels and who changed it.
    const detections = await request(api('/command/detections?rule_id=autonomy-level-changed'), {
      token: owner.token,
    });
    expect(detections.status, detections.text).toBe(200);
    const raised = detections.body.detections ?? detections.body;
    expect(raised).toHaveLength(1);
    expect(raised[0]).toMatchObject({ severity: 'high' });
    expect(JSON.stringify(raised[0])).toContain('contain_non_human');
  });
});

describe('recommendations', () => {
  it('cannot be approved, denied or reverted when the action declares no approver permission', async () => {
    const owner = await signUpOwner(svc.url);
    expect((await setLevel(owner.token, 'raise_assurance', 'full')).status).toBe(200);
    expect((await setLevel(owner.token, 'disable_principal', 'recommend')).status).toBe(200);
    const stepUp = await detect(owner, 'repeated-sign-in-failures', { user_id: owner.userId });
    const client = await detect(owner, 'authorization-code-replay', { client_id: 'cl_replayed' });
    for (const [decision, cls] of [
      [stepUp, 'raise_assurance'],
      [client, 'disable_principal'],
    ] as const) {
      // Proposed for a person to read (trippable, and a recommendation), yet not actionable by anyone.
      expect(decision).toMatchObject({
        blast_class: cls,
        mode: 'proposed',
        adjudication: 'pending',
        actionable: false,
        revertible: false,
        level: 'recommend',
      });
      // The owner holds every permission: it is the action that has none to hold.
      for (const approve of [true, false]) {
        const verdict = await request(api(`/autonomy/decisions/${decision.id}/adjudicate`), {
          token: owner.token,
          json: { approve },
        });
        expect(verdict.status, verdict.text).toBe(403);
        expect(verdict.body.detail).toContain('no approver permission');
      }
      const revert = await request(api(`/autonomy/decisions/${decision.id}/revert`), {
        token: owner.token,
        json: { reason: 'undo it' },
      });
      expect(revert.status, revert.text).toBe(403);
      expect(revert.body.detail).toContain('no approver permission');
    }
    // Nothing changed; they wait in `pending`, counted apart from what a person could act on.
    const after = await decisionsOf(owner.token, '?mode=proposed');
    expect(after.map((d) => d.id).sort()).toEqual([stepUp.id, client.id].sort());
    const metrics = await request(api('/autonomy/metrics'), { token: owner.token });
    expect(metrics.body.pending).toMatchObject({ count: 2, actionable: 0 });
    // disable_principal has no graduation entry; raise_assurance has one (bar 0.90).
    const graduation = await request(api('/autonomy/graduation'), { token: owner.token });
    expect(graduation.body.classes.disable_principal).toBeUndefined();
    expect(graduation.body.classes.raise_assurance.bar).toBe(0.9);
  });
});

describe('reading and bounds', () => {
  it('needs autonomy:read, reads its own organization only, bounds limit and reason lengths', async () => {
    const owner = await signUpOwner(svc.url);
    const member = await addMember(svc, { tenantId: owner.tenantId, slug: owner.slug }, 'member');
    for (const path of ['/autonomy/decisions', '/autonomy/metrics', '/autonomy/graduation', '/autonomy/kill-switch']) {
      expect((await request(api(path), { token: member.token })).status, path).toBe(403);
    }
    expect((await request(api('/autonomy/drill'), { token: owner.token })).status).toBe(403);

    // 55 decisions (dry runs at manual): 50 by default, up to 200 on request, newest first; 0 and 201 are 422.
    for (let i = 0; i < 55; i += 1) {
      occurrence += 1;
      await svc.deps.transactions.tenant(owner.tenantId, (tx) =>
        svc.deps.events.detect(tx, {
          tenantId: owner.tenantId,
          ruleId: 'agent-blast-radius-breaker',
          groupKey: `bulk:${occurrence}`,
          severity: 'critical',
          data: { agent_id: newId() },
        }),
      );
    }
    for (let attempt = 0; attempt < 200 && (await decisionsOf(owner.token)).length < 55; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const byDefault = await request(api('/autonomy/decisions'), { token: owner.token });
    expect(byDefault.body.decisions).toHaveLength(50);
    expect(byDefault.body.viewer_scope).toBe('tenant');
    expect(await decisionsOf(owner.token)).toHaveLength(55);
    expect((await decisionsOf(owner.token, '?mode=dry_run&limit=5')).every((d) => d.mode === 'dry_run')).toBe(true);
    for (const limit of ['0', '201']) {
      expect((await request(api(`/autonomy/decisions?limit=${limit}`), { token: owner.token })).status).toBe(422);
    }
    expect((await request(api('/autonomy/decisions?mode=pending'), { token: owner.token })).status).toBe(422);

    // Another organization sees none of it, in the list, the metrics or the graduation.
    const stranger = await signUpOwner(svc.url, 'stranger');
    expect(await decisionsOf(stranger.token)).toEqual([]);
    const metrics = await request(api('/autonomy/metrics'), { token: stranger.token });
    expect(Object.values(metrics.body.by_mode).every((n) => n === 0)).toBe(true);

    // Reasons: up to 1000 characters; a revert's is required.
    const [one] = await decisionsOf(owner.token, '?limit=1');
    const long = 'x'.repeat(1001);
    const adjudicate = await request(api(`/autonomy/decisions/${one!.id}/adjudicate`), {
      token: owner.token,
      json: { approve: false, reason: long },
    });
    expect(adjudicate.status).toBe(422);
    for (const reason of [long, '']) {
      const revert = await request(api(`/autonomy/decisions/${one!.id}/revert`), {
        token: owner.token,
        json: { reason },
      });
      expect(revert.status).toBe(422);
    }
    // A dry run awaits no verdict and was never executed: 409 for both.
    const notAwaiting = await request(api(`/autonomy/decisions/${one!.id}/adjudicate`), {
      token: owner.token,
      json: { approve: true, reason: 'x'.repeat(1000) },
    });
    expect(notAwaiting.status).toBe(409);
    const notExecuted = await request(api(`/autonomy/decisions/${one!.id}/revert`), {
      token: owner.token,
      json: { reason: 'nothing ran' },
    });
    expect(notExecuted.status).toBe(409);
  });
});
