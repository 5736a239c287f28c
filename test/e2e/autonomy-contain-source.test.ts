import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hours } from '../../src/kernel/clock.js';
import { autonomyJob } from '../../src/modules/autonomy/index.js';
import { request, uniqueEmail } from '../support/http.js';
import { addMember, signUpOwner } from '../support/organizations.js';
import { startService, type TestService } from '../support/service.js';

// Part B 4.9 `contain_source`, unattended: failing sign-ins from one address across many accounts engage its
// failure throttle, which raises `credential-stuffing`; with the class at `full` the worker contains the address
// (sign-ins to this organization from it refused for an hour) with no person; the rate cap, the kill switch and a
// person's revert. The service believes one proxy (TRUST_PROXY=1), so X-Forwarded-For names each test source.

let svc: TestService;
beforeAll(async () => {
  svc = await startService({ AUTONOMY_EXECUTION_ENABLED: 'true', TRUST_PROXY: '1' });
});
afterAll(async () => {
  await svc?.close();
});

const api = (path: string) => `${svc.url}/api/v1${path}`;
/** The containment (an hour) outlasts the failure throttle (15 minutes): its Retry-After tells them apart. */
const FAILURE_WINDOW_SECONDS = 900;

const signIn = (from: string, who: { email: string; password: string }, slug: string) =>
  request(api('/auth/login'), {
    headers: { 'x-forwarded-for': from },
    json: { email: who.email, password: who.password, tenant_slug: slug },
  });

/** 50 failed sign-ins from one address (the per-address budget), spread over many accounts, a few at a time. */
async function stuff(from: string, slug: string, known: Array<{ email: string }>) {
  const targets = [
    ...known.flatMap((person) => Array.from({ length: 4 }, () => person.email)),
    ...Array.from({ length: 50 }, () => uniqueEmail('stuffed')),
  ].slice(0, 50);
  for (let i = 0; i < targets.length; i += 5) {
    const answers = await Promise.all(
      targets.slice(i, i + 5).map((email) => signIn(from, { email, password: 'Wrong-password-123!' }, slug)),
    );
    for (const answer of answers) expect(answer.status, answer.text).toBe(401);
  }
}

async function decisionsOf(token: string) {
  const res = await request(api('/autonomy/decisions?limit=200'), { token });
  expect(res.status, res.text).toBe(200);
  return res.body.decisions as Array<Record<string, any>>;
}

