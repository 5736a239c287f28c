import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { NOT_AGENTS, principalOf } from '../../kernel/auth/index.js';
import type { ApiKeyService } from './service.js';

const Problem = Type.Object({ detail: Type.String() });
const errors = (...codes: number[]) => Object.fromEntries(codes.map((code) => [code, Problem]));
const Timestamp = Type.String({ format: 'date-time' });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

const KeyView = Type.Object({
  id: Type.String({ format: 'uuid' }),
  label: Type.String(),
  scopes: Type.Array(Type.String(), { description: 'Permission codes the key holds' }),
  display_handle: Type.String({ description: 'Prefix and suffix of the key, middle elided' }),
  created_at: Timestamp,
  expires_at: Nullable(Timestamp),
  last_used_at: Nullable(Timestamp),
  revoked: Type.Boolean(),
  revoked_at: Nullable(Timestamp),
  reason: Nullable(Type.String({ description: 'The reason given at revocation (Part A 2.5)' })),
  rotated_from_id: Nullable(Type.String({ format: 'uuid' })),
});
const IssuedKey = Type.Intersect([
  KeyView,
  Type.Object({ key: Type.String({ description: 'The plaintext key: shown once, store it now' }) }),
]);

const CreateBody = Type.Object({
  label: Type.String({ minLength: 1, maxLength: 200 }),
  scopes: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 100 }),
  expires_in_days: Type.Optional(
    Nullable(Type.Integer({ minimum: 1, maximum: 3650, description: 'Default 365; null for a non-expiring key' })),
  ),
});
const RevokeBody = Type.Object({ reason: Type.String({ minLength: 1, maxLength: 500 }) });
const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
const UsageQuery = Type.Object({
  period: Type.Optional(Type.String({ pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$', description: 'YYYY-MM (UTC)' })),
});
const Usage = Type.Object({
  period: Type.String(),
  total: Type.Integer(),
  quota: Nullable(Type.Integer({ description: "The plan's api_calls_monthly; null when unlimited" })),
  rows: Type.Array(
    Type.Object({
      api_key_id: Type.String({ format: 'uuid' }),
      label: Nullable(Type.String()),
      display_handle: Nullable(Type.String()),
      calls: Type.Integer(),
    }),
  ),
});

const BASE = '/api/v1/tenants/api-keys';
const policy = { auth: 'any', permission: 'tenant:manage', quarantineGated: true } as const;
/** Part A 4.9, Part B 4.2: creating or rotating a key mints a credential, which an AI agent never may. */
const mint = { ...policy, kinds: NOT_AGENTS, kindRefusal: 'AI agents may never mint API keys' } as const;
const common = { tags: ['api-keys'], security: [{ bearer: [] }] };

/** Part A 4.9. Organization administration: any principal holding `tenant:manage` (API keys too). */
export function registerApiKeyRoutes(app: FastifyInstance, deps: { apiKeys: ApiKeyService }): void {
  const { apiKeys } = deps;

  app.post<{ Body: Static<typeof CreateBody> }>(
    BASE,
    {
      config: mint,
      schema: {
        ...common,
        summary: 'Create an API key (the plaintext is returned once)',
        body: CreateBody,
        response: { 201: IssuedKey, ...errors(400, 401, 403, 422, 429) },
      },
    },
    async (request, reply) => {
      const { label, scopes, expires_in_days } = request.body;
      const issued = await apiKeys.create(principalOf(request), { label, scopes, expiresInDays: expires_in_days });
      return reply.code(201).send(issued);
    },
  );

  app.get(
    BASE,
    {
      config: policy,
      schema: {
        ...common,
        summary: 'List API keys (handles, never the keys)',
        response: { 200: Type.Array(KeyView), ...errors(401, 403, 429) },
      },
    },
    async (request) => apiKeys.list(principalOf(request)),
  );

  app.get<{ Querystring: Static<typeof UsageQuery> }>(
    `${BASE}/usage`,
    {
      config: policy,
      schema: {
        ...common,
        summary: 'Calls per key this month (or `period`) against the monthly quota',
        querystring: UsageQuery,
        response: { 200: Usage, ...errors(401, 403, 422, 429) },
      },
    },
    async (request) => apiKeys.usage(principalOf(request), request.query.period),
  );

  app.post<{ Params: Static<typeof IdParams> }>(
    `${BASE}/:id/rotate`,
    {
      config: mint,
      schema: {
        ...common,
        summary: 'Issue a successor with the same scopes; the old key works until revoked',
        params: IdParams,
        response: { 201: IssuedKey, ...errors(401, 403, 404, 409, 429) },
      },
    },
    async (request, reply) => reply.code(201).send(await apiKeys.rotate(principalOf(request), request.params.id)),
  );

  app.post<{ Params: Static<typeof IdParams>; Body: Static<typeof RevokeBody> }>(
    `${BASE}/:id/revoke`,
    {
      config: policy,
      schema: {
        ...common,
        summary: 'Revoke a key; refused from its next request on',
        params: IdParams,
        body: RevokeBody,
        response: { 200: KeyView, ...errors(401, 403, 404, 409, 422, 429) },
      },
    },
    async (request) => apiKeys.revoke(principalOf(request), request.params.id, request.body.reason),
  );
}
