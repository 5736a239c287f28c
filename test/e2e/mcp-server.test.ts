import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/kernel/db/index.js';
import { newId } from '../../src/kernel/ids.js';
import { agentAccessToken } from '../support/agent-tokens.js';
import { delegate, registerAgent } from '../support/agents.js';
import { request } from '../support/http.js';
import { signUpOwner } from '../support/organizations.js';
import { startService, type TestService } from '../support/service.js';

// The first-party MCP server end to end (issue 24; Part B 4.4, 7, 8, 9.2): the official SDK client over Streamable
// HTTP with a bearer header, and raw JSON-RPC posts. Who may call, tools/list by authority, every call rule and
// message, the per-call park approved by a person and spent by the identical retry, manifests through the tools,
// governance (ceiling, task scope, budget, kill switch) and the per-agent throttle counting every frame.

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

const ALL = ['command:read', 'command:operate', 'manifest:plan', 'manifest:apply'];

async function agentOf(owner: Owner, permissions: string[], body: Record<string, unknown> = {}) {
  const agent = await registerAgent(svc, owner.token, body);
  if (permissions.length > 0) {
    const granted = await delegate(svc, owner.token, agent.agent_id, permissions);
    expect(granted.status, granted.text).toBe(201);
  }
  return { agentId: agent.agent_id as string, credential: agent.credential as string };
}

