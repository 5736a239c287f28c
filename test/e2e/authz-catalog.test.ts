import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admitsAgents, routePolicies } from '../../src/kernel/auth/index.js';
import { CATALOGUE_VERSION } from '../../src/kernel/authz/catalog.js';
import { agentAccessToken, mintAgentToken } from '../support/agent-tokens.js';
import { delegate, registerAgent } from '../support/agents.js';
import { newAccount, request } from '../support/http.js';
import { signUpOwner } from '../support/organizations.js';
import { startService, type TestService } from '../support/service.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => {
  await svc?.close();
});

const api = (path: string) => `${svc.url}/api/v1${path}`;

interface Catalogue {
  catalogue_version: string;
  version: string;
  permissions: Array<{ code: string; read_only: boolean; risk: number; description: string }>;
  roles: Array<{ code: string; permissions: string[]; read_only: boolean }>;
}

const catalogue = async () => {
  const res = await request<Catalogue>(api('/authz/catalog'));
  expect(res.status).toBe(200);
  return res.body;
};

/** ARCHITECTURE.md "Part B permission codes are the spec's words exactly". */
const PART_B_CODES = [
  'agents:read',
  'agents:manage',
  'agents:kill',
  'agents:approvals:read',
  'agents:approvals:decide',
  'content:draft:write',
  'content:read',
  'content:review',
  'manifest:plan',
  'manifest:apply',
  'mcp:servers:read',
  'mcp:servers:manage',
  'command:read',
  'command:operate',
  'autonomy:read',
  'autonomy:manage',
  'autonomy:approve',
  'autonomy:disable',
  'payments:verify',
  'operator:read',
  'operator:manage',
];
const OLD_SPELLINGS = ['approvals:read', 'approvals:decide', 'payments:stepup', 'mcp:gateway'];

const owner = async () => {
  const res = await request(api('/auth/signup'), { json: newAccount('catalog') });
  expect(res.status).toBe(201);
  return res.body.access_token as string;
};

describe('GET /authz/catalog (Part B)', () => {
  it('serves every Part B code exactly as spelled, and none of the old spellings', async () => {
    const codes = (await catalogue()).permissions.map((p) => p.code);
    for (const code of PART_B_CODES) expect(codes, code).toContain(code);
    for (const old of OLD_SPELLINGS) expect(codes, old).not.toContain(old);
  });

  it('scores each permission with a risk: reads 0-30, changes above, kill switches and the operator plane high', async () => {
    const { permissions } = await catalogue();
    for (const p of permissions) {
      expect(Number.isInteger(p.risk), p.code).toBe(true);
      expect(p.read_only ? p.risk >= 0 && p.risk <= 30 : p.risk > 30 && p.risk <= 100, `${p.code} ${p.risk}`).toBe(
        true,
      );
    }
    const risk = Object.fromEntries(permissions.map((p) => [p.code, p.risk]));
    for (const code of ['agents:kill', 'autonomy:disable', 'autonomy:approve', 'tenant:manage', 'operator:manage']) {
      expect(risk[code], code).toBeGreaterThanOrEqual(80);
    }
    expect(risk['operator:manage']).toBe(100);
  });

  it('carries catalogue_version (and version, its Part A name), the hash approvals bind to', async () => {
    const first = await catalogue();
    expect(first.catalogue_version).toMatch(/^[0-9a-f]{16}$/);
    expect(first.version).toBe(first.catalogue_version);
    expect(first.catalogue_version).toBe(CATALOGUE_VERSION);
    expect((await catalogue()).catalogue_version).toBe(first.catalogue_version);
  });

  it('gives the security operator agent kill and approvals, the auditor every read, the admin no operator plane', async () => {
    const { roles, permissions } = await catalogue();
    const of = (code: string) => roles.find((r) => r.code === code)!.permissions;
    expect(of('security_operator')).toEqual(
      expect.arrayContaining([
        'agents:read',
        'agents:manage',
        'agents:kill',
        'agents:approvals:read',
        'agents:approvals:decide',
      ]),
    );
    const reads = permissions.filter((p) => p.read_only && !p.code.startsWith('operator:')).map((p) => p.code);
    expect(of('auditor').sort()).toEqual([...reads, 'identity:self:write'].sort());
    expect(of('auditor')).toEqual(
      expect.arrayContaining(['agents:approvals:read', 'content:read', 'mcp:servers:read']),
    );
    const admin = of('admin');
    expect(admin).toEqual(expect.arrayContaining(['agents:kill', 'agents:approvals:decide', 'payments:verify']));
    for (const code of ['operator:read', 'operator:manage', 'compliance:admin'])
      expect(admin, code).not.toContain(code);
    expect(of('owner').sort()).toEqual(permissions.map((p) => p.code).sort());
  });

  it('declares catalogue_version and risk in the OpenAPI document', async () => {
    const doc = (await request(api('/openapi.json'))).body;
    const schema = doc.paths['/api/v1/authz/catalog'].get.responses['200'].content['application/json'].schema;
    expect(schema.required).toEqual(expect.arrayContaining(['catalogue_version', 'version', 'permissions']));
    expect(schema.properties.permissions.items.required).toContain('risk');
  });
});

