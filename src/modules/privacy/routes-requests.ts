import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { principalOf } from '../../kernel/auth/index.js';
import type { RequestService } from './requests.js';
import {
  Cursor,
  errors,
  IdParams,
  knownId,
  Limit,
  NextCursor,
  PageQuerySchema,
  PersonalDataSchema,
  pageQuery,
  RequestSchema,
  RequestStatusSchema,
  RequestTypeSchema,
} from './route-schemas.js';

const tags = ['privacy'];
const security = [{ bearer: [] }];

const CreateBody = Type.Object({
  request_type: RequestTypeSchema,
  description: Type.Optional(Type.String({ maxLength: 2000 })),
});
const AdminQuery = Type.Object({
  status: Type.Optional(RequestStatusSchema),
  type: Type.Optional(RequestTypeSchema),
  limit: Limit,
  cursor: Cursor,
});
const RejectBody = Type.Object({ reason: Type.String({ minLength: 1, maxLength: 1000, pattern: '\\S' }) });
const RequestList = Type.Object({ requests: Type.Array(RequestSchema), next_cursor: NextCursor });
const ProcessOutcome = Type.Object({
  request: RequestSchema,
  data: Type.Union([PersonalDataSchema, Type.Null()], { description: 'The export, for access and export requests' }),
  erased_sections: Type.Union([Type.Array(Type.String()), Type.Null()], {
    description: 'Contributors whose data was scrubbed, for erasure requests',
  }),
});

type IdRequest = { Params: Static<typeof IdParams> };

/** Part A 4.10 data-subject requests: the subject's own routes, then compliance administration. */
export function registerRequestRoutes(app: FastifyInstance, requests: RequestService): void {
  app.get(
    '/api/v1/gdpr/my-data',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        security,
        summary: 'Export everything held about the caller in this organization',
        response: { 200: PersonalDataSchema, ...errors(401) },
      },
    },
    async (request) => requests.myData(principalOf(request)),
  );

  app.post<{ Body: Static<typeof CreateBody> }>(
    '/api/v1/gdpr/requests',
    {
      config: { auth: 'user', permission: 'identity:self:write' },
      schema: {
        tags,
        security,
        summary: 'File a data-subject request (due in 30 days)',
        body: CreateBody,
        response: { 201: RequestSchema, ...errors(401, 403, 422) },
      },
    },
    async (request, reply) => {
      const { request_type, description } = request.body;
      const created = await requests.create(principalOf(request), { type: request_type, description });
      return reply.code(201).send(created);
    },
  );

  app.get<{ Querystring: Static<typeof PageQuerySchema> }>(
    '/api/v1/gdpr/requests',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        security,
        summary: 'The caller’s data-subject requests, newest first',
        querystring: PageQuerySchema,
        response: { 200: RequestList, ...errors(401, 422) },
      },
    },
    async (request) => requests.listOwn(principalOf(request), pageQuery(request.query)),
  );

  app.post<IdRequest>(
    '/api/v1/gdpr/requests/:id/cancel',
    {
      config: { auth: 'user', permission: 'identity:self:write' },
      schema: {
        tags,
        security,
        summary: 'Cancel an own open request (409 once resolved)',
        params: IdParams,
        response: { 200: RequestSchema, ...errors(401, 403, 404, 409) },
      },
    },
    async (request) => requests.cancel(principalOf(request), knownId(request.params.id)),
  );

  app.get<{ Querystring: Static<typeof AdminQuery> }>(
    '/api/v1/gdpr/admin/requests',
    {
      config: { auth: 'any', permission: 'compliance:read' },
      schema: {
        tags,
        security,
        summary: 'All data-subject requests of the organization, newest first',
        querystring: AdminQuery,
        response: { 200: RequestList, ...errors(401, 403, 422) },
      },
    },
    async (request) => {
      const { status, type } = request.query;
      return requests.adminList(principalOf(request), { status, type }, pageQuery(request.query));
    },
  );

  app.post<IdRequest>(
    '/api/v1/gdpr/admin/requests/:id/verify',
    {
      config: { auth: 'any', permission: 'compliance:admin' },
      schema: {
        tags,
        security,
        summary: 'Confirm the subject’s identity (pending to verified)',
        params: IdParams,
        response: { 200: RequestSchema, ...errors(401, 403, 404, 409) },
      },
    },
    async (request) => requests.verify(principalOf(request), knownId(request.params.id)),
  );

  app.post<IdRequest & { Body: Static<typeof RejectBody> }>(
    '/api/v1/gdpr/admin/requests/:id/reject',
    {
      config: { auth: 'any', permission: 'compliance:admin' },
      schema: {
        tags,
        security,
        summary: 'Reject an open request with a reason',
        params: IdParams,
        body: RejectBody,
        response: { 200: RequestSchema, ...errors(401, 403, 404, 409, 422) },
      },
    },
    async (request) => requests.reject(principalOf(request), knownId(request.params.id), request.body.reason),
  );

  app.post<IdRequest>(
    '/api/v1/gdpr/admin/requests/:id/process',
    {
      config: { auth: 'any', permission: 'compliance:admin' },
      schema: {
        tags,
        security,
        summary: 'Fulfil an open request: return the data, or erase it',
        description:
          'Access and export return the subject’s document; erasure scrubs their personal data across every module ' +
          '(409 when they are the sole owner); the audit log is retained. A pending request is verified by the ' +
          'processing administrator in the same step (recorded and audited).',
        params: IdParams,
        response: { 200: ProcessOutcome, ...errors(401, 403, 404, 409) },
      },
    },
    async (request) => requests.process(principalOf(request), knownId(request.params.id)),
  );
}