async function connect(token: string) {
  const client = new Client({ name: 'mcp-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(api('/mcp')), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return client;
}

let rpcId = 0;
/** One raw JSON-RPC post, as a generic client would send it. */
const rpc = (token: string | undefined, method: string, params?: unknown, headers: Record<string, string> = {}) =>
  request(api('/mcp'), {
    ...(token ? { token } : {}),
    json: { jsonrpc: '2.0', id: ++rpcId, method, ...(params === undefined ? {} : { params }) },
    headers: { accept: 'application/json, text/event-stream', ...headers },
  });

/** `tools/call` over raw JSON-RPC: the `result` (a tool answer or a tool error). */
async function call(token: string, name: string, args?: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const res = await rpc(token, 'tools/call', { name, ...(args === undefined ? {} : { arguments: args }), ...extra });
  expect(res.status, res.text).toBe(200);
  expect(res.body.error, res.text).toBeUndefined();
  return res.body.result as { isError?: boolean; content: Array<{ text: string }>; structuredContent: any };
}

async function detection(tenantId: string) {
  const groupKey = `probe:${newId()}`;
  await svc.deps.transactions.tenant(tenantId, (tx) =>
    svc.deps.events.detect(tx, {
      tenantId,
      ruleId: 'mcp-test-signal',
      groupKey,
      severity: 'warn',
      data: { ip: '203.0.113.9' },
    }),
  );
  const [row] = await rows<{ id: string }>(db(), sql`select id from detections where group_key = ${groupKey}`);
  return row!.id;
}

const asks = async (tenantId: string) =>
  (
    await rows<{ n: number }>(db(), sql`select count(*)::int as n from approval_requests where tenant_id = ${tenantId}`)
  )[0]!.n;

const decide = (token: string, id: string, approve = true) =>
  request(api(`/approvals/${id}/decide`), { token, json: { approve } });

describe('who may call POST /mcp', () => {
  it('answers 401 without a credential and 403 to a person and to an API key', async () => {
    const owner = await signUpOwner(svc.url, 'mcp-who');
    expect((await rpc(undefined, 'ping')).status).toBe(401);
    const person = await rpc(owner.token, 'ping');
    expect(person.status).toBe(403);
    expect(person.body.detail).toBe('The MCP server is open to AI agents only');
    const key = await request(api('/tenants/api-keys'), {
      token: owner.token,
      json: { label: 'k', scopes: ['command:read'] },
    });
    expect(key.status, key.text).toBe(201);
    expect((await rpc(key.body.key, 'ping')).status).toBe(403);
  });

  it('refuses every frame of an agent whose kill switch is engaged, first', async () => {
    const owner = await signUpOwner(svc.url, 'mcp-kill');
    const agent = await agentOf(owner, ALL);
    const token = await agentAccessToken(svc, agent.credential);
    expect((await rpc(token, 'ping')).status).toBe(200);
    const engaged = await request(api(`/agents/${agent.agentId}/kill-switch`), {
      token: owner.token,
      json: { engaged: true, reason: 'investigating' },
    });
    expect(engaged.status, engaged.text).toBe(200);
    for (const [method, params] of [
      ['ping', undefined],
      ['tools/list', {}],
      ['tools/call', { name: 'whoami', arguments: { bogus: 1 } }],
    ] as const) {
      const res = await rpc(token, method, params);
      expect(res.status, method).toBe(403);
      expect(res.body.detail).toMatch(/kill switch is engaged/);
    }
  });
});

describe('the SDK client', () => {
  it('initializes on 2025-06-18, pings, lists only whoami without delegations, and calls it', async () => {
    const owner = await signUpOwner(svc.url, 'mcp-sdk');
    const agent = await agentOf(owner, []);
    const token = await agentAccessToken(svc, agent.credential);
    const client = await connect(token);
    expect(client.getServerVersion()?.name).toBe('svc');
    await client.ping();
    const listed = await client.listTools();
    expect(listed.tools.map((tool) => tool.name)).toEqual(['whoami']);
    expect(listed.tools[0]!.inputSchema).toMatchObject({ type: 'object', additionalProperties: false });
    const me = await client.callTool({ name: 'whoami', arguments: {} });
    expect(me.isError).toBeFalsy();
    expect(me.structuredContent).toEqual({
      agent_id: agent.agentId,
      name: expect.any(String),
      tenant_id: owner.tenantId,
      oversight_mode: 'autonomous',
      risk_ceiling: 100,
      permissions: [],
      task: null,
    });
    const denied = await client.callTool({ name: 'list_detections', arguments: {} });
    expect(denied).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'denied: not authorized for this tool' }],
    });
    await client.close();
  });

  it('lists the tools the delegations reach, each with its inputSchema', async () => {
    const owner = await signUpOwner(svc.url, 'mcp-list');
    const agent = await agentOf(owner, ['command:read']);
    const client = await connect(await agentAccessToken(svc, agent.credential));
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(
      ['assure_latest_report', 'list_detections', 'query_audit', 'read_entitlements', 'whoami'].sort(),
    );
    for (const tool of tools) expect(tool.inputSchema.type).toBe('object');
    const full = await agentOf(owner, ALL);
    const all = await connect(await agentAccessToken(svc, full.credential));
    expect((await all.listTools()).tools).toHaveLength(9);
    // A task token narrows the list to its scope.
    const scoped = await connect(
      await agentAccessToken(svc, full.credential, {
        task: { task: 'plan', permissions: ['manifest:plan'], budget: 10 },
      }),
    );
    expect((await scoped.listTools()).tools.map((tool) => tool.name).sort()).toEqual(['plan_manifest', 'whoami']);
    await Promise.all([client.close(), all.close(), scoped.close()]);
  });

  it('reads detections, audit, entitlements and the assurance report with documented fields only', async () => {
    const owner = await signUpOwner(svc.url, 'mcp-read');
    const agent = await agentOf(owner, ['command:read']);
    const id = await detection(owner.tenantId);
    const client = await connect(await agentAccessToken(svc, agent.credential));
    const found = await client.callTool({ name: 'list_detections', arguments: { rule_id: 'mcp-test-signal' } });
    const listed = (found.structuredContent as any).detections;
    expect(listed).toHaveLength(1);
    expect(Object.keys(listed[0]).sort()).toEqual(
      ['count', 'first_seen', 'id', 'last_seen', 'note', 'rule_id', 'severity', 'status', 'tenant_id'].sort(),
    );
    expect(listed[0]).toMatchObject({ id, status: 'open' });
    expect(JSON.stringify(found)).not.toContain('203.0.113.9');
    const audit = (await client.callTool({ name: 'query_audit', arguments: { limit: 5 } })).structuredContent as any;
    expect(audit.entries.length).toBeGreaterThan(0);
    for (const entry of audit.entries) {
      expect(entry).not.toHaveProperty('correlation_id');
      expect(entry).not.toHaveProperty('data');
    }
    const plan = (await client.callTool({ name: 'read_entitlements', arguments: {} })).structuredContent as any;
    expect(plan).toMatchObject({ plan_code: 'free', features: expect.any(Array), caps: expect.any(Object) });
    const report = await client.callTool({ name: 'assure_latest_report', arguments: {} });
    expect(report.structuredContent).toEqual({ report: null });
    await client.close();
  });
});

