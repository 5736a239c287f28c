import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/kernel/db/index.js';
import { GATEWAY_TIMEOUT_MS } from '../../src/modules/mcp/gateway-proxy.js';
import { agentAccessToken } from '../support/agent-tokens.js';
import { delegate, registerAgent } from '../support/agents.js';
import { request } from '../support/http.js';
import { type McpUpstream, startMcpUpstream, UPSTREAM_CA_FILE, UPSTREAM_HOST } from '../support/mcp-upstream.js';
import { addMember, signUpOwner } from '../support/organizations.js';
import { startService, type TestService } from '../support/service.js';

// The MCP tool gateway end to end (issue 24; Part B 4.4, 7, 8): the registry under its permissions, and agents'
// calls proxied to a real MCP server built with the official SDK, served over TLS on loopback and reached through
// the test-only egress route: allow-list filtering, refusals naming their reason, caps, a failing upstream (502),
// a redirect never followed, an oversized answer, and an upstream that hangs (502 within the documented timeout).

let svc: TestService;
let dormant: TestService;
let upstream: McpUpstream;
beforeAll(async () => {
  upstream = await startMcpUpstream();
  const egress = {
    EGRESS_TEST_ROUTES: `${UPSTREAM_HOST}=127.0.0.1:${upstream.port}`,
    EGRESS_TEST_CA_FILE: UPSTREAM_CA_FILE,
  };
  svc = await startService({ MCP_GATEWAY_ENABLED: 'true', ...egress });
  dormant = await startService(egress);
});
afterAll(async () => {
  await Promise.all([svc?.close(), dormant?.close()]);
  await upstream?.close();
});

const api = (path: string) => `${svc.url}/api/v1${path}`;
type Owner = Awaited<ReturnType<typeof signUpOwner>>;

const register = (token: string, body: Record<string, unknown>) => request(api('/mcp/servers'), { token, json: body });
const setTools = (token: string, id: string, tools: unknown[]) =>
  request(api(`/mcp/servers/${id}/tools`), { method: 'PUT', token, json: { tools } });
let id = 0;
const proxied = (token: string, server: string, method: string, params?: unknown) =>
  request(api(`/mcp/call/${server}`), {
    token,
    json: { jsonrpc: '2.0', id: ++id, method, ...(params === undefined ? {} : { params }) },
  });

async function agentToken(owner: Owner, body: Record<string, unknown> = {}) {
  const agent = await registerAgent(svc, owner.token, body);
  // A delegation is not needed for the gateway; one keeps the agent realistic.
  expect((await delegate(svc, owner.token, agent.agent_id, ['command:read'])).status).toBe(201);
  return agentAccessToken(svc, agent.credential);
}

const slug = (label: string) => `${label}-${Math.random().toString(36).slice(2, 8)}`;

describe('the switch', () => {
  it('answers 404 on every gateway route while MCP_GATEWAY_ENABLED is off, before authentication and body', async () => {
    const unknown = await request(`${dormant.url}/api/v1/no-such-route`, { method: 'POST', body: '{' });
    for (const [method, path] of [
      ['GET', '/mcp/servers'],
      ['POST', '/mcp/servers'],
      ['GET', '/mcp/servers/x'],
      ['PATCH', '/mcp/servers/x'],
      ['DELETE', '/mcp/servers/x'],
      ['PUT', '/mcp/servers/x/tools'],
      ['DELETE', '/mcp/servers/x/tools/y'],
      ['POST', '/mcp/call/x'],
    ]) {
      const res = await request(`${dormant.url}/api/v1${path}`, {
        method,
        ...(method === 'GET' || method === 'DELETE' ? {} : { body: '{' }),
      });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.text).toBe(unknown.text);
    }
  });
});

