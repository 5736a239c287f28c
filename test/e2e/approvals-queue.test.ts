import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actionFingerprint } from '../../src/kernel/authz/fingerprint.js';
import { rows } from '../../src/kernel/db/index.js';
import { newId } from '../../src/kernel/ids.js';
import { mintAgentToken } from '../support/agent-tokens.js';
import { delegate, registerAgent } from '../support/agents.js';
import { request } from '../support/http.js';
import { addMember, signUpOwner } from '../support/organizations.js';
import { startService, type TestService } from '../support/service.js';

// The approval queue end to end over HTTP (issue 21 items 2-4; Part B 2.3, 3, 4.3): a supervised agent's action is
// parked, listed, read, decided by a person, spent once by the identical retry, and parked again after that; every
// refusal the issue names. The clock-moving cases (denial window, expiry) come last in the file.

let svc: TestService;
beforeAll(async () => {
  svc = await startService({ AGENT_APPROVALS_ENABLED: 'true' });
});
afterAll(async () => {
  await svc?.close();
});

const api = (path: string) => `${svc.url}/api/v1${path}`;
const db = () => svc.deps.database.db;
const HOUR = 3_600_000;

type Owner = Awaited<ReturnType<typeof signUpOwner>>;

interface Agent {
  agentId: string;
  credential: string;
  token: string;
  task: string;
}

/** A task token of the agent (its task text is the ask's justification). */
async function taskToken(credential: string, task: string, permissions: string[]) {
  const minted = await mintAgentToken(svc, credential, { task: { task, permissions, budget: 100 } });
  expect(minted.status, minted.text).toBe(200);
  return minted.body.access_token as string;
}

/** A supervised agent of `owner`'s organization, holding `permissions` delegated by the owner. */
async function supervisedAgent(owner: Owner, permissions: string[], task = 'claim the corporate domain') {
  const agent = await registerAgent(svc, owner.token, { oversight_mode: 'supervised' });
  const granted = await delegate(svc, owner.token, agent.agent_id, permissions);
  expect(granted.status, granted.text).toBe(201);
  const token = await taskToken(agent.credential, task, permissions);
  return { agentId: agent.agent_id, credential: agent.credential, token, task } satisfies Agent;
}

const domainName = (label: string) => `${label}-${newId().slice(-8)}.example.com`;
/** A `members:manage` action (risk 75: one approver). */
const claimDomain = (token: string, domain: string) => request(api('/members/domains'), { token, json: { domain } });
/** A `tenant:manage` action (risk 90: two approvers). */
const changeSetting = (token: string, value: boolean) =>
  request(api('/tenants/config/auth.social_login_enabled'), { method: 'PATCH', token, json: { value } });
const queue = (token: string, query = '') => request(api(`/approvals${query}`), { token });
const ask = (token: string, id: string) => request(api(`/approvals/${id}`), { token });
const decide = (token: string, id: string, body: Record<string, unknown>) =>
  request(api(`/approvals/${id}/decide`), { token, json: body });

/** Parks `action` (403 with approval_request_id) and answers the ask's id. */
async function parked(action: Promise<{ status: number; body: any; text: string }>) {
  const res = await action;
  expect(res.status, res.text).toBe(403);
  expect(res.body.detail).toBe('This action awaits a person’s approval; retry it once decided');
  expect(res.body.approval_request_id).toMatch(/^[0-9a-f-]{36}$/);
  return res.body.approval_request_id as string;
}

async function eventsOf(action: string, approvalId: string) {
  return rows<{ actor_id: string; actor_type: string; severity: string; outcome: string; data: any }>(
    db(),
    sql`select actor_id, actor_type, severity, outcome, data from events
        where action = ${action} and data->>'approval_request_id' = ${approvalId} order by occurred_at, id`,
  );
}

async function auditOf(action: string, approvalId: string) {
  return rows<{ actor_id: string; actor_type: string; data: any }>(
    db(),
    sql`select actor_id, actor_type, data from audit_log
        where action = ${action} and data->>'approval_request_id' = ${approvalId} order by seq`,
  );
}

const claimResource = (domain: string) => ({
  method: 'POST',
  route: '/api/v1/members/domains',
  params: {},
  body: { domain },
});

