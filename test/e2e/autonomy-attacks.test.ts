import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { days } from '../../src/kernel/clock.js';
import { newId } from '../../src/kernel/ids.js';
import { autonomyDecisions } from '../../src/modules/autonomy/schema.js';
import { request } from '../support/http.js';
import { addMember, signUpOwner } from '../support/organizations.js';
import { startService, type TestService } from '../support/service.js';

// An attacker's review of autonomous response (Part B 4.9): verdicts and reverts sent twice at once have one
// effect; a revert after the target changed is 409 with nothing changed; and a refresh-token replay (which anyone
// who once saw an old refresh token can trip) never ends a person's sessions unattended, even in a class that has
// graduated to unattended operation.

let svc: TestService;
beforeAll(async () => {
  svc = await startService({ AUTONOMY_EXECUTION_ENABLED: 'true' });
});
afterAll(async () => {
  await svc?.close();
});

type Owner = Awaited<ReturnType<typeof signUpOwner>>;
const api = (path: string) => `${svc.url}/api/v1${path}`;
const me = (token: string) => request(api('/me'), { token }).then((res) => res.status);

async function login(person: { email: string; password: string }, slug: string) {
  const res = await request(api('/auth/login'), {
    json: { email: person.email, password: person.password, tenant_slug: slug },
  });
  expect(res.status, res.text).toBe(200);
  return { access: res.body.access_token as string, refresh: res.body.refresh_token as string };
}

/** A rotated refresh token presented again: the refresh-token-replay detection. */
async function replay(refresh: string) {
  expect((await request(api('/auth/refresh'), { json: { refresh_token: refresh } })).status).toBe(200);
  expect((await request(api('/auth/refresh'), { json: { refresh_token: refresh } })).status).toBe(401);
}

async function setLevel(token: string, cls: string, value: string) {
  const res = await request(api(`/tenants/config/autonomy.level_${cls}`), { method: 'PATCH', token, json: { value } });
  expect(res.status, res.text).toBe(200);
}

async function decisionsOf(token: string) {
  const res = await request(api('/autonomy/decisions?limit=200'), { token });
  expect(res.status, res.text).toBe(200);
  return res.body.decisions as Array<Record<string, any>>;
}

