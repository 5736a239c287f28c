import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_TIMEOUT_MS } from '../../src/modules/mcp/gateway-proxy.js';
import { agentAccessToken } from '../support/agent-tokens.js';
import { registerAgent } from '../support/agents.js';
import { RecordType, startDnsServer, type Zone } from '../support/dns.js';
import { request } from '../support/http.js';
import { UPSTREAM_CA_FILE, UPSTREAM_HOST } from '../support/mcp-upstream.js';
import { signUpOwner } from '../support/organizations.js';
import { startService, type TestService } from '../support/service.js';

// The MCP surfaces under attack (Part B 1.4, 4.4, 9.2): the gateway's egress (SSRF in every spelling, DNS that
// changes after registration, redirects), hostile upstream answers, allow-list bypasses, other organizations'
// servers, the caps under concurrency; the first-party server's JSON-RPC edge cases. The upstream here is a bare
// JSON-RPC server over TLS (the certificate names secure.example.test) that obeys any method and any tool name, as
// a careless upstream would: only the gateway stands between an agent and what the upstream can do.

const testdata = new URL('../../src/kernel/net/testdata/', import.meta.url);

interface Seen {
  path: string;
  method: unknown;
  name: unknown;
  headers: IncomingMessage['headers'];
}
const seen: Seen[] = [];
const dripping = new Set<ServerResponse>();

/** The tools the upstream lists: look-alikes of `echo` around the real one. */
const LISTED = [
  { name: 'echo' },
  { name: 'ECHO' },
  { name: 'echo ' },
  { name: '\u0435cho' }, // Cyrillic e
  { name: 'wipe' },
  null,
  { name: 7 },
  'echo',
];

function answer(path: string, message: { id: unknown; method: unknown }, response: ServerResponse) {
  const json = (status: number, body: unknown, type = 'application/json') =>
    response.writeHead(status, { 'content-type': type }).end(typeof body === 'string' ? body : JSON.stringify(body));
  const reply = (result: unknown) => json(200, { jsonrpc: '2.0', id: message.id, result });
  switch (path) {
    case '/html':
      return json(200, '<html>hello</html>', 'text/html');
    case '/not-rpc':
      return json(200, { id: message.id, result: { content: [] } });
    case '/other-id':
      return json(200, { jsonrpc: '2.0', id: 424242, result: { content: [] } });
    case '/server-request':
      // A server-to-client request under the client's id is no reply to it.
      return json(
        200,
        `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: message.id, method: 'sampling/createMessage', params: {} })}\n\n`,
        'text/event-stream',
      );
    case '/metadata-redirect':
      return response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
    case '/drip': {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write(`{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":{"pad":"`);
      dripping.add(response);
      const timer = setInterval(() => response.write('x'), 200);
      response.on('close', () => clearInterval(timer));
      return;
    }
    case '/tools-map':
      return reply({ tools: { 0: { name: 'wipe' } } });
  }
  if (message.method === 'tools/list') return reply({ tools: LISTED });
  return reply({ content: [{ type: 'text', text: `ran ${String(message.method)}` }] });
}

let upstream: Server;
let dns: Awaited<ReturnType<typeof startDnsServer>>;
const zone: Zone = {};
let svc: TestService;

beforeAll(async () => {
  upstream = createServer(
    {
      key: readFileSync(new URL('server-key.pem', testdata)),
      cert: readFileSync(new URL('server-cert.pem', testdata)),
    },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const message = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
        const path = new URL(req.url ?? '/', `https://${UPSTREAM_HOST}`).pathname;
        seen.push({ path, method: message.method, name: message.params?.name, headers: req.headers });
        answer(path, message, res);
      });
    },
  );
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  dns = await startDnsServer(zone);
  svc = await startService({
    MCP_GATEWAY_ENABLED: 'true',
    EGRESS_TEST_ROUTES: `${UPSTREAM_HOST}=127.0.0.1:${(upstream.address() as AddressInfo).port}`,
    EGRESS_TEST_CA_FILE: UPSTREAM_CA_FILE,
    DNS_SERVERS: `127.0.0.1:${dns.port}`,
  });
});
afterAll(async () => {
  await svc?.close();
  await dns?.close();
  for (const response of dripping) response.destroy();
  upstream?.closeAllConnections();
  await new Promise<void>((resolve) => (upstream ? upstream.close(() => resolve()) : resolve()));
});

