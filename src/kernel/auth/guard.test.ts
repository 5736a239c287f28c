import { Type } from '@sinclair/typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { forbidden, HttpError } from '../http/errors.js';
import { registerHttpKernel } from '../http/index.js';
import { type Governance, type GovernanceCheck, type GovernedAction, runChecks } from './governance.js';
import { admitsAgents, type CredentialResolver, NOT_AGENTS, registerGuard, routePolicies } from './guard.js';
import type { Principal } from './principal.js';

const principal = (permissions: string[], extra: Partial<Principal> = {}): Principal => ({
  kind: 'user',
  tenantId: '00000000-0000-7000-8000-000000000001',
  userId: '00000000-0000-7000-8000-000000000002',
  permissions: new Set(permissions),
  isOwner: false,
  population: 'workforce',
  quarantined: false,
  actor: { id: 'u', type: 'human' },
  attributes: {},
  ...extra,
});

/** A resolver keyed by the presented token: enough to exercise every branch of the guard. */
const resolver: CredentialResolver = async (_request, credential) =>
  ({
    reader: principal(['members:read']),
    owner: principal([], { isOwner: true }),
    quarantined: principal(['members:manage'], { quarantined: true }),
    agent: principal(['members:read'], {
      kind: 'agent',
      userId: undefined,
      agentId: '00000000-0000-7000-8000-000000000003',
      population: null,
      actor: { id: '00000000-0000-7000-8000-000000000003', type: 'agent' },
    }),
  })[credential.token] ?? null;

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function build(env: Record<string, string> = {}, governance?: Governance) {
  app = Fastify();
  registerHttpKernel(app);
  registerGuard(app, { config: loadConfig({ SVC_ENV: 'test', ...env }), resolvers: [resolver], governance });
  return app;
}

/** A governance that records what the guard asked and refuses when told to. */
function recordingGovernance(refuse?: (action: GovernedAction) => HttpError | undefined) {
  const asked: Array<Omit<GovernedAction, 'request'> & { route: string | undefined }> = [];
  const governance: Governance = {
    async afterValidation() {},
    async forAgents(action) {
      asked.push({
        principal: action.principal,
        permission: action.permission,
        readOnly: action.readOnly,
        route: action.request.routeOptions.url,
      });
      const refusal = refuse?.(action);
      if (refusal) throw refusal;
    },
  };
  return { governance, asked };
}

