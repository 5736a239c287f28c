import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { principalOf } from '../../kernel/auth/index.js';
import { errors } from '../../kernel/http/index.js';
import type { AgentAdmin } from './admin-service.js';
import {
  AgentDetail,
  AgentList,
  AgentListQuery,
  AgentParams,
  AgentView,
  DelegateBody,
  DelegationParams,
  GrantedDelegation,
  KillSwitchBody,
  MyDelegations,
  RegisterAgentBody,
  RegisteredAgent,
  RotatedCredential,
  UpdateAgentBody,
} from './http-schemas.js';

// Agent administration and delegations (ARCHITECTURE.md "Interfaces the specification leaves out", Agents). Only
// people administer agents: every route is `auth: 'user'`, so an agent or an API key gets 403.

const BASE = '/api/v1/agents';
const read = { auth: 'user', permission: 'agents:read' } as const;
const manage = { auth: 'user', permission: 'agents:manage' } as const;
const common = { tags: ['agents'], security: [{ bearer: [] }] };

type AgentRequest = { Params: Static<typeof AgentParams> };

export function registerAgentAdminRoutes(app: FastifyInstance, deps: { agents: AgentAdmin }): void {
  const { agents } = deps;

  app.post<{ Body: Static<typeof RegisterAgentBody> }>(
    BASE,
    {
      config: manage,
      schema: {
        ...common,
        summary: 'Register an agent (its agt_ credential is returned once)',
        body: RegisterAgentBody,
        response: { 201: RegisteredAgent, ...errors(401, 403, 422, 429) },
      },
    },
    async (request, reply) => reply.code(201).send(await agents.register(principalOf(request), request.body)),
  );

  app.get<{ Querystring: Static<typeof AgentListQuery> }>(
    BASE,
    {
      config: read,
      schema: {
        ...common,
        summary: "List the organization's agents, newest first (never their credentials)",
        querystring: AgentListQuery,
        response: { 200: AgentList, ...errors(401, 403, 422, 429) },
      },
    },
    async (request) =>
      agents.list(principalOf(request), { limit: request.query.limit ?? 100, cursor: request.query.cursor }),
  );

  app.get<AgentRequest>(
    `${BASE}/:agent_id`,
    {
      config: read,
      schema: {
        ...common,
        summary: 'Read an agent and its live delegations',
        params: AgentParams,
        response: { 200: AgentDetail, ...errors(401, 403, 404, 429) },
      },
    },
    async (request) => agents.get(principalOf(request), request.params.agent_id),
  );

  app.patch<AgentRequest & { Body: Static<typeof UpdateAgentBody> }>(
    `${BASE}/:agent_id`,
    {
      config: manage,
      schema: {
        ...common,
        summary: "Change an agent's name, description or governance fields",
        params: AgentParams,
        body: UpdateAgentBody,
        response: { 200: AgentView, ...errors(401, 403, 404, 409, 422, 429) },
      },
    },
    async (request) => agents.update(principalOf(request), request.params.agent_id, request.body),
  );

  const lifecycle = [
    ['suspend', 'Suspend an agent: its tokens are refused until it is resumed', agents.suspend],
    ['resume', 'Resume a suspended agent', agents.resume],
    ['retire', 'Retire an agent for good: its credential dies at once and its delegations end', agents.retire],
  ] as const;
  for (const [verb, summary, change] of lifecycle) {
    app.post<AgentRequest>(
      `${BASE}/:agent_id/${verb}`,
      {
        config: manage,
        schema: {
          ...common,
          summary,
          params: AgentParams,
          response: { 200: AgentView, ...errors(401, 403, 404, 409, 429) },
        },
      },
      async (request) => change(principalOf(request), request.params.agent_id),
    );
  }

  app.post<AgentRequest>(
    `${BASE}/:agent_id/rotate-credential`,
    {
      config: manage,
      schema: {
        ...common,
        summary: 'Replace the credential (returned once); the old one and every token minted under it stop',
        params: AgentParams,
        response: { 200: RotatedCredential, ...errors(401, 403, 404, 409, 429) },
      },
    },
    async (request) => agents.rotateCredential(principalOf(request), request.params.agent_id),
  );

  app.post<AgentRequest & { Body: Static<typeof KillSwitchBody> }>(
    `${BASE}/:agent_id/kill-switch`,
    {
      // The permission depends on the direction (engage: agents:manage, release: agents:kill): the service checks it.
      config: { auth: 'user' },
      schema: {
        ...common,
        summary: 'Engage (agents:manage, with a reason) or release (agents:kill) the kill switch',
        params: AgentParams,
        body: KillSwitchBody,
        response: { 200: AgentView, ...errors(401, 403, 404, 409, 422, 429) },
      },
    },
    async (request) => agents.setKillSwitch(principalOf(request), request.params.agent_id, request.body),
  );

  app.post<AgentRequest & { Body: Static<typeof DelegateBody> }>(
    `${BASE}/:agent_id/delegations`,
    {
      config: manage,
      schema: {
        ...common,
        summary: 'Delegate some of your own permissions to an agent, optionally time-boxed',
        params: AgentParams,
        body: DelegateBody,
        response: { 201: GrantedDelegation, ...errors(401, 403, 404, 409, 422, 429) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await agents.delegate(principalOf(request), request.params.agent_id, request.body)),
  );

  app.get(
    '/api/v1/me/agents',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['agents', 'me'],
        security: common.security,
        summary: 'The live delegations you granted to agents',
        response: { 200: MyDelegations, ...errors(401, 403, 429) },
      },
    },
    async (request) => agents.myDelegations(principalOf(request)),
  );

  app.delete<{ Params: Static<typeof DelegationParams> }>(
    '/api/v1/me/agents/:delegation_id',
    {
      config: { auth: 'user', permission: 'identity:self:write' },
      schema: {
        tags: ['agents', 'me'],
        security: common.security,
        summary: 'Revoke a delegation you granted; the agent loses it on its next request',
        params: DelegationParams,
        response: { 204: Type.Null(), ...errors(401, 403, 404, 429) },
      },
    },
    async (request, reply) => {
      await agents.revokeMyDelegation(principalOf(request), request.params.delegation_id);
      return reply.code(204).send();
    },
  );
}
