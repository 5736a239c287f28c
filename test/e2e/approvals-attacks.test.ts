import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { actionFingerprint } from '../../src/kernel/authz/fingerprint.js';
import { rows } from '../../src/kernel/db/index.js';
import { newId } from '../../src/kernel/ids.js';
import { agentAccessToken } from '../support/agent-tokens.js';
import { delegate, registerAgent } from '../support/agents.js';
import { request, uniqueEmail } from '../support/http.js';
import { addMember, signUpOwner } from '../support/organizations.js';
import { startService, type TestService } from '../support/service.js';

// An attacker's look at approvals, content approvals and manifest asks (Part B 3, 4.3, 4.6; ARCHITECTURE.md "One
// action fingerprint", "Spend once, count exactly"), for what approvals-queue, approvals-race, approvals-content and
// manifests do not already try: another agent sending the approved action, many retries racing across agents, the
// JCS spellings of one body, two people deciding at once, asks of one kind spent as another, and a manifest apply
// resumed by someone who never asked.

let svc: TestService;
beforeAll(async () => {
  svc = await startService({ AGENT_APPROVALS_ENABLED: 'true' });
});
afterAll(async () => {
  await svc?.close();
});
afterEach(() => {
  svc.deps.manifests.testHooks.beforeStep = undefined;
});

const api = (path: string) => `${svc.url}/api/v1${path}`;
const db = () => svc.deps.database.db;
type Owner = Awaited<ReturnType<typeof signUpOwner>>;
type Answer = { status: number; body: any; text: string };

/** An agent of `owner`'s organization holding `permissions`, with an access token. */
async function agentOf(owner: Owner, permissions: string[], governance: Record<string, unknown> = {}) {
  const agent = await registerAgent(svc, owner.token, governance);
  const granted = await delegate(svc, owner.token, agent.agent_id, permissions);
  expect(granted.status, granted.text).toBe(201);
  return { agentId: agent.agent_id as string, token: await agentAccessToken(svc, agent.credential) };
}
const supervised = (owner: Owner, permissions: string[]) =>
  agentOf(owner, permissions, { oversight_mode: 'supervised' });

const decide = (token: string, id: string, body: Record<string, unknown>) =>
  request(api(`/approvals/${id}/decide`), { token, json: body });
const statusOf = async (token: string, id: string) => (await request(api(`/approvals/${id}`), { token })).body.status;
const claimDomain = (token: string, domain: string) => request(api('/members/domains'), { token, json: { domain } });
const domainName = (label: string) => `${label}-${newId().slice(-8)}.example.com`;

/** The 403 of a parked action: its ask's id. */
function parkedId(res: Answer): string {
  expect(res.status, res.text).toBe(403);
  expect(res.body.approval_request_id, res.text).toMatch(/^[0-9a-f-]{36}$/);
  return res.body.approval_request_id;
}

async function consumedEvents(id: string) {
  return rows(
    db(),
    sql`select 1 from events where action = 'approval.consumed' and data->>'approval_request_id' = ${id}`,
  );
}

