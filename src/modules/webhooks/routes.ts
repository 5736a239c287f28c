import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { principalOf } from '../../kernel/auth/index.js';
import type { WebhookService } from './service.js';

const Problem = Type.Object({ detail: Type.String() });
const errors = (...codes: number[]) => Object.fromEntries(codes.map((code) => [code, Problem]));
const Timestamp = Type.String({ format: 'date-time' });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

const Endpoint = Type.Object({
  id: Type.String({ format: 'uuid' }),
  url: Type.String(),
  description: Type.String(),
  event_types: Type.Array(Type.String()),
  enabled: Type.Boolean(),
  disabled_reason: Nullable(Type.String()),
  created_at: Timestamp,
  updated_at: Timestamp,
});
const EndpointWithSecret = Type.Intersect([
  Endpoint,
  Type.Object({ secret: Type.String({ description: 'whsec_…: shown only now' }) }),
]);
const Delivery = Type.Object({
  id: Type.String({ format: 'uuid' }),
  event_id: Type.String({ format: 'uuid' }),
  event_type: Type.String(),
  status: Type.String({ description: 'pending, retrying, delivered or dead_letter' }),
  attempts: Type.Integer(),
  last_status_code: Nullable(Type.Integer()),
  last_error: Nullable(Type.String({ description: 'timeout, http_status, blocked, or a connection/TLS error name' })),
  next_attempt_at: Nullable(Timestamp),
  replay_of: Nullable(Type.String({ format: 'uuid' })),
  created_at: Timestamp,
});
const EventTypes = Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 100 });
const RegisterBody = Type.Object({
  url: Type.String({ minLength: 1, maxLength: 2048 }),
  description: Type.Optional(Type.String({ maxLength: 500 })),
  event_types: EventTypes,
});
const PatchBody = Type.Object(
  {
    description: Type.Optional(Type.String({ maxLength: 500 })),
    event_types: Type.Optional(EventTypes),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
const DeliveryParams = Type.Object({ id: Type.String({ maxLength: 64 }), delivery_id: Type.String({ maxLength: 64 }) });
const DeliveriesQuery = Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })) });
const TestResult = Type.Object({
  delivered: Type.Boolean(),
  status_code: Nullable(Type.Integer()),
  error: Nullable(Type.String()),
  blocked_by_policy: Type.Boolean(),
});

const BASE = '/api/v1/tenants/webhooks';
const policy = { auth: 'any', permission: 'tenant:manage', quarantineGated: true } as const;
const common = { tags: ['webhooks'], security: [{ bearer: [] }] };

/** Part A 4.11. Organization administration (API keys with `tenant:manage` too); 403 while quarantined. */
export function registerWebhookRoutes(app: FastifyInstance, deps: { webhooks: WebhookService }): void {
  const { webhooks } = deps;

  app.get(
    `${BASE}/events`,
    {
      config: policy,
      schema: {
        ...common,
        summary: 'The published webhook event catalogue',
        response: {
          200: Type.Array(
            Type.Object({ type: Type.String(), description: Type.String(), schema_version: Type.Integer() }),
          ),
          ...errors(401, 403, 429),
        },
      },
    },
    async () => webhooks.catalogue(),
  );

  app.get(
    BASE,
    {
      config: policy,
      schema: {
        ...common,
        summary: 'List webhook endpoints',
        response: { 200: Type.Array(Endpoint), ...errors(401, 403, 429) },
      },
    },
    async (request) => webhooks.list(principalOf(request)),
  );

  app.post<{ Body: Static<typeof RegisterBody> }>(
    BASE,
    {
      config: policy,
      schema: {
        ...common,
        summary: 'Register an endpoint (the signing secret is returned once)',
        body: RegisterBody,
        response: { 201: EndpointWithSecret, ...errors(400, 401, 403, 409, 422, 429) },
      },
    },
    async (request, reply) => {
      const { url, description, event_types } = request.body;
      const created = await webhooks.register(principalOf(request), { url, description, eventTypes: event_types });
      return reply.code(201).send(created);
    },
  );

  app.patch<{ Params: Static<typeof IdParams>; Body: Static<typeof PatchBody> }>(
    `${BASE}/:id`,
    {
      config: policy,
      schema: {
        ...common,
        summary: 'Update description, subscriptions or enabled (re-enabling clears the failure counter)',
        params: IdParams,
        body: PatchBody,
        response: { 200: Endpoint, ...errors(400, 401, 403, 404, 422, 429) },
      },
    },
    async (request) => {
      const { description, event_types, enabled } = request.body;
      return webhooks.update(principalOf(request), request.params.id, {
        description,
        eventTypes: event_types,
        enabled,
      });
    },
  );

  app.delete<{ Params: Static<typeof IdParams> }>(
    `${BASE}/:id`,
    {
      config: policy,
      schema: {
        ...common,
        summary: 'Remove an endpoint and its delivery log',
        params: IdParams,
        response: { 204: Type.Null(), ...errors(401, 403, 404, 429) },
      },
    },
    async (request, reply) => {
      await webhooks.remove(principalOf(request), request.params.id);
      return reply.code(204).send();
    },
  );

  app.post<{ Params: Static<typeof IdParams> }>(
    `${BASE}/:id/rotate-secret`,
    {
      config: policy,
      schema: {
        ...common,
        summary: 'New signing secret; the previous one stays valid until the next rotation',
        params: IdParams,
        response: { 200: EndpointWithSecret, ...errors(401, 403, 404, 429) },
      },
    },
    async (request) => webhooks.rotateSecret(principalOf(request), request.params.id),
  );

  app.post<{ Params: Static<typeof IdParams> }>(
    `${BASE}/:id/test`,
    {
      config: policy,
      schema: {
        ...common,
        summary: 'Send a signed svc.test event now and report the outcome (not logged)',
        params: IdParams,
        response: { 200: TestResult, ...errors(401, 403, 404, 429) },
      },
    },
    async (request) => webhooks.test(principalOf(request), request.params.id),
  );

  app.get<{ Params: Static<typeof IdParams>; Querystring: Static<typeof DeliveriesQuery> }>(
    `${BASE}/:id/deliveries`,
    {
      config: policy,
      schema: {
        ...common,
        summary: 'Delivery log, newest first',
        params: IdParams,
        querystring: DeliveriesQuery,
        response: { 200: Type.Array(Delivery), ...errors(401, 403, 404, 422, 429) },
      },
    },
    async (request) => webhooks.deliveries(principalOf(request), request.params.id, request.query.limit ?? 50),
  );

  app.post<{ Params: Static<typeof DeliveryParams> }>(
    `${BASE}/:id/deliveries/:delivery_id/replay`,
    {
      config: policy,
      schema: {
        ...common,
        summary: 'Queue a new delivery of the same event (same event id); the original stays in the log',
        params: DeliveryParams,
        response: { 202: Delivery, ...errors(401, 403, 404, 429) },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await webhooks.replay(principalOf(request), request.params.id, request.params.delivery_id)),
  );
}