async function send(instance: FastifyInstance, method: string, path: string, token: string) {
  if (!instance.server.listening) await instance.listen({ port: 0, host: '127.0.0.1' });
  const { port } = instance.server.address() as { port: number };
  const res = await fetch(`http://127.0.0.1:${port}${path}`, { method, headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function call(instance: FastifyInstance, path: string, token?: string, body?: string) {
  await instance.listen({ port: 0, host: '127.0.0.1' });
  const { port } = instance.server.address() as { port: number };
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body,
  });
  return { status: res.status, body: (await res.json()) as { detail: string } };
}

describe('route guard', () => {
  it('refuses at start-up a route that declares no policy', async () => {
    const instance = await build();
    expect(() => instance.get('/open', async () => 'oops')).toThrow(/declares no auth policy/);
  });

  it('answers 401 without a credential and for an unknown one', async () => {
    const instance = await build();
    instance.get('/members', { config: { auth: 'user', permission: 'members:read' } }, async () => ({ ok: true }));
    expect((await call(instance, '/members')).status).toBe(401);
    expect(
      (
        await fetch(`http://127.0.0.1:${(instance.server.address() as { port: number }).port}/members`, {
          headers: { authorization: 'Bearer nobody' },
        })
      ).status,
    ).toBe(401);
  });

  it('answers 403 naming the missing permission, and lets the owner through', async () => {
    const instance = await build();
    instance.get('/manage', { config: { auth: 'user', permission: 'members:manage' } }, async () => ({ ok: true }));
    const refused = await call(instance, '/manage', 'reader');
    expect(refused).toEqual({ status: 403, body: { detail: 'Missing permission: members:manage' } });
    const port = (instance.server.address() as { port: number }).port;
    expect(
      (await fetch(`http://127.0.0.1:${port}/manage`, { headers: { authorization: 'Bearer owner' } })).status,
    ).toBe(200);
  });

  it('admits only the principal kinds of the policy: another kind is authenticated, so 403 naming it', async () => {
    const instance = await build();
    instance.get('/people', { config: { auth: 'user' } }, async () => ({ ok: true }));
    const res = await call(instance, '/people', 'agent');
    expect(res.status).toBe(403);
    expect(res.body.detail).toBe('This route is not open to AI agents');
  });

  it('answers 403 on quarantine-gated routes while the organization is quarantined', async () => {
    const instance = await build();
    instance.get('/invite', { config: { auth: 'user', quarantineGated: true } }, async () => ({ ok: true }));
    const res = await call(instance, '/invite', 'quarantined');
    expect(res.status).toBe(403);
    expect(res.body.detail).toMatch(/awaiting approval/);
  });

  it('answers a dormant surface exactly like an unknown path, before reading the body', async () => {
    const instance = await build();
    instance.post(
      '/approvals',
      { config: { auth: 'user', flag: 'agentApprovalsEnabled' }, schema: { body: Type.Object({ a: Type.String() }) } },
      async () => ({ ok: true }),
    );
    const dormant = await call(instance, '/approvals', 'reader', '{"malformed');
    const unknown = await fetch(
      `http://127.0.0.1:${(instance.server.address() as { port: number }).port}/nothing-here`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"malformed',
      },
    );
    expect(dormant).toEqual({ status: 404, body: await unknown.json() });
    expect(unknown.status).toBe(404);
  });

  it('serves the surface once its switch is on', async () => {
    const instance = await build({ AGENT_APPROVALS_ENABLED: 'true' });
    instance.post(
      '/approvals',
      { config: { auth: 'user', flag: 'agentApprovalsEnabled' }, schema: { body: Type.Object({ a: Type.String() }) } },
      async () => ({ ok: true }),
    );
    const res = await call(instance, '/approvals', 'reader', '{}');
    expect(res).toEqual({ status: 422, body: { detail: 'a: is required' } });
  });
});

