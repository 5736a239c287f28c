import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hours, minutes } from '../../src/kernel/clock.js';
import { request } from '../support/http.js';
import { addMember, signUpOwner } from '../support/organizations.js';
import { bootstrapPlatformOwner } from '../support/platform.js';
import { startService, type TestService } from '../support/service.js';

// Part B 3, 4.9: the autonomy kill switch. One state with the setting autonomy.disabled_until; an expiry that
// re-arms by itself; each change a critical detection; scope global for the platform operator.

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
const post = (token: string, json: Record<string, unknown>) => request(api('/autonomy/kill-switch'), { token, json });
const state = async (token: string) => {
  const res = await request(api('/autonomy/kill-switch'), { token });
  expect(res.status, res.text).toBe(200);
  return res.body;
};

/** A new access token (tests move the clock past an access token's lifetime). */
async function fresh(person: { email: string; password: string; slug: string }) {
  const res = await request(api('/auth/login'), {
    json: { email: person.email, password: person.password, tenant_slug: person.slug },
  });
  expect(res.status, res.text).toBe(200);
  return res.body.access_token as string;
}

async function killSwitchDetections(token: string) {
  const res = await request(api('/command/detections?rule_id=autonomy-kill-switch-changed'), { token });
  expect(res.status, res.text).toBe(200);
  return res.body.detections ?? res.body;
}