describe('the new codes across Part A surfaces', () => {
  it("lists the Part B codes among an owner's permissions", async () => {
    const me = await request(api('/me/permissions'), { token: await owner() });
    expect(me.status).toBe(200);
    expect(me.body.permissions).toEqual(expect.arrayContaining(PART_B_CODES));
    for (const old of OLD_SPELLINGS) expect(me.body.permissions).not.toContain(old);
  });

  it('takes Part B codes as API key scopes and refuses the old spellings as unknown (403 naming the code)', async () => {
    const token = await owner();
    const created = await request(api('/tenants/api-keys'), {
      token,
      json: { label: 'approvals reader', scopes: ['agents:approvals:read', 'content:read', 'mcp:servers:read'] },
    });
    expect(created.status).toBe(201);
    expect(created.body.scopes).toEqual(['agents:approvals:read', 'content:read', 'mcp:servers:read']);
    for (const old of OLD_SPELLINGS) {
      const refused = await request(api('/tenants/api-keys'), { token, json: { label: 'old', scopes: [old] } });
      expect(refused.status, old).toBe(403);
      expect(refused.body.detail).toBe(`Scopes exceed your permissions: ${old}`);
    }
  });
});

/** ARCHITECTURE.md "Where agents may act": the person-only routes, which answer 403 to an agent. */
const PERSON_ONLY = [
  /^\/api\/v1\/me(\/|$)/,
  /^\/api\/v1\/auth\//,
  /^\/api\/v1\/mfa\//,
  /^\/api\/v1\/webauthn\//,
  // Agent administration (registration, governance, kill switch, delegations, issuers); the mints are public.
  /^\/api\/v1\/agents(?!\/token(\/federated)?$)(\/|$)/,
  /^\/api\/v1\/approvals\/[^/]+\/decide$/,
];

describe('where agents may act (route table)', () => {
  const routes = () => routePolicies(svc.app).filter((route) => route.method !== 'HEAD');

  it('knows every route of the app', () => {
    const urls = routes().map((route) => `${route.method} ${route.url}`);
    expect(urls).toContain('GET /api/v1/me');
    expect(urls).toContain('POST /api/v1/tenants/api-keys');
    expect(urls).toContain('GET /api/v1/authz/catalog');
  });

  it('closes every person-only route to agents', () => {
    const open = routes().filter(
      (route) => PERSON_ONLY.some((pattern) => pattern.test(route.url)) && admitsAgents(route),
    );
    expect(open.map((route) => `${route.method} ${route.url}`)).toEqual([]);
  });

  it('closes API key creation and rotation to agents, and keeps listing and revoking open to their permission', () => {
    const policy = (method: string, url: string) => routes().find((r) => r.method === method && r.url === url)!;
    expect(admitsAgents(policy('POST', '/api/v1/tenants/api-keys'))).toBe(false);
    expect(admitsAgents(policy('POST', '/api/v1/tenants/api-keys/:id/rotate'))).toBe(false);
    expect(admitsAgents(policy('GET', '/api/v1/tenants/api-keys'))).toBe(true);
    expect(admitsAgents(policy('POST', '/api/v1/tenants/api-keys/:id/revoke'))).toBe(true);
  });
});