describe('route guard for AI agents', () => {
  it('refuses every agent when the app has no governance, even with the permission', async () => {
    const instance = await build();
    instance.get('/members', { config: { auth: 'any', permission: 'members:read' } }, async () => ({ ok: true }));
    expect(await send(instance, 'GET', '/members', 'agent')).toEqual({
      status: 403,
      body: { detail: 'AI agents are not served here: agent governance is not configured' },
    });
    expect((await send(instance, 'GET', '/members', 'reader')).status).toBe(200);
  });

  it('asks governance instead of checking the permission, and serves the route when it passes', async () => {
    const { governance, asked } = recordingGovernance();
    const instance = await build({}, governance);
    // The agent's own permissions lack members:manage: deciding that is governance's job, not the guard's.
    instance.post('/manage', { config: { auth: 'any', permission: 'members:manage' } }, async () => ({ ok: true }));
    expect(await send(instance, 'POST', '/manage', 'agent')).toEqual({ status: 200, body: { ok: true } });
    expect(asked).toEqual([
      {
        principal: expect.objectContaining({ kind: 'agent', agentId: '00000000-0000-7000-8000-000000000003' }),
        permission: 'members:manage',
        readOnly: false,
        route: '/manage',
      },
    ]);
  });

  it("answers governance's refusal as it is, body extras included", async () => {
    const { governance } = recordingGovernance(
      () => new HttpError(403, 'Awaiting approval', {}, { approval_request_id: 'req-1' }),
    );
    const instance = await build({}, governance);
    instance.post('/manage', { config: { auth: 'any', permission: 'members:manage' } }, async () => ({ ok: true }));
    expect(await send(instance, 'POST', '/manage', 'agent')).toEqual({
      status: 403,
      body: { detail: 'Awaiting approval', approval_request_id: 'req-1' },
    });
  });

  it('never asks governance about people, API keys or owners', async () => {
    const { governance, asked } = recordingGovernance(() => forbidden('governance said no'));
    const instance = await build({}, governance);
    instance.get('/members', { config: { auth: 'any', permission: 'members:read' } }, async () => ({ ok: true }));
    expect((await send(instance, 'GET', '/members', 'reader')).status).toBe(200);
    expect((await send(instance, 'GET', '/members', 'owner')).status).toBe(200);
    expect(asked).toEqual([]);
  });

  it('tells governance whether the action is read-only: a safe method, or a read-only permission', async () => {
    const { governance, asked } = recordingGovernance();
    const instance = await build({}, governance);
    instance.get('/write-get', { config: { auth: 'any', permission: 'members:manage' } }, async () => ({}));
    instance.post('/plan', { config: { auth: 'any', permission: 'manifest:plan' } }, async () => ({}));
    instance.post('/apply', { config: { auth: 'any', permission: 'manifest:apply' } }, async () => ({}));
    instance.delete('/remove', { config: { auth: 'any', permission: 'members:manage' } }, async () => ({}));
    for (const [method, path] of [
      ['GET', '/write-get'],
      ['POST', '/plan'],
      ['POST', '/apply'],
      ['DELETE', '/remove'],
    ] as const) {
      expect((await send(instance, method, path, 'agent')).status, path).toBe(200);
    }
    expect(asked.map((a) => [a.route, a.readOnly])).toEqual([
      ['/write-get', true],
      ['/plan', true],
      ['/apply', false],
      ['/remove', false],
    ]);
  });

  it('closes a route that names no permission to agents, without asking governance', async () => {
    const { governance, asked } = recordingGovernance();
    const instance = await build({}, governance);
    instance.get('/entitlements', { config: { auth: 'any' } }, async () => ({ ok: true }));
    expect(await send(instance, 'GET', '/entitlements', 'agent')).toEqual({
      status: 403,
      body: { detail: 'This route is not open to AI agents: it names no permission that can be delegated to one' },
    });
    expect((await send(instance, 'GET', '/entitlements', 'reader')).status).toBe(200);
    expect(asked).toEqual([]);
  });

  it('opens a route without a permission to agents when it names them, still through governance', async () => {
    const { governance, asked } = recordingGovernance();
    const instance = await build({}, governance);
    instance.post('/feedback', { config: { auth: 'any', kinds: ['agent', 'user'] } }, async () => ({ ok: true }));
    instance.post('/mcp', { config: { auth: 'agent' } }, async () => ({ ok: true }));
    expect((await send(instance, 'POST', '/feedback', 'agent')).status).toBe(200);
    expect((await send(instance, 'POST', '/mcp', 'agent')).status).toBe(200);
    expect(asked.map((a) => [a.route, a.permission, a.readOnly])).toEqual([
      ['/feedback', undefined, false],
      ['/mcp', undefined, false],
    ]);
    expect(await send(instance, 'POST', '/mcp', 'reader')).toEqual({
      status: 403,
      body: { detail: 'This route is not open to people signed in with a session' },
    });
  });

  it('refuses agents on person-only routes before governance, naming the route’s own reason', async () => {
    const { governance, asked } = recordingGovernance();
    const instance = await build({}, governance);
    instance.get('/me', { config: { auth: 'user' } }, async () => ({ ok: true }));
    instance.post(
      '/keys',
      {
        config: {
          auth: 'any',
          permission: 'members:read',
          kinds: NOT_AGENTS,
          kindRefusal: 'AI agents may never mint API keys',
        },
      },
      async () => ({ ok: true }),
    );
    expect(await send(instance, 'GET', '/me', 'agent')).toEqual({
      status: 403,
      body: { detail: 'This route is not open to AI agents' },
    });
    expect(await send(instance, 'POST', '/keys', 'agent')).toEqual({
      status: 403,
      body: { detail: 'AI agents may never mint API keys' },
    });
    expect((await send(instance, 'POST', '/keys', 'reader')).status).toBe(200);
    expect(asked).toEqual([]);
    expect(NOT_AGENTS).not.toContain('agent');
    expect(NOT_AGENTS).toEqual(expect.arrayContaining(['user', 'api_key', 'oauth_client']));
  });

  it('checks quarantine before governance', async () => {
    const { governance, asked } = recordingGovernance();
    const instance = await build({}, governance);
    instance.post(
      '/invite',
      { config: { auth: 'any', permission: 'members:manage', quarantineGated: true } },
      async () => ({ ok: true }),
    );
    // The agent fixture is not quarantined; a quarantined person is refused before any permission check.
    expect((await send(instance, 'POST', '/invite', 'agent')).status).toBe(200);
    expect((await send(instance, 'POST', '/invite', 'quarantined')).body.detail).toMatch(/awaiting approval/);
    expect(asked).toHaveLength(1);
  });
});

