import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/kernel/db/index.js';
import { agentAccessToken } from '../support/agent-tokens.js';
import { delegate, registerAgent } from '../support/agents.js';
import { request } from '../support/http.js';
import { signUpOwner } from '../support/organizations.js';
import { startService, type TestService } from '../support/service.js';

// Oversight while approvals are switched off (AGENT_APPROVALS_ENABLED false, the default): a supervised agent's
// changes are refused outright, nothing is parked.

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => {
  await svc?.close();
});

describe('oversight without approvals', () => {
  it("refuses a supervised agent's change outright (403 naming the reason) and stores no approval request", async () => {
    const owner = await signUpOwner(svc.url, 'govnoapprovals');
    const agent = await registerAgent(svc, owner.token, { oversight_mode: 'supervised' });
    expect((await delegate(svc, owner.token, agent.agent_id, ['tenant:manage', 'members:read'])).status).toBe(201);
    const token = await agentAccessToken(svc, agent.credential);
    const refused = await request(`${svc.url}/api/v1/tenants/config/auth.social_login_enabled`, {
      method: 'PATCH',
      token,
      json: { value: false },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/approvals are not enabled on this deployment/);
    expect(refused.body).not.toHaveProperty('approval_request_id');
    expect(
      await rows(svc.deps.database.db, sql`select 1 from approval_requests where agent_id = ${agent.agent_id}`),
    ).toHaveLength(0);
    const [event] = await rows<{ reason: string }>(
      svc.deps.database.db,
      sql`select data->>'reason' as reason from events where action = 'agent.action_refused' and actor_id = ${agent.agent_id}`,
    );
    expect(event?.reason).toBe('oversight_unavailable');
    // Reads are not oversight's business.
    expect((await request(`${svc.url}/api/v1/members`, { token })).status).toBe(200);
  });
});
