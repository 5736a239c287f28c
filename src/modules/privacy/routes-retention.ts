import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { principalOf } from '../../kernel/auth/index.js';
import { notFound } from '../../kernel/http/index.js';
import { MAX_RETENTION_DAYS, type RetentionService } from './retention.js';
import { errors, PolicySchema, PreviewSchema } from './route-schemas.js';
import { DATA_CLASSES, type DataClass } from './schema.js';

const tags = ['privacy'];
const security = [{ bearer: [] }];

const ClassParams = Type.Object({ data_class: Type.String({ maxLength: 64 }) });
const PolicyBody = Type.Object(
  {
    retention_days: Type.Integer({ minimum: 1, maximum: MAX_RETENTION_DAYS }),
    enabled: Type.Optional(Type.Boolean()),
    archive_before_delete: Type.Optional(Type.Boolean()),
    legal_hold_exempt: Type.Optional(Type.Boolean()),
    notes: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Null()])),
  },
  { additionalProperties: false },
);

/** Like an unknown setting key, an unknown data class is an unknown object (404). */
function dataClassOf(value: string): DataClass {
  if (!(DATA_CLASSES as readonly string[]).includes(value)) throw notFound('Unknown data class');
  return value as DataClass;
}

/** Part A 4.10 retention policies and their preview. The audit log is no data class and is never purged. */
export function registerRetentionRoutes(app: FastifyInstance, retention: RetentionService): void {
  app.get(
    '/api/v1/retention',
    {
      config: { auth: 'any', permission: 'compliance:read' },
      schema: {
        tags,
        security,
        summary: 'Retention policies of every data class',
        response: { 200: Type.Object({ policies: Type.Array(PolicySchema) }), ...errors(401, 403) },
      },
    },
    async (request) => ({ policies: await retention.list(principalOf(request)) }),
  );

  app.get(
    '/api/v1/retention/preview',
    {
      config: { auth: 'any', permission: 'compliance:read' },
      schema: {
        tags,
        security,
        summary: 'Records currently past each policy’s retention',
        response: { 200: PreviewSchema, ...errors(401, 403) },
      },
    },
    async (request) => retention.preview(principalOf(request)),
  );

  app.put<{ Params: Static<typeof ClassParams>; Body: Static<typeof PolicyBody> }>(
    '/api/v1/retention/:data_class',
    {
      config: { auth: 'any', permission: 'compliance:admin' },
      schema: {
        tags,
        security,
        summary: 'Set the retention policy of a data class (events, dsr, consent_events)',
        description: 'Fields left out keep their current value; a new policy starts disabled.',
        params: ClassParams,
        body: PolicyBody,
        response: { 200: PolicySchema, ...errors(401, 403, 404, 422) },
      },
      // An unknown data class is 404 whatever the body (its validation comes after this hook).
      preValidation: async (request: FastifyRequest<{ Params: Static<typeof ClassParams> }>) => {
        dataClassOf(request.params.data_class);
      },
    },
    async (request) => retention.put(principalOf(request), dataClassOf(request.params.data_class), request.body),
  );
}