describe('the registry', () => {
  let owner: Owner;
  beforeAll(async () => {
    owner = await signUpOwner(svc.url, 'gw-registry');
  });

  it('registers with defaults, refuses bad names and URLs, keeps the name immutable, and audits changes', async () => {
    const name = slug('tickets');
    const created = await register(owner.token, { name, upstream_url: upstream.url('/mcp'), description: 'Tickets' });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      name,
      upstream_url: upstream.url('/mcp'),
      enabled: true,
      max_calls_per_minute: 30,
      max_calls_per_day: 500,
      tools: [],
    });
    expect((await register(owner.token, { name, upstream_url: upstream.url('/mcp') })).status).toBe(409);
    for (const [body, detail] of [
      [{ name: 'Tickets', upstream_url: upstream.url('/mcp') }, /^name: /],
      [{ name: slug('http'), upstream_url: `http://${UPSTREAM_HOST}/mcp` }, /upstream_url: must use https/],
      [{ name: slug('ip'), upstream_url: 'https://127.0.0.1/mcp' }, /upstream_url: host must be a name/],
      [{ name: slug('local'), upstream_url: 'https://localhost/mcp' }, /upstream_url: host must be a fully-qualified/],
      [{ name: slug('cap'), upstream_url: upstream.url('/mcp'), max_calls_per_minute: 0 }, /max_calls_per_minute/],
    ] as const) {
      const res = await register(owner.token, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.detail).toMatch(detail);
    }
    const serverId = created.body.id as string;
    const renamed = await request(api(`/mcp/servers/${serverId}`), {
      method: 'PATCH',
      token: owner.token,
      json: { name: 'other' },
    });
    expect(renamed.status).toBe(422);
    expect(renamed.body.detail).toBe('name: is immutable');
    const patched = await request(api(`/mcp/servers/${serverId}`), {
      method: 'PATCH',
      token: owner.token,
      json: { max_calls_per_minute: 5, description: null },
    });
    expect(patched.body).toMatchObject({ name, max_calls_per_minute: 5, description: null });
    const tools = await setTools(owner.token, serverId, [
      { name: 'echo', allowed: true, risk: 10 },
      { name: 'wipe', allowed: false, risk: 95 },
    ]);
    expect(tools.body.tools).toEqual([
      { name: 'echo', allowed: true, risk: 10 },
      { name: 'wipe', allowed: false, risk: 95 },
    ]);
    expect((await setTools(owner.token, serverId, [{ name: 'echo', allowed: true, risk: 101 }])).status).toBe(422);
    expect(
      (await request(api(`/mcp/servers/${serverId}/tools/wipe`), { method: 'DELETE', token: owner.token })).status,
    ).toBe(204);
    expect(
      (await request(api(`/mcp/servers/${serverId}/tools/wipe`), { method: 'DELETE', token: owner.token })).status,
    ).toBe(404);
    const listed = await request(api('/mcp/servers'), { token: owner.token });
    expect(listed.body.servers.map((s: { name: string }) => s.name)).toEqual([name]);
    expect(listed.body.servers[0].tools).toEqual([{ name: 'echo', allowed: true, risk: 10 }]);
    const audited = await rows<{ action: string; actor_type: string }>(
      svc.deps.database.db,
      sql`select action, actor_type from events where tenant_id = ${owner.tenantId} and action like 'mcp.%'`,
    );
    expect(audited.map((e) => e.action).sort()).toEqual(
      ['mcp.server_registered', 'mcp.server_updated', 'mcp.tool_removed', 'mcp.tools_updated'].sort(),
    );
    expect((await request(api(`/mcp/servers/${serverId}`), { method: 'DELETE', token: owner.token })).status).toBe(204);
    expect((await request(api(`/mcp/servers/${serverId}`), { token: owner.token })).status).toBe(404);
  });

  it('needs mcp:servers:read to read and mcp:servers:manage to change; another organization sees nothing', async () => {
    const created = await register(owner.token, { name: slug('perm'), upstream_url: upstream.url('/mcp') });
    const member = await addMember(svc, owner, 'member');
    expect((await request(api('/mcp/servers'), { token: member.token })).status).toBe(403);
    expect((await register(member.token, { name: slug('x'), upstream_url: upstream.url('/mcp') })).status).toBe(403);
    const other = await signUpOwner(svc.url, 'gw-other');
    expect((await request(api(`/mcp/servers/${created.body.id}`), { token: other.token })).status).toBe(404);
    expect((await request(api('/mcp/servers'), { token: other.token })).body.servers).toEqual([]);
  });
});