describe('the loop: park, list, read, decide, retry once, park again', () => {
  it('runs the identical retry exactly once after a person approves', async () => {
    const owner = await signUpOwner(svc.url, 'apprloop');
    const agent = await supervisedAgent(owner, ['members:manage', 'members:read']);
    const domain = domainName('loop');

    const id = await parked(claimDomain(agent.token, domain));
    // The identical retry while pending answers the same ask, not a duplicate.
    expect(await parked(claimDomain(agent.token, domain))).toBe(id);

    const listed = await queue(owner.token);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.next_cursor).toBeNull();
    expect(listed.body.approvals).toHaveLength(1);
    const expected = {
      id,
      approval_id: id,
      status: 'pending',
      agent_id: agent.agentId,
      resource_type: 'action',
      resource: claimResource(domain),
      fingerprint: actionFingerprint(claimResource(domain)),
      required_permission: 'members:manage',
      required_approvals: 1,
      approvals_recorded: 0,
      justification: agent.task,
      requested_by: agent.agentId,
      decided_at: null,
      decided_by: null,
      reason: null,
      consumed_at: null,
    };
    expect(listed.body.approvals[0]).toMatchObject(expected);
    const { created_at, expires_at } = listed.body.approvals[0];
    expect(Date.parse(expires_at) - Date.parse(created_at)).toBe(24 * HOUR);

    // The requesting agent reads its own ask; the owner reads it with its decisions.
    const own = await ask(agent.token, id);
    expect(own.status, own.text).toBe(200);
    expect(own.body).toMatchObject({ ...expected, decisions: [] });
    expect((await ask(owner.token, id)).body).toEqual(own.body);

    // The owner delegated to the agent; that does not make the owner the requester.
    const approved = await decide(owner.token, id, { approve: true, reason: 'expected: our new subsidiary' });
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body).toMatchObject({
      id,
      status: 'approved',
      approvals_recorded: 1,
      decided_by: owner.userId,
      reason: 'expected: our new subsidiary',
      decisions: [
        { decided_by: owner.userId, approve: true, reason: 'expected: our new subsidiary', break_glass: false },
      ],
    });
    // Audited with the approver, the reason and the bound action's hash, and an event.
    const decided = {
      approval_request_id: id,
      agent_id: agent.agentId,
      approver: owner.userId,
      approve: true,
      reason: 'expected: our new subsidiary',
      break_glass: false,
      fingerprint: actionFingerprint(claimResource(domain)),
      required_permission: 'members:manage',
      status: 'approved',
    };
    const [event] = await eventsOf('approval.approved', id);
    expect(event).toMatchObject({ actor_id: owner.userId, actor_type: 'human', outcome: 'success', data: decided });
    const [audit] = await auditOf('approval.approved', id);
    expect(audit).toMatchObject({ actor_id: owner.userId, actor_type: 'human', data: decided });

    // The identical retry runs, once, and spends the approval.
    const ran = await claimDomain(agent.token, domain);
    expect(ran.status, ran.text).toBe(201);
    expect(ran.body.domain).toBe(domain);
    const spent = await ask(agent.token, id);
    expect(spent.body.status).toBe('consumed');
    expect(spent.body.consumed_at).not.toBeNull();
    expect(await eventsOf('approval.consumed', id)).toHaveLength(1);

    // The next identical retry is not covered: it parks a new ask.
    const again = await parked(claimDomain(agent.token, domain));
    expect(again).not.toBe(id);
    const claims = await request(api('/members/domains'), { token: owner.token });
    expect(claims.body.filter((claim: { domain: string }) => claim.domain === domain)).toHaveLength(1);

    // A spent ask cannot be decided again.
    const late = await decide(owner.token, id, { approve: true });
    expect([late.status, late.body.detail]).toEqual([409, 'This approval request is already consumed']);

    // The approver's data export lists the decision.
    const mine = await request(api('/gdpr/my-data'), { token: owner.token });
    expect(mine.status, mine.text).toBe(200);
    expect(mine.body.sections.approvals.decisions).toEqual([
      {
        approval_id: id,
        approve: true,
        reason: 'expected: our new subsidiary',
        break_glass: false,
        decided_at: expect.any(String),
      },
    ]);
  });

  it('binds to the exact action: a different body or target is not covered and parks its own ask', async () => {
    const owner = await signUpOwner(svc.url, 'apprbinds');
    const agent = await supervisedAgent(owner, ['members:manage']);
    const domain = domainName('asked');
    const id = await parked(claimDomain(agent.token, domain));
    expect((await decide(owner.token, id, { approve: true })).status).toBe(200);

    const other = await parked(claimDomain(agent.token, domainName('other')));
    expect(other).not.toBe(id);
    // Same body, another route (the same permission): not covered either.
    const elsewhere = await parked(
      request(api(`/members/invites`), { token: agent.token, json: { email: `x-${newId()}@example.com` } }),
    );
    expect(elsewhere).not.toBe(id);
    // The approved ask is untouched and still covers the asked action.
    expect((await ask(owner.token, id)).body.status).toBe('approved');
    expect((await claimDomain(agent.token, domain)).status).toBe(201);
    expect((await ask(owner.token, id)).body.status).toBe('consumed');
  });
});