describe('an approval covers its own agent’s action only', () => {
  it('another agent of the organization, or of another one, sending the identical action parks its own ask; of 10 racing retries exactly one runs', async () => {
    const owner = await signUpOwner(svc.url, 'atkagents');
    const x = await supervised(owner, ['members:manage']);
    const y = await supervised(owner, ['members:manage']);
    const domain = domainName('approved');
    const id = parkedId(await claimDomain(x.token, domain));
    expect((await decide(owner.token, id, { approve: true })).status).toBe(200);

    // Y sends exactly X's approved action: it is not X's ask, it parks Y's own (and X's stays approved).
    const ofY = parkedId(await claimDomain(y.token, domain));
    expect(ofY).not.toBe(id);
    expect(await statusOf(owner.token, id)).toBe('approved');
    // An agent of another organization sending it parks there; X's ask is not even visible to it.
    const stranger = await signUpOwner(svc.url, 'atkstranger');
    const z = await supervised(stranger, ['members:manage']);
    const ofZ = parkedId(await claimDomain(z.token, domain));
    expect(ofZ).not.toBe(id);
    expect((await request(api(`/approvals/${id}`), { token: stranger.token })).status).toBe(404);
    expect(await statusOf(owner.token, id)).toBe('approved');

    // Ten identical retries at once, five by X and five by Y: X's approval runs the action once.
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => claimDomain(i % 2 === 0 ? x.token : y.token, domain)),
    );
    const ran = answers.filter((a) => a.status === 201);
    expect(ran, answers.map((a) => a.text).join('\n')).toHaveLength(1);
    const byX = answers.filter((_, i) => i % 2 === 0 && answers[i]!.status !== 201);
    const byY = answers.filter((_, i) => i % 2 === 1);
    expect(byY.map(parkedId)).toEqual(Array(5).fill(ofY));
    // X's losers are not covered any more: they share one new ask.
    const fresh = new Set(byX.map(parkedId));
    expect(fresh.size).toBe(1);
    expect(fresh.has(id)).toBe(false);
    expect(await statusOf(owner.token, id)).toBe('consumed');
    expect(await consumedEvents(id)).toHaveLength(1);
    const claims = await rows(
      db(),
      sql`select 1 from member_domains where tenant_id = ${owner.tenantId} and domain = ${domain}`,
    );
    expect(claims).toHaveLength(1);
    expect(await statusOf(owner.token, ofY)).toBe('pending');
  });
});

describe('an approval is spent only by a retry that runs', () => {
  it('a retry refused by a later check (confidence) or by validation leaves the approval for the retry that runs', async () => {
    const owner = await signUpOwner(svc.url, 'atkspendlast');
    const agent = await agentOf(owner, ['members:manage'], { oversight_mode: 'supervised', confidence_floor: 0.5 });
    const sure = { 'agent-confidence': '0.9' };
    const domain = domainName('spendlast');
    const claim = (headers: Record<string, string>) =>
      request(api('/members/domains'), { token: agent.token, json: { domain }, headers });
    const id = parkedId(await claim(sure));
    expect((await decide(owner.token, id, { approve: true })).status).toBe(200);
    // Confidence is checked after oversight: its refusal must not cost the approval.
    const unsure = await claim({});
    expect(unsure.status, unsure.text).toBe(403);
    expect(unsure.body.detail).toMatch(/confidence/);
    expect(await statusOf(owner.token, id)).toBe('approved');
    expect((await claim(sure)).status).toBe(201);
    expect(await statusOf(owner.token, id)).toBe('consumed');
    expect(await consumedEvents(id)).toHaveLength(1);

    // A body the route's schema refuses can be parked (governance judges before validation) and approved, but
    // its retry answers 422 and leaves the approval unspent.
    const malformed = () =>
      request(api('/members/domains'), { token: agent.token, json: { domain: 42 }, headers: sure });
    const bad = parkedId(await malformed());
    expect((await decide(owner.token, bad, { approve: true })).status).toBe(200);
    expect((await malformed()).status).toBe(422);
    expect(await statusOf(owner.token, bad)).toBe('approved');
    expect(await consumedEvents(bad)).toHaveLength(0);
  });
});

describe('list cursors', () => {
  it('a cursor carrying an instant the database cannot compare is 422, not a failed statement', async () => {
    const owner = await signUpOwner(svc.url, 'atkcursor');
    for (const instant of ['2026-02-30T00:00:00.000Z', '0000-06-01T00:00:00.000Z', '2026-06-30T23:59:60.000Z']) {
      const cursor = Buffer.from(JSON.stringify([instant, newId()])).toString('base64url');
      const res = await request(api(`/approvals?cursor=${cursor}`), { token: owner.token });
      expect(res.status, `${instant}: ${res.text}`).toBe(422);
      expect(res.body.detail).toBe('cursor: is not a cursor this list answered');
    }
    const real = Buffer.from(JSON.stringify(['2024-02-29T00:00:00.000Z', newId()])).toString('base64url');
    expect((await request(api(`/approvals?cursor=${real}`), { token: owner.token })).status).toBe(200);
  });
});

