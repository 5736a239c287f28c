import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentAccessToken } from '../support/agent-tokens.js';
import { delegate, registerAgent } from '../support/agents.js';
import { request } from '../support/http.js';
import { addMember, signUpOwner } from '../support/organizations.js';
import { startService, type TestService } from '../support/service.js';

// An attacker's review of the AI-agent principal (Part B 4.1, 4.2): a route that checks a second permission in its
// service (approving a revoke_access proposal needs autonomy:approve, then tenant:manage) must judge that one
// within the agent's risk ceiling and task scope too, not against its whole authority.

let svc: TestService;
beforeAll(async () => {
  svc = await startService({ AUTONOMY_EXECUTION_ENABLED: 'true' });
});
afterAll(async () => {
  await svc?.close();
});

const api = (path: string) => `${svc.url}/api/v1${path}`;

/** A pending revoke_access proposal (a refresh token replayed by a member) in a new organization. */
async function proposal() {
  const owner = await signUpOwner(svc.url, 'atk-second');
  const level = await request(api('/tenants/config/autonomy.level_revoke_access'), {
    method: 'PATCH',
    token: owner.token,
    json: { value: 'recommend' },
  });
  expect(level.status, level.text).toBe(200);
  const victim = await addMember(svc, owner, 'member');
  const login = await request(api('/auth/login'), {
    json: { email: victim.email, password: victim.password, tenant_slug: owner.slug },
  });
  const refresh = () => request(api('/auth/refresh'), { json: { refresh_token: login.body.refresh_token } });
  expect((await refresh()).status).toBe(200);
  expect((await refresh()).status).toBe(401);
  const list = await request(api('/autonomy/decisions'), { token: owner.token });
  const [decision] = list.body.decisions as Array<{ id: string; mode: string; blast_class: string }>;
  expect(decision).toMatchObject({ mode: 'proposed', blast_class: 'revoke_access' });
  return { owner, decisionId: decision!.id };
}

async function agentOf(owner: { token: string }, governance: Record<string, unknown> = {}) {
  const agent = await registerAgent(svc, owner.token, governance);
  const granted = await delegate(svc, owner.token, agent.agent_id, [
    'autonomy:approve',
    'autonomy:read',
    'tenant:manage',
  ]);
  expect(granted.status, granted.text).toBe(201);
  return agent.credential as string;
}

async function decisionOf(token: string, id: string) {
  const list = await request(api('/autonomy/decisions'), { token });
  return (list.body.decisions as Array<{ id: string }>).find((d) => d.id === id);
}

const adjudicate = (token: string, id: string) =>
  request(api(`/autonomy/decisions/${id}/adjudicate`), { token, json: { approve: true } });

describe("a service's second permission check", () => {
  it("refuses an agent whose risk ceiling admits the route's permission but not the second one", async () => {
    const { owner, decisionId } = await proposal();
    // autonomy:approve is risk 85, tenant:manage 90.
    const credential = await agentOf(owner, { risk_ceiling: 85 });
    const refused = await adjudicate(await agentAccessToken(svc, credential), decisionId);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toBe('Missing permission: tenant:manage (to approve it)');
    expect(await decisionOf(owner.token, decisionId)).toMatchObject({ mode: 'proposed', decided_by: null });
  });

  it("refuses a task token whose scope names the route's permission but not the second one", async () => {
    const { owner, decisionId } = await proposal();
    const credential = await agentOf(owner);
    const task = await agentAccessToken(svc, credential, {
      task: { task: 'approve pending decisions', permissions: ['autonomy:approve'], budget: 3 },
    });
    const refused = await adjudicate(task, decisionId);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toBe('Missing permission: tenant:manage (to approve it)');
    expect(await decisionOf(owner.token, decisionId)).toMatchObject({ mode: 'proposed', decided_by: null });
    // The agent's plain token, within its ceiling of 100 and with no task scope, may approve.
    const approved = await adjudicate(await agentAccessToken(svc, credential), decisionId);
    expect(approved.status, approved.text).toBe(200);
  });
});
