import { request as httpRequest } from 'node:http';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/kernel/db/index.js';
import { agentAccessToken, mintAgentToken } from '../support/agent-tokens.js';
import { delegate, registerAgent } from '../support/agents.js';
import { type AttestationIssuers, startAttestationIssuers, TEST_CA_FILE } from '../support/attestation-issuer.js';
import { request } from '../support/http.js';
import { addMember, signUpOwner } from '../support/organizations.js';
import { startService, type TestService } from '../support/service.js';

// An attacker's review of the AI-agent principal (Part B 4.1, 4.2): each test tries one way round governance
// over HTTP and shows it holds. What the other agents-*.test.ts files already prove is not repeated here.

let svc: TestService;
let issuers: AttestationIssuers;
beforeAll(async () => {
  issuers = await startAttestationIssuers();
  svc = await startService({ EGRESS_TEST_ROUTES: issuers.route, EGRESS_TEST_CA_FILE: TEST_CA_FILE });
});
afterAll(async () => {
  await svc?.close();
  await issuers?.close();
});

const api = (path: string) => `${svc.url}/api/v1${path}`;
type Owner = Awaited<ReturnType<typeof signUpOwner>>;

async function agentHolding(owner: Owner, permissions: string[], governance: Record<string, unknown> = {}) {
  const agent = await registerAgent(svc, owner.token, governance);
  const granted = await delegate(svc, owner.token, agent.agent_id, permissions);
  expect(granted.status, granted.text).toBe(201);
  return { agentId: agent.agent_id, credential: agent.credential };
}

async function membershipIdOf(owner: Owner, userId: string): Promise<string> {
  const roster = await request(api('/members'), { token: owner.token });
  expect(roster.status).toBe(200);
  return (roster.body as Array<{ membership_id: string; user_id: string }>).find((m) => m.user_id === userId)!
    .membership_id;
}

const setting = (token: string, key: string, value: unknown) =>
  request(api(`/tenants/config/${key}`), { method: 'PATCH', token, json: { value } });