describe('the queue', () => {
  it('filters by status, agent and resource type, pages newest first, and keeps to its organization', async () => {
    const owner = await signUpOwner(svc.url, 'apprqueue');
    const first = await supervisedAgent(owner, ['members:manage']);
    const second = await supervisedAgent(owner, ['members:manage']);
    const a = await parked(claimDomain(first.token, domainName('qa')));
    const b = await parked(claimDomain(first.token, domainName('qb')));
    const c = await parked(claimDomain(second.token, domainName('qc')));
    expect((await decide(owner.token, a, { approve: true })).status).toBe(200);
    expect((await decide(owner.token, b, { approve: false, reason: 'not ours' })).status).toBe(200);

    const ids = async (query: string) => {
      const res = await queue(owner.token, query);
      expect(res.status, res.text).toBe(200);
      return res.body.approvals.map((row: { id: string }) => row.id);
    };
    expect(await ids('')).toEqual([c, b, a]);
    expect(await ids('?status=pending')).toEqual([c]);
    expect(await ids('?status=approved')).toEqual([a]);
    expect(await ids('?status=denied')).toEqual([b]);
    expect(await ids('?status=consumed')).toEqual([]);
    expect(await ids('?status=expired')).toEqual([]);
    expect(await ids(`?agent_id=${first.agentId}`)).toEqual([b, a]);
    expect(await ids(`?agent_id=${second.agentId}&status=pending`)).toEqual([c]);
    expect(await ids('?resource_type=action')).toEqual([c, b, a]);
    expect(await ids('?resource_type=content')).toEqual([]);
    expect(await ids(`?agent_id=${newId()}`)).toEqual([]);

    // Keyset pages.
    const page1 = await queue(owner.token, '?limit=2');
    expect(page1.body.approvals.map((row: { id: string }) => row.id)).toEqual([c, b]);
    const page2 = await queue(owner.token, `?limit=2&cursor=${page1.body.next_cursor}`);
    expect(page2.body.approvals.map((row: { id: string }) => row.id)).toEqual([a]);
    expect(page2.body.next_cursor).toBeNull();

    // Malformed filters are 422 naming the field.
    for (const [query, field] of [
      ['?status=maybe', 'status'],
      ['?agent_id=not-a-uuid', 'agent_id'],
      ['?resource_type=Bad%20Type', 'resource_type'],
      ['?limit=0', 'limit'],
      ['?cursor=nonsense', 'cursor'],
    ] as const) {
      const res = await queue(owner.token, query);
      expect(res.status, query).toBe(422);
      expect(res.body.detail).toContain(field);
    }

    // Another organization sees none of it: its queue is empty and each ask is 404 like an unknown one.
    const stranger = await signUpOwner(svc.url, 'apprstranger');
    expect((await queue(stranger.token)).body.approvals).toEqual([]);
    expect((await queue(stranger.token, `?agent_id=${first.agentId}`)).body.approvals).toEqual([]);
    const unknown = await ask(stranger.token, newId());
    for (const res of [await ask(stranger.token, c), unknown, await ask(owner.token, 'not-an-id')]) {
      expect([res.status, res.body]).toEqual([404, { detail: 'Approval request not found' }]);
    }
    const foreign = await decide(stranger.token, c, { approve: true });
    expect([foreign.status, foreign.body]).toEqual([404, { detail: 'Approval request not found' }]);
    expect((await ask(owner.token, c)).body.status).toBe('pending');
  });

  it('lets an agent read only its own asks; people need agents:approvals:read', async () => {
    const owner = await signUpOwner(svc.url, 'appragentread');
    const mine = await supervisedAgent(owner, ['members:manage']);
    const other = await supervisedAgent(owner, ['members:manage', 'agents:approvals:read']);
    const id = await parked(claimDomain(mine.token, domainName('own')));
    expect((await ask(mine.token, id)).status).toBe(200);
    // Another agent of the organization, even one holding agents:approvals:read: 404, like an unknown ask.
    const refused = await ask(other.token, id);
    expect([refused.status, refused.body]).toEqual([404, { detail: 'Approval request not found' }]);
    // The queue names its permission: an agent without it is refused, one holding it reads the queue.
    expect((await queue(mine.token)).status).toBe(403);
    const read = await queue(other.token);
    expect(read.status, read.text).toBe(200);
    expect(read.body.approvals.map((row: { id: string }) => row.id)).toEqual([id]);

    const member = await addMember(svc, owner, 'member');
    for (const res of [await queue(member.token), await ask(member.token, id)]) {
      expect([res.status, res.body.detail]).toEqual([403, 'Missing permission: agents:approvals:read']);
    }
    const auditor = await addMember(svc, owner, 'auditor');
    expect((await ask(auditor.token, id)).status).toBe(200);
    expect((await queue(auditor.token)).status).toBe(200);
  });
});

