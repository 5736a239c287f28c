import { Type } from '@sinclair/typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { registerHttpKernel } from '../http/index.js';
import { type CredentialResolver, registerGuard } from './guard.js';
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
    agent: principal(['members:read'], { kind: 'agent' }),
  })[credential.token] ?? null;

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function build(env: Record<string, string> = {}) {
  app = Fastify();
  registerHttpKernel(app);
  registerGuard(app, { config: loadConfig({ SVC_ENV: 'test', ...env }), resolvers: [resolver] });
  return app;
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
