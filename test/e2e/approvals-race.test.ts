import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/kernel/db/index.js';
import { newId } from '../../src/kernel/ids.js';
import { agentAccessToken } from '../support/agent-tokens.js';
import { delegate, registerAgent } from '../support/agents.js';
import { request } from '../support/http.js';
import { signUpOwner } from '../support/organizations.js';
import { startSecondNode, startService, type TestService } from '../support/service.js';

// Spending an approval is race-safe across nodes (issue 21 item 6; ARCHITECTURE.md "Spend once"): identical
// retries of an approved action sent at once to two nodes sharing the database run exactly once; the others park
// a new ask. The real test is on PostgreSQL (DATABASE_URL set), where the nodes' transactions truly overlap; on
// the embedded database both nodes share one connection and fewer rounds keep the file short.
const ROUNDS = process.env.DATABASE_URL ? 25 : 5;
const RETRIES_PER_NODE = 2;

let first: TestService;
let second: Awaited<ReturnType<typeof startSecondNode>>;
beforeAll(async () => {
  first = await startService({ AGENT_APPROVALS_ENABLED: 'true' });
  second = await startSecondNode(first);
}, 120_000);
afterAll(async () => {
  await second?.close();
  await first?.close();
});

describe('concurrent identical retries after approval', () => {
  it('run the action exactly once, on whichever node wins', async () => {
    const owner = await signUpOwner(first.url, 'apprrace');
    const agent = await registerAgent(first, owner.token, { oversight_mode: 'supervised' });
    expect((await delegate(first, owner.token, agent.agent_id, ['members:manage'])).status).toBe(201);
    const token = await agentAccessToken(first, agent.credential);
    const claim = (node: { url: string }, domain: string) =>
      request(`${node.url}/api/v1/members/domains`, { token, json: { domain } });

    for (let round = 0; round < ROUNDS; round++) {
      const domain = `race-${round}-${newId().slice(-8)}.example.com`;
      const parked = await claim(first, domain);
      expect(parked.status, parked.text).toBe(403);
      const id = parked.body.approval_request_id as string;
      const decided = await request(`${second.url}/api/v1/approvals/${id}/decide`, {
        token: owner.token,
        json: { approve: true },
      });
      expect(decided.status, decided.text).toBe(200);

      const answers = await Promise.all(
        [first, second].flatMap((node) => Array.from({ length: RETRIES_PER_NODE }, () => claim(node, domain))),
      );
      const ran = answers.filter((answer) => answer.status === 201);
      const refused = answers.filter((answer) => answer.status !== 201);
      expect(ran, `round ${round}`).toHaveLength(1);
      // The others were not covered any more: each was parked (one new ask, shared by the identical calls).
      for (const answer of refused) {
        expect(answer.status, answer.text).toBe(403);
        expect(answer.body.approval_request_id).not.toBe(id);
      }
      expect(new Set(refused.map((answer) => answer.body.approval_request_id)).size).toBe(1);

      const [ask] = await rows<{ status: string }>(
        first.deps.database.db,
        sql`select status from approval_requests where id = ${id}`,
      );
      expect(ask?.status).toBe('consumed');
      const consumed = await rows(
        first.deps.database.db,
        sql`select 1 from events where action = 'approval.consumed' and data->>'approval_request_id' = ${id}`,
      );
      expect(consumed).toHaveLength(1);
      const claims = await rows(
        first.deps.database.db,
        sql`select 1 from member_domains where tenant_id = ${owner.tenantId} and domain = ${domain}`,
      );
      expect(claims).toHaveLength(1);
    }
  }, 180_000);
});
