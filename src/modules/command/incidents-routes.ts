import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { principalOf } from '../../kernel/auth/index.js';
import { errors } from '../../kernel/http/index.js';
import type { CommandDeps } from './deps.js';
import {
  ChangeIncidentBody,
  IncidentList,
  IncidentListQuery,
  IncidentParams,
  IncidentSummary,
  IncidentSummaryQuery,
  IncidentView,
  OpenIncidentBody,
} from './incidents-schemas.js';
import { createIncidentsService } from './incidents-service.js';

// Incidents (Part B 4.8): reads need `command:read`; opening and changing one need `command:operate` and act on
// the caller's own organization only.

const BASE = '/api/v1/command/incidents';
const read = { auth: 'any', permission: 'command:read' } as const;
const operate = { auth: 'any', permission: 'command:operate' } as const;
const common = { tags: ['command'], security: [{ bearer: [] }] };

export function registerIncidentsRoutes(app: FastifyInstance, deps: CommandDeps): void {
  const incidents = createIncidentsService(deps);

  app.post<{ Body: Static<typeof OpenIncidentBody> }>(
    BASE,
    {
      config: operate,
      schema: {
        ...common,
        summary: 'Open an incident in your organization over its detections (at most 100); audited',
        body: OpenIncidentBody,
        response: { 201: IncidentView, ...errors(401, 403, 422, 429) },
      },
    },
    async (request, reply) => reply.code(201).send(await incidents.open(principalOf(request), request.body)),
  );

  app.get<{ Querystring: Static<typeof IncidentListQuery> }>(
    BASE,
    {
      config: read,
      schema: {
        ...common,
        summary: 'List incidents, newest first; filters compose',
        querystring: IncidentListQuery,
        response: { 200: IncidentList, ...errors(401, 403, 422, 429) },
      },
    },
    async (request) => incidents.list(principalOf(request), request.query),
  );

  app.get<{ Querystring: Static<typeof IncidentSummaryQuery> }>(
    `${BASE}/summary`,
    {
      config: read,
      schema: {
        ...common,
        summary: 'Incidents opened in the last `days` days by status and severity, and the whole unresolved backlog',
        querystring: IncidentSummaryQuery,
        response: { 200: IncidentSummary, ...errors(401, 403, 422, 429) },
      },
    },
    async (request) => incidents.summary(principalOf(request), request.query),
  );

  app.patch<{ Params: Static<typeof IncidentParams>; Body: Static<typeof ChangeIncidentBody> }>(
    `${BASE}/:id`,
    {
      config: operate,
      schema: {
        ...common,
        summary:
          'Change an incident of your organization: status (allowed moves only, else 409), assignee, containment, remediation, root cause; audited',
        params: IncidentParams,
        body: ChangeIncidentBody,
        response: { 200: IncidentView, ...errors(401, 403, 404, 409, 422, 429) },
      },
    },
    async (request) => incidents.change(principalOf(request), request.params.id, request.body),
  );
}