describe('raw JSON-RPC and the call rules', () => {
  let owner: Owner;
  let token: string;
  beforeAll(async () => {
    owner = await signUpOwner(svc.url, 'mcp-rules');
    const agent = await agentOf(owner, ALL);
    token = await agentAccessToken(svc, agent.credential);
  });

  it('answers initialize with 2025-06-18 whatever version is asked, and refuses another version header', async () => {
    const init = await rpc(token, 'initialize', {
      protocolVersion: '2024-11-05',
      capabilities: {},
      clientInfo: { name: 'raw', version: '0' },
    });
    expect(init.status, init.text).toBe(200);
    expect(init.body.result).toMatchObject({ protocolVersion: '2025-06-18', capabilities: { tools: {} } });
    expect(init.headers.get('mcp-session-id')).toBeNull();
    const other = await rpc(token, 'ping', undefined, { 'mcp-protocol-version': '2025-03-26' });
    expect(other.status).toBe(400);
    expect(other.body.error.message).toMatch(/2025-06-18/);
    const ping = await rpc(token, 'ping', undefined, { 'mcp-protocol-version': '2025-06-18' });
    expect(ping.body).toEqual({ jsonrpc: '2.0', id: rpcId, result: {} });
  });

  it('refuses dry_run inside arguments, a dry run of a read tool, and arguments off the schema, parking nothing', async () => {
    const id = await detection(owner.tenantId);
    const before = await asks(owner.tenantId);
    expect(await call(token, 'acknowledge_detection', { id, dry_run: true })).toMatchObject({
      isError: true,
      content: [{ text: 'dry_run is a call-level flag, not a tool argument' }],
    });
    expect(await call(token, 'list_detections', {}, { dry_run: true })).toMatchObject({
      isError: true,
      content: [{ text: 'this tool has no dry-run' }],
    });
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['list_detections', { bogus: 1 }, 'invalid arguments: bogus: is not a known field'],
      ['list_detections', { limit: 'ten' }, 'invalid arguments: limit: must be integer'],
      ['list_detections', { limit: 5000 }, 'invalid arguments: limit: must be <= 1000'],
      ['acknowledge_detection', { note: 'x' }, 'invalid arguments: id: is required'],
      ['acknowledge_detection', { id, status: 'open' }, 'invalid arguments: status: must be equal to constant'],
      ['plan_manifest', {}, 'invalid arguments: manifest: is required'],
      [
        'apply_manifest',
        { manifest: { manifest_version: 2 } },
        'invalid arguments: manifest.manifest_version: must be the integer 1',
      ],
    ];
    for (const [name, args, message] of cases) {
      const result = await call(token, name, args);
      expect(result.isError, name).toBe(true);
      expect(result.content[0]!.text).toBe(message);
    }
    expect(await asks(owner.tenantId)).toBe(before);
    const unknown = await rpc(token, 'tools/call', { name: 'drop_tables', arguments: {} });
    expect(unknown.body.error).toMatchObject({ code: -32602, message: expect.stringContaining('drop_tables') });
  });

  it('answers a dry run of a write with its effect, no side effect and no approval asked', async () => {
    const id = await detection(owner.tenantId);
    const before = await asks(owner.tenantId);
    const dry = await call(token, 'acknowledge_detection', { id }, { dry_run: true });
    expect(dry.isError).toBeFalsy();
    expect(dry.structuredContent).toEqual({
      dry_run: true,
      effect: { detection_id: id, from: 'open', to: 'acknowledged', would: 'change' },
    });
    expect(await asks(owner.tenantId)).toBe(before);
    const [row] = await rows<{ status: string }>(db(), sql`select status from detections where id = ${id}`);
    expect(row!.status).toBe('open');
  });

  it('parks acknowledge_detection per call; a person approves; the identical retry consumes it', async () => {
    const id = await detection(owner.tenantId);
    const first = await call(token, 'acknowledge_detection', { id, note: 'benign scanner' });
    expect(first).toMatchObject({ isError: true, content: [{ text: 'pending human approval' }] });
    const approvalId = first.structuredContent.approval_id as string;
    expect(approvalId).toMatch(/^[0-9a-f-]{36}$/);
    // The same call waits on the same ask; different arguments park a new one.
    expect((await call(token, 'acknowledge_detection', { note: 'benign scanner', id })).structuredContent).toEqual({
      error: 'pending human approval',
      approval_id: approvalId,
    });
    const other = await call(token, 'acknowledge_detection', { id, note: 'other words' });
    expect(other.structuredContent.approval_id).not.toBe(approvalId);

    const queued = await request(api(`/approvals/${approvalId}`), { token: owner.token });
    expect(queued.body).toMatchObject({ status: 'pending', resource_type: 'action' });
    expect((await decide(owner.token, approvalId)).status).toBe(200);

    const done = await call(token, 'acknowledge_detection', { id, note: 'benign scanner' });
    expect(done.isError, JSON.stringify(done)).toBeFalsy();
    expect(done.structuredContent).toMatchObject({ id, status: 'acknowledged', note: 'benign scanner' });
    expect((await request(api(`/approvals/${approvalId}`), { token: owner.token })).body.status).toBe('consumed');
    const events = await rows<{ actor_type: string; actor_id: string }>(
      db(),
      sql`select actor_type, actor_id from events where action = 'detection.acknowledged' and data->>'detection_id' = ${id}`,
    );
    expect(events).toHaveLength(1);
    expect(events[0]!.actor_type).toBe('agent');
    // Spent once: the same call again asks anew.
    const again = await call(token, 'acknowledge_detection', { id, note: 'benign scanner' });
    expect(again.structuredContent.error).toBe('pending human approval');
    expect(again.structuredContent.approval_id).not.toBe(approvalId);
  });

  it('plans, asks approval for and applies a manifest only against the approved hash; plan-changed refused', async () => {
    const manifest = {
      manifest_version: 1,
      roles: [{ code: `mcp-role-${newId().slice(-6)}`, name: 'MCP readers', permissions: ['command:read'] }],
    };
    const plan = await call(token, 'plan_manifest', { manifest });
    expect(plan.structuredContent).toMatchObject({ appliable: true, manifest_hash: expect.any(String) });
    const early = await call(token, 'apply_manifest', { manifest });
    expect(early).toMatchObject({ isError: true, structuredContent: { approval_state: 'no-approval' } });
    const asked = await call(token, 'request_manifest_approval', { manifest });
    expect(asked.structuredContent).toMatchObject({ approval_status: 'pending', created: true });
    expect(await call(token, 'request_manifest_approval', { manifest }, { dry_run: true })).toMatchObject({
      content: [{ text: 'this tool has no dry-run' }],
    });
    expect((await decide(owner.token, asked.structuredContent.approval_id)).status).toBe(200);
    const dry = await call(token, 'apply_manifest', { manifest }, { dry_run: true });
    expect(dry.structuredContent).toMatchObject({
      dry_run: true,
      effect: { manifest_hash: plan.structuredContent.manifest_hash },
    });
    const applied = await call(token, 'apply_manifest', { manifest });
    expect(applied.isError, JSON.stringify(applied)).toBeFalsy();
    expect(applied.structuredContent).toMatchObject({ approval_id: asked.structuredContent.approval_id, applied: 1 });

    // Approved, then the organization changes so that the same document would now do something else.
    const changing = {
      manifest_version: 1,
      roles: [{ code: `mcp-drift-${newId().slice(-6)}`, name: 'Drift', permissions: ['command:read'] }],
    };
    const ask = await call(token, 'request_manifest_approval', { manifest: changing });
    expect((await decide(owner.token, ask.structuredContent.approval_id)).status).toBe(200);
    const role = changing.roles[0]!;
    const made = await request(api('/authz/roles'), { token: owner.token, json: role });
    expect(made.status, made.text).toBe(201);
    const refused = await call(token, 'apply_manifest', { manifest: changing });
    expect(refused).toMatchObject({ isError: true, structuredContent: { approval_state: 'plan-changed' } });
  });
});

