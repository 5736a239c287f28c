import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/kernel/db/index.js';
import { agentAccessToken } from '../support/agent-tokens.js';
import { delegate, registerAgent } from '../support/agents.js';
import { observableAnswer, request } from '../support/http.js';
import { signUpOwner } from '../support/organizations.js';
import { startService, type TestService } from '../support/service.js';

// Content approvals while AGENT_APPROVALS_ENABLED is off (the default; issue 21 item 5, Part B 4.3): every content
// route, whatever the method, answers exactly like an unknown path, before authentication and body validation.

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => {
  await svc?.close();
});

const PATHS = [
  '/api/v1/approvals/content/request',
  '/api/v1/approvals/content/feedback',
  '/api/v1/approvals/content/consume',
  '/api/v1/approvals/content/reversal',
  '/api/v1/approvals/content/track-record/0190a0c2-0000-7000-8000-000000000000',
];
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const UNKNOWN = '/api/v1/no/such/thing';

/** What a caller can tell apart: status, body and every header but the per-request ones. */
const answer = observableAnswer;

const send = (path: string, method: string, options: { token?: string; body?: string } = {}) =>
  request(`${svc.url}${path}`, {
    method,
    ...(options.token ? { token: options.token } : {}),
    ...(options.body === undefined ? {} : { body: options.body }),
  });

describe('AGENT_APPROVALS_ENABLED off', () => {
  it('answers every content route and method like an unknown path, signed in or not, whatever the body', async () => {
    const owner = await signUpOwner(svc.url, 'cntoff');
    const agent = await registerAgent(svc, owner.token);
    expect(
      (await delegate(svc, owner.token, agent.agent_id, ['content:draft:write', 'content:read', 'content:review']))
        .status,
    ).toBe(201);
    const agentToken = await agentAccessToken(svc, agent.credential);
    const contentHash = createHash('sha256').update('dormant').digest('hex');
    const bodies = [undefined, JSON.stringify({ content_hash: contentHash, reason: 'r' }), '{"content_hash":'];

    let compared = 0;
    for (const path of PATHS) {
      for (const method of METHODS) {
        for (const token of [undefined, owner.token, agentToken]) {
          for (const body of method === 'GET' || method === 'HEAD' ? [undefined] : bodies) {
            const options = { ...(token ? { token } : {}), ...(body === undefined ? {} : { body }) };
            const got = answer(await send(path, method, options));
            const unknown = answer(await send(UNKNOWN, method, options));
            expect(got, `${method} ${path}`).toEqual(unknown);
            expect(got.status).toBe(404);
            compared += 1;
          }
        }
      }
    }
    expect(compared).toBe(PATHS.length * (2 + (METHODS.length - 2) * bodies.length) * 3);
    // Nothing was asked, spent or recorded.
    const asks = await rows<{ n: number }>(
      svc.deps.database.db,
      sql`select count(*)::int as n from approval_requests where tenant_id = ${owner.tenantId}`,
    );
    expect(asks).toEqual([{ n: 0 }]);
    const reversals = await rows<{ n: number }>(
      svc.deps.database.db,
      sql`select count(*)::int as n from content_reversals where tenant_id = ${owner.tenantId}`,
    );
    expect(reversals).toEqual([{ n: 0 }]);
  });
});