describe('one action under JCS (RFC 8785)', () => {
  const killSwitch = (token: string, body: string) => request(api('/autonomy/kill-switch'), { token, body });

  it('key order, whitespace, escapes and number spelling are the same action: the denial repeats, the approval is spent; another value is another action', async () => {
    const owner = await signUpOwner(svc.url, 'atkjcs');
    const admin = await addMember(svc, owner, 'admin');
    // autonomy:disable scores 90: two people approve.
    const agent = await supervised(owner, ['autonomy:disable']);
    const id = parkedId(await killSwitch(agent.token, '{"enable":true,"hours":8,"reason":"drill"}'));
    const resource = await request(api(`/approvals/${id}`), { token: owner.token });
    expect(resource.body.fingerprint).toBe(
      actionFingerprint({
        method: 'POST',
        route: '/api/v1/autonomy/kill-switch',
        params: {},
        body: { enable: true, hours: 8, reason: 'drill' },
      }),
    );
    const respellings = [
      '{ "reason" : "drill", "hours" : 8.0, "enable" : true }',
      '{"hours":8e0,"enable":true,"reason":"\\u0064rill"}',
      '\n{\t"enable":true,\r\n"reason":"drill","hours":80E-1}\n',
    ];
    for (const body of respellings) expect(parkedId(await killSwitch(agent.token, body)), body).toBe(id);
    // A different value is another action, even of the same meaning to a reader.
    for (const body of ['{"enable":true,"hours":8,"reason":"drill "}', '{"enable":true,"hours":1,"reason":"drill"}']) {
      expect(parkedId(await killSwitch(agent.token, body)), body).not.toBe(id);
    }
    // Denied: every spelling gets the same denial back, none slips past it.
    expect((await decide(owner.token, id, { approve: false })).status).toBe(200);
    for (const body of respellings) {
      const res = await killSwitch(agent.token, body);
      expect([res.status, res.body.detail, res.body.approval_request_id]).toEqual([
        403,
        'A person denied this action',
        id,
      ]);
    }

    // Approved (by two people) for 24 hours: a re-spelled retry runs it, once.
    const approvedId = parkedId(await killSwitch(agent.token, '{"enable":true,"hours":24,"reason":"drill"}'));
    expect((await decide(owner.token, approvedId, { approve: true })).body.status).toBe('pending');
    expect((await decide(admin.token, approvedId, { approve: true })).body.status).toBe('approved');
    const ran = await killSwitch(agent.token, '{"reason":"drill","enable":true,"hours":24.000}');
    expect(ran.status, ran.text).toBe(200);
    expect(ran.body).toMatchObject({ engaged: true, reason: 'drill' });
    expect(await statusOf(owner.token, approvedId)).toBe('consumed');
    expect(parkedId(await killSwitch(agent.token, '{"enable":true,"hours":24,"reason":"drill"}'))).not.toBe(approvedId);
  });
});