describe('one SDK server for every request', () => {
  it('answers concurrent requests that share a JSON-RPC id each with its own caller and its own id', async () => {
    const owner = await signUpOwner(svc.url, 'mcp-concurrent');
    const agents = await Promise.all([0, 1, 2, 3].map(() => agentOf(owner, ['command:read'])));
    const tokens = await Promise.all(agents.map((agent) => agentAccessToken(svc, agent.credential)));
    const post = (token: string, id: number | string, method: string, params?: unknown) =>
      request(api('/mcp'), {
        token,
        json: { jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) },
        headers: { accept: 'application/json, text/event-stream' },
      });
    // Every client numbers its requests from 1: the same ids in flight at once, from different agents and methods.
    const calls = Array.from({ length: 48 }, (_, i) => {
      const who = i % agents.length;
      const id = i % 3 === 0 ? 'same' : 1;
      const method = i % 2 === 0 ? 'tools/call' : 'tools/list';
      const params = method === 'tools/call' ? { name: 'whoami', arguments: {} } : {};
      return { who, id, method, answer: post(tokens[who]!, id, method, params) };
    });
    for (const { who, id, method, answer } of calls) {
      const res = await answer;
      expect(res.status, res.text).toBe(200);
      expect(res.body.id).toBe(id);
      if (method === 'tools/call') expect(res.body.result.structuredContent.agent_id).toBe(agents[who]!.agentId);
      else expect(res.body.result.tools).toHaveLength(5);
    }
  });

  it('refuses a JSON-RPC batch (none in 2025-06-18), accepts a notification with 202, and refuses a non-message', async () => {
    const owner = await signUpOwner(svc.url, 'mcp-frames');
    const agent = await agentOf(owner, []);
    const token = await agentAccessToken(svc, agent.credential);
    const post = (json: unknown) =>
      request(api('/mcp'), { token, json, headers: { accept: 'application/json, text/event-stream' } });
    const batch = await post([
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', id: 2, method: 'ping' },
    ]);
    expect(batch.status).toBe(400);
    expect(batch.body).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'Invalid Request: JSON-RPC batches are not part of protocol 2025-06-18' },
    });
    const note = await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(note.status).toBe(202);
    expect(note.text).toBe('');
    const cancel = await post({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } });
    expect(cancel.status).toBe(202);
    const bad = await post({ jsonrpc: '1.0', id: 3, method: 'ping' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toEqual({ code: -32700, message: 'Parse error: Invalid JSON-RPC message' });
    const unknown = await post({ jsonrpc: '2.0', id: 4, method: 'resources/list' });
    expect(unknown.status).toBe(200);
    expect(unknown.body).toMatchObject({ id: 4, error: { code: -32601 } });
  });
});