const api = (path: string) => `${svc.url}/api/v1${path}`;
type Owner = Awaited<ReturnType<typeof signUpOwner>>;
const slug = (label: string) => `${label}-${Math.random().toString(36).slice(2, 8)}`;
const url = (path: string) => `https://${UPSTREAM_HOST}${path}`;

async function server(owner: Owner, path: string, extra: Record<string, unknown> = {}) {
  const created = await request(api('/mcp/servers'), {
    token: owner.token,
    json: { name: slug('up'), upstream_url: url(path), ...extra },
  });
  expect(created.status, created.text).toBe(201);
  const tools = await request(api(`/mcp/servers/${created.body.id}/tools`), {
    method: 'PUT',
    token: owner.token,
    json: {
      tools: [
        { name: 'echo', allowed: true, risk: 0 },
        { name: 'wipe', allowed: false, risk: 0 },
      ],
    },
  });
  expect(tools.status, tools.text).toBe(200);
  return created.body as { id: string; name: string };
}

let rpcId = 0;
const proxied = (token: string, name: string, message: Record<string, unknown>) =>
  request(api(`/mcp/call/${name}`), { token, json: { jsonrpc: '2.0', id: ++rpcId, ...message } });
const callTool = (token: string, name: string, tool: unknown) =>
  proxied(token, name, { method: 'tools/call', params: { name: tool, arguments: {} } });

async function agent(owner: Owner) {
  const registered = await registerAgent(svc, owner.token);
  return agentAccessToken(svc, registered.credential);
}

describe('the first-party server', () => {
  let token: string;
  beforeAll(async () => {
    token = await agent(await signUpOwner(svc.url, 'mcp-first'));
  });
  const post = (as: string, json: unknown) =>
    request(api('/mcp'), { token: as, json, headers: { accept: 'application/json, text/event-stream' } });
  const whoami = (id: unknown, params: Record<string, unknown> = {}) =>
    post(token, { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'whoami', arguments: {}, ...params } });

  it('refuses request ids that are objects, arrays, null, fractions or past the safe integers', async () => {
    for (const id of [{}, [1], null, true, 1.5, 1e300, 2 ** 53]) {
      const res = await whoami(id);
      expect(res.status, JSON.stringify(id)).toBe(400);
      expect(res.body).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32700, message: 'Parse error: Invalid JSON-RPC message' },
      });
    }
    const digits = await request(api('/mcp'), {
      token,
      body: '{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"ping"}',
    });
    expect(digits.status).toBe(400);
  });

  it('refuses tools/call params, and arguments, that are no object, with no internal error', async () => {
    for (const params of ['whoami', ['whoami'], null, 5]) {
      const res = await post(token, { jsonrpc: '2.0', id: 1, method: 'tools/call', params });
      expect(res.status, JSON.stringify(params)).toBe(400);
      expect(res.body.error.code).toBe(-32700);
    }
    for (const args of [[], 'x', 5, null]) {
      const res = await whoami(2, { arguments: args });
      expect(res.status, JSON.stringify(args)).toBe(200);
      expect(res.body.result).toBeUndefined();
      expect(res.body.error.code, res.text).toBe(-32602);
      expect(res.body.error.message).toMatch(/Invalid tools\/call request/);
    }
  });

  it('answers a call carrying a progress token once, as JSON, and refuses a token of the wrong type', async () => {
    const res = await whoami('p', { _meta: { progressToken: 'tok-1' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body).toMatchObject({
      jsonrpc: '2.0',
      id: 'p',
      result: { structuredContent: { name: expect.any(String) } },
    });
    expect((await whoami('q', { _meta: { progressToken: { steal: 1 } } })).status).toBe(400);
  });

  it("refuses a body nested past the JSON depth limit, or malformed, with the parser's 400", async () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 40; i++) deep = [deep];
    const res = await whoami(3, { arguments: { a: deep } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: 'JSON nested deeper than 32 levels' });
    const malformed = await request(api('/mcp'), { token, body: '{"jsonrpc":"2.0","id":1,' });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ detail: 'Malformed JSON body' });
  });
});

