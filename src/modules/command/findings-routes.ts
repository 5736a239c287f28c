import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { principalOf } from '../../kernel/auth/index.js';
import { errors } from '../../kernel/http/index.js';
import type { CommandDeps } from './deps.js';
import { SEVERITIES } from './events-model.js';
import { ANALYST_WINDOW_DAYS, createFindingsReader, FINDING_SOURCES } from './findings-service.js';

// Findings (Part B 4.8): read only, `command:read`, confined like the events.

const read = { auth: 'any', permission: 'command:read' } as const;
const literals = <T extends string>(values: readonly T[], options: { description?: string } = {}) =>
  Type.Union(
    values.map((value) => Type.Literal(value)),
    options,
  );
const Timestamp = Type.String({ format: 'date-time' });

const FindingsQuery = Type.Object({
  severity: Type.Optional(literals(SEVERITIES, { description: 'Findings of exactly this severity' })),
  source: Type.Optional(
    literals(FINDING_SOURCES, {
      description: `analyst (default): adverse activity per principal and action over the last ${ANALYST_WINDOW_DAYS} days; detection: detections still open or acknowledged`,
    }),
  ),
  tenant_id: Type.Optional(
    Type.String({
      format: 'uuid',
      description: 'Platform operator: one organization (absent: every organization). Others: their own only, else 403',
    }),
  ),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 50 })),
});

const Finding = Type.Object({
  id: Type.String({ description: 'Stable: the same activity or detection is the same finding on every read' }),
  source: literals(FINDING_SOURCES),
  tenant_id: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
  severity: literals(SEVERITIES),
  title: Type.String(),
  signal: Type.String({ description: 'The event action (analyst) or the detection rule id (detection)' }),
  subject: Type.String({ description: '<actor type>:<actor id> (analyst) or the detection group key (detection)' }),
  count: Type.Integer(),
  first_seen: Timestamp,
  last_seen: Timestamp,
  event_ids: Type.Array(Type.String({ format: 'uuid' }), { description: 'Its newest events (analyst), at most 5' }),
  by_outcome: Type.Union([
    Type.Object({ success: Type.Integer(), failure: Type.Integer(), denied: Type.Integer() }),
    Type.Null(),
  ]),
  detection_id: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
  status: Type.Union([Type.Literal('open'), Type.Literal('acknowledged'), Type.Null()], {
    description: "The detection's status (detection); null for the analyst's",
  }),
});

const Findings = Type.Object({
  source: literals(FINDING_SOURCES),
  window_days: Type.Union([Type.Integer(), Type.Null()], { description: 'The history the analyst read' }),
  findings: Type.Array(Finding, { description: 'Most severe first, then the most recently seen' }),
});

export function registerFindingsRoutes(app: FastifyInstance, deps: CommandDeps): void {
  const findings = createFindingsReader(deps);

  app.get<{ Querystring: Static<typeof FindingsQuery> }>(
    '/api/v1/command/findings',
    {
      config: read,
      schema: {
        tags: ['command'],
        security: [{ bearer: [] }],
        summary: 'Findings: what the analyses conclude from the records (read only)',
        description:
          'Computed on every read from the events and detections of your organization (the platform operator: ' +
          `every organization, or \`tenant_id\`). \`source\` analyst (default) or detection; \`limit\` 1 to 500 ` +
          '(default 50).',
        querystring: FindingsQuery,
        response: { 200: Findings, ...errors(401, 403, 422, 429) },
      },
    },
    async (request) =>
      findings.list(principalOf(request), {
        ...request.query,
        source: request.query.source ?? 'analyst',
        limit: request.query.limit ?? 50,
      }),
  );
}