describe('organizations stay apart', () => {
  it("an agent of A, plain or task token, reaches none of B's objects named by id", async () => {
    const a = await signUpOwner(svc.url, 'atk-a');
    const b = await signUpOwner(svc.url, 'atk-b');
    const bMember = await addMember(svc, b, 'admin');
    const bMembership = await membershipIdOf(b, bMember.userId);
    // Enough to demote a member of its own organization (the member role holds identity:self:write).
    const agent = await agentHolding(a, ['members:read', 'members:manage', 'identity:self:write']);
    const plain = await agentAccessToken(svc, agent.credential);
    const task = await agentAccessToken(svc, agent.credential, {
      task: { task: 'tidy the roster', permissions: ['members:*'], budget: 10 },
    });
    for (const token of [plain, task]) {
      const demote = await request(api(`/members/${bMembership}`), {
        method: 'PATCH',
        token,
        json: { role: 'member' },
      });
      expect(demote.status, demote.text).toBe(404);
      const remove = await request(api(`/members/${bMembership}`), { method: 'DELETE', token });
      expect(remove.status, remove.text).toBe(404);
      const roster = await request(api('/members'), { token });
      expect(roster.status).toBe(200);
      expect((roster.body as Array<{ user_id: string }>).map((m) => m.user_id)).not.toContain(bMember.userId);
    }
    const [row] = await rows<{ role: string; status: string }>(
      svc.deps.database.db,
      sql`select role, status from memberships where id = ${bMembership}`,
    );
    expect(row).toEqual({ role: 'admin', status: 'active' });
    // The same request on a member of its own organization goes through: the 404s above are the tenant boundary.
    const aMember = await addMember(svc, a, 'admin');
    const own = await request(api(`/members/${await membershipIdOf(a, aMember.userId)}`), {
      method: 'PATCH',
      token: plain,
      json: { role: 'member' },
    });
    expect(own.status, own.text).toBe(200);
  });

  it('a federated issuer trusted by A never mints for B, even when B trusts the same iss for other claims', async () => {
    const shared = await issuers.issuer('atk-shared', 'ES256');
    const aud = svc.deps.config.oidcIssuer;
    const a = await signUpOwner(svc.url, 'atk-fa');
    const b = await signUpOwner(svc.url, 'atk-fb');
    const c = await signUpOwner(svc.url, 'atk-fc');
    const bindFor = async (owner: Owner, sub: string) => {
      const issuer = await request(api('/agents/issuers'), { token: owner.token, json: { issuer: shared.iss } });
      expect(issuer.status, issuer.text).toBe(201);
      const agent = await registerAgent(svc, owner.token);
      const bound = await request(api(`/agents/issuers/${issuer.body.id}/bindings`), {
        token: owner.token,
        json: { agent_id: agent.agent_id, claims: { sub } },
      });
      expect(bound.status, bound.text).toBe(201);
      return agent.agent_id as string;
    };
    const aAgent = await bindFor(a, 'workload-a');
    const bAgent = await bindFor(b, 'workload-b');
    const exchange = async (tenant: string, sub: string) =>
      request(api('/agents/token/federated'), {
        json: { tenant, subject_token: await shared.sign({ sub, aud }, { now: svc.clock.now() }) },
      });
    // A's workload named against B (which trusts the iss) or C (which does not): the generic refusal.
    for (const [tenant, sub] of [
      [b.slug, 'workload-a'],
      [c.slug, 'workload-a'],
      [a.slug, 'workload-b'],
    ] as const) {
      const refused = await exchange(tenant, sub);
      expect([tenant, sub, refused.status]).toEqual([tenant, sub, 401]);
    }
    // B runs its own issuer: its real, published keys sign A's iss and subject (with its kid, or pointing at its
    // key set with jku): A's issuer keys never vouch for them.
    const evil = await issuers.issuer('atk-evil', 'ES256');
    const forged = { iss: shared.iss, sub: 'workload-a', aud };
    for (const header of [{}, { jku: evil.jwksUri }]) {
      const token = await evil.sign(forged, { now: svc.clock.now(), kid: evil.currentKid, header });
      const refused = await request(api('/agents/token/federated'), { json: { tenant: a.slug, subject_token: token } });
      expect([header, refused.status]).toEqual([header, 401]);
    }
    const minted = await exchange(a.slug, 'workload-a');
    expect(minted.status, minted.text).toBe(200);
    expect(minted.body.agent_id).toBe(aAgent);
    const theirs = await exchange(b.slug, 'workload-b');
    expect(theirs.body.agent_id).toBe(bAgent);
  });
});

describe('a binding matches only on every one of its claims', () => {
  it('refuses an attestation matching the subject but not the other claims, or missing one', async () => {
    const owner = await signUpOwner(svc.url, 'atk-partial');
    const gha = await issuers.issuer('atk-partial', 'RS256');
    const aud = svc.deps.config.oidcIssuer;
    const issuer = await request(api('/agents/issuers'), {
      token: owner.token,
      json: { issuer: gha.iss, profile: 'github-actions' },
    });
    expect(issuer.status, issuer.text).toBe(201);
    const agent = await registerAgent(svc, owner.token);
    const claims = { sub: 'repo:acme/app:ref:refs/heads/main', repository: 'acme/app', ref: 'refs/heads/main' };
    const bound = await request(api(`/agents/issuers/${issuer.body.id}/bindings`), {
      token: owner.token,
      json: { agent_id: agent.agent_id, claims },
    });
    expect(bound.status, bound.text).toBe(201);
    const exchange = async (payload: Record<string, unknown>) =>
      request(api('/agents/token/federated'), {
        json: { tenant: owner.slug, subject_token: await gha.sign({ ...payload, aud }, { now: svc.clock.now() }) },
      });
    const attempts = [
      { ...claims, ref: 'refs/heads/feature' },
      { sub: claims.sub, repository: claims.repository },
      { sub: claims.sub },
      { ...claims, repository: 'ACME/app' },
      { ...claims, ref: ['refs/heads/main'] },
      { ...claims, sub: `${claims.sub} ` },
    ];
    for (const payload of attempts) {
      expect([payload, (await exchange(payload)).status]).toEqual([payload, 401]);
    }
    // Extra claims the binding does not name do not matter.
    const exact = await exchange({ ...claims, actor: 'someone' });
    expect(exact.status, exact.text).toBe(200);
    expect(exact.body.agent_id).toBe(agent.agent_id);
  });
});