describe('two people deciding one ask at once', () => {
  it('one decision settles it; the other is 409 and records nothing', async () => {
    const owner = await signUpOwner(svc.url, 'atkdecide');
    const admin = await addMember(svc, owner, 'admin');
    const agent = await supervised(owner, ['members:manage']);
    for (let round = 0; round < 3; round++) {
      const id = parkedId(await claimDomain(agent.token, domainName('both')));
      const answers = await Promise.all([
        decide(owner.token, id, { approve: true }),
        decide(admin.token, id, { approve: false }),
      ]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
      const won = answers.find((a) => a.status === 200)!;
      const lost = answers.find((a) => a.status === 409)!;
      expect(lost.body.detail).toBe(`This approval request is already ${won.body.status}`);
      const detail = await request(api(`/approvals/${id}`), { token: owner.token });
      expect(detail.body.status).toBe(won.body.status);
      expect(detail.body.decisions).toHaveLength(1);
      const decided = await rows(
        db(),
        sql`select 1 from events where action in ('approval.approved', 'approval.denied')
            and data->>'approval_request_id' = ${id}`,
      );
      expect(decided).toHaveLength(1);
    }
  });
});

describe('service credentials never decide', () => {
  it('an API key holding agents:approvals:decide and the action’s permission is refused, and decides nothing', async () => {
    const owner = await signUpOwner(svc.url, 'atkkey');
    const agent = await supervised(owner, ['members:manage']);
    const id = parkedId(await claimDomain(agent.token, domainName('keyed')));
    const key = await request(api('/tenants/api-keys'), {
      token: owner.token,
      json: { label: 'decider', scopes: ['agents:approvals:decide', 'agents:approvals:read', 'members:manage'] },
    });
    expect(key.status, key.text).toBe(201);
    for (const body of [{ approve: true }, { approve: true, break_glass: true }, { approve: false }]) {
      const res = await decide(key.body.key, id, body);
      expect([res.status, res.body.detail]).toEqual([
        403,
        'Approvals are decided by people: AI agents and service credentials may not decide them',
      ]);
    }
    const detail = await request(api(`/approvals/${id}`), { token: owner.token });
    expect([detail.body.status, detail.body.decisions]).toEqual(['pending', []]);
    expect(parkedId(await claimDomain(agent.token, detail.body.resource.body.domain))).toBe(id);
  });
});

describe('asks of one kind are never spent as another', () => {
  const post = (path: string, token: string, json: unknown) => request(api(path), { token, json });

  it('an approved content ask whose hash is an action’s fingerprint runs no action; an approved action is no content to consume', async () => {
    const owner = await signUpOwner(svc.url, 'atkkinds');
    const author = await agentOf(owner, ['content:draft:write', 'content:read']);
    const actor = await supervised(owner, ['members:manage', 'content:read']);
    const domain = domainName('smuggled');
    // The author asks for "content" review of the bytes whose hash is the fingerprint of the actor's action.
    const fingerprint = actionFingerprint({
      method: 'POST',
      route: '/api/v1/members/domains',
      params: {},
      body: { domain },
    });
    const content = await post('/approvals/content/request', author.token, { content_hash: fingerprint });
    expect(content.status, content.text).toBe(201);
    expect((await decide(owner.token, content.body.approval_id, { approve: true })).status).toBe(200);
    // The action still parks: a content approval is not an approval of the action.
    const id = parkedId(await claimDomain(actor.token, domain));
    expect(id).not.toBe(content.body.approval_id);
    expect(await statusOf(owner.token, content.body.approval_id)).toBe('approved');

    // The other way: an approved action's fingerprint is no content to consume, and the action ask stays unspent.
    const other = domainName('other');
    const actionId = parkedId(await claimDomain(actor.token, other));
    expect((await decide(owner.token, actionId, { approve: true })).status).toBe(200);
    const asked = await request(api(`/approvals/${actionId}`), { token: owner.token });
    const consume = await post('/approvals/content/consume', actor.token, { content_hash: asked.body.fingerprint });
    expect(consume.status, consume.text).toBe(404);
    expect(await statusOf(owner.token, actionId)).toBe('approved');
    expect((await claimDomain(actor.token, other)).status).toBe(201);
    // The content approval is still there for its bytes, spent once by the publisher.
    expect((await post('/approvals/content/consume', owner.token, { content_hash: fingerprint })).status).toBe(200);
  });
});

describe('manifest asks', () => {
  const suffix = () => randomBytes(4).toString('hex');
  const askFor = (token: string, body: unknown) => request(api('/manifest/request-approval'), { token, json: body });
  const apply = (token: string, body: unknown) => request(api('/manifest/apply'), { token, json: body });
  const applyRaw = (token: string, body: string) => request(api('/manifest/apply'), { token, body });
  const manifestOf = () => ({
    manifest_version: 1,
    roles: [{ code: `clerk-${suffix()}`, name: 'Clerk', permissions: ['command:read', 'members:read'] }],
    invites: [{ email: uniqueEmail('clerk'), role: 'auditor' }],
  });
  /** An organization whose agent asked for `manifest` and the owner approved it; the ask's id. */
  async function approvedManifest(label: string, manifest: ReturnType<typeof manifestOf>) {
    const owner = await signUpOwner(svc.url, label);
    const agent = await agentOf(owner, ['manifest:plan', 'manifest:apply']);
    const asked = await askFor(agent.token, { manifest });
    expect(asked.status, asked.text).toBe(201);
    expect((await decide(owner.token, asked.body.approval_id, { approve: true })).status).toBe(200);
    return { owner, agent, approvalId: asked.body.approval_id as string };
  }
  const roleRows = (tenantId: string, code: string) =>
    rows(db(), sql`select 1 from custom_roles where tenant_id = ${tenantId} and code = ${code}`);

  it('an apply stopped mid-run is resumed by its requester only: another agent gets no-approval and runs nothing', async () => {
    const manifest = manifestOf();
    const { owner, agent, approvalId } = await approvedManifest('atkresume', manifest);
    const other = await agentOf(owner, ['manifest:plan', 'manifest:apply']);
    svc.deps.manifests.testHooks.beforeStep = (step) => {
      if (step.kind === 'invite') throw new Error('injected fault');
    };
    expect((await apply(agent.token, { manifest })).status).toBe(502);
    svc.deps.manifests.testHooks.beforeStep = undefined;
    expect(await statusOf(owner.token, approvalId)).toBe('consumed');

    const stolen = await apply(other.token, { manifest });
    expect(stolen.status, stolen.text).toBe(403);
    expect(stolen.body).toMatchObject({ approval_state: 'no-approval' });
    const invites = () =>
      rows(
        db(),
        sql`select 1 from invitations where tenant_id = ${owner.tenantId} and email = ${manifest.invites[0]!.email}`,
      );
    expect(await invites()).toHaveLength(0);
    // Its requester resumes it.
    const resumed = await apply(agent.token, { manifest });
    expect(resumed.status, resumed.text).toBe(200);
    expect(resumed.body).toMatchObject({ approval_id: approvalId, resumed: true, applied: 1 });
    expect(await invites()).toHaveLength(1);
  });

  it('a re-spelled document is the approved one; after apply the approval recreates nothing, even once the state drifted', async () => {
    const manifest = manifestOf();
    const { owner, agent, approvalId } = await approvedManifest('atkreuse', manifest);
    const code = manifest.roles[0]!.code;
    // The same document, keys reversed and spaced out: JCS makes it the approved one.
    const reordered = `{ "manifest" : { "invites" : [ { "role":"auditor", "email":"${manifest.invites[0]!.email}" } ],
      "roles" : [ { "permissions":["command:read","members:read"], "name":"Clerk", "code":"${code}" } ],
      "manifest_version" : 1.0 } }`;
    const applied = await applyRaw(agent.token, reordered);
    expect(applied.status, applied.text).toBe(200);
    expect(applied.body).toMatchObject({ approval_id: approvalId, resumed: false, applied: 2 });
    expect(await statusOf(owner.token, approvalId)).toBe('consumed');

    // Someone deletes the role the manifest made; applying the same document again does not bring it back.
    const deleted = await request(api(`/authz/roles/${code}`), { method: 'DELETE', token: owner.token });
    expect(deleted.status, deleted.text).toBeLessThan(300);
    const again = await apply(agent.token, { manifest });
    expect(again.status, again.text).toBe(200);
    expect(again.body).toMatchObject({ approval_id: approvalId, resumed: true, applied: 0 });
    expect(await roleRows(owner.tenantId, code)).toHaveLength(0);
    expect(await consumedEvents(approvalId)).toHaveLength(1);
  });
});
