import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { days } from '../../src/kernel/clock.js';
import { rows } from '../../src/kernel/db/index.js';
import {
  AGENT_ISSUANCE_PER_ORGANIZATION,
  AGENT_MINT_FAILURES_PER_CREDENTIAL,
  AGENT_MINTS_PER_IP,
} from '../../src/modules/agents/mint-throttles.js';
import { mintAgentToken } from '../support/agent-tokens.js';
import { registerAgent } from '../support/agents.js';
import { request } from '../support/http.js';
import { signUpOwner } from '../support/organizations.js';
import { changeDirectly, startService, type TestService } from '../support/service.js';

// Part B 8 (the three mint throttles) and 4.2 (stale agent credentials raise a detection, never a refusal).

let svc: TestService;
beforeAll(async () => {
  svc = await startService({ TRUST_PROXY: '1' });
});
afterAll(async () => {
  await svc?.close();
});

const api = (path: string) => `${svc.url}/api/v1${path}`;
let ipCounter = 0;
/** A source address of its own (TRUST_PROXY=1: the service believes the last X-Forwarded-For hop). */
const freshIp = () => {
  ipCounter += 1;
  return `198.51.${Math.floor(ipCounter / 250)}.${(ipCounter % 250) + 1}`;
};
const unknownCredential = () => `agt_${randomBytes(32).toString('base64url')}`;
const from = (ip: string) => ({ 'x-forwarded-for': ip });

/** Everything a client could compare between two refusals except per-request headers. */
function shape(res: { status: number; headers: Headers; text: string }) {
  const headers = [...res.headers.entries()].filter(([name]) => !['date', 'x-request-id'].includes(name));
  return { status: res.status, body: res.text, headers };
}

function expectThrottled(res: { status: number; headers: Headers }, limit: number) {
  expect(res.status).toBe(429);
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  expect(res.headers.get('ratelimit-limit')).toBe(String(limit));
  expect(res.headers.get('ratelimit-remaining')).toBe('0');
  expect(Number(res.headers.get('ratelimit-reset'))).toBeGreaterThanOrEqual(1);
}

const post = (path: string, token: string, json?: unknown) =>
  request(api(path), { token, method: 'POST', ...(json === undefined ? {} : { json }) });

describe('agent token mint throttles', () => {
  it('brakes a credential after 10 failures (only failures move it), keyed by what was presented', async () => {
    const owner = await signUpOwner(svc.url, 'brake');
    const ip = freshIp();
    const dead = unknownCredential();
    const first = await mintAgentToken(svc, dead, {}, from(ip));
    expect(first.status).toBe(401);
    for (let i = 1; i < AGENT_MINT_FAILURES_PER_CREDENTIAL.points; i++) {
      expect(shape(await mintAgentToken(svc, dead, {}, from(ip)))).toEqual(shape(first));
    }
    expectThrottled(await mintAgentToken(svc, dead, {}, from(ip)), AGENT_MINT_FAILURES_PER_CREDENTIAL.points);
    // Another credential from the same address is not braked; a retired agent's credential brakes the same way.
    expect(shape(await mintAgentToken(svc, unknownCredential(), {}, from(ip)))).toEqual(shape(first));
    const retired = await registerAgent(svc, owner.token);
    expect((await post(`/agents/${retired.agent_id}/retire`, owner.token)).status).toBe(200);
    for (let i = 0; i < AGENT_MINT_FAILURES_PER_CREDENTIAL.points; i++) {
      expect(shape(await mintAgentToken(svc, retired.credential, {}, from(ip)))).toEqual(shape(first));
    }
    expectThrottled(
      await mintAgentToken(svc, retired.credential, {}, from(ip)),
      AGENT_MINT_FAILURES_PER_CREDENTIAL.points,
    );

    // A working credential is never slowed by its successes.
    const working = await registerAgent(svc, owner.token);
    for (let i = 0; i < AGENT_MINT_FAILURES_PER_CREDENTIAL.points + 3; i++) {
      expect((await mintAgentToken(svc, working.credential, {}, from(ip))).status).toBe(200);
    }
  });

  it('throttles each source address, whatever it presents', async () => {
    const owner = await signUpOwner(svc.url, 'per-ip');
    const agent = await registerAgent(svc, owner.token);
    const ip = freshIp();
    // Set-up: the address has used all but one mint of its window.
    await svc.deps.limiter.consume(AGENT_MINTS_PER_IP, ip, AGENT_MINTS_PER_IP.points - 1);
    expect((await mintAgentToken(svc, agent.credential, {}, from(ip))).status).toBe(200);
    expectThrottled(await mintAgentToken(svc, agent.credential, {}, from(ip)), AGENT_MINTS_PER_IP.points);
    expectThrottled(await mintAgentToken(svc, unknownCredential(), {}, from(ip)), AGENT_MINTS_PER_IP.points);
    expectThrottled(await mintAgentToken(svc, 'garbage', {}, from(ip)), AGENT_MINTS_PER_IP.points);
    expect((await mintAgentToken(svc, agent.credential, {}, from(freshIp()))).status).toBe(200);
  });

  it("charges the organization's issuance allowance only once the credential verified and the agent may mint", async () => {
    const owner = await signUpOwner(svc.url, 'allowance');
    const agent = await registerAgent(svc, owner.token);
    const retired = await registerAgent(svc, owner.token);
    expect((await post(`/agents/${retired.agent_id}/retire`, owner.token)).status).toBe(200);
    const stopped = await registerAgent(svc, owner.token);
    expect(
      (await post(`/agents/${stopped.agent_id}/kill-switch`, owner.token, { engaged: true, reason: 'x' })).status,
    ).toBe(200);
    // Set-up: the organization has two issuances left in this window.
    await svc.deps.limiter.consume(
      AGENT_ISSUANCE_PER_ORGANIZATION,
      owner.tenantId,
      AGENT_ISSUANCE_PER_ORGANIZATION.points - 2,
    );
    expect((await mintAgentToken(svc, retired.credential, {}, from(freshIp()))).status).toBe(401);
    expect((await mintAgentToken(svc, unknownCredential(), {}, from(freshIp()))).status).toBe(401);
    expect((await mintAgentToken(svc, stopped.credential, {}, from(freshIp()))).status).toBe(403);
    expect((await mintAgentToken(svc, agent.credential, {}, from(freshIp()))).status).toBe(200);
    expect((await mintAgentToken(svc, agent.credential, {}, from(freshIp()))).status).toBe(200);
    expectThrottled(
      await mintAgentToken(svc, agent.credential, {}, from(freshIp())),
      AGENT_ISSUANCE_PER_ORGANIZATION.points,
    );
    // Another organization's agents are not affected.
    const elsewhere = await signUpOwner(svc.url, 'allowance-other');
    const theirs = await registerAgent(svc, elsewhere.token);
    expect((await mintAgentToken(svc, theirs.credential, {}, from(freshIp()))).status).toBe(200);
  });
});

