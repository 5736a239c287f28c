import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentAccessToken } from '../support/agent-tokens.js';
import { delegate, registerAgent } from '../support/agents.js';
import { request } from '../support/http.js';
import { addMember, signUpOwner } from '../support/organizations.js';
import { startSecondNode, startService, type TestService } from '../support/service.js';

/**
 * Part A 5.9 with Part A 3's rule for roles: a custom role changed on node A holds on node B from the very next
 * request, although node B has just served (and cached) the holder's state. No settling in between.
 */
const ROUNDS = 20;

let first: TestService;
let second: Awaited<ReturnType<typeof startSecondNode>>;
beforeAll(async () => {
  first = await startService();
  second = await startSecondNode(first);
}, 300_000);
afterAll(async () => {
  await second?.close();
  await first?.close();
});

const permissionsOn = async (node: { url: string }, token: string) =>
  ((await request(`${node.url}/api/v1/me/permissions`, { token })).body.permissions as string[]).sort();
const rosterOn = (node: { url: string }, token: string) => request(`${node.url}/api/v1/members`, { token });
const setPermissions = (node: { url: string }, token: string, permissions: string[]) =>
  request(`${node.url}/api/v1/authz/roles/team-reader`, { method: 'PATCH', token, json: { permissions } });

describe('a custom role changed on one node', () => {
  it('holds for its members on the other node from the next request, cached state or not', async () => {
    const owner = await signUpOwner(first.url, 'nodes');
    const created = await request(`${first.url}/api/v1/authz/roles`, {
      token: owner.token,
      json: { code: 'team-reader', name: 'Team reader', permissions: ['members:read', 'agents:manage'] },
    });
    expect(created.status, created.text).toBe(201);
    const member = await addMember(first, owner, 'team-reader');
    const full = ['agents:manage', 'identity:self:write', 'members:read'];
    let servedFromCache = 0;
    for (let round = 0; round < ROUNDS; round++) {
      // Node B serves the member twice: the second answer comes from its cache while it holds its lease.
      expect(await permissionsOn(second, member.token), `round ${round}`).toEqual(full);
      expect(await permissionsOn(second, member.token), `round ${round}`).toEqual(full);
      if (second.deps.authState.caughtUp() && second.deps.sessionStateCache.size() > 0) servedFromCache += 1;
      expect((await setPermissions(first, owner.token, ['agents:manage'])).status).toBe(200);
      expect(await permissionsOn(second, member.token), `round ${round}: after removal`).toEqual([
        'agents:manage',
        'identity:self:write',
      ]);
      expect((await setPermissions(first, owner.token, ['members:read', 'agents:manage'])).status).toBe(200);
    }
    // The rounds mean something only while node B trusts its cache.
    expect(servedFromCache).toBeGreaterThan(ROUNDS * 0.9);
  }, 300_000);

  it('bounds the agents its members delegated to on the other node from their next request', async () => {
    const owner = await signUpOwner(first.url, 'nodes-agents');
    await request(`${first.url}/api/v1/authz/roles`, {
      token: owner.token,
      json: { code: 'team-reader', name: 'Team reader', permissions: ['members:read', 'agents:manage'] },
    });
    const member = await addMember(first, owner, 'team-reader');
    const agent = await registerAgent(first, member.token);
    expect((await delegate(first, member.token, agent.agent_id, ['members:read'])).status).toBe(201);
    const agentToken = await agentAccessToken(first, agent.credential);
    for (let round = 0; round < 5; round++) {
      expect((await rosterOn(second, agentToken)).status, `round ${round}`).toBe(200);
      expect((await setPermissions(first, owner.token, ['agents:manage'])).status).toBe(200);
      expect((await rosterOn(second, agentToken)).status, `round ${round}: after removal`).toBe(403);
      expect((await setPermissions(first, owner.token, ['members:read', 'agents:manage'])).status).toBe(200);
    }
  }, 120_000);
});
