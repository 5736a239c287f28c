import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { days } from '../../src/kernel/clock.js';
import { mintAgentToken } from '../support/agent-tokens.js';
import { delegate, registerAgent } from '../support/agents.js';
import { request } from '../support/http.js';
import { addMember, signUpOwner } from '../support/organizations.js';
import { startService, type TestService } from '../support/service.js';

// Part B 4.9 with AUTONOMY_EXECUTION_ENABLED on: proposals, adjudication, execution through the sign-in and agents
// services, reverts, the 30-day hold-back, a changed world, permission refusals and tenant isolation.

let svc: TestService;
beforeAll(async () => {
  svc = await startService({ AUTONOMY_EXECUTION_ENABLED: 'true' });
});
afterAll(async () => {
  await svc?.close();
});

const api = (path: string) => `${svc.url}/api/v1${path}`;

async function login(person: { email: string; password: string }, slug: string) {
  const res = await request(api('/auth/login'), {
    json: { email: person.email, password: person.password, tenant_slug: slug },
  });
  expect(res.status, res.text).toBe(200);
  return { access: res.body.access_token as string, refresh: res.body.refresh_token as string };
}

async function replay(refresh: string) {
  expect((await request(api('/auth/refresh'), { json: { refresh_token: refresh } })).status).toBe(200);
  expect((await request(api('/auth/refresh'), { json: { refresh_token: refresh } })).status).toBe(401);
}

async function setLevel(token: string, cls: string, value: string) {
  const res = await request(api(`/tenants/config/autonomy.level_${cls}`), { method: 'PATCH', token, json: { value } });
  expect(res.status, res.text).toBe(200);
}

async function decisionsOf(token: string, query = '') {
  const res = await request(api(`/autonomy/decisions${query}`), { token });
  expect(res.status, res.text).toBe(200);
  return res.body.decisions as Array<Record<string, any>>;
}

const me = (token: string) => request(api('/me'), { token }).then((res) => res.status);