describe('deciding: who may, and when', () => {
  it('refuses agents, the requester, a member, an approver lacking the permission (named), and break-glass by a non-owner', async () => {
    const owner = await signUpOwner(svc.url, 'apprrefusals');
    const agent = await supervisedAgent(owner, ['members:manage', 'agents:approvals:decide', 'agents:approvals:read']);
    const id = await parked(claimDomain(agent.token, domainName('refusals')));

    // An agent never decides, even holding agents:approvals:decide, and not its own ask either.
    const byAgent = await decide(agent.token, id, { approve: true });
    expect([byAgent.status, byAgent.body.detail]).toEqual([
      403,
      'Approvals are decided by people: AI agents and service credentials may not decide them',
    ]);
    const member = await addMember(svc, owner, 'member');
    const byMember = await decide(member.token, id, { approve: true });
    expect([byMember.status, byMember.body.detail]).toEqual([403, 'Missing permission: agents:approvals:decide']);
    // A security operator may decide asks, but not one whose action needs members:manage, which it lacks.
    const operator = await addMember(svc, owner, 'security_operator');
    const byOperator = await decide(operator.token, id, { approve: true });
    expect([byOperator.status, byOperator.body.detail]).toEqual([
      403,
      'Missing permission: members:manage (the asked action needs it, so its approver must hold it)',
    ]);
    const admin = await addMember(svc, owner, 'admin');
    const glass = await decide(admin.token, id, { approve: true, break_glass: true });
    expect([glass.status, glass.body.detail]).toEqual([403, 'Only an owner may break glass']);
    // A reason over 2000 characters is 422 naming it; a body that is not the contract too.
    const long = await decide(admin.token, id, { approve: true, reason: 'x'.repeat(2001) });
    expect([long.status, long.body.detail.includes('reason')]).toEqual([422, true]);
    expect((await decide(admin.token, id, {})).status).toBe(422);
    const nul = await decide(admin.token, id, { approve: true, reason: 'a\u0000b' });
    expect([nul.status, nul.body.detail.includes('reason')]).toEqual([422, true]);
    expect((await decide(admin.token, id, { approve: true, extra: 1 })).status).toBe(422);
    // None of it decided anything.
    const still = await ask(owner.token, id);
    expect([still.body.status, still.body.decisions]).toEqual(['pending', []]);
    expect(await eventsOf('approval.approved', id)).toEqual([]);

    // The admin holds both permissions: approved (a reason of exactly 2000 characters is fine).
    const approved = await decide(admin.token, id, { approve: true, reason: 'y'.repeat(2000) });
    expect([approved.status, approved.body.status, approved.body.decided_by]).toEqual([200, 'approved', admin.userId]);
    // Decided twice: 409, whoever asks.
    for (const token of [admin.token, owner.token]) {
      const twice = await decide(token, id, { approve: false });
      expect([twice.status, twice.body.detail]).toEqual([409, 'This approval request is already approved']);
    }
  });

  it('refuses a person deciding an ask they requested, break-glass or not', async () => {
    const owner = await signUpOwner(svc.url, 'apprself');
    const admin = await addMember(svc, owner, 'admin');
    // Set-up: no HTTP route lets a person file an ask today, so the row a person-requested ask would be is written
    // directly; the rule is the decision route's.
    const id = newId();
    const now = svc.clock.now();
    await db().execute(
      sql`insert into approval_requests (id, tenant_id, status, resource_type, fingerprint, required_permission,
            requested_by, created_at, expires_at)
          values (${id}, ${owner.tenantId}, 'pending', 'manifest', ${'f'.repeat(64)}, 'members:manage',
            ${owner.userId}, ${now}, ${new Date(now.getTime() + 24 * HOUR)})`,
    );
    for (const body of [{ approve: true }, { approve: false }, { approve: true, break_glass: true }]) {
      const own = await decide(owner.token, id, body);
      expect([own.status, own.body.detail]).toEqual([
        403,
        'You requested this approval: another person must decide it',
      ]);
    }
    expect((await ask(owner.token, id)).body).toMatchObject({ status: 'pending', requested_by: owner.userId });
    const byAdmin = await decide(admin.token, id, { approve: true });
    expect([byAdmin.status, byAdmin.body.status]).toEqual([200, 'approved']);
    expect((await ask(owner.token, id)).body).toMatchObject({ resource_type: 'manifest', resource: null });
  });

  it('denies on one denial; the denied action is refused again with the same ask', async () => {
    const owner = await signUpOwner(svc.url, 'apprdeny');
    const agent = await supervisedAgent(owner, ['members:manage']);
    const domain = domainName('denied');
    const id = await parked(claimDomain(agent.token, domain));
    const denied = await decide(owner.token, id, { approve: false, reason: 'we do not own that domain' });
    expect(denied.status, denied.text).toBe(200);
    expect(denied.body).toMatchObject({ status: 'denied', approvals_recorded: 0, reason: 'we do not own that domain' });
    const [event] = await eventsOf('approval.denied', id);
    expect(event).toMatchObject({
      actor_id: owner.userId,
      data: { approver: owner.userId, approve: false, reason: 'we do not own that domain', status: 'denied' },
    });
    expect(await auditOf('approval.denied', id)).toHaveLength(1);
    for (let i = 0; i < 2; i++) {
      const again = await claimDomain(agent.token, domain);
      expect([again.status, again.body.detail, again.body.approval_request_id]).toEqual([
        403,
        'A person denied this action',
        id,
      ]);
    }
    const twice = await decide(owner.token, id, { approve: true });
    expect([twice.status, twice.body.detail]).toEqual([409, 'This approval request is already denied']);
  });
});