describe('where agents may act (over HTTP, with an agent token)', () => {
  /** An agent delegated the owner's administration permissions: a route still closed to it is person-only. */
  async function powerfulAgent() {
    const owner = await signUpOwner(svc.url, 'agent-reach');
    const agent = await registerAgent(svc, owner.token);
    const permissions = [
      'tenant:manage',
      'members:read',
      'members:manage',
      'agents:read',
      'agents:manage',
      'agents:kill',
    ];
    const granted = await delegate(svc, owner.token, agent.agent_id, permissions);
    expect(granted.status, granted.text).toBe(201);
    return { owner, agent, token: await agentAccessToken(svc, agent.credential) };
  }

  it('refuses an agent API key, SCIM token and OAuth client minting, saying agents never mint credentials, and mints nothing', async () => {
    const { owner, token } = await powerfulAgent();
    const existing = await request(api('/tenants/api-keys'), { token: owner.token, json: { label: 'ci', scopes: [] } });
    expect(existing.status).toBe(201);

    const created = await request(api('/tenants/api-keys'), {
      token,
      json: { label: 'mine', scopes: ['tenant:manage'] },
    });
    expect(created.status).toBe(403);
    expect(created.body).toEqual({ detail: 'AI agents may never mint API keys' });
    const rotated = await request(api(`/tenants/api-keys/${existing.body.id}/rotate`), { token, method: 'POST' });
    expect(rotated.status).toBe(403);
    expect(rotated.body).toEqual({ detail: 'AI agents may never mint API keys' });
    // Nor any other credential that would outlive its governance: a SCIM token, an OAuth client or its secret.
    const client = await request(api('/oauth/clients'), {
      token: owner.token,
      json: { name: 'svc', client_type: 'confidential', redirect_uris: [], grant_types: ['client_credentials'] },
    });
    expect(client.status).toBe(201);
    const mints: Array<[string, unknown]> = [
      ['/tenants/scim/token', {}],
      [
        '/oauth/clients',
        { name: 'x', client_type: 'confidential', redirect_uris: [], grant_types: ['client_credentials'] },
      ],
      [`/oauth/clients/${client.body.client_id}/rotate-secret`, {}],
    ];
    for (const [path, json] of mints) {
      const res = await request(api(path), { token, json });
      expect(res.status, path).toBe(403);
      expect(res.body, path).toEqual({ detail: 'AI agents may never mint credentials' });
    }

    // The same token may read the keys (tenant:manage is delegated): the refusal is the route's, not the token's.
    const listed = await request(api('/tenants/api-keys'), { token });
    expect(listed.status).toBe(200);
    expect(listed.body.map((key: { id: string }) => key.id)).toEqual([existing.body.id]);
  });

  it('answers 403 to an agent on /me, /auth, MFA, passkeys and agent administration', async () => {
    const { agent, token } = await powerfulAgent();
    const calls: Array<[string, string, unknown?]> = [
      ['GET', '/me'],
      ['GET', '/me/permissions'],
      ['GET', '/me/sessions'],
      ['GET', '/me/agents'],
      ['POST', '/auth/logout', {}],
      ['POST', '/auth/sign-out-all', {}],
      ['POST', '/auth/change-password', { current_password: 'x', new_password: 'y' }],
      ['GET', '/mfa/status'],
      ['POST', '/mfa/setup', {}],
      ['GET', '/webauthn/credentials'],
      ['POST', '/webauthn/credentials/options', {}],
      ['GET', '/agents'],
      ['POST', '/agents', { name: 'spawned' }],
      ['GET', `/agents/${agent.agent_id}`],
      ['POST', `/agents/${agent.agent_id}/kill-switch`, { engaged: false }],
      ['POST', `/agents/${agent.agent_id}/delegations`, { permissions: ['members:read'] }],
    ];
    for (const [method, path, json] of calls) {
      const res = await request(api(path), { method, token, ...(json === undefined ? {} : { json }) });
      expect(res.status, `${method} ${path}: ${res.text}`).toBe(403);
      expect(res.body.detail, `${method} ${path}`).toBe('This route is not open to AI agents');
    }
    expect((await request(api('/members'), { token })).status).toBe(200);
  });

  it('closes a route that names no permission to agents', async () => {
    const { owner, token } = await powerfulAgent();
    expect((await request(api('/entitlements'), { token: owner.token })).status).toBe(200);
    const res = await request(api('/entitlements'), { token });
    expect(res.status).toBe(403);
    expect(res.body.detail).toMatch(/not open to AI agents/);
  });

  it('refuses person-only routes before governance: the refusal spends no task budget', async () => {
    const { agent } = await powerfulAgent();
    const minted = await mintAgentToken(svc, agent.credential, {
      task: { task: 'read the roster once', permissions: ['members:read', 'tenant:manage'], budget: 1 },
    });
    expect(minted.status, minted.text).toBe(200);
    const token = minted.body.access_token as string;
    expect((await request(api('/tenants/api-keys'), { token, json: { label: 'x', scopes: [] } })).status).toBe(403);
    expect((await request(api('/me'), { token })).status).toBe(403);
    // The one unit is still there for an authorized request, and then it is spent.
    expect((await request(api('/members'), { token })).status).toBe(200);
    expect((await request(api('/members'), { token })).status).toBe(403);
  });
});
