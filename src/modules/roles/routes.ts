import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { principalOf } from '../../kernel/auth/index.js';
import { errors } from '../../kernel/http/index.js';
import {
  CreateRoleBody,
  type CreateRoleInput,
  PatchRoleBody,
  type PatchRoleInput,
  RoleList,
  RoleParams,
  type RoleParamsType,
  RoleView,
} from './http-schemas.js';
import type { RolesService } from './service.js';

// The custom roles admin API (Part A 5.9; ARCHITECTURE.md "Custom roles"). Every route needs `tenant:manage`
// and, as the members family's roles, is closed while the organization awaits its onboarding approval (Part B 4.5).

const BASE = '/api/v1/authz/roles';
const policy = { auth: 'any', permission: 'tenant:manage', quarantineGated: true } as const;
const common = { tags: ['authz'], security: [{ bearer: [] }] };

export function registerRoleRoutes(app: FastifyInstance, deps: { roles: RolesService }): void {
  const { roles } = deps;

  app.post<{ Body: CreateRoleInput }>(
    BASE,
    {
      config: policy,
      schema: {
        ...common,
        summary: 'Create a custom role',
        description:
          '422 bad code syntax, a wildcard or a permission code neither in the catalogue nor declared by a bound OAuth resource of the organization; 409 a system role code or a code the organization already has; 403 a permission you do not hold (`tenant:manage` suffices for declared codes), or the organization awaits its onboarding approval.',
        body: CreateRoleBody,
        response: { 201: RoleView, ...errors(401, 403, 409, 422, 429) },
      },
    },
    async (request, reply) => reply.code(201).send(await roles.create(principalOf(request), request.body)),
  );

  app.get(
    BASE,
    {
      config: policy,
      schema: {
        ...common,
        summary: "The organization's custom roles, by code",
        response: { 200: RoleList, ...errors(401, 403, 429) },
      },
    },
    async (request) => roles.list(principalOf(request)),
  );

  app.get<{ Params: RoleParamsType }>(
    `${BASE}/:code`,
    {
      config: policy,
      schema: {
        ...common,
        summary: 'One custom role',
        params: RoleParams,
        response: { 200: RoleView, ...errors(401, 403, 404, 429) },
      },
    },
    async (request) => roles.get(principalOf(request), request.params.code),
  );

  app.patch<{ Params: RoleParamsType; Body: PatchRoleInput }>(
    `${BASE}/:code`,
    {
      config: policy,
      schema: {
        ...common,
        summary: 'Change a custom role: its holders get the new permissions on their next request',
        description:
          'Any of `name`, `description`, `permissions` (the whole new set). Added permissions must be ones you hold (403); 422 a wildcard or an unknown code; 404 unknown role.',
        params: RoleParams,
        body: PatchRoleBody,
        response: { 200: RoleView, ...errors(401, 403, 404, 422, 429) },
      },
    },
    async (request) => roles.update(principalOf(request), request.params.code, request.body),
  );

  app.delete<{ Params: RoleParamsType }>(
    `${BASE}/:code`,
    {
      config: policy,
      schema: {
        ...common,
        summary: 'Delete a custom role',
        description: '409 while a member or a pending invitation holds it; 404 unknown role.',
        params: RoleParams,
        response: { 204: Type.Null(), ...errors(401, 403, 404, 409, 429) },
      },
    },
    async (request, reply) => {
      await roles.remove(principalOf(request), request.params.code);
      return reply.code(204).send();
    },
  );
}