describe('a delegator keeps no authority they lost', () => {
  it("a removed delegator's agent loses the delegation on its next call, task tokens included", async () => {
    const owner = await signUpOwner(svc.url, 'atk-removed');
    const admin = await addMember(svc, owner, 'admin');
    const agent = await registerAgent(svc, owner.token);
    expect((await delegate(svc, admin.token, agent.agent_id, ['members:read'])).status).toBe(201);
    const plain = await agentAccessToken(svc, agent.credential);
    const task = await agentAccessToken(svc, agent.credential, {
      task: { task: 'read the roster', permissions: ['members:read'], budget: 5 },
    });
    for (const token of [plain, task]) expect((await request(api('/members'), { token })).status).toBe(200);
    const removed = await request(api(`/members/${await membershipIdOf(owner, admin.userId)}`), {
      method: 'DELETE',
      token: owner.token,
    });
    expect(removed.status, removed.text).toBeLessThan(300);
    for (const token of [plain, task]) {
      const refused = await request(api('/members'), { token });
      expect(refused.status).toBe(403);
      expect(refused.body.detail).toBe('Missing permission: members:read');
    }
    // Nor can the agent mint a task token on what it lost.
    const mint = await mintAgentToken(svc, agent.credential, {
      task: { task: 'read the roster', permissions: ['members:read'], budget: 1 },
    });
    expect(mint.status).toBe(403);
  });

  it('a delegator cannot grant a permission they do not hold, alone, beside a held one, or as a pattern', async () => {
    const owner = await signUpOwner(svc.url, 'atk-grant');
    const member = await addMember(svc, owner, 'admin');
    const agent = await registerAgent(svc, owner.token);
    // An admin does not hold compliance:admin: not exactly, not with a held one beside it, not as a pattern.
    const attempts: Array<[string[], number]> = [
      [['compliance:admin'], 403],
      [['members:read', 'compliance:admin'], 403],
      [['compliance:*'], 422],
      [['*'], 422],
    ];
    for (const [permissions, status] of attempts) {
      const res = await delegate(svc, member.token, agent.agent_id, permissions);
      expect([permissions, res.status]).toEqual([permissions, status]);
    }
    const [row] = await rows<{ n: number }>(
      svc.deps.database.db,
      sql`select count(*)::int as n from agent_delegations where agent_id = ${agent.agent_id}`,
    );
    expect(row!.n).toBe(0);
  });
});

describe('a task token cannot use a permission outside its scope through a second check', () => {
  it('a setting tied to another permission refuses a task token scoped to the route permission only', async () => {
    const owner = await signUpOwner(svc.url, 'atk-tie');
    const agent = await agentHolding(owner, ['tenant:manage', 'autonomy:manage']);
    const task = await agentAccessToken(svc, agent.credential, {
      task: { task: 'turn social login off', permissions: ['tenant:manage'], budget: 5 },
    });
    expect((await setting(task, 'auth.social_login_enabled', false)).status).toBe(200);
    // autonomy.level_* also needs autonomy:manage: held by the agent, but not in this task's scope.
    const tied = await setting(task, 'autonomy.level_contain_source', 'recommend');
    expect(tied.status).toBe(403);
    expect(tied.body.detail).toBe('Missing permission: autonomy:manage');
    const [row] = await rows<{ n: number }>(
      svc.deps.database.db,
      sql`select count(*)::int as n from tenant_settings
          where tenant_id = ${owner.tenantId} and key = 'autonomy.level_contain_source'`,
    );
    expect(row!.n).toBe(0);
    // The agent's plain token holds both, and may.
    const plain = await agentAccessToken(svc, agent.credential);
    expect((await setting(plain, 'autonomy.level_contain_source', 'recommend')).status).toBe(200);
  });
});