describe('autonomy kill switch', () => {
  it('engages for the offered hours, refuses an unbounded stop without a reason, and re-arms by the clock', async () => {
    const owner = await signUpOwner(svc.url);
    expect(await state(owner.token)).toEqual({
      engaged: false,
      scope: 'tenant',
      until: null,
      indefinite: false,
      reason: null,
      offered_hours: [1, 8, 24],
    });
    expect((await post(owner.token, { enable: true })).status).toBe(400);
    expect((await post(owner.token, { enable: true, reason: '   ' })).status).toBe(400);
    expect((await post(owner.token, { enable: true, hours: 5 })).status).toBe(400);
    expect((await state(owner.token)).engaged).toBe(false);
    expect(await killSwitchDetections(owner.token)).toHaveLength(0);

    const engaged = await post(owner.token, { enable: true, hours: 1 });
    expect(engaged.status, engaged.text).toBe(200);
    const until = new Date(svc.clock.now().getTime() + hours(1)).toISOString();
    expect(engaged.body).toMatchObject({ engaged: true, scope: 'tenant', until, indefinite: false });
    // The same state through the settings API.
    const setting = await request(api('/tenants/config/schema'), { token: owner.token });
    expect(setting.body.find((s: { key: string }) => s.key === 'autonomy.disabled_until').value).toBe(until);
    const raised = await killSwitchDetections(owner.token);
    expect(raised).toHaveLength(1);
    expect(raised[0]).toMatchObject({ severity: 'critical', rule_id: 'autonomy-kill-switch-changed' });

    // While engaged, an approval expires at the guard (shown in another test file's flow); here: it re-arms.
    svc.clock.advance(hours(1) + minutes(1));
    const ownerToken = await fresh(owner);
    expect((await state(ownerToken)).engaged).toBe(false);

    const indefinite = await post(ownerToken, { enable: true, reason: 'incident 42: stop everything' });
    expect(indefinite.status, indefinite.text).toBe(200);
    expect(indefinite.body).toMatchObject({ engaged: true, indefinite: true, reason: 'incident 42: stop everything' });
    svc.clock.advance(hours(24 * 365));
    const token = await fresh(owner);
    expect((await state(token)).engaged).toBe(true);
    const released = await post(token, { enable: false });
    expect(released.status).toBe(200);
    expect(released.body).toMatchObject({ engaged: false, until: null, reason: null });
    expect(await killSwitchDetections(token)).toHaveLength(3);
  });

  it('needs autonomy:disable on both routes; an API key may engage it but never release it', async () => {
    const owner = await signUpOwner(svc.url);
    const org = { tenantId: owner.tenantId, slug: owner.slug };
    const member = await addMember(svc, org, 'member');
    expect((await post(member.token, { enable: true, hours: 1 })).status).toBe(403);
    expect((await request(api('/autonomy/kill-switch'), { token: member.token })).status).toBe(403);

    // A key that manages the organization but lacks autonomy:disable cannot set the setting either.
    const key = await request(api('/tenants/api-keys'), {
      token: owner.token,
      json: { label: 'admin', scopes: ['tenant:manage'] },
    });
    expect(key.status, key.text).toBe(201);
    const viaSettings = await request(api('/tenants/config/autonomy.disabled_until'), {
      method: 'PATCH',
      token: key.body.key,
      json: { value: '2999-01-01T00:00:00Z' },
    });
    expect(viaSettings.status).toBe(403);
    expect(viaSettings.body.detail).toContain('autonomy:disable');
    expect((await state(owner.token)).engaged).toBe(false);

    // The owner sets it through the settings API: the same state, the same critical detection.
    const until = new Date(svc.clock.now().getTime() + hours(2)).toISOString();
    const set = await request(api('/tenants/config/autonomy.disabled_until'), {
      method: 'PATCH',
      token: owner.token,
      json: { value: until },
    });
    expect(set.status, set.text).toBe(200);
    expect(await state(owner.token)).toMatchObject({ engaged: true, until });
    expect(await killSwitchDetections(owner.token)).toHaveLength(1);

    const stopper = await request(api('/tenants/api-keys'), {
      token: owner.token,
      json: { label: 'stopper', scopes: ['autonomy:disable', 'autonomy:read'] },
    });
    expect(stopper.status, stopper.text).toBe(201);
    expect((await post(stopper.body.key, { enable: true, hours: 8 })).status).toBe(200);
    expect((await post(stopper.body.key, { enable: false })).status).toBe(403);
    expect((await state(owner.token)).engaged).toBe(true);
  });

  it('is global for the platform operator, who alone runs the drill; an engaged switch expires approvals', async () => {
    platform.token = await fresh(platform);
    expect((await state(platform.token)).scope).toBe('global');
    const drill = await request(api('/autonomy/drill'), { token: platform.token });
    expect(drill.status, drill.text).toBe(200);
    expect(drill.body.mode).toBe('shadow');
    const revoke = drill.body.classes.find((c: { blast_class: string }) => c.blast_class === 'revoke_access');
    const replay = revoke.triggers.find((t: { rule_id: string }) => t.rule_id === 'refresh-token-replay');
    expect(replay).toMatchObject({
      attacker_trippable: true,
      would: { manual: 'dry_run', recommend: 'proposed', graduated: 'proposed' },
    });
    const owner = await signUpOwner(svc.url);
    expect((await request(api('/autonomy/drill'), { token: owner.token })).status).toBe(403);

    // A proposal approved while the global switch is engaged expires with the reason.
    await request(api('/tenants/config/autonomy.level_revoke_access'), {
      method: 'PATCH',
      token: owner.token,
      json: { value: 'recommend' },
    });
    const member = await addMember(svc, { tenantId: owner.tenantId, slug: owner.slug }, 'member');
    const session = await request(api('/auth/login'), {
      json: { email: member.email, password: member.password, tenant_slug: owner.slug },
    });
    const refresh = session.body.refresh_token as string;
    await request(api('/auth/refresh'), { json: { refresh_token: refresh } });
    expect((await request(api('/auth/refresh'), { json: { refresh_token: refresh } })).status).toBe(401);
    const decisions = await request(api('/autonomy/decisions'), { token: owner.token });
    const [proposal] = decisions.body.decisions;
    expect(proposal.mode).toBe('proposed');

    expect((await post(platform.token, { enable: true, hours: 24 })).status).toBe(200);
    expect((await state(owner.token)).engaged).toBe(true);
    const approved = await request(api(`/autonomy/decisions/${proposal.id}/adjudicate`), {
      token: owner.token,
      json: { approve: true },
    });
    expect(approved.body).toMatchObject({ executed: false, outcome: 'expired' });
    expect(approved.body.reason).toContain('kill switch');
    expect((await request(api('/me'), { token: member.token })).status).toBe(200);
    // The platform operator sees every organization's decisions.
    const all = await request(api('/autonomy/decisions'), { token: platform.token });
    expect(all.body.viewer_scope).toBe('platform');
    expect(all.body.decisions.some((d: { id: string }) => d.id === proposal.id)).toBe(true);
    expect((await post(platform.token, { enable: false })).status).toBe(200);
  });
});