describe('two approvers for the riskiest actions', () => {
  it('counts distinct people until required_approvals; nobody approves twice', async () => {
    const owner = await signUpOwner(svc.url, 'apprtwo');
    const agent = await supervisedAgent(owner, ['tenant:manage'], 'turn social sign-in off');
    const admin = await addMember(svc, owner, 'admin');
    const id = await parked(changeSetting(agent.token, false));
    const pending = await ask(owner.token, id);
    expect(pending.body).toMatchObject({ required_permission: 'tenant:manage', required_approvals: 2 });

    const first = await decide(owner.token, id, { approve: true, reason: 'fine by me' });
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({ status: 'pending', approvals_recorded: 1, decided_at: null, decided_by: null });
    expect(await eventsOf('approval.approval_recorded', id)).toHaveLength(1);
    const twice = await decide(owner.token, id, { approve: true });
    expect([twice.status, twice.body.detail]).toEqual([
      409,
      'You already decided this approval request: another person must approve it',
    ]);
    // One approval of two does not let the action through.
    expect(await parked(changeSetting(agent.token, false))).toBe(id);

    const second = await decide(admin.token, id, { approve: true, reason: 'agreed' });
    expect(second.body).toMatchObject({ status: 'approved', approvals_recorded: 2, decided_by: admin.userId });
    expect(second.body.decisions.map((d: { decided_by: string }) => d.decided_by)).toEqual([
      owner.userId,
      admin.userId,
    ]);
    expect((await changeSetting(agent.token, false)).status).toBe(200);
    const settings = await request(api('/tenants/config/schema'), { token: owner.token });
    expect(settings.body.find((s: { key: string }) => s.key === 'auth.social_login_enabled').value).toBe(false);
  });

  it('lets an owner break glass: one decision settles it, audited as critical with a detection', async () => {
    const owner = await signUpOwner(svc.url, 'apprglass');
    const agent = await supervisedAgent(owner, ['tenant:manage'], 'turn social sign-in off');
    const id = await parked(changeSetting(agent.token, false));
    const glass = await decide(owner.token, id, { approve: true, break_glass: true, reason: 'incident 42' });
    expect(glass.status, glass.text).toBe(200);
    expect(glass.body).toMatchObject({
      status: 'approved',
      approvals_recorded: 1,
      required_approvals: 2,
      decisions: [{ decided_by: owner.userId, approve: true, break_glass: true, reason: 'incident 42' }],
    });
    const [event] = await eventsOf('approval.approved', id);
    expect(event).toMatchObject({ severity: 'critical', data: { break_glass: true, approver: owner.userId } });
    const detections = await rows<{ severity: string; data: any }>(
      db(),
      sql`select severity, data from detections where tenant_id = ${owner.tenantId} and rule_id = 'approval-break-glass'`,
    );
    expect(detections).toEqual([expect.objectContaining({ severity: 'critical' })]);
    expect(detections[0]!.data).toMatchObject({ approval_request_id: id, approver: owner.userId });
    expect((await changeSetting(agent.token, false)).status).toBe(200);
  });
});