describe('gateway egress', () => {
  let owner: Owner;
  beforeAll(async () => {
    owner = await signUpOwner(svc.url, 'mcp-ssrf');
  });

  it('refuses every loopback, private, link-local and metadata spelling, on register and on change', async () => {
    const { id } = await server(owner, '/rpc');
    const refused = [
      'https://127.0.0.1/mcp',
      'https://[::1]/mcp',
      'https://[::ffff:127.0.0.1]/mcp',
      'https://[::ffff:a9fe:a9fe]/mcp',
      'https://[fe80::1%25eth0]/mcp',
      'https://[::]/mcp',
      'https://2130706433/mcp',
      'https://0x7f.0.0.1/mcp',
      'https://0177.0.0.1/mcp',
      'https://017700000001/mcp',
      'https://127.1/mcp',
      'https://0/mcp',
      'https://\uff11\uff12\uff17.0.0.1/mcp', // full-width digits
      'https://169.254.169.254/latest/meta-data',
      'https://10.0.0.1/mcp',
      'https://192.168.1.1/mcp',
      'https://evil@127.0.0.1/mcp',
      `https://evil@${UPSTREAM_HOST}/mcp`,
      `https://user:pass@${UPSTREAM_HOST}/mcp`,
      'https://127.0.0.1#@secure.example.test/mcp',
      'https://localhost/mcp',
      'https://LOCALHOST./mcp',
      'https://api.localhost/mcp',
      'https://metadata/computeMetadata/v1',
      'https://metadata.google.internal/computeMetadata/v1',
      'https://printer.local/mcp',
      `http://${UPSTREAM_HOST}/mcp`,
      `https://${UPSTREAM_HOST}:8443/mcp`,
      `https://${UPSTREAM_HOST}/mcp#x`,
      'ftp://secure.example.test/mcp',
      'file:///etc/passwd',
      'gopher://secure.example.test:70/',
      'ws://secure.example.test/mcp',
      'data:application/json,{}',
      'javascript:alert(1)',
      '//secure.example.test/mcp',
    ];
    for (const upstreamUrl of refused) {
      const created = await request(api('/mcp/servers'), {
        token: owner.token,
        json: { name: slug('ssrf'), upstream_url: upstreamUrl },
      });
      expect(created.status, upstreamUrl).toBe(422);
      expect(created.body.detail, upstreamUrl).toMatch(/^upstream_url: /);
      const changed = await request(api(`/mcp/servers/${id}`), {
        method: 'PATCH',
        token: owner.token,
        json: { upstream_url: upstreamUrl },
      });
      expect(changed.status, upstreamUrl).toBe(422);
    }
    const listed = await request(api('/mcp/servers'), { token: owner.token });
    expect(listed.body.servers.map((s: { upstream_url: string }) => s.upstream_url)).toEqual([url('/rpc')]);
  });

  it('resolves the name on every call: a name that turns private after registration is refused each time', async () => {
    const created = await request(api('/mcp/servers'), {
      token: owner.token,
      json: { name: slug('rebind'), upstream_url: 'https://rebind.example.test/mcp' },
    });
    expect(created.status, created.text).toBe(201);
    const token = await agent(owner);
    const before = seen.length;
    for (const [records, address] of [
      [[{ type: RecordType.A, address: '127.0.0.1' }], '127.0.0.1'],
      [[{ type: RecordType.A, address: '169.254.169.254' }], '169.254.169.254'],
      [[{ type: RecordType.AAAA, address: '::ffff:a00:1' }], '::ffff:10.0.0.1'],
      [
        [
          { type: RecordType.A, address: '93.184.216.34' },
          { type: RecordType.A, address: '10.0.0.7' },
        ],
        '10.0.0.7',
      ],
    ] as const) {
      zone['rebind.example.test'] = [...records];
      const res = await proxied(token, created.body.name, { method: 'tools/list', params: {} });
      expect(res.status, res.text).toBe(502);
      expect(res.body.detail).toContain(`The upstream MCP server failed: rebind.example.test resolves to ${address}, `);
    }
    expect(seen.length).toBe(before);
  });

  it('follows no redirect, not even one to the metadata service', async () => {
    const { name } = await server(owner, '/metadata-redirect');
    const res = await callTool(await agent(owner), name, 'echo');
    expect(res.status).toBe(502);
    expect(res.body.detail).toBe('The upstream MCP server failed: redirect 302 not followed');
  });
});