describe('autonomy decisions (execution on)', () => {
  it('proposes revoke_access on a replay; a person approves, the sessions end; the revert revives only those', async () => {
    const owner = await signUpOwner(svc.url);
    const org = { tenantId: owner.tenantId, slug: owner.slug };
    // A level above the class ceiling is 400 naming the allowed set.
    const tooHigh = await request(api('/tenants/config/autonomy.level_revoke_access'), {
      method: 'PATCH',
      token: owner.token,
      json: { value: 'full' },
    });
    expect(tooHigh.status).toBe(400);
    expect(tooHigh.body.detail).toContain('manual, recommend, graduated');
    await setLevel(owner.token, 'revoke_access', 'recommend');

    const victim = await addMember(svc, org, 'member');
    const replayed = await login(victim, owner.slug);
    const laptop = await login(victim, owner.slug);
    await replay(replayed.refresh);

    const [proposal] = await decisionsOf(owner.token);
    expect(proposal).toMatchObject({
      rule_id: 'refresh-token-replay',
      blast_class: 'revoke_access',
      target_id: victim.userId,
      mode: 'proposed',
      adjudication: 'pending',
      actionable: true,
      level: 'recommend',
      decided_by: null,
    });
    // The same detection counted again records no second decision (one per group occurrence).
    const again = await login(victim, owner.slug);
    await replay(again.refresh);
    expect(await decisionsOf(owner.token)).toHaveLength(1);
    expect(await me(laptop.access)).toBe(200);

    // Permission refusals: no autonomy:approve (member); autonomy:approve without tenant:manage (security operator).
    const member = await addMember(svc, org, 'member');
    const operator = await addMember(svc, org, 'security_operator');
    const byMember = await request(api(`/autonomy/decisions/${proposal!.id}/adjudicate`), {
      token: member.token,
      json: { approve: true },
    });
    expect(byMember.status).toBe(403);
    expect((await request(api('/autonomy/decisions'), { token: member.token })).status).toBe(403);
    const byOperator = await request(api(`/autonomy/decisions/${proposal!.id}/adjudicate`), {
      token: operator.token,
      json: { approve: true },
    });
    expect(byOperator.status).toBe(403);
    expect(byOperator.body.detail).toContain('tenant:manage');
    expect((await decisionsOf(owner.token))[0]!.mode).toBe('proposed');

    // Another organization's decision is unknown there.
    const stranger = await signUpOwner(svc.url, 'stranger');
    for (const verb of ['adjudicate', 'revert']) {
      const res = await request(api(`/autonomy/decisions/${proposal!.id}/${verb}`), {
        token: stranger.token,
        json: verb === 'adjudicate' ? { approve: true } : { reason: 'not mine' },
      });
      expect(res.status, verb).toBe(404);
    }
    expect(await decisionsOf(stranger.token)).toEqual([]);

    const approved = await request(api(`/autonomy/decisions/${proposal!.id}/adjudicate`), {
      token: owner.token,
      json: { approve: true, reason: 'stolen token' },
    });
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body).toMatchObject({ executed: true, outcome: 'executed', reason: null });
    expect(approved.body.decision).toMatchObject({
      mode: 'executed',
      adjudication: 'approved',
      decided_by: owner.userId,
      revertible: true,
      unattended: false,
    });
    expect(await me(laptop.access)).toBe(401);
    expect(await me(again.access)).toBe(401);
    const twice = await request(api(`/autonomy/decisions/${proposal!.id}/adjudicate`), {
      token: owner.token,
      json: { approve: true },
    });
    expect(twice.status).toBe(409);

    // Revert: reason required; the security operator lacks tenant:manage; the owner reverts.
    expect(
      (await request(api(`/autonomy/decisions/${proposal!.id}/revert`), { token: owner.token, json: {} })).status,
    ).toBe(422);
    expect(
      (
        await request(api(`/autonomy/decisions/${proposal!.id}/revert`), {
          token: operator.token,
          json: { reason: 'false alarm' },
        })
      ).status,
    ).toBe(403);
    const reverted = await request(api(`/autonomy/decisions/${proposal!.id}/revert`), {
      token: owner.token,
      json: { reason: 'false alarm: the person replayed from an old tab' },
    });
    expect(reverted.status, reverted.text).toBe(200);
    expect(reverted.body).toMatchObject({ reverted: true, decision: { mode: 'reversed', revertible: false } });
    // The sessions the decision ended live again; the replayed session (ended by the replay itself) stays dead.
    expect(await me(laptop.access)).toBe(200);
    expect(await me(replayed.access)).toBe(401);
    expect((await request(api('/auth/refresh'), { json: { refresh_token: replayed.refresh } })).status).toBe(401);
    const revertTwice = await request(api(`/autonomy/decisions/${proposal!.id}/revert`), {
      token: owner.token,
      json: { reason: 'again' },
    });
    expect(revertTwice.status).toBe(409);

    // The reversal holds revoke_access below unattended operation for 30 days from the reversal.
    const held = await request(api('/autonomy/graduation'), { token: owner.token });
    expect(held.status).toBe(200);
    expect(Object.keys(held.body.classes).sort()).toEqual([
      'contain_non_human',
      'contain_source',
      'raise_assurance',
      'revoke_access',
    ]);
    expect(held.body.classes.revoke_access).toMatchObject({ eligible: false, bar: 0.95, reversals_recent: 1 });
    expect(held.body.classes.revoke_access.unmet.join(' ')).toContain('reversal');
    expect(held.body.classes.contain_non_human.bar).toBe(0.9);
    svc.clock.advance(days(30) + 1000);
    const later = await login(owner, owner.slug);
    const clean = await request(api('/autonomy/graduation'), { token: later.access });
    expect(clean.body.classes.revoke_access.reversals_recent).toBe(0);
    expect(clean.body.classes.revoke_access.unmet.join(' ')).not.toContain('reversal');
    expect(clean.body.classes.revoke_access.approvals_needed).toBeGreaterThan(0);

    const metrics = await request(api('/autonomy/metrics'), { token: later.access });
    expect(metrics.status).toBe(200);
    expect(metrics.body.classes.revoke_access).toMatchObject({ rate_cap: 10, spread_cap: 10 });
  });

  it('expires an approval whose world changed since the proposal, with the reason, and denies on request', async () => {
    const owner = await signUpOwner(svc.url);
    const org = { tenantId: owner.tenantId, slug: owner.slug };
    await setLevel(owner.token, 'revoke_access', 'recommend');
    const victim = await addMember(svc, org, 'member');
    const first = await login(victim, owner.slug);
    await replay(first.refresh);
    const [proposal] = await decisionsOf(owner.token, '?mode=proposed');
    // The person signs out everywhere: the sessions the proposal planned to end are gone.
    expect((await request(api('/auth/sign-out-all'), { token: victim.token, method: 'POST' })).status).toBe(204);
    const approved = await request(api(`/autonomy/decisions/${proposal!.id}/adjudicate`), {
      token: owner.token,
      json: { approve: true },
    });
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body).toMatchObject({ executed: false, outcome: 'expired' });
    expect(approved.body.reason).toContain('world changed');
    expect(approved.body.decision.mode).toBe('expired');

    const other = await addMember(svc, org, 'member');
    const session = await login(other, owner.slug);
    await replay(session.refresh);
    const [next] = await decisionsOf(owner.token, '?mode=proposed');
    expect(next!.target_id).toBe(other.userId);
    const denied = await request(api(`/autonomy/decisions/${next!.id}/adjudicate`), {
      token: owner.token,
      json: { approve: false, reason: 'known device' },
    });
    expect(denied.body).toMatchObject({ executed: false, outcome: 'denied', decision: { mode: 'denied' } });
    expect(await me(other.token)).toBe(200);
    const list = await request(api('/autonomy/decisions?limit=1'), { token: owner.token });
    expect(list.body.decisions).toHaveLength(1);
    expect((await request(api('/autonomy/decisions?limit=201'), { token: owner.token })).status).toBe(422);
  });

  it('contains an agent asking outside its scope; only a person reverts, and old tokens stay dead', async () => {
    const owner = await signUpOwner(svc.url);
    await setLevel(owner.token, 'contain_non_human', 'recommend');
    const agent = await registerAgent(svc, owner.token);
    expect((await delegate(svc, owner.token, agent.agent_id, ['members:read'])).status).toBe(201);
    // Another agent, holding autonomy:approve and agents:kill, tries the revert below.
    const helper = await registerAgent(svc, owner.token);
    expect((await delegate(svc, owner.token, helper.agent_id, ['autonomy:approve', 'agents:kill'])).status).toBe(201);
    const held = await mintAgentToken(svc, agent.credential);
    expect(held.status).toBe(200);
    const agentToken = held.body.access_token as string;
    const refused = await mintAgentToken(svc, agent.credential, {
      task: { task: 'tidy up', permissions: ['tenant:manage'], budget: 5 },
    });
    expect(refused.status).toBe(403);

    const [proposal] = await decisionsOf(owner.token, '?mode=proposed');
    expect(proposal).toMatchObject({
      rule_id: 'agent-task-scope-exceeded',
      blast_class: 'contain_non_human',
      target_id: agent.agent_id,
    });
    const approved = await request(api(`/autonomy/decisions/${proposal!.id}/adjudicate`), {
      token: owner.token,
      json: { approve: true },
    });
    expect(approved.body, approved.text).toMatchObject({ executed: true, outcome: 'executed' });
    const record = await request(api(`/agents/${agent.agent_id}`), { token: owner.token });
    expect(record.body.kill_switch.engaged).toBe(true);
    expect((await request(api('/members'), { token: agentToken })).status).not.toBe(200);

    // An agent (here with autonomy:approve and agents:kill delegated) may not revert contain_non_human.
    const helperToken = (await mintAgentToken(svc, helper.credential)).body.access_token as string;
    const byAgent = await request(api(`/autonomy/decisions/${proposal!.id}/revert`), {
      token: helperToken,
      json: { reason: 'let it go' },
    });
    expect(byAgent.status, byAgent.text).toBe(403);
    expect((await request(api(`/agents/${agent.agent_id}`), { token: owner.token })).body.kill_switch.engaged).toBe(
      true,
    );

    const reverted = await request(api(`/autonomy/decisions/${proposal!.id}/revert`), {
      token: owner.token,
      json: { reason: 'the task text was a typo' },
    });
    expect(reverted.status, reverted.text).toBe(200);
    expect((await request(api(`/agents/${agent.agent_id}`), { token: owner.token })).body.kill_switch.engaged).toBe(
      false,
    );
    // The token held before the containment stays refused; a new one works.
    expect((await request(api('/members'), { token: agentToken })).status).toBe(401);
    const minted = await mintAgentToken(svc, agent.credential);
    expect(minted.status).toBe(200);
    expect((await request(api('/members'), { token: minted.body.access_token })).status).toBe(200);
  });
  it('refuses a superseded contain_non_human revert with nothing changed, and any non-human reverter', async () => {
    const owner = await signUpOwner(svc.url);
    await setLevel(owner.token, 'contain_non_human', 'recommend');
    const agent = await registerAgent(svc, owner.token);
    expect((await delegate(svc, owner.token, agent.agent_id, ['members:read'])).status).toBe(201);
    const refused = await mintAgentToken(svc, agent.credential, {
      task: { task: 'tidy up', permissions: ['tenant:manage'], budget: 5 },
    });
    expect(refused.status).toBe(403);
    const [proposal] = await decisionsOf(owner.token, '?mode=proposed');
    const approved = await request(api(`/autonomy/decisions/${proposal!.id}/adjudicate`), {
      token: owner.token,
      json: { approve: true },
    });
    expect(approved.body, approved.text).toMatchObject({ executed: true });

    // An API key (a service caller) holding every permission the revert needs is refused: people only.
    const key = await request(api('/tenants/api-keys'), {
      token: owner.token,
      json: { label: 'reverter', scopes: ['autonomy:approve', 'agents:kill', 'agents:manage'] },
    });
    expect(key.status, key.text).toBe(201);
    const byKey = await request(api(`/autonomy/decisions/${proposal!.id}/revert`), {
      token: key.body.key,
      json: { reason: 'let it go' },
    });
    expect(byKey.status, byKey.text).toBe(403);

    // A person released the kill switch by hand since, and engaged it again a moment later: the revert is
    // superseded (the switch is no longer the one the decision engaged), 409, nothing changed.
    svc.clock.advance(1000);
    const released = await request(api(`/agents/${agent.agent_id}/kill-switch`), {
      token: owner.token,
      json: { engaged: false },
    });
    expect(released.status, released.text).toBe(200);
    const engagedAgain = await request(api(`/agents/${agent.agent_id}/kill-switch`), {
      token: owner.token,
      json: { engaged: true, reason: 'by hand' },
    });
    expect(engagedAgain.status, engagedAgain.text).toBe(200);
    const superseded = await request(api(`/autonomy/decisions/${proposal!.id}/revert`), {
      token: owner.token,
      json: { reason: 'false alarm' },
    });
    expect(superseded.status, superseded.text).toBe(409);
    expect(superseded.body.detail).toContain('Superseded');
    const [after] = (await decisionsOf(owner.token)).filter((d) => d.id === proposal!.id);
    expect(after).toMatchObject({ mode: 'executed', revertible: true, reverted_at: null });
    expect((await request(api(`/agents/${agent.agent_id}`), { token: owner.token })).body.kill_switch.engaged).toBe(
      true,
    );
  });

  it('executes nothing on approval once execution is off (a node started without the switch)', async () => {
    const owner = await signUpOwner(svc.url);
    await setLevel(owner.token, 'revoke_access', 'recommend');
    const victim = await addMember(svc, { tenantId: owner.tenantId, slug: owner.slug }, 'member');
    const session = await login(victim, owner.slug);
    await replay(session.refresh);
    const [proposal] = await decisionsOf(owner.token, '?mode=proposed');
    const laptop = victim.token;
    svc.deps.config.flags.autonomyExecutionEnabled = false;
    try {
      const approved = await request(api(`/autonomy/decisions/${proposal!.id}/adjudicate`), {
        token: owner.token,
        json: { approve: true },
      });
      expect(approved.status, approved.text).toBe(200);
      expect(approved.body).toMatchObject({ executed: false, outcome: 'expired', decision: { mode: 'expired' } });
      expect(approved.body.reason).toContain('AUTONOMY_EXECUTION_ENABLED');
      expect(await me(laptop)).toBe(200);
    } finally {
      svc.deps.config.flags.autonomyExecutionEnabled = true;
    }
  });
});