describe('stale agent credentials (security.agent_max_credential_age_days)', () => {
  const staleDetections = (tenantId: string) =>
    rows<{ group_key: string; count: number; severity: string; data: Record<string, unknown> }>(
      svc.deps.database.db,
      sql`select group_key, count, severity, data from detections
          where tenant_id = ${tenantId} and rule_id = 'agent-credential-stale' order by first_seen`,
    );
  const setMaxAge = (tenantId: string, value: unknown) =>
    changeDirectly(
      svc,
      sql`insert into operator_settings (tenant_id, key, value, updated_at)
          values (${tenantId}, 'security.agent_max_credential_age_days', ${JSON.stringify(value)}::jsonb, ${svc.clock.now()})
          on conflict (tenant_id, key) do update set value = excluded.value`,
    );
  const ageCredential = (agentId: string, ageDays: number) =>
    changeDirectly(
      svc,
      sql`update agents set credential_issued_at = ${new Date(svc.clock.now().getTime() - days(ageDays))}
          where id = ${agentId}`,
    );

  it('raises agent-credential-stale once per credential past the maximum age, and never blocks the mint', async () => {
    const owner = await signUpOwner(svc.url, 'stale');
    const old = await registerAgent(svc, owner.token);
    const young = await registerAgent(svc, owner.token);
    await ageCredential(old.agent_id, 31);
    await ageCredential(young.agent_id, 29);

    // 0 (shipped): no maximum.
    expect((await mintAgentToken(svc, old.credential, {}, from(freshIp()))).status).toBe(200);
    expect(await staleDetections(owner.tenantId)).toEqual([]);

    await setMaxAge(owner.tenantId, 30);
    for (let i = 0; i < 3; i++) {
      expect((await mintAgentToken(svc, old.credential, {}, from(freshIp()))).status).toBe(200);
      expect((await mintAgentToken(svc, young.credential, {}, from(freshIp()))).status).toBe(200);
    }
    const raised = await staleDetections(owner.tenantId);
    expect(raised).toHaveLength(1);
    expect(raised[0]).toMatchObject({
      count: 1,
      severity: 'warn',
      data: { agent_id: old.agent_id, age_days: 31, max_age_days: 30 },
    });
    expect(raised[0]!.group_key).toMatch(new RegExp(`^agent:${old.agent_id}:credential:`));
    expect(JSON.stringify(raised[0])).not.toContain(old.credential);

    // A rotated credential is young again; when it ages it is a credential of its own.
    const rotated = await post(`/agents/${old.agent_id}/rotate-credential`, owner.token);
    expect(rotated.status).toBe(200);
    expect((await mintAgentToken(svc, rotated.body.credential, {}, from(freshIp()))).status).toBe(200);
    expect(await staleDetections(owner.tenantId)).toHaveLength(1);
    await ageCredential(old.agent_id, 45);
    expect((await mintAgentToken(svc, rotated.body.credential, {}, from(freshIp()))).status).toBe(200);
    const twice = await staleDetections(owner.tenantId);
    expect(twice).toHaveLength(2);
    // The test clock stands still, so both were first seen at the same instant: the new one is the other group.
    const rotatedGroup = twice.find((detection) => detection.group_key !== raised[0]!.group_key);
    expect(rotatedGroup).toMatchObject({ count: 1, data: { agent_id: old.agent_id, age_days: 45 } });
  });

  it('a malformed setting never blocks a mint', async () => {
    const owner = await signUpOwner(svc.url, 'stale-malformed');
    const agent = await registerAgent(svc, owner.token);
    await ageCredential(agent.agent_id, 400);
    await setMaxAge(owner.tenantId, 'thirty');
    expect((await mintAgentToken(svc, agent.credential, {}, from(freshIp()))).status).toBe(200);
    expect(await staleDetections(owner.tenantId)).toEqual([]);
  });
});