describe('governance of tool calls', () => {
  it('denies a tool above the risk ceiling with the same message', async () => {
    const owner = await signUpOwner(svc.url, 'mcp-ceiling');
    const agent = await agentOf(owner, ['command:read', 'command:operate'], { risk_ceiling: 30 });
    const token = await agentAccessToken(svc, agent.credential);
    const id = await detection(owner.tenantId);
    expect(await call(token, 'acknowledge_detection', { id }, { dry_run: true })).toMatchObject({
      isError: true,
      content: [{ text: 'denied: not authorized for this tool' }],
    });
    expect((await call(token, 'list_detections', {})).isError).toBeFalsy();
    // Judged by governance like the REST route: the refusal is recorded as the agent's, naming the tool.
    const refusals = await rows<{ actor_type: string; reason: string; route: string }>(
      db(),
      sql`select actor_type, data->>'reason' as reason, data->>'route' as route from events
          where action = 'agent.action_refused' and actor_id = ${agent.agentId}`,
    );
    expect(refusals).toEqual([{ actor_type: 'agent', reason: 'risk_ceiling', route: 'mcp:acknowledge_detection' }]);
  });

  it('denies a tool outside the task scope with the same message, recorded with its detection', async () => {
    const owner = await signUpOwner(svc.url, 'mcp-scope');
    const agent = await agentOf(owner, ['command:read', 'manifest:plan']);
    const token = await agentAccessToken(svc, agent.credential, {
      task: { task: 'triage', permissions: ['command:read'], budget: 5 },
    });
    const manifest = { manifest_version: 1 };
    expect(await call(token, 'plan_manifest', { manifest })).toMatchObject({
      isError: true,
      content: [{ text: 'denied: not authorized for this tool' }],
    });
    const refusals = await rows<{ reason: string; route: string }>(
      db(),
      sql`select data->>'reason' as reason, data->>'route' as route from events
          where action = 'agent.action_refused' and actor_id = ${agent.agentId}`,
    );
    expect(refusals).toEqual([{ reason: 'task_scope', route: 'mcp:plan_manifest' }]);
    const raised = await rows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from detections
          where tenant_id = ${owner.tenantId} and rule_id = 'agent-task-scope-exceeded'`,
    );
    expect(raised[0]!.n).toBe(1);
  });

  it('spends no task-budget unit on a dry run; the real call spends one', async () => {
    const owner = await signUpOwner(svc.url, 'mcp-dry-budget');
    const agent = await agentOf(owner, ALL);
    const token = await agentAccessToken(svc, agent.credential, {
      task: { task: 'triage', permissions: ALL, budget: 5 },
    });
    const id = await detection(owner.tenantId);
    const whoami = await call(token, 'whoami', {});
    const taskId = whoami.structuredContent.task.id as string;
    const remaining = async () =>
      (await rows<{ remaining: number }>(db(), sql`select remaining from agent_tasks where id = ${taskId}`))[0]!
        .remaining;
    expect(await remaining()).toBe(4);
    const manifest = { manifest_version: 1 };
    for (let i = 0; i < 3; i++) {
      const dry = await call(token, 'acknowledge_detection', { id }, { dry_run: true });
      expect(dry.structuredContent, JSON.stringify(dry)).toMatchObject({ dry_run: true, effect: { would: 'change' } });
      const plan = await call(token, 'apply_manifest', { manifest }, { dry_run: true });
      expect(plan.structuredContent, JSON.stringify(plan)).toMatchObject({ dry_run: true });
    }
    expect(await remaining()).toBe(4);
    expect((await call(token, 'list_detections', {})).isError).toBeFalsy();
    expect(await remaining()).toBe(3);
  });

  it('refuses a dry run once the task budget is spent, spending nothing, and records it with the task', async () => {
    const owner = await signUpOwner(svc.url, 'mcp-dry-spent');
    const agent = await agentOf(owner, ALL);
    const token = await agentAccessToken(svc, agent.credential, {
      task: { task: 'triage', permissions: ALL, budget: 1 },
    });
    const id = await detection(owner.tenantId);
    const before = await call(token, 'acknowledge_detection', { id }, { dry_run: true });
    expect(before.structuredContent, JSON.stringify(before)).toMatchObject({ dry_run: true });
    const whoami = await call(token, 'whoami', {});
    const taskId = whoami.structuredContent.task.id as string;
    const after = await call(token, 'acknowledge_detection', { id }, { dry_run: true });
    expect(after.isError).toBe(true);
    expect(after.content[0]!.text).toMatch(/^denied: .*budget is spent/);
    const left = await rows<{ remaining: number }>(db(), sql`select remaining from agent_tasks where id = ${taskId}`);
    expect(left[0]!.remaining).toBe(0);
    const refusals = await rows<{ reason: string; task_id: string; route: string }>(
      db(),
      sql`select data->>'reason' as reason, data->>'task_id' as task_id, data->>'route' as route from events
          where action = 'agent.action_refused' and actor_id = ${agent.agentId}`,
    );
    expect(refusals).toEqual([{ reason: 'budget_spent', task_id: taskId, route: 'mcp:acknowledge_detection' }]);
  });

  it('spends the task budget per call and refuses once spent; refused calls are recorded as the agent', async () => {
    const owner = await signUpOwner(svc.url, 'mcp-budget');
    const agent = await agentOf(owner, ['command:read']);
    const token = await agentAccessToken(svc, agent.credential, {
      task: { task: 'triage', permissions: ['command:read'], budget: 2 },
    });
    expect((await call(token, 'whoami', {})).structuredContent.task).toMatchObject({ task: 'triage', budget: 2 });
    expect((await call(token, 'list_detections', {})).isError).toBeFalsy();
    const spent = await call(token, 'list_detections', {});
    expect(spent.isError).toBe(true);
    expect(spent.content[0]!.text).toMatch(/^denied: .*budget is spent/);
    const refusals = await rows<{ actor_type: string; reason: string; route: string }>(
      db(),
      sql`select actor_type, data->>'reason' as reason, data->>'route' as route from events
          where action = 'agent.action_refused' and actor_id = ${agent.agentId}`,
    );
    expect(refusals).toEqual([{ actor_type: 'agent', reason: 'budget_spent', route: 'mcp:list_detections' }]);
  });

  it('throttles per agent counting every frame of a batch, with the rate-limit headers', async () => {
    const owner = await signUpOwner(svc.url, 'mcp-throttle');
    const agent = await agentOf(owner, []);
    const token = await agentAccessToken(svc, agent.credential);
    const batch = (n: number) =>
      request(api('/mcp'), {
        token,
        json: Array.from({ length: n }, () => ({ jsonrpc: '2.0', id: ++rpcId, method: 'ping' })),
        headers: { accept: 'application/json, text/event-stream' },
      });
    // Protocol 2025-06-18 has no batches: the SDK refuses one (400), and every message in it is counted all the same.
    expect((await batch(300)).status).toBe(400);
    const second = await batch(299);
    expect(second.status).toBe(400);
    expect(second.headers.get('ratelimit-remaining')).toBe('1');
    expect((await rpc(token, 'ping')).status).toBe(200);
    const over = await rpc(token, 'ping');
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(over.headers.get('ratelimit-limit')).toBe('600');
    // The kill switch is checked first: a throttled agent that is stopped is told so (403), not throttled (429).
    const engaged = await request(api(`/agents/${agent.agentId}/kill-switch`), {
      token: owner.token,
      json: { engaged: true, reason: 'throttled and stopped' },
    });
    expect(engaged.status, engaged.text).toBe(200);
    const stopped = await rpc(token, 'ping');
    expect(stopped.status).toBe(403);
    expect(stopped.body.detail).toMatch(/kill switch is engaged/);
  });
});

describe('when the limit store cannot answer', () => {
  let closed: TestService;
  beforeAll(async () => {
    closed = await startService();
  });
  afterAll(async () => {
    await closed?.close();
  });

  it('refuses every MCP message with 429 and only a short Retry-After (fail closed)', async () => {
    const owner = await signUpOwner(closed.url, 'mcp-closed');
    const registered = await registerAgent(closed, owner.token);
    const token = await agentAccessToken(closed, registered.credential);
    await closed.deps.limiter.close();
    const res = await request(`${closed.url}/api/v1/mcp`, {
      token,
      json: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'whoami', arguments: {} } },
      headers: { accept: 'application/json, text/event-stream' },
    });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(res.headers.get('ratelimit-limit')).toBeNull();
    // The refusal is the MCP throttles': a route without a throttle still answers the same agent.
    expect((await request(`${closed.url}/api/v1/me`, { token })).status).toBe(403);
  });
});

describe('with approvals not enabled', () => {
  let off: TestService;
  beforeAll(async () => {
    off = await startService();
  });
  afterAll(async () => {
    await off?.close();
  });

  it('refuses write tools, hash-bound ones included; reads go on', async () => {
    const owner = await signUpOwner(off.url, 'mcp-off');
    const registered = await registerAgent(off, owner.token);
    expect((await delegate(off, owner.token, registered.agent_id, ALL)).status).toBe(201);
    const token = await agentAccessToken(off, registered.credential);
    const tool = (name: string, args: Record<string, unknown>) =>
      request(`${off.url}/api/v1/mcp`, {
        token,
        json: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } },
        headers: { accept: 'application/json, text/event-stream' },
      });
    const message = 'denied: approvals are not enabled on this deployment, so write tools are refused';
    const ack = await tool('acknowledge_detection', { id: newId() });
    expect(ack.body.result).toMatchObject({ isError: true, content: [{ text: message }] });
    const apply = await tool('apply_manifest', { manifest: { manifest_version: 1 } });
    expect(apply.body.result).toMatchObject({ isError: true, content: [{ text: message }] });
    const read = await tool('list_detections', {});
    expect(read.body.result.isError).toBeFalsy();
  });
});