describe('proxied calls', () => {
  let owner: Owner;
  let token: string;
  let name: string;
  let serverId: string;
  beforeAll(async () => {
    owner = await signUpOwner(svc.url, 'gw-calls');
    name = slug('desk');
    const created = await register(owner.token, { name, upstream_url: upstream.url('/mcp') });
    serverId = created.body.id;
    await setTools(owner.token, serverId, [
      { name: 'echo', allowed: true, risk: 10 },
      { name: 'add', allowed: true, risk: 60 },
      { name: 'wipe', allowed: false, risk: 95 },
    ]);
    token = await agentToken(owner);
  });

  it('filters tools/list to the allow-list and relays an allowed call', async () => {
    const listed = await proxied(token, name, 'tools/list', {});
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.result.tools.map((t: { name: string }) => t.name).sort()).toEqual(['add', 'echo']);
    const echoed = await proxied(token, name, 'tools/call', { name: 'echo', arguments: { text: 'hello' } });
    expect(echoed.status, echoed.text).toBe(200);
    expect(echoed.body).toEqual({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: 'hello' }] } });
    expect(upstream.calls.at(-1)).toEqual({ tool: 'echo', arguments: { text: 'hello' } });
    const [event] = await rows<{ actor_type: string; data: any }>(
      svc.deps.database.db,
      sql`select actor_type, data from events where tenant_id = ${owner.tenantId} and action = 'mcp.tool_called'`,
    );
    expect(event).toMatchObject({ actor_type: 'agent', data: { server: name, tool: 'echo' } });
  });

  it('refuses a tool off the allow-list and one above the risk ceiling with 403 naming the reason', async () => {
    const before = upstream.calls.length;
    const wipe = await proxied(token, name, 'tools/call', { name: 'wipe', arguments: {} });
    expect(wipe.status).toBe(403);
    expect(wipe.body.detail).toBe(`Tool wipe is not on the allow-list of MCP server ${name}`);
    const unlisted = await proxied(token, name, 'tools/call', { name: 'shell', arguments: {} });
    expect(unlisted.status).toBe(403);
    const careful = await agentToken(owner, { risk_ceiling: 50 });
    const add = await proxied(careful, name, 'tools/call', { name: 'add', arguments: { a: 1, b: 2 } });
    expect(add.status).toBe(403);
    expect(add.body.detail).toBe("Tool add has risk 60, above this agent's risk ceiling of 50");
    expect(upstream.calls.length).toBe(before);
  });

  it('is for agents only; an unknown or disabled server is 404', async () => {
    const person = await proxied(owner.token, name, 'tools/list', {});
    expect(person.status).toBe(403);
    expect((await proxied(token, 'no-such-server', 'tools/list', {})).status).toBe(404);
    const other = await signUpOwner(svc.url, 'gw-foreign');
    expect((await proxied(await agentToken(other), name, 'tools/list', {})).status).toBe(404);
    const off = await register(owner.token, { name: slug('off'), upstream_url: upstream.url('/mcp') });
    await request(api(`/mcp/servers/${off.body.id}`), {
      method: 'PATCH',
      token: owner.token,
      json: { enabled: false },
    });
    expect((await proxied(token, off.body.name, 'tools/list', {})).status).toBe(404);
  });

  it('answers 502 for an upstream that fails, redirects or answers too much', async () => {
    for (const path of ['/fail', '/redirect', '/huge']) {
      const server = await register(owner.token, { name: slug('bad'), upstream_url: upstream.url(path) });
      await setTools(owner.token, server.body.id, [{ name: 'echo', allowed: true, risk: 0 }]);
      const res = await proxied(token, server.body.name, 'tools/call', { name: 'echo', arguments: { text: 'x' } });
      expect(res.status, path).toBe(502);
      expect(res.body.detail).toMatch(/^The upstream MCP server failed: /);
    }
  });

  it('answers 502 within the documented timeout for an upstream that hangs', async () => {
    const server = await register(owner.token, { name: slug('slow'), upstream_url: upstream.url('/hang') });
    const started = Date.now();
    const res = await proxied(token, server.body.name, 'tools/list', {});
    const took = Date.now() - started;
    expect(res.status).toBe(502);
    expect(res.body.detail).toMatch(/within 5000 ms/);
    expect(took).toBeGreaterThanOrEqual(GATEWAY_TIMEOUT_MS - 100);
    expect(took).toBeLessThan(GATEWAY_TIMEOUT_MS + 3000);
  });

  it('refuses calls past the per-minute cap with 429 and the rate-limit headers', async () => {
    const server = await register(owner.token, {
      name: slug('capped'),
      upstream_url: upstream.url('/mcp'),
      max_calls_per_minute: 3,
    });
    for (let i = 0; i < 3; i++) expect((await proxied(token, server.body.name, 'tools/list', {})).status).toBe(200);
    const over = await proxied(token, server.body.name, 'tools/list', {});
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(over.headers.get('ratelimit-limit')).toBe('3');
    const daily = await register(owner.token, {
      name: slug('daily'),
      upstream_url: upstream.url('/mcp'),
      max_calls_per_day: 1,
    });
    expect((await proxied(token, daily.body.name, 'tools/list', {})).status).toBe(200);
    const spent = await proxied(token, daily.body.name, 'tools/list', {});
    expect(spent.status).toBe(429);
    expect(spent.body.detail).toBe("This MCP server's call cap is spent (1 per day)");
  });
});