describe('by the clock', () => {
  /** Fresh tokens after the clock moved past theirs. */
  async function relogin(who: Owner) {
    const login = await request(api('/auth/login'), {
      json: { email: who.email, password: who.password, tenant_slug: who.slug },
    });
    expect(login.status, login.text).toBe(200);
    return login.body.access_token as string;
  }

  it('repeats a denial for an hour, then parks the action afresh', async () => {
    const owner = await signUpOwner(svc.url, 'apprwindow');
    const agent = await supervisedAgent(owner, ['members:manage']);
    const domain = domainName('window');
    const id = await parked(claimDomain(agent.token, domain));
    expect((await decide(owner.token, id, { approve: false })).status).toBe(200);
    svc.clock.advance(59 * 60_000);
    const token = await taskToken(agent.credential, agent.task, ['members:manage']);
    expect((await claimDomain(token, domain)).body.approval_request_id).toBe(id);
    svc.clock.advance(2 * 60_000);
    const fresh = await parked(claimDomain(token, domain));
    expect(fresh).not.toBe(id);
  });

  it('expires an undecided ask after 24 hours: status expired, decide 409, the retry parks again', async () => {
    const owner = await signUpOwner(svc.url, 'apprexpiry');
    const agent = await supervisedAgent(owner, ['members:manage']);
    const domain = domainName('expiry');
    const id = await parked(claimDomain(agent.token, domain));
    const approvedId = await parked(claimDomain(agent.token, domainName('approved-then-expired')));
    expect((await decide(owner.token, approvedId, { approve: true })).status).toBe(200);

    svc.clock.advance(24 * HOUR - 1000);
    let ownerToken = await relogin(owner);
    expect((await ask(ownerToken, id)).body.status).toBe('pending');
    svc.clock.advance(1000);
    ownerToken = await relogin(owner);
    const expired = await ask(ownerToken, id);
    expect(expired.body.status).toBe('expired');
    // An approval not spent in time expires too.
    expect((await ask(ownerToken, approvedId)).body.status).toBe('expired');
    const listed = await queue(ownerToken, '?status=expired');
    expect(listed.body.approvals.map((row: { id: string }) => row.id)).toEqual([approvedId, id]);
    expect((await queue(ownerToken, '?status=pending')).body.approvals).toEqual([]);
    for (const approve of [true, false]) {
      const late = await decide(ownerToken, id, { approve });
      expect(late.status).toBe(409);
      expect(late.body.detail).toMatch(/^This approval request expired at .+: it can no longer be decided$/);
    }
    const token = await taskToken(agent.credential, agent.task, ['members:manage']);
    const again = await parked(claimDomain(token, domain));
    expect(again).not.toBe(id);
    expect(await parked(claimDomain(token, domain))).toBe(again);
  });
});