describe('admitsAgents and the route table', () => {
  it('admits agents where a permission can be delegated or the route names them, never on person-only routes', () => {
    expect(admitsAgents({ auth: 'public' })).toBe(false);
    expect(admitsAgents({ auth: 'user', permission: 'members:read' })).toBe(false);
    expect(admitsAgents({ auth: 'any' })).toBe(false);
    expect(admitsAgents({ auth: 'any', permission: 'members:read', kinds: NOT_AGENTS })).toBe(false);
    expect(admitsAgents({ auth: 'any', kinds: ['scim'] })).toBe(false);
    expect(admitsAgents({ auth: 'any', permission: 'members:read' })).toBe(true);
    expect(admitsAgents({ auth: 'any', kinds: ['user', 'agent'] })).toBe(true);
    expect(admitsAgents({ auth: 'agent' })).toBe(true);
  });

  it('records every route with its policy', async () => {
    const instance = await build();
    instance.get('/me', { config: { auth: 'user' } }, async () => ({}));
    instance.post(
      '/keys',
      { config: { auth: 'any', permission: 'tenant:manage', kinds: NOT_AGENTS } },
      async () => ({}),
    );
    const table = routePolicies(instance).filter((route) => route.method !== 'HEAD');
    expect(table).toEqual([
      { method: 'GET', url: '/me', auth: 'user', permission: undefined, kinds: undefined },
      { method: 'POST', url: '/keys', auth: 'any', permission: 'tenant:manage', kinds: NOT_AGENTS },
    ]);
  });
});

describe('runChecks', () => {
  const action = {} as GovernedAction;
  const check = (name: string, ran: string[], refuse = false): GovernanceCheck => ({
    name,
    async check() {
      ran.push(name);
      if (refuse) throw forbidden(`${name} refused`);
    },
  });

  it('runs every check in order when none refuses', async () => {
    const ran: string[] = [];
    await runChecks([check('kill-switch', ran), check('lifecycle', ran), check('budget', ran)], action);
    expect(ran).toEqual(['kill-switch', 'lifecycle', 'budget']);
  });

  it('stops at the first refusal, throws it unchanged, and tells the listener which check refused', async () => {
    const ran: string[] = [];
    const refusals: Array<{ check: string; detail: string }> = [];
    const outcome = runChecks(
      [check('kill-switch', ran), check('risk-ceiling', ran, true), check('budget', ran)],
      action,
      async (refusal, seen) => {
        expect(seen).toBe(action);
        refusals.push({ check: refusal.check, detail: (refusal.error as HttpError).detail });
      },
    );
    await expect(outcome).rejects.toMatchObject({ status: 403, detail: 'risk-ceiling refused' });
    expect(ran).toEqual(['kill-switch', 'risk-ceiling']);
    expect(refusals).toEqual([{ check: 'risk-ceiling', detail: 'risk-ceiling refused' }]);
  });
});