/** The decision about `targetId`, once the engine has recorded it (its hook runs after the detection commits). */
async function decisionAbout(token: string, targetId: string) {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const found = (await decisionsOf(token)).find((d) => d.target_id === targetId);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no decision about ${targetId}`);
}

/** How many events of `action` the organization recorded about `decisionId`. */
async function eventsAbout(token: string, action: string, decisionId: string) {
  const res = await request(api(`/command/events?action=${action}&limit=1000`), { token });
  expect(res.status, res.text).toBe(200);
  return res.body.events.filter((e: { data: { decision_id?: string } }) => e.data.decision_id === decisionId).length;
}

/** An organization at `recommend` for revoke_access, a member, and the proposal to end the member's sessions. */
async function proposalToEndSessions() {
  const owner = await signUpOwner(svc.url);
  await setLevel(owner.token, 'revoke_access', 'recommend');
  const victim = await addMember(svc, { tenantId: owner.tenantId, slug: owner.slug }, 'member');
  const stolen = await login(victim, owner.slug);
  const laptop = await login(victim, owner.slug);
  await replay(stolen.refresh);
  const proposal = await decisionAbout(owner.token, victim.userId);
  expect(proposal).toMatchObject({ target_id: victim.userId, blast_class: 'revoke_access' });
  return { owner, victim, laptop, id: proposal.id as string };
}

const post = (owner: Owner, id: string, verb: 'adjudicate' | 'revert', json: Record<string, unknown>) =>
  request(api(`/autonomy/decisions/${id}/${verb}`), { token: owner.token, json });

describe('the same verdict or revert sent at once', () => {
  it('takes one verdict of three sent together (409 for the others), executes once and reverts once', async () => {
    const { owner, laptop, id } = await proposalToEndSessions();
    const verdicts = await Promise.all([
      post(owner, id, 'adjudicate', { approve: true, reason: 'first' }),
      post(owner, id, 'adjudicate', { approve: true, reason: 'second' }),
      post(owner, id, 'adjudicate', { approve: true, reason: 'third' }),
    ]);
    expect(verdicts.map((res) => res.status).sort()).toEqual([200, 409, 409]);
    const taken = verdicts.find((res) => res.status === 200)!;
    expect(taken.body).toMatchObject({ executed: true, outcome: 'executed' });
    expect(await me(laptop.access)).toBe(401);
    expect(await eventsAbout(owner.token, 'autonomy.decision_adjudicated', id)).toBe(1);
    expect(await eventsAbout(owner.token, 'autonomy.decision_executed', id)).toBe(1);

    const reverts = await Promise.all([
      post(owner, id, 'revert', { reason: 'false alarm' }),
      post(owner, id, 'revert', { reason: 'false alarm, again' }),
    ]);
    expect(reverts.map((res) => res.status).sort()).toEqual([200, 409]);
    expect(await me(laptop.access)).toBe(200);
    expect(await eventsAbout(owner.token, 'autonomy.decision_reverted', id)).toBe(1);
    const [decision] = (await decisionsOf(owner.token)).filter((d) => d.id === id);
    expect(decision).toMatchObject({ mode: 'reversed', revertible: false });
  });

  it('takes one of an approval and a denial sent together', async () => {
    const { owner, laptop, id } = await proposalToEndSessions();
    const [approve, deny] = await Promise.all([
      post(owner, id, 'adjudicate', { approve: true }),
      post(owner, id, 'adjudicate', { approve: false }),
    ]);
    expect([approve.status, deny.status].sort()).toEqual([200, 409]);
    const [decision] = (await decisionsOf(owner.token)).filter((d) => d.id === id);
    expect(decision!.mode).toBe(approve.status === 200 ? 'executed' : 'denied');
    expect(await me(laptop.access)).toBe(approve.status === 200 ? 401 : 200);
    expect(await eventsAbout(owner.token, 'autonomy.decision_adjudicated', id)).toBe(1);
  });
});

describe('reverting after the target changed', () => {
  it('is 409 with nothing changed once every session it ended has ended otherwise (signed out everywhere since)', async () => {
    const { owner, victim, laptop, id } = await proposalToEndSessions();
    expect((await post(owner, id, 'adjudicate', { approve: true })).body.outcome).toBe('executed');
    // The person signs in again and signs out everywhere: the account's epoch moves past the ended sessions.
    const fresh = await login(victim, owner.slug);
    expect((await request(api('/auth/sign-out-all'), { token: fresh.access, method: 'POST' })).status).toBe(204);
    const res = await post(owner, id, 'revert', { reason: 'false alarm' });
    expect(res.status, res.text).toBe(409);
    expect(res.body.detail).toContain('Superseded');
    const [decision] = (await decisionsOf(owner.token)).filter((d) => d.id === id);
    expect(decision).toMatchObject({ mode: 'executed', reverted_at: null, revertible: true });
    expect(await eventsAbout(owner.token, 'autonomy.decision_reverted', id)).toBe(0);
    expect(await me(laptop.access)).toBe(401);
    // No reversal was recorded, so nothing holds the class back.
    const graduation = await request(api('/autonomy/graduation'), { token: owner.token });
    expect(graduation.body.classes.revoke_access.reversals_recent).toBe(0);
  });
});

describe('an attacker-trippable trigger', () => {
  it('stays a proposal in a graduated class that ends sessions unattended for a trigger no attacker trips', async () => {
    const owner = await signUpOwner(svc.url);
    const org = { tenantId: owner.tenantId, slug: owner.slug };
    // Direct set-up: 80 approved executions of revoke_access over the last 20 days graduate the class.
    const now = svc.clock.now().getTime();
    const history = Array.from({ length: 80 }, (_, i) => {
      const at = new Date(now - days(2) - Math.floor((i * days(18)) / 79));
      return {
        id: newId(),
        tenantId: owner.tenantId,
        detectionId: newId(),
        ruleId: 'passkey-clone-suspected',
        actionId: 'end_all_sessions',
        blastClass: 'revoke_access',
        targetId: newId(),
        effect: 'End every session of a past user in this organization.',
        mode: 'executed' as const,
        level: 'recommend',
        adjudication: 'approved',
        decidedBy: owner.userId,
        decidedByType: 'human',
        worldFingerprint: 'history',
        createdAt: at,
        decidedAt: at,
        executedAt: at,
      };
    });
    await svc.deps.database.db.insert(autonomyDecisions).values(history);
    await setLevel(owner.token, 'revoke_access', 'graduated');
    const graduation = await request(api('/autonomy/graduation'), { token: owner.token });
    expect(graduation.body.classes.revoke_access, graduation.text).toMatchObject({ eligible: true });

    // A trigger only the account's own authenticator trips runs unattended: the class really is graduated.
    const cloned = await addMember(svc, org, 'member');
    const clonedSession = await login(cloned, owner.slug);
    await svc.deps.transactions.tenant(owner.tenantId, (tx) =>
      svc.deps.events.detect(tx, {
        tenantId: owner.tenantId,
        ruleId: 'passkey-clone-suspected',
        groupKey: `actor:${cloned.userId}`,
        severity: 'high',
        data: { user_id: cloned.userId },
      }),
    );
    await svc.deps.afterAnswer.drain();
    await svc.deps.autonomy.engine.runDue();
    const unattended = (await decisionsOf(owner.token)).find((d) => d.target_id === cloned.userId);
    expect(unattended, 'a decision for the passkey clone').toMatchObject({
      mode: 'executed',
      adjudication: 'automatic',
      level: 'graduated',
    });
    expect(await me(clonedSession.access)).toBe(401);

    // A replay, which anyone holding an old refresh token can cause, is only proposed: the person stays signed in.
    const victim = await addMember(svc, org, 'member');
    const stolen = await login(victim, owner.slug);
    const laptop = await login(victim, owner.slug);
    await replay(stolen.refresh);
    const held = await decisionAbout(owner.token, victim.userId);
    await svc.deps.autonomy.engine.runDue();
    expect(held).toMatchObject({
      rule_id: 'refresh-token-replay',
      mode: 'proposed',
      adjudication: 'pending',
      level: 'recommend',
      unattended: false,
      decided_by: null,
    });
    expect(held.decision_reason).toContain('tripped on purpose');
    expect(await me(laptop.access)).toBe(200);
    expect((await decisionsOf(owner.token)).find((d) => d.id === held.id)!.mode).toBe('proposed');
  });
});
