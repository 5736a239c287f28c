import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routePolicies } from '../../src/kernel/auth/index.js';
import { rows } from '../../src/kernel/db/index.js';
import { newId } from '../../src/kernel/ids.js';
import { agentAccessToken } from '../support/agent-tokens.js';
import { delegate, registerAgent } from '../support/agents.js';
import { observableAnswer, request } from '../support/http.js';
import { signUpOwner } from '../support/organizations.js';
import { startService, type TestService } from '../support/service.js';

// Approvals switched off (AGENT_APPROVALS_ENABLED false, the default; issue 21 item 1, Part B 4.3): every approvals
// route, whatever the method, answers 404 exactly like an unknown path, before its body is read or validated and
// before authentication; a supervised agent's changes are refused outright (403 naming the reason), never parked.

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => {
  await svc?.close();
});

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** What a client can tell of an answer: status, body and every header but the per-request ones. */
const observable = observableAnswer;

describe('approvals switched off', () => {
  it('answers every approvals route and method 404, identical to an unknown path, before validation', async () => {
    const owner = await signUpOwner(svc.url, 'apprdormant');
    const paths = [
      ...new Set(
        routePolicies(svc.app)
          .filter((route) => route.url.startsWith('/api/v1/approvals'))
          .map((route) => route.url.replace(/:[a-z_]+/g, newId())),
      ),
    ];
    // The queue, one request and its decision at least (content approvals add theirs under the same prefix).
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/v1/approvals',
        expect.stringMatching(/^\/api\/v1\/approvals\/[0-9a-f-]{36}$/),
        expect.stringMatching(/^\/api\/v1\/approvals\/[0-9a-f-]{36}\/decide$/),
      ]),
    );
    const bodies = [undefined, '{"approve":', JSON.stringify({ approve: 'not a boolean', extra: 1 })];
    let compared = 0;
    for (const path of paths) {
      for (const method of METHODS) {
        for (const body of method === 'GET' || method === 'HEAD' ? [undefined] : bodies) {
          for (const token of [undefined, owner.token]) {
            const options = { method, ...(body === undefined ? {} : { body }), ...(token ? { token } : {}) };
            const gated = await request(`${svc.url}${path}`, options);
            const unknown = await request(`${svc.url}/api/v1/no-such-surface/${newId()}`, options);
            expect(observable(gated), `${method} ${path}`).toEqual(observable(unknown));
            expect(gated.status).toBe(404);
            compared += 1;
          }
        }
      }
    }
    expect(compared).toBeGreaterThanOrEqual(3 * 14 * 2);
  });

  it("refuses a supervised agent's change outright (403 naming the reason) and parks nothing", async () => {
    const owner = await signUpOwner(svc.url, 'apprdormantpark');
    const agent = await registerAgent(svc, owner.token, { oversight_mode: 'supervised' });
    expect((await delegate(svc, owner.token, agent.agent_id, ['members:manage'])).status).toBe(201);
    const token = await agentAccessToken(svc, agent.credential);
    for (let attempt = 0; attempt < 2; attempt++) {
      const refused = await request(`${svc.url}/api/v1/members/domains`, {
        token,
        json: { domain: 'dormant-approvals.example.com' },
      });
      expect(refused.status).toBe(403);
      expect(refused.body.detail).toBe(
        'This agent is supervised: its changes need a person’s approval, and approvals are not enabled on this deployment',
      );
      expect(refused.body).not.toHaveProperty('approval_request_id');
    }
    expect(
      await rows(svc.deps.database.db, sql`select 1 from approval_requests where agent_id = ${agent.agent_id}`),
    ).toHaveLength(0);
    // Nothing happened: no domain claim.
    const claims = await request(`${svc.url}/api/v1/members/domains`, { token: owner.token });
    expect(claims.status).toBe(200);
    expect(claims.body).toEqual([]);
  });
});