/** A GET with headers exactly as given (repeated ones as several lines), which fetch cannot send. */
function rawGet(path: string, headers: Record<string, string | string[]>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(api(path), { method: 'GET', headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('Agent-Confidence edge values', () => {
  it('refuses NaN, 1e309, -0, Infinity, hex, a bare dot and a repeated header; takes surrounding spaces', async () => {
    const owner = await signUpOwner(svc.url, 'atk-confidence');
    const agent = await agentHolding(owner, ['members:read'], { confidence_floor: 0.5 });
    const token = await agentAccessToken(svc, agent.credential);
    const auth = { authorization: `Bearer ${token}` };
    const refused = ['NaN', '1e309', '-0', 'Infinity', '0x1', '.9', '0.', '1e0', '0.5e0', '+0.9', '0,9', '1.01'];
    for (const stated of refused) {
      expect([stated, await rawGet('/members', { ...auth, 'agent-confidence': stated })]).toEqual([stated, 403]);
    }
    expect(await rawGet('/members', { ...auth, 'agent-confidence': ['0.9', '0.9'] })).toBe(403);
    expect(await rawGet('/members', { ...auth, 'agent-confidence': ['0.9', '0.1'] })).toBe(403);
    expect(await rawGet('/members', { ...auth, 'agent-confidence': '' })).toBe(403);
    expect(await rawGet('/members', { ...auth, 'agent-confidence': '0.5 ' })).toBe(200);
    expect(await rawGet('/members', { ...auth, 'agent-confidence': ' 0.5' })).toBe(200);
    expect(await rawGet('/members', { ...auth, 'agent-confidence': '0.50000' })).toBe(200);
    expect(await rawGet('/members', { ...auth, 'agent-confidence': '0.4999999999' })).toBe(403);
  });

  it('refuses out-of-range governance values at registration and update (422), never storing them', async () => {
    const owner = await signUpOwner(svc.url, 'atk-ceiling');
    const register = (body: string) =>
      request(api('/agents'), { token: owner.token, body: `{"name":"edge agent",${body}}` });
    for (const body of [
      '"risk_ceiling":1e309',
      '"risk_ceiling":-1e309',
      '"risk_ceiling":101',
      '"risk_ceiling":50.5',
      '"risk_ceiling":"50"',
      '"risk_ceiling":null',
      '"confidence_floor":1e309',
      '"confidence_floor":1.0000001',
      '"confidence_floor":-0.1',
      '"confidence_floor":"0.5"',
    ]) {
      expect([body, (await register(body)).status]).toEqual([body, 422]);
    }
    const [row] = await rows<{ n: number }>(
      svc.deps.database.db,
      sql`select count(*)::int as n from agents where tenant_id = ${owner.tenantId}`,
    );
    expect(row!.n).toBe(0);
    // -0 is 0: a ceiling of 0 refuses every permission that carries risk.
    const zero = await register('"risk_ceiling":-0');
    expect(zero.status, zero.text).toBe(201);
    expect(zero.body.risk_ceiling).toBe(0);
    expect((await delegate(svc, owner.token, zero.body.agent_id, ['members:read'])).status).toBe(201);
    const held = await agentAccessToken(svc, zero.body.credential);
    const refused = await request(api('/members'), { token: held });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/above this agent's risk ceiling of 0/);
  });
});