/** The decision about `source` once the detection hook (after the answer, after commit) recorded it. */
async function decisionAbout(token: string, source: string): Promise<Record<string, any>> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const found = (await decisionsOf(token)).find((decision) => decision.target_id === source);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no decision about ${source}`);
}

const runWorker = () => autonomyJob.run({ autonomy: svc.deps.autonomy });

describe('contain_source, unattended', () => {
  it('contains a stuffing source with no person, within the caps and the kill switch, until a person reverts', {
    timeout: 240_000,
  }, async () => {
    const owner = await signUpOwner(svc.url);
    const org = { tenantId: owner.tenantId, slug: owner.slug };
    const level = await request(api('/tenants/config/autonomy.level_contain_source'), {
      method: 'PATCH',
      token: owner.token,
      json: { value: 'full' },
    });
    expect(level.status, level.text).toBe(200);
    const members = [];
    for (let i = 0; i < 5; i += 1) members.push(await addMember(svc, org, 'member'));
    const person = members[0]!;

    // 1. Many accounts fail from one source: the 50th failure engages its throttle and raises the detection.
    const attacker = '203.0.113.10';
    await stuff(attacker, owner.slug, members);
    const recorded = await decisionAbout(owner.token, attacker);
    expect(recorded).toMatchObject({
      rule_id: 'credential-stuffing',
      action_id: 'block_source',
      blast_class: 'contain_source',
      mode: 'executing',
      adjudication: 'automatic',
      level: 'full',
    });
    const detections = await request(api('/command/detections?rule_id=credential-stuffing'), { token: owner.token });
    expect(detections.status, detections.text).toBe(200);
    expect(JSON.stringify(detections.body)).toContain(`source:${attacker}`);

    // 2. The worker executes it, no person involved.
    await runWorker();
    const executed = (await decisionsOf(owner.token)).find((decision) => decision.id === recorded.id)!;
    expect(executed).toMatchObject({
      mode: 'executed',
      unattended: true,
      decided_by: 'system',
      revertible: true,
      actionable: false,
    });
    expect(executed.effect).toContain(attacker);

    // 3. The source is refused even with the right password, for the containment's hour; another source signs in.
    const refused = await signIn(attacker, person, owner.slug);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(FAILURE_WINDOW_SECONDS);
    expect((await signIn('203.0.113.11', person, owner.slug)).status).toBe(200);

    // 4. The rate cap (30 executions of contain_source per hour): 29 more sources contained unattended ...
    const filler = Array.from({ length: 29 }, (_, i) => `198.51.100.${i + 1}`);
    for (const source of filler) {
      await svc.deps.transactions.tenant(owner.tenantId, (tx) =>
        svc.deps.events.detect(tx, {
          tenantId: owner.tenantId,
          ruleId: 'credential-stuffing',
          groupKey: `source:${source}`,
          severity: 'high',
          data: { source_ip: source },
        }),
      );
    }
    await decisionAbout(owner.token, filler.at(-1)!);
    await runWorker();
    const afterFill = await decisionsOf(owner.token);
    expect(afterFill.filter((decision) => decision.mode === 'executed')).toHaveLength(30);
    const metrics = await request(api('/autonomy/metrics'), { token: owner.token });
    expect(metrics.body.classes.contain_source).toMatchObject({ rate_used: 30, rate_cap: 30 });
    // ... each for this organization and that exact address only: a neighbour and another organization sign in.
    const stranger = await signUpOwner(svc.url, 'stranger');
    expect((await signIn(filler[0]!, person, owner.slug)).status).toBe(429);
    expect((await signIn(filler[0]!, stranger, stranger.slug)).status).toBe(200);
    expect((await signIn('198.51.100.200', person, owner.slug)).status).toBe(200);

    // ... so a second stuffing source beyond the cap is held for a person by the guard, and a person's approval
    // meets the same guard (expired, nothing executed).
    const second = '203.0.113.20';
    await stuff(second, owner.slug, []);
    expect((await decisionAbout(owner.token, second)).mode).toBe('executing');
    await runWorker();
    const held = await decisionAbout(owner.token, second);
    expect(held).toMatchObject({ mode: 'proposed', adjudication: 'pending', unattended: false, actionable: true });
    expect(held.decision_reason).toContain('rate cap');
    const secondRefused = await signIn(second, person, owner.slug);
    expect(secondRefused.status).toBe(429);
    expect(Number(secondRefused.headers.get('retry-after'))).toBeLessThanOrEqual(FAILURE_WINDOW_SECONDS);
    const approved = await request(api(`/autonomy/decisions/${held.id}/adjudicate`), {
      token: owner.token,
      json: { approve: true },
    });
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body).toMatchObject({ executed: false, outcome: 'expired' });
    expect(approved.body.reason).toContain('rate cap');

    // 5. An hour later the cap has room again, but the kill switch engaged stops the next unattended execution.
    svc.clock.advance(hours(2));
    const again = await signIn('203.0.113.11', owner, owner.slug);
    expect(again.status, again.text).toBe(200);
    const token = again.body.access_token as string;
    const third = '203.0.113.30';
    await stuff(third, owner.slug, []);
    expect((await decisionAbout(token, third)).mode).toBe('executing');
    const stop = await request(api('/autonomy/kill-switch'), { token, json: { enable: true, hours: 1 } });
    expect(stop.status, stop.text).toBe(200);
    await runWorker();
    const stopped = await decisionAbout(token, third);
    expect(stopped).toMatchObject({ mode: 'proposed', adjudication: 'pending', executed_at: null });
    expect(stopped.decision_reason).toContain('kill switch');
    const thirdRefused = await signIn(third, person, owner.slug);
    expect(Number(thirdRefused.headers.get('retry-after'))).toBeLessThanOrEqual(FAILURE_WINDOW_SECONDS);

    // 6. A person reverts the first containment (tenant:manage besides autonomy:approve): the source signs in again.
    const operator = await addMember(svc, org, 'security_operator');
    const byOperator = await request(api(`/autonomy/decisions/${recorded.id}/revert`), {
      token: operator.token,
      json: { reason: 'a conference network' },
    });
    expect(byOperator.status).toBe(403);
    expect((await signIn(attacker, person, owner.slug)).status).toBe(429);
    const reverted = await request(api(`/autonomy/decisions/${recorded.id}/revert`), {
      token,
      json: { reason: 'a conference network, not an attack' },
    });
    expect(reverted.status, reverted.text).toBe(200);
    expect(reverted.body).toMatchObject({ reverted: true, decision: { mode: 'reversed', revertible: false } });
    expect((await signIn(attacker, person, owner.slug)).status).toBe(200);
    const twice = await request(api(`/autonomy/decisions/${recorded.id}/revert`), {
      token,
      json: { reason: 'again' },
    });
    expect(twice.status).toBe(409);
  });
});
