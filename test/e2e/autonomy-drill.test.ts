import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { autonomyJob } from '../../src/modules/autonomy/index.js';
import { request } from '../support/http.js';
import { signUpOwner } from '../support/organizations.js';
import { bootstrapPlatformOwner } from '../support/platform.js';
import { startService, type TestService } from '../support/service.js';

// Part B 4.9 `GET /autonomy/drill`: a soak drill replaying synthetic detections through the engine's decision rule
// and its live guards, in shadow. The operator organization's real executions count against the caps, its kill
// switch and its reversals hold the runs back, exactly as the engine would, and the drill records nothing.

let svc: TestService;
let platform: Awaited<ReturnType<typeof bootstrapPlatformOwner>>;
beforeAll(async () => {
  svc = await startService({ AUTONOMY_EXECUTION_ENABLED: 'true' });
  platform = await bootstrapPlatformOwner(svc);
});
afterAll(async () => {
  await svc?.close();
});

const api = (path: string) => `${svc.url}/api/v1${path}`;
type Report = {
  kill_switch: { engaged: boolean };
  classes: Array<{ blast_class: string; levels: string[]; triggers: any[]; soak: Record<string, any> }>;
};

/** The drill, with proof it wrote nothing: the ledger, its metrics and the detections are the same after it. */
async function drill(): Promise<Report> {
  const before = await ledgerState();
  const res = await request(api('/autonomy/drill'), { token: platform.token });
  expect(res.status, res.text).toBe(200);
  expect(res.body).toMatchObject({ mode: 'shadow', execution_enabled: true, tenant_id: platform.tenantId });
  expect(await ledgerState()).toEqual(before);
  return res.body;
}

async function ledgerState() {
  const decisions = await request(api('/autonomy/decisions?limit=200'), { token: platform.token });
  const metrics = await request(api('/autonomy/metrics'), { token: platform.token });
  const detections = await request(api('/command/detections'), { token: platform.token });
  return {
    decisions: decisions.body.decisions.map((d: { id: string; mode: string }) => `${d.id}:${d.mode}`),
    by_mode: metrics.body.by_mode,
    classes: metrics.body.classes,
    detections: JSON.stringify(detections.body),
  };
}

const classOf = (report: Report, cls: string) => report.classes.find((c) => c.blast_class === cls)!;
const none = { kill_switch: 0, rate_cap: 0, spread_cap: 0, reversal_breaker: 0 };

async function stuffing(source: string) {
  await svc.deps.transactions.tenant(platform.tenantId, (tx) =>
    svc.deps.events.detect(tx, {
      tenantId: platform.tenantId,
      ruleId: 'credential-stuffing',
      groupKey: `source:${source}`,
      severity: 'high',
      data: { source_ip: source },
    }),
  );
}

async function decisions() {
  const res = await request(api('/autonomy/decisions?limit=200'), { token: platform.token });
  return res.body.decisions as Array<Record<string, any>>;
}

describe('the soak drill', () => {
  it('replays every trigger per level through the live guards, in shadow, for the platform operator only', async () => {
    const stranger = await signUpOwner(svc.url);
    expect((await request(api('/autonomy/drill'), { token: stranger.token })).status).toBe(403);

    // A clean ledger: the caps bind alone. contain_source at full: 30 run (the rate cap), 70 are held by it.
    const clean = await drill();
    expect(clean.kill_switch.engaged).toBe(false);
    const source = classOf(clean, 'contain_source');
    expect(source.levels).toEqual(['manual', 'recommend', 'graduated', 'full']);
    expect(source.soak.manual).toMatchObject({ detections: 100, dry_run: 100, executed: 0, held_by: none });
    expect(source.soak.recommend).toMatchObject({ proposed: 100, executed: 0, held_by: none });
    expect(source.soak.graduated).toMatchObject({ proposed: 100, executed: 0 });
    expect(source.soak.full).toMatchObject({ executed: 30, proposed: 70, held_by: { ...none, rate_cap: 70 } });
    expect(source.triggers[0]).toMatchObject({
      rule_id: 'credential-stuffing',
      would: { manual: 'dry_run', recommend: 'proposed', graduated: 'proposed', full: 'executed' },
    });
    // Ceilings: revoke_access stops at graduated, disable_principal at recommend; trippable rules stay proposed.
    const revoke = classOf(clean, 'revoke_access');
    expect(revoke.levels).toEqual(['manual', 'recommend', 'graduated']);
    expect(revoke.triggers.find((t) => t.rule_id === 'refresh-token-replay')).toMatchObject({
      attacker_trippable: true,
      would: { manual: 'dry_run', recommend: 'proposed', graduated: 'proposed' },
    });
    expect(classOf(clean, 'disable_principal').levels).toEqual(['manual', 'recommend']);
    expect(classOf(clean, 'raise_assurance').soak.full).toMatchObject({ proposed: 100, executed: 0 });

    // Real executions of the organization count against the caps: 5 contained sources leave room for 25.
    const level = await request(api('/tenants/config/autonomy.level_contain_source'), {
      method: 'PATCH',
      token: platform.token,
      json: { value: 'full' },
    });
    expect(level.status, level.text).toBe(200);
    const sources = ['192.0.2.1', '192.0.2.2', '192.0.2.3', '192.0.2.4', '192.0.2.5'];
    for (const ip of sources) await stuffing(ip);
    for (let i = 0; i < 100 && (await decisions()).length < sources.length; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await autonomyJob.run({ autonomy: svc.deps.autonomy });
    const executed = (await decisions()).filter((d) => d.mode === 'executed');
    expect(executed).toHaveLength(5);
    const used = await drill();
    expect(classOf(used, 'contain_source').soak.full).toMatchObject({
      executed: 25,
      proposed: 75,
      held_by: { ...none, rate_cap: 75 },
    });

    // The kill switch (the operator's own is the global one) holds every unattended run.
    const stop = await request(api('/autonomy/kill-switch'), {
      token: platform.token,
      json: { enable: true, hours: 1 },
    });
    expect(stop.status, stop.text).toBe(200);
    const stopped = await drill();
    expect(stopped.kill_switch.engaged).toBe(true);
    expect(classOf(stopped, 'contain_source').soak.full).toMatchObject({
      executed: 0,
      proposed: 100,
      held_by: { ...none, kill_switch: 100 },
    });
    expect(classOf(stopped, 'contain_source').triggers[0].would.full).toBe('proposed');
    expect(
      (await request(api('/autonomy/kill-switch'), { token: platform.token, json: { enable: false } })).status,
    ).toBe(200);

    // A reversal holds the class below unattended operation (the 30-day circuit breaker).
    const reverted = await request(api(`/autonomy/decisions/${executed[0]!.id}/revert`), {
      token: platform.token,
      json: { reason: 'a drill of the breaker' },
    });
    expect(reverted.status, reverted.text).toBe(200);
    const held = await drill();
    expect(classOf(held, 'contain_source').soak.full).toMatchObject({
      executed: 0,
      proposed: 100,
      held_by: { ...none, reversal_breaker: 100 },
    });
    // Other classes are not held by it.
    expect(classOf(held, 'contain_non_human').soak.graduated.held_by).toEqual(none);
  });
});
