import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { days, hours, seconds } from '../../src/kernel/clock.js';
import { rows } from '../../src/kernel/db/index.js';
import { agentAccessToken, mintAgentToken } from '../support/agent-tokens.js';
import { delegate, registerAgent } from '../support/agents.js';
import { request } from '../support/http.js';
import { addMember, signUpOwner } from '../support/organizations.js';
import { startService, type TestService } from '../support/service.js';

// Content approvals (issue 21 item 5; Part B 4.3 "Agent-authored content", 6.2; ARCHITECTURE.md "Content
// approvals"): an agent asks for review of its own content by hash, reads the decision back, the approval is spent
// once for those exact bytes, a person records reversals, and the track record weighs the evidence.

let svc: TestService;
beforeAll(async () => {
  svc = await startService({ AGENT_APPROVALS_ENABLED: 'true' });
});
afterAll(async () => {
  await svc?.close();
});

const api = (path: string) => `${svc.url}/api/v1${path}`;
const db = () => svc.deps.database.db;

type Owner = Awaited<ReturnType<typeof signUpOwner>>;

/** SHA-256 of fresh random bytes: a content hash nobody asked about yet. */
const freshHash = () => createHash('sha256').update(randomBytes(32)).digest('hex');

const AUTHOR = ['content:draft:write', 'content:read'];

/** A registered agent of `owner`'s organization holding `permissions`, with an access token. */
async function agentHolding(owner: Owner, permissions: string[] = AUTHOR, governance: Record<string, unknown> = {}) {
  const agent = await registerAgent(svc, owner.token, governance);
  const granted = await delegate(svc, owner.token, agent.agent_id, permissions);
  expect(granted.status, granted.text).toBe(201);
  return {
    agentId: agent.agent_id,
    credential: agent.credential,
    token: await agentAccessToken(svc, agent.credential),
  };
}

const post = (path: string, token: string, json: unknown) => request(api(path), { method: 'POST', token, json });
const ask = (token: string, json: Record<string, unknown>) => post('/approvals/content/request', token, json);
const feedback = (token: string, contentHash: string) =>
  post('/approvals/content/feedback', token, { content_hash: contentHash });
const consume = (token: string, contentHash: string) =>
  post('/approvals/content/consume', token, { content_hash: contentHash });
const reversal = (token: string, contentHash: string, reason = 'factually wrong, pulled') =>
  post('/approvals/content/reversal', token, { content_hash: contentHash, reason });
const trackRecord = (token: string, agentId: string) =>
  request(api(`/approvals/content/track-record/${agentId}`), { token });
const decide = (token: string, approvalId: string, approve: boolean, reason?: string) =>
  post(`/approvals/${approvalId}/decide`, token, { approve, ...(reason === undefined ? {} : { reason }) });

/** An ask of `token`'s agent for fresh bytes, answered 201; its hash and approval id. */
async function newAsk(token: string, extra: Record<string, unknown> = {}) {
  const contentHash = freshHash();
  const res = await ask(token, { content_hash: contentHash, ...extra });
  expect(res.status, res.text).toBe(201);
  return { contentHash, approvalId: res.body.approval_id as string };
}

/** An ask decided by `decider`: approved or denied. */
async function decidedAsk(agentToken: string, decider: string, approve: boolean, reason?: string) {
  const made = await newAsk(agentToken);
  const decided = await decide(decider, made.approvalId, approve, reason);
  expect(decided.status, decided.text).toBe(200);
  return made;
}

/** An API key of the organization with the given scopes. */
async function apiKey(owner: Owner, scopes: string[]): Promise<string> {
  const res = await post('/tenants/api-keys', owner.token, { label: `content ${scopes.join(' ')}`, scopes });
  expect(res.status, res.text).toBe(201);
  return res.body.key as string;
}

async function eventsOf(tenantId: string, action: string) {
  return rows<{ actor_id: string; actor_type: string; data: Record<string, any>; severity: string }>(
    db(),
    sql`select actor_id, actor_type, data, severity from events
        where tenant_id = ${tenantId} and action = ${action} order by occurred_at, id`,
  );
}

