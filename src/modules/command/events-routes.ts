import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { principalOf } from '../../kernel/auth/index.js';
import { errors } from '../../kernel/http/index.js';
import type { CommandDeps } from './deps.js';
import { ACTOR_TYPES, OUTCOMES, SEVERITIES } from './events-model.js';
import { BY_ACTOR_SHOWN, createEventsReader } from './events-service.js';
import { createEventStreams, STREAM_BUFFER_MAX_BYTES, STREAM_KEEPALIVE_MS } from './events-stream.js';

// Command Center events (Part B 4.8): the list, activity by actor and the live stream. `command:read`; people,
// API keys and agents holding it (an agent through governance); confined to the caller's organization, or across
// organizations for the platform operator (scope.ts).

const read = { auth: 'any', permission: 'command:read' } as const;
const common = { tags: ['command'], security: [{ bearer: [] }] };

const literals = <T extends string>(values: readonly T[], description?: string) =>
  Type.Union(
    values.map((value) => Type.Literal(value)),
    description ? { description } : {},
  );
const ActorType = literals(ACTOR_TYPES);
const Severity = literals(SEVERITIES);
const Uuid = Type.String({ format: 'uuid' });
const Timestamp = Type.String({ format: 'date-time' });
const TenantFilter = Type.Optional(
  Type.String({
    format: 'uuid',
    description:
      'An organization: your own, or (platform operator only) any one; another organization gives 403 otherwise. ' +
      'Absent: your organization, or every organization for the platform operator.',
  }),
);

export const EventEnvelopeSchema = Type.Object(
  {
    id: Uuid,
    tenant_id: Type.Union([Uuid, Type.Null()], { description: 'Null for platform-level events' }),
    timestamp: Timestamp,
    actor: Type.Object({ id: Type.String(), type: ActorType }),
    category: Type.String(),
    action: Type.String({ description: 'An event type of the catalogue (resource.past_verb)' }),
    severity: Severity,
    outcome: literals(OUTCOMES),
    correlation_id: Type.Union([Type.String(), Type.Null()]),
    data: Type.Record(Type.String(), Type.Unknown()),
  },
  { description: 'The event envelope (Part B 2.7), as listed and as streamed' },
);

const EventsQuery = Type.Object({
  since: Type.Optional(Type.String({ format: 'date-time', description: 'Events at or after this instant' })),
  category: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  action: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  severity: Type.Optional(literals(SEVERITIES, 'Exactly this severity')),
  correlation_id: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
  actor_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: "The envelope's actor.id" })),
  actor_type: Type.Optional(ActorType),
  tenant_id: TenantFilter,
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
  cursor: Type.Optional(
    Type.String({ maxLength: 256, description: 'The `next_cursor` of the previous page: the older events after it' }),
  ),
});

const EventsPage = Type.Object({
  events: Type.Array(EventEnvelopeSchema, { description: 'Newest first' }),
  next_cursor: Type.Union([Type.String(), Type.Null()], {
    description: 'Pass as `cursor` (with the same filters) for older events; null when there are none',
  }),
});

const ByActorQuery = Type.Object({
  actor_type: Type.Optional(literals(ACTOR_TYPES, 'Default agent')),
  days: Type.Optional(Type.Integer({ minimum: 1, maximum: 90, default: 7 })),
  tenant_id: TenantFilter,
});

const ByActor = Type.Object({
  actor_type: ActorType,
  days: Type.Integer(),
  since: Timestamp,
  principals: Type.Array(
    Type.Object({
      actor_id: Type.String(),
      total: Type.Integer({ description: 'Events attributed to this principal in the window' }),
      by_outcome: Type.Object({ success: Type.Integer(), failure: Type.Integer(), denied: Type.Integer() }),
      elevated: Type.Integer({ description: 'Events at or above warn' }),
      first_seen: Timestamp,
      last_seen: Timestamp,
    }),
    { description: `By volume, then actor_id; the ${BY_ACTOR_SHOWN} busiest at most` },
  ),
  total: Type.Integer({ description: 'Principals of this actor type with events in the window' }),
  shown: Type.Integer(),
  hidden: Type.Integer({ description: 'Principals beyond those shown' }),
});

const StreamQuery = Type.Object({ tenant_id: TenantFilter });

export function registerEventsRoutes(app: FastifyInstance, deps: CommandDeps): void {
  const reader = createEventsReader(deps);
  const streams = createEventStreams(deps);
  // A stream never ends by itself: the stop ends every one, so closing does not wait for their clients.
  app.addHook('preClose', async () => streams.closeAll());

  app.get<{ Querystring: Static<typeof EventsQuery> }>(
    '/api/v1/command/events',
    {
      config: read,
      schema: {
        ...common,
        summary: 'Events, newest first; every filter composes',
        description:
          'The Command Center event envelopes of your organization (the platform operator: every organization, or ' +
          'the one `tenant_id` names). `limit` 1 to 1000 (default 100); more is 422. An `actor_id` outside 1 to 64 ' +
          'characters or an unknown `actor_type` is 422.',
        querystring: EventsQuery,
        response: { 200: EventsPage, ...errors(401, 403, 422, 429) },
      },
    },
    // The page comes as JSON text (events-store writes the envelopes): sent as it is, its schema documents it.
    async (request, reply) =>
      reply
        .type('application/json; charset=utf-8')
        .send(await reader.list(principalOf(request), { ...request.query, limit: request.query.limit ?? 100 })),
  );

  app.get<{ Querystring: Static<typeof ByActorQuery> }>(
    '/api/v1/command/events/by-actor',
    {
      config: read,
      schema: {
        ...common,
        summary: 'Activity per principal over the last days',
        description:
          "Attribution by the envelope's actor. Per principal: `total`, `by_outcome`, `elevated` (at or above warn), " +
          `\`first_seen\`, \`last_seen\`; ordered by volume then actor_id, the ${BY_ACTOR_SHOWN} busiest shown; ` +
          '`total`, `shown` and `hidden` count principals. `actor_type` defaults to agent, `days` 1 to 90 (default 7).',
        querystring: ByActorQuery,
        response: { 200: ByActor, ...errors(401, 403, 422, 429) },
      },
    },
    async (request) =>
      reader.byActor(principalOf(request), {
        actor_type: request.query.actor_type ?? 'agent',
        days: request.query.days ?? 7,
        ...(request.query.tenant_id ? { tenant_id: request.query.tenant_id } : {}),
      }),
  );

  app.get<{ Querystring: Static<typeof StreamQuery> }>(
    '/api/v1/command/events/stream',
    {
      config: read,
      schema: {
        ...common,
        summary: 'The live event stream (Server-Sent Events)',
        description:
          'Authenticated by the Authorization header. `text/event-stream` from the live tip: a `: stream open` comment ' +
          'once subscribed, then one `data:` line per event envelope in scope (committed on any node), and a ' +
          `\`: keepalive\` comment every ${STREAM_KEEPALIVE_MS / 1000} s. No event ids and no resume. A consumer ` +
          `that leaves more than ${STREAM_BUFFER_MAX_BYTES / 1024} KiB unread has its stream closed; a stream also ` +
          'ends when the service stops, after an access-token lifetime, or when delivery between nodes was ' +
          'interrupted: connect again.',
        querystring: StreamQuery,
        produces: ['text/event-stream'],
        response: {
          200: { description: 'The event stream', content: { 'text/event-stream': { schema: { type: 'string' } } } },
          ...errors(401, 403, 422, 429, 503),
        },
      },
    },
    async (request, reply) => streams.open(request, reply, principalOf(request), request.query),
  );
}