describe('hostile upstream answers', () => {
  let owner: Owner;
  let token: string;
  beforeAll(async () => {
    owner = await signUpOwner(svc.url, 'mcp-answers');
    token = await agent(owner);
  });

  it('answers 502 for an answer that is no JSON-RPC reply to the request', async () => {
    for (const path of ['/html', '/not-rpc', '/other-id', '/server-request']) {
      const { name } = await server(owner, path);
      const res = await callTool(token, name, 'echo');
      expect(res.status, path).toBe(502);
      expect(res.body.detail, path).toBe('The upstream MCP server failed: no JSON-RPC reply to the request');
    }
  });

  it('cuts a slow-drip answer at the deadline of the whole exchange', async () => {
    const { name } = await server(owner, '/drip');
    const started = Date.now();
    const res = await callTool(token, name, 'echo');
    expect(res.status).toBe(502);
    expect(res.body.detail).toMatch(/within 5000 ms/);
    expect(Date.now() - started).toBeLessThan(GATEWAY_TIMEOUT_MS + 3000);
  });

  it('never relays an unfiltered tool list, whatever its shape', async () => {
    const { name } = await server(owner, '/rpc');
    const listed = await proxied(token, name, { method: 'tools/list', params: {} });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.result.tools).toEqual([{ name: 'echo' }]);
    const odd = await server(owner, '/tools-map');
    const map = await proxied(token, odd.name, { method: 'tools/list', params: {} });
    expect(map.status, map.text).toBe(502);
    expect(map.text).not.toContain('wipe');
  });

  it("never hands the agent's credential to the upstream", async () => {
    const { name } = await server(owner, '/rpc');
    expect((await callTool(token, name, 'echo')).status).toBe(200);
    const headers = seen.at(-1)!.headers;
    expect(headers.authorization).toBeUndefined();
    expect(JSON.stringify(headers)).not.toContain(token);
  });
});

describe('allow-list bypasses', () => {
  let owner: Owner;
  let token: string;
  let name: string;
  beforeAll(async () => {
    owner = await signUpOwner(svc.url, 'mcp-allow');
    token = await agent(owner);
    name = (await server(owner, '/rpc')).name;
  });

  it('matches tool names exactly: case, look-alike letters and spaces are other tools, not allowed', async () => {
    const before = seen.length;
    for (const tool of ['ECHO', 'Echo', 'echo ', ' echo', '\u0435cho', 'echo\u200b', 'e\u0301cho', 'WIPE', 'wipe']) {
      const res = await callTool(token, name, tool);
      expect(res.status, JSON.stringify(tool)).toBe(403);
      expect(res.body.detail).toBe(`Tool ${tool} is not on the allow-list of MCP server ${name}`);
    }
    expect(seen.length).toBe(before);
  });

  it('refuses a tools/call without a string name, and params that are not an object', async () => {
    const before = seen.length;
    for (const params of [{ arguments: {} }, { name: 7 }, { name: null }, { name: ['echo'] }, { name: { 0: 'e' } }]) {
      const res = await proxied(token, name, { method: 'tools/call', params });
      expect(res.status, JSON.stringify(params)).toBe(400);
      expect(res.body.detail).toBe('params.name: is required');
    }
    for (const params of [['echo'], 'echo', 7, null]) {
      const res = await proxied(token, name, { method: 'tools/call', params });
      expect(res.status, JSON.stringify(params)).toBe(400);
    }
    expect((await proxied(token, name, { method: 'tools/list', params: [] })).status).toBe(400);
    expect(seen.length).toBe(before);
  });

  it('proxies only the methods it governs: a method spelled otherwise never reaches the upstream', async () => {
    const before = seen.length;
    for (const method of ['Tools/Call', 'tools/call ', 'tools/CALL', 'resources/read', 'prompts/get', 'x/exec']) {
      const res = await proxied(token, name, { method, params: { name: 'wipe', arguments: {} } });
      expect(res.status, method).toBe(403);
      expect(res.body.detail).toBe(
        `Method ${method} is not proxied by the MCP gateway (initialize, ping, tools/list, tools/call)`,
      );
    }
    expect(seen.length).toBe(before);
    for (const method of ['initialize', 'ping']) {
      expect((await proxied(token, name, { method, params: {} })).status, method).toBe(200);
    }
  });

  it('refuses arguments nested past the JSON depth limit before anything runs', async () => {
    const before = seen.length;
    let deep: unknown = 'x';
    for (let i = 0; i < 40; i++) deep = { d: deep };
    const res = await proxied(token, name, { method: 'tools/call', params: { name: 'echo', arguments: deep } });
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/nested deeper than 32/);
    expect(seen.length).toBe(before);
  });
});