async function auditOf(tenantId: string, action: string) {
  return rows<{ actor_id: string; actor_type: string; data: Record<string, any> }>(
    db(),
    sql`select actor_id, actor_type, data from audit_log
        where tenant_id = ${tenantId} and action = ${action} order by seq`,
  );
}

async function askRow(approvalId: string) {
  const [row] = await rows<Record<string, any>>(
    db(),
    sql`select tenant_id, agent_id, status, resource_type, fingerprint, resource, required_permission,
               required_approvals, justification, requested_by
        from approval_requests where id = ${approvalId}`,
  );
  return row;
}

/** Wilson score lower bounds at z = 1.96, from published tables (Newcombe 1998, Table I) and by hand. */
const WILSON_95_LOWER: ReadonlyArray<[approvals: number, decided: number, lower: number]> = [
  [81, 263, 0.2553],
  [15, 148, 0.0624],
  [0, 20, 0],
  [1, 29, 0.0061],
  [1, 10, 0.0179],
  [5, 10, 0.2366],
  [10, 10, 0.7225],
  [18, 20, 0.699],
  [34, 34, 0.8985],
  [35, 35, 0.9011],
];

describe('an agent asks for review of its own content', () => {
  it('answers 201 with a pending ask bound to the hash, and the same ask again while it is live', async () => {
    const owner = await signUpOwner(svc.url, 'cntreq');
    const agent = await agentHolding(owner);
    const task = await mintAgentToken(svc, agent.credential, {
      task: { task: 'draft the release notes for 2.4', permissions: AUTHOR, budget: 10 },
    });
    expect(task.status, task.text).toBe(200);
    const taskToken = task.body.access_token as string;
    const contentHash = freshHash();

    const first = await ask(taskToken, {
      content_hash: contentHash,
      title: 'Release notes 2.4',
      summary: 'What changed',
    });
    expect(first.status, first.text).toBe(201);
    expect(first.body).toEqual({ approval_id: expect.any(String), content_hash: contentHash, status: 'pending' });
    const again = await ask(agent.token, { content_hash: contentHash });
    expect(again.status, again.text).toBe(200);
    expect(again.body).toEqual(first.body);

    expect(await askRow(first.body.approval_id)).toEqual({
      tenant_id: owner.tenantId,
      agent_id: agent.agentId,
      status: 'pending',
      resource_type: 'content',
      fingerprint: contentHash,
      resource: { content_hash: contentHash, title: 'Release notes 2.4', summary: 'What changed' },
      required_permission: 'content:review',
      required_approvals: 1,
      justification: 'draft the release notes for 2.4',
      requested_by: agent.agentId,
    });
    // One ask, one event, audited with the agent as actor.
    const requested = (await eventsOf(owner.tenantId, 'content.review_requested')).filter(
      (event) => event.data.content_hash === contentHash,
    );
    expect(requested).toEqual([
      expect.objectContaining({
        actor_id: agent.agentId,
        actor_type: 'agent',
        data: expect.objectContaining({ approval_id: first.body.approval_id, agent_id: agent.agentId }),
      }),
    ]);
    expect(
      (await auditOf(owner.tenantId, 'content.review_requested')).filter((e) => e.data.content_hash === contentHash),
    ).toHaveLength(1);

    // The approver sees it in the queue, with what is decided.
    const queued = await request(api(`/approvals/${first.body.approval_id}`), { token: owner.token });
    expect(queued.status, queued.text).toBe(200);
    expect(queued.body).toMatchObject({
      resource_type: 'content',
      status: 'pending',
      agent_id: agent.agentId,
      resource: { content_hash: contentHash, title: 'Release notes 2.4' },
    });
  });

  it('refuses a hash that is not 64 lowercase hex digits, and unknown fields (422)', async () => {
    const owner = await signUpOwner(svc.url, 'cntval');
    const agent = await agentHolding(owner);
    const hash = freshHash();
    for (const body of [
      { content_hash: hash.toUpperCase() },
      { content_hash: hash.slice(1) },
      { content_hash: `${hash}0` },
      { content_hash: `${hash.slice(1)}g` },
      { content_hash: createHash('sha256').update('x').digest('base64') },
      {},
      { content_hash: hash, agent_id: agent.agentId },
      { content_hash: hash, title: 'x'.repeat(201) },
    ]) {
      const res = await ask(agent.token, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
    for (const path of ['feedback', 'consume']) {
      expect((await post(`/approvals/content/${path}`, agent.token, { content_hash: 'abc' })).status).toBe(422);
    }
  });

  it('is for agents only, within their authority, and for their own content only', async () => {
    const owner = await signUpOwner(svc.url, 'cntown');
    const hash = freshHash();
    const person = await ask(owner.token, { content_hash: hash });
    expect(person.status).toBe(403);
    expect(person.body.detail).toBe('Only the AI agent that wrote the content asks for its review');
    const key = await apiKey(owner, ['content:draft:write']);
    expect((await ask(key, { content_hash: hash })).status).toBe(403);

    const reader = await agentHolding(owner, ['content:read']);
    const unauthorized = await ask(reader.token, { content_hash: hash });
    expect(unauthorized.status).toBe(403);
    expect(unauthorized.body.detail).toBe('Missing permission: content:draft:write');

    const author = await agentHolding(owner);
    const other = await agentHolding(owner);
    expect((await ask(author.token, { content_hash: hash })).status).toBe(201);
    const notTheirs = await ask(other.token, { content_hash: hash });
    expect(notTheirs.status).toBe(403);
    expect(notTheirs.body.detail).toMatch(/own content only/);
    // Nothing was created for the other agent.
    const asks = await rows<{ agent_id: string }>(
      db(),
      sql`select agent_id from approval_requests where fingerprint = ${hash}`,
    );
    expect(asks).toEqual([{ agent_id: author.agentId }]);
  });

  it('parks a supervised agent’s request like any change, but never its reads of feedback or consume', async () => {
    const owner = await signUpOwner(svc.url, 'cntsup');
    const agent = await agentHolding(owner, AUTHOR, { oversight_mode: 'supervised' });
    const contentHash = freshHash();
    const parked = await ask(agent.token, { content_hash: contentHash });
    expect(parked.status).toBe(403);
    expect(parked.body.approval_request_id).toEqual(expect.any(String));
    expect((await askRow(parked.body.approval_request_id))!.resource_type).toBe('action');
    expect((await decide(owner.token, parked.body.approval_request_id, true)).status).toBe(200);
    const asked = await ask(agent.token, { content_hash: contentHash });
    expect(asked.status, asked.text).toBe(201);
    expect((await askRow(asked.body.approval_id))!.resource_type).toBe('content');
    // Reads go ahead unparked: feedback and consume name content:read.
    expect((await feedback(agent.token, contentHash)).body.state).toBe('pending');
    expect((await consume(agent.token, contentHash)).body.state).toBe('pending');
  });

  it('of two identical requests at once, makes one ask', async () => {
    const owner = await signUpOwner(svc.url, 'cntdup');
    const agent = await agentHolding(owner);
    const contentHash = freshHash();
    const answers = await Promise.all([
      ask(agent.token, { content_hash: contentHash }),
      ask(agent.token, { content_hash: contentHash }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 201]);
    expect(answers[0]!.body.approval_id).toBe(answers[1]!.body.approval_id);
  });
});

describe('feedback, decisions and consumption', () => {
  it('shows the agent its decision and spends an approval exactly once for those bytes', async () => {
    const owner = await signUpOwner(svc.url, 'cntflow');
    const reviewer = await addMember(svc, owner, 'admin');
    const agent = await agentHolding(owner);
    const publisher = await apiKey(owner, ['content:read']);
    const { contentHash, approvalId } = await newAsk(agent.token, { title: 'Blog post' });

    const pending = await feedback(agent.token, contentHash);
    expect(pending.status, pending.text).toBe(200);
    expect(pending.body).toMatchObject({ approval_id: approvalId, state: 'pending', reason: null, decided_at: null });
    const early = await consume(publisher, contentHash);
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({ state: 'pending', message: expect.stringMatching(/no person has decided/i) });

    // Agents never decide; people with agents:approvals:decide and content:review do.
    expect((await decide(agent.token, approvalId, true)).status).toBe(403);
    const decided = await decide(reviewer.token, approvalId, true, 'reads well');
    expect(decided.status, decided.text).toBe(200);

    const approved = await feedback(agent.token, contentHash);
    expect(approved.body).toMatchObject({ state: 'approved', reason: 'reads well', decided_at: expect.any(String) });
    // A live approved ask is answered again for the same bytes.
    const repeat = await ask(agent.token, { content_hash: contentHash });
    expect(repeat.status).toBe(200);
    expect(repeat.body).toEqual({ approval_id: approvalId, content_hash: contentHash, status: 'approved' });

    const spent = await consume(publisher, contentHash);
    expect(spent.status, spent.text).toBe(200);
    expect(spent.body).toEqual({
      approval_id: approvalId,
      content_hash: contentHash,
      agent_id: agent.agentId,
      state: 'consumed',
      consumed_at: expect.any(String),
    });
    const twice = await consume(publisher, contentHash);
    expect(twice.status).toBe(409);
    expect(twice.body).toMatchObject({ state: 'consumed', message: expect.stringMatching(/already spent/) });
    expect((await feedback(agent.token, contentHash)).body.state).toBe('consumed');
    expect((await askRow(approvalId))!.status).toBe('consumed');

    const consumed = (await eventsOf(owner.tenantId, 'content.approval_consumed')).filter(
      (e) => e.data.approval_id === approvalId,
    );
    expect(consumed).toHaveLength(1);
    expect(consumed[0]).toMatchObject({ actor_type: 'service', data: { agent_id: agent.agentId } });

    // Different bytes were never asked about: 404, not a 409.
    expect((await consume(publisher, freshHash())).status).toBe(404);
    // Publishing the same bytes again needs a new review.
    const again = await ask(agent.token, { content_hash: contentHash });
    expect(again.status).toBe(201);
    expect(again.body.approval_id).not.toBe(approvalId);
    expect((await consume(publisher, contentHash)).body.state).toBe('pending');
  });

  it('tells a denial apart from not decided, with the reason, and never spends it', async () => {
    const owner = await signUpOwner(svc.url, 'cntdeny');
    const agent = await agentHolding(owner);
    const { contentHash, approvalId } = await newAsk(agent.token);
    expect((await decide(owner.token, approvalId, false, 'names a customer without consent')).status).toBe(200);

    const denied = await feedback(agent.token, contentHash);
    expect(denied.body).toMatchObject({ state: 'denied', reason: 'names a customer without consent' });
    // The agent itself may consume (content:read); a denial stays a denial.
    const refused = await consume(agent.token, contentHash);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      detail: refused.body.message,
      state: 'denied',
      message: expect.stringMatching(/denied/),
      approval_id: approvalId,
    });
    expect((await askRow(approvalId))!.status).toBe('denied');
    // A denied ask is not live: asking again makes a new one.
    expect((await ask(agent.token, { content_hash: contentHash })).status).toBe(201);
  });

  it('keeps feedback to the requesting agent: another agent gets 404 for the same hash', async () => {
    const owner = await signUpOwner(svc.url, 'cntfb');
    const author = await agentHolding(owner);
    const other = await agentHolding(owner);
    const { contentHash } = await newAsk(author.token);
    const res = await feedback(other.token, contentHash);
    expect(res.status).toBe(404);
    expect((await feedback(author.token, freshHash())).status).toBe(404);
    // People and keys do not read an agent's feedback.
    expect((await feedback(owner.token, contentHash)).status).toBe(403);
  });

  it('of two consumes at once, exactly one spends the approval', async () => {
    const owner = await signUpOwner(svc.url, 'cntrace');
    const agent = await agentHolding(owner);
    const publisher = await apiKey(owner, ['content:read']);
    for (let round = 0; round < 5; round++) {
      const { contentHash, approvalId } = await decidedAsk(agent.token, owner.token, true);
      const answers = await Promise.all([consume(publisher, contentHash), consume(agent.token, contentHash)]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
      const lost = answers.find((a) => a.status === 409)!;
      expect(lost.body.state).toBe('consumed');
      const consumed = (await eventsOf(owner.tenantId, 'content.approval_consumed')).filter(
        (e) => e.data.approval_id === approvalId,
      );
      expect(consumed).toHaveLength(1);
    }
  });

  it('needs content:read to consume', async () => {
    const owner = await signUpOwner(svc.url, 'cntperm');
    const member = await addMember(svc, owner, 'member');
    const agent = await agentHolding(owner);
    const { contentHash } = await decidedAsk(agent.token, owner.token, true);
    const refused = await consume(member.token, contentHash);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toBe('Missing permission: content:read');
    const auditor = await addMember(svc, owner, 'auditor');
    expect((await consume(auditor.token, contentHash)).status).toBe(200);
  });
});

describe('reversals', () => {
  it('records that published content was pulled, by a person, against the agent that wrote it', async () => {
    const owner = await signUpOwner(svc.url, 'cntrev');
    const reviewer = await addMember(svc, owner, 'admin');
    const agent = await agentHolding(owner);
    const { contentHash, approvalId } = await decidedAsk(agent.token, reviewer.token, true);
    expect((await consume(agent.token, contentHash)).status).toBe(200);

    const recorded = await reversal(reviewer.token, contentHash, 'quoted a retracted study');
    expect(recorded.status, recorded.text).toBe(201);
    expect(recorded.body).toEqual({
      reversal_id: expect.any(String),
      approval_id: approvalId,
      content_hash: contentHash,
      agent_id: agent.agentId,
      reason: 'quoted a retracted study',
      recorded_at: expect.any(String),
    });
    // Recording it again answers the first record, and no second event.
    const again = await reversal(owner.token, contentHash, 'again');
    expect(again.status).toBe(200);
    expect(again.body).toEqual(recorded.body);

    // The event's actor is the reviewing person; the agent is in the data (Part B 6.2). Audited alike.
    const events = await eventsOf(owner.tenantId, 'content.reversal_recorded');
    expect(events).toEqual([
      {
        actor_id: reviewer.userId,
        actor_type: 'human',
        severity: 'warn',
        data: {
          reversal_id: recorded.body.reversal_id,
          approval_id: approvalId,
          agent_id: agent.agentId,
          content_hash: contentHash,
          reason: 'quoted a retracted study',
        },
      },
    ]);
    // The Command Center's list shows the same envelope.
    const listed = await request(api('/command/events?action=content.reversal_recorded'), { token: owner.token });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.events).toEqual([
      expect.objectContaining({
        action: 'content.reversal_recorded',
        actor: { id: reviewer.userId, type: 'human' },
        data: expect.objectContaining({ agent_id: agent.agentId, content_hash: contentHash }),
      }),
    ]);
    const audited = await auditOf(owner.tenantId, 'content.reversal_recorded');
    expect(audited).toEqual([expect.objectContaining({ actor_id: reviewer.userId, actor_type: 'human' })]);

    const record = await trackRecord(owner.token, agent.agentId);
    expect(record.body.reversals_30d).toBe(1);
  });

  it('is for a person holding content:review, about bytes asked about in the organization', async () => {
    const owner = await signUpOwner(svc.url, 'cntrevno');
    const agent = await agentHolding(owner, [...AUTHOR, 'content:review']);
    const { contentHash } = await decidedAsk(agent.token, owner.token, true);

    const byAgent = await reversal(agent.token, contentHash);
    expect(byAgent.status).toBe(403);
    expect(byAgent.body.detail).toBe('A reversal is recorded by the person who reviewed the published content');
    expect((await reversal(await apiKey(owner, ['content:review']), contentHash)).status).toBe(403);
    const member = await addMember(svc, owner, 'auditor');
    const unauthorized = await reversal(member.token, contentHash);
    expect(unauthorized.status).toBe(403);
    expect(unauthorized.body.detail).toBe('Missing permission: content:review');
    expect((await reversal(owner.token, freshHash())).status).toBe(404);
    const blank = await post('/approvals/content/reversal', owner.token, { content_hash: contentHash, reason: ' ' });
    expect(blank.status).toBe(422);
    expect(await eventsOf(owner.tenantId, 'content.reversal_recorded')).toEqual([]);
  });
});

describe('the track record', () => {
  it('computes the Wilson lower bound as the published table does', async () => {
    const { wilsonLowerBound } = await import('../../src/modules/approvals/track-record.js');
    for (const [approvals, decided, lower] of WILSON_95_LOWER) {
      expect(wilsonLowerBound(approvals, decided), `${approvals}/${decided}`).toBeCloseTo(lower, 4);
    }
    expect(wilsonLowerBound(0, 0)).toBe(0);
  });

  it('counts decided asks only, weighs them against the bar and lists what is unmet', async () => {
    const owner = await signUpOwner(svc.url, 'cnttrack');
    const agent = await agentHolding(owner);

    const empty = await trackRecord(owner.token, agent.agentId);
    expect(empty.status, empty.text).toBe(200);
    expect(empty.body).toEqual({
      agent_id: agent.agentId,
      decided: 0,
      approvals: 0,
      denials: 0,
      approval_rate: null,
      lower_bound: 0,
      bar: 0.9,
      min_decided: 20,
      confidence: 0.95,
      reversals_30d: 0,
      eligible: false,
      unmet: [
        { criterion: 'min_decided', detail: expect.any(String) },
        { criterion: 'lower_bound', detail: expect.any(String) },
      ],
    });

    // 18 approvals (one of them spent) and 2 denials; a pending ask does not count.
    for (let i = 0; i < 2; i++) await decidedAsk(agent.token, owner.token, false, 'off-brand');
    const approved = [];
    for (let i = 0; i < 18; i++) approved.push(await decidedAsk(agent.token, owner.token, true));
    expect((await consume(agent.token, approved[0]!.contentHash)).status).toBe(200);
    await newAsk(agent.token);

    const record = await trackRecord(owner.token, agent.agentId);
    expect(record.status).toBe(200);
    expect(record.body).toMatchObject({ decided: 20, approvals: 18, denials: 2, reversals_30d: 0, eligible: false });
    expect(record.body.approval_rate).toBeCloseTo(0.9, 10);
    expect(record.body.lower_bound).toBeCloseTo(WILSON_95_LOWER.find(([a, n]) => a === 18 && n === 20)![2], 4);
    expect(record.body.unmet).toEqual([{ criterion: 'lower_bound', detail: expect.stringMatching(/0\.6990/) }]);
    // The agent itself and an auditor (content:read) read it too.
    expect((await trackRecord(agent.token, agent.agentId)).body.decided).toBe(20);
    const auditor = await addMember(svc, owner, 'auditor');
    expect((await trackRecord(auditor.token, agent.agentId)).status).toBe(200);
    const member = await addMember(svc, owner, 'member');
    expect((await trackRecord(member.token, agent.agentId)).status).toBe(403);
  });

  it('answers 404 for another organization’s agent, like an unknown one', async () => {
    const owner = await signUpOwner(svc.url, 'cnttrx');
    const stranger = await signUpOwner(svc.url, 'cnttry');
    const agent = await agentHolding(owner);
    await decidedAsk(agent.token, owner.token, true);
    const foreign = await trackRecord(stranger.token, agent.agentId);
    expect(foreign.status).toBe(404);
    const unknown = await trackRecord(stranger.token, '0190a0c2-0000-7000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(foreign.body).toEqual(unknown.body);
    expect((await trackRecord(owner.token, 'not-an-id')).status).toBe(404);
  });
});

describe('organizations never see each other’s content asks', () => {
  it('answers 404 to feedback, consume and reversal of another organization’s bytes', async () => {
    const owner = await signUpOwner(svc.url, 'cntorga');
    const stranger = await signUpOwner(svc.url, 'cntorgb');
    const agent = await agentHolding(owner);
    const strangerAgent = await agentHolding(stranger);
    const { contentHash, approvalId } = await decidedAsk(agent.token, owner.token, true);

    expect((await feedback(strangerAgent.token, contentHash)).status).toBe(404);
    expect((await consume(stranger.token, contentHash)).status).toBe(404);
    expect((await consume(strangerAgent.token, contentHash)).status).toBe(404);
    expect((await reversal(stranger.token, contentHash)).status).toBe(404);
    // Deciding it from the other organization is 404 as well (the core route), and nothing was spent.
    expect((await decide(stranger.token, approvalId, false)).status).toBe(404);
    expect((await askRow(approvalId))!.status).toBe('approved');
    // The same bytes are the other organization's own business: its agent may ask about them there.
    expect((await ask(strangerAgent.token, { content_hash: contentHash })).status).toBe(201);
    expect((await consume(owner.token, contentHash)).status).toBe(200);
  });
});

// Moving the clock ends every token held so far: these run last, and sign in again.
describe('as time passes', () => {
  it('an undecided ask expires after 24 hours; asking again makes a new one', async () => {
    const owner = await signUpOwner(svc.url, 'cntexp');
    const agent = await agentHolding(owner);
    const publisher = await apiKey(owner, ['content:read']);
    const { contentHash, approvalId } = await newAsk(agent.token);
    const approvedAsk = await decidedAsk(agent.token, owner.token, true);

    svc.clock.advance(hours(24) + seconds(1));
    const token = await agentAccessToken(svc, agent.credential);
    const expired = await feedback(token, contentHash);
    expect(expired.body).toMatchObject({ approval_id: approvalId, state: 'expired', reason: null });
    const refused = await consume(publisher, contentHash);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ state: 'expired', message: expect.stringMatching(/24 hours/) });
    // An approval not spent within the ask's 24 hours is expired too.
    const lapsed = await consume(publisher, approvedAsk.contentHash);
    expect(lapsed.status).toBe(409);
    expect(lapsed.body.state).toBe('expired');

    const renewed = await ask(token, { content_hash: contentHash });
    expect(renewed.status, renewed.text).toBe(201);
    expect(renewed.body.approval_id).not.toBe(approvalId);
    expect((await askRow(approvalId))!.status).toBe('expired');
    const ranOut = (await eventsOf(owner.tenantId, 'content.review_expired')).filter(
      (e) => e.data.approval_id === approvalId,
    );
    expect(ranOut).toEqual([expect.objectContaining({ actor_type: 'system' })]);
    expect((await feedback(token, contentHash)).body).toMatchObject({
      approval_id: renewed.body.approval_id,
      state: 'pending',
    });
    // The expired approved ask still counts as approved by a person; the expired undecided one does not count.
    const login = await request(api('/auth/login'), {
      json: { email: owner.email, password: owner.password, tenant_slug: owner.slug },
    });
    const record = await trackRecord(login.body.access_token, agent.agentId);
    expect(record.body).toMatchObject({ decided: 1, approvals: 1, denials: 0 });
  });

  it('an agent clearing the bar is eligible, until a reversal, for 30 days', async () => {
    const owner = await signUpOwner(svc.url, 'cntbar');
    const agent = await agentHolding(owner);
    const asks = [];
    for (let i = 0; i < 35; i++) asks.push(await decidedAsk(agent.token, owner.token, true));
    const clear = await trackRecord(owner.token, agent.agentId);
    expect(clear.body).toMatchObject({ decided: 35, approvals: 35, eligible: true, unmet: [] });
    expect(clear.body.lower_bound).toBeCloseTo(WILSON_95_LOWER.find(([a, n]) => a === 35 && n === 35)![2], 4);

    expect((await consume(agent.token, asks[3]!.contentHash)).status).toBe(200);
    expect((await reversal(owner.token, asks[3]!.contentHash)).status).toBe(201);
    const reversed = await trackRecord(owner.token, agent.agentId);
    expect(reversed.body).toMatchObject({ reversals_30d: 1, eligible: false });
    expect(reversed.body.unmet).toEqual([{ criterion: 'reversals_30d', detail: expect.any(String) }]);

    svc.clock.advance(days(30) + seconds(1));
    const login = await request(api('/auth/login'), {
      json: { email: owner.email, password: owner.password, tenant_slug: owner.slug },
    });
    expect(login.status).toBe(200);
    const later = await trackRecord(login.body.access_token, agent.agentId);
    expect(later.body).toMatchObject({ reversals_30d: 0, eligible: true, unmet: [] });
  });
});
