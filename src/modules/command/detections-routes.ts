import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { principalOf } from '../../kernel/auth/index.js';
import { errors } from '../../kernel/http/index.js';
import type { CommandDeps } from './deps.js';
import {
  AcknowledgeBody,
  DetectionList,
  DetectionListQuery,
  DetectionParams,
  DetectionSummary,
  DetectionSummaryQuery,
  DetectionView,
} from './detections-schemas.js';
import { createDetectionsService } from './detections-service.js';

// Detections (Part B 4.8): reads need `command:read`, settling one needs `command:operate`.

const BASE = '/api/v1/command/detections';
const read = { auth: 'any', permission: 'command:read' } as const;
const operate = { auth: 'any', permission: 'command:operate' } as const;
const common = { tags: ['command'], security: [{ bearer: [] }] };

export function registerDetectionsRoutes(app: FastifyInstance, deps: CommandDeps): void {
  const detections = createDetectionsService(deps);

  app.get<{ Querystring: Static<typeof DetectionListQuery> }>(
    BASE,
    {
      config: read,
      schema: {
        ...common,
        summary: 'List detections (deduplicated groups), newest first; filters compose',
        querystring: DetectionListQuery,
        response: { 200: DetectionList, ...errors(401, 403, 422, 429) },
      },
    },
    async (request) => detections.list(principalOf(request), request.query),
  );

  app.get<{ Querystring: Static<typeof DetectionSummaryQuery> }>(
    `${BASE}/summary`,
    {
      config: read,
      schema: {
        ...common,
        summary: 'Detections seen in the last `days` days, rolled up by severity and by rule, with open counts',
        querystring: DetectionSummaryQuery,
        response: { 200: DetectionSummary, ...errors(401, 403, 422, 429) },
      },
    },
    async (request) => detections.summary(principalOf(request), request.query),
  );

  app.post<{ Params: Static<typeof DetectionParams>; Body: Static<typeof AcknowledgeBody> | undefined }>(
    `${BASE}/:id/acknowledge`,
    {
      config: operate,
      // The body is optional: none at all means `{}` (acknowledge, no note).
      preValidation: async (request) => {
        request.body ??= {};
      },
      schema: {
        ...common,
        summary:
          "Acknowledge (default) or resolve one of your organization's detections, with an optional note; audited",
        params: DetectionParams,
        body: AcknowledgeBody,
        response: { 200: DetectionView, ...errors(401, 403, 404, 409, 422, 429) },
      },
    },
    async (request) => detections.acknowledge(principalOf(request), request.params.id, request.body ?? {}),
  );
}