describe("another organization's servers", () => {
  it('are 404 to read, change, delete, allow-list or call, and stay as they were', async () => {
    const victim = await signUpOwner(svc.url, 'mcp-victim');
    const target = await server(victim, '/rpc');
    const attacker = await signUpOwner(svc.url, 'mcp-attacker');
    const path = `/mcp/servers/${target.id}`;
    for (const [method, where, json] of [
      ['GET', path, undefined],
      ['PATCH', path, { enabled: false, upstream_url: url('/evil') }],
      ['DELETE', path, undefined],
      ['PUT', `${path}/tools`, { tools: [{ name: 'wipe', allowed: true, risk: 0 }] }],
      ['DELETE', `${path}/tools/echo`, undefined],
    ] as const) {
      const res = await request(api(where), { method, token: attacker.token, ...(json ? { json } : {}) });
      expect(res.status, `${method} ${where}`).toBe(404);
      expect(res.body.detail).toBe('MCP server not found');
    }
    // The attacker registers the same name: its own server, which never reaches the victim's.
    const own = await request(api('/mcp/servers'), {
      token: attacker.token,
      json: { name: target.name, upstream_url: url('/html') },
    });
    expect(own.status).toBe(201);
    const res = await proxied(await agent(attacker), target.name, { method: 'tools/list', params: {} });
    expect(res.body.detail).toBe('The upstream MCP server failed: no JSON-RPC reply to the request');
    const intact = await request(api(path), { token: victim.token });
    expect(intact.body).toMatchObject({ enabled: true, upstream_url: url('/rpc') });
    expect(intact.body.tools).toEqual([
      { name: 'echo', allowed: true, risk: 0 },
      { name: 'wipe', allowed: false, risk: 0 },
    ]);
  });
});

describe('caps under concurrency', () => {
  it('counts the per-minute and per-day caps exactly under 20 concurrent calls', async () => {
    const owner = await signUpOwner(svc.url, 'mcp-caps');
    const token = await agent(owner);
    for (const [caps, allowed] of [
      [{ max_calls_per_minute: 5 }, 5],
      [{ max_calls_per_minute: 100, max_calls_per_day: 7 }, 7],
    ] as const) {
      const { name } = await server(owner, '/rpc', caps);
      const before = seen.length;
      const answers = await Promise.all(Array.from({ length: 20 }, () => callTool(token, name, 'echo')));
      const statuses = answers.map((res) => res.status);
      expect(statuses.filter((s) => s === 200).length, JSON.stringify(statuses)).toBe(allowed);
      expect(statuses.filter((s) => s === 429).length).toBe(20 - allowed);
      expect(seen.length - before).toBe(allowed);
    }
  });
});
