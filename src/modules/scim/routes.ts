import type { Static } from '@sinclair/typebox';
import type { FastifyContextConfig, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { principalOf } from '../../kernel/auth/index.js';
import { describeValidation, HttpError, MALFORMED_TEXT, parseJsonBody, ScimError } from '../../kernel/http/index.js';
import { registerScimAdminRoutes } from './admin-routes.js';
import { etagOf, scimBaseUrl } from './common.js';
import {
  DiscoveryDocument,
  GroupSchema,
  IdParams,
  ListQuery,
  listOf,
  ProjectionQuery,
  ResourceBody,
  ScimErrorSchema,
  scimErrors,
  UserSchema,
} from './http-schemas.js';
import type { Scim } from './index.js';
import { resourceTypes, schemaDocuments, serviceProviderConfig } from './resource-schemas.js';

export const SCIM_PREFIX = '/api/v1/scim/v2';
const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';
const MEDIA_TYPE = 'application/scim+json; charset=utf-8';

/** Principal kind `scim` only; 403 while the organization awaits approval, like the members API it feeds. */
const policy: FastifyContextConfig = { auth: 'any', kinds: ['scim'], quarantineGated: true };
const common = { tags: ['scim'], security: [{ bearer: [] }] };
const AUTH =
  'Bearer: the organization’s SCIM token. 401 unknown token; 404 while the organization’s SCIM is paused ' +
  '(dormant); errors are RFC 7644 documents. ';

const SCIM_TYPE_OF: Record<number, string> = { 400: 'invalidSyntax' };

/** Every failure on the SCIM surface, the guard's and the body parser's included, as an RFC 7644 document. */
function scimErrorHandler(error: FastifyError | HttpError | ScimError, request: FastifyRequest, reply: FastifyReply) {
  let status = 500;
  let detail = 'Internal server error';
  let scimType: string | undefined;
  let headers: Record<string, string> = {};
  if (error instanceof ScimError) {
    ({ status, detail, scimType } = error);
  } else if (error instanceof HttpError) {
    ({ status, detail, headers } = error);
    scimType = SCIM_TYPE_OF[status];
  } else if ((error as FastifyError).validation) {
    const fastifyError = error as FastifyError;
    status = 400;
    // A body that is not even an object is a syntax error; a query parameter of the wrong type a bad value, and so
    // is a NUL or an unpaired surrogate anywhere (the kernel's text rule): the JSON itself was well formed.
    const malformedText = (fastifyError.validation as Array<{ keyword: string }>)[0]?.keyword === MALFORMED_TEXT;
    scimType = fastifyError.validationContext === 'body' && !malformedText ? 'invalidSyntax' : 'invalidValue';
    detail = describeValidation(
      fastifyError.validation as Parameters<typeof describeValidation>[0],
      fastifyError.validationContext,
    );
  } else if ((error as FastifyError).code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    status = 413;
    detail = 'Request body exceeds 1 MB';
  } else if ((error as FastifyError).code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    status = 415;
    detail = 'Unsupported content type: send application/scim+json or application/json';
  } else if ((error as FastifyError).statusCode && (error as FastifyError).statusCode! < 500) {
    status = (error as FastifyError).statusCode!;
    detail = status === 400 ? 'Malformed request body' : error.message;
    scimType = SCIM_TYPE_OF[status];
  } else {
    request.log.error({ err: error }, 'unhandled error');
  }
  // RFC 6750 section 3: a refused bearer credential names the scheme.
  if (status === 401) headers = { ...headers, 'www-authenticate': 'Bearer realm="scim"' };
  return reply
    .code(status)
    .headers(headers)
    .type(MEDIA_TYPE)
    .send({ schemas: [ERROR_SCHEMA], status: String(status), ...(scimType ? { scimType } : {}), detail });
}

const ifMatchOf = (request: FastifyRequest) => {
  const value = request.headers['if-match'];
  return typeof value === 'string' ? value : undefined;
};

/** RFC 7232: a GET whose If-None-Match names the current version answers 304 without a body. */
function notModified(request: FastifyRequest, version: number): boolean {
  const value = request.headers['if-none-match'];
  if (typeof value !== 'string') return false;
  return value.split(',').some((tag) => tag.trim().replace(/^W\//, '') === `"${version}"` || tag.trim() === '*');
}

/** PUT and PATCH on one resource: its id, a body, and the projection of the answer. */
interface WriteRoute {
  Params: Static<typeof IdParams>;
  Body: Record<string, unknown>;
  Querystring: Static<typeof ProjectionQuery>;
}

/** What the routes of Users and of Groups differ in; the rest of their routes is one rule for both. */
interface ResourceRoutes {
  path: '/Users' | '/Groups';
  schema: typeof UserSchema | typeof GroupSchema;
  service: Scim['users'] | Scim['groups'];
  what: 'User' | 'Group';
  create: { summary: string; description: string };
  /** What PUT does with an attribute the body leaves out. */
  replaceLeftOut: string;
  removeSummary: string;
  /** `mayAnswerEmpty`: the PATCH answers 204 without a body unless the caller asks for attributes. */
  patch: { summary: string; description: string; mayAnswerEmpty: boolean };
}

/**
 * The SCIM 2.0 surface (Part A 4.6, RFC 7644) under `/api/v1/scim/v2`, in a plugin of its own: it parses
 * `application/scim+json`, answers with it, and turns every error (the guard's 401 too) into an RFC 7644 document.
 * Then the organization administration of SCIM (`/tenants/scim…`).
 */
export function registerScimRoutes(app: FastifyInstance, deps: { scim: Scim; baseUrl: string }): void {
  const { users, groups } = deps.scim;
  const base = scimBaseUrl(deps.baseUrl);
  app.addSchema(ScimErrorSchema);

  app.register(
    async (scope) => {
      // RFC 7644 section 3.1: SCIM bodies are JSON, as application/scim+json or application/json; nothing else.
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser(
        ['application/scim+json', 'application/json'],
        { parseAs: 'string' },
        (_request, body, done) => {
          try {
            done(null, parseJsonBody(body as string));
          } catch (error) {
            done(error as Error, undefined);
          }
        },
      );
      scope.setErrorHandler(scimErrorHandler);
      // A path under the prefix that does not exist answers with a SCIM document too (the kernel's onRequest
      // hook throws its 404 into this scope's error handler).
      scope.setNotFoundHandler(async () => {
        throw new ScimError(404, 'Not found');
      });
      // Dormant while the organization paused provisioning: 404 before the body is validated (Part A 4.6).
      scope.addHook('preValidation', async (request) => {
        const principal = request.principal;
        if (principal?.kind === 'scim' && principal.attributes.scimEnabled !== true) {
          throw new ScimError(404, 'SCIM provisioning is not enabled for this organization');
        }
      });
      scope.addHook('onSend', async (_request, reply, payload) => {
        const type = reply.getHeader('content-type');
        if (typeof type === 'string' && type.startsWith('application/json')) reply.header('content-type', MEDIA_TYPE);
        return payload;
      });

      const discovery = (path: string, summary: string, document: () => unknown) =>
        scope.get(
          path,
          {
            config: policy,
            schema: {
              ...common,
              summary,
              description: AUTH,
              response: { 200: DiscoveryDocument, ...scimErrors(401, 403, 404) },
            },
          },
          async () => document(),
        );
      const list = (resources: Array<Record<string, unknown>>) => ({
        schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
        totalResults: resources.length,
        startIndex: 1,
        itemsPerPage: resources.length,
        Resources: resources,
      });
      discovery('/ServiceProviderConfig', 'What this SCIM service supports (RFC 7644 section 5)', () =>
        serviceProviderConfig(base),
      );
      discovery('/ResourceTypes', 'The resource types: User and Group', () => list(resourceTypes(base)));
      discovery('/Schemas', 'The User and Group schemas with their attributes', () => list(schemaDocuments(base)));
      const one = (path: string, summary: string, find: (id: string) => unknown) =>
        scope.get<{ Params: Static<typeof IdParams> }>(
          path,
          {
            config: policy,
            schema: {
              ...common,
              summary,
              description: AUTH,
              params: IdParams,
              response: { 200: DiscoveryDocument, ...scimErrors(401, 403, 404) },
            },
          },
          async (request) => {
            const found = find(request.params.id);
            if (!found) throw new ScimError(404, 'Not found');
            return found;
          },
        );
      one('/ResourceTypes/:id', 'One resource type', (id) => resourceTypes(base).find((type) => type.id === id));
      one('/Schemas/:id', 'One schema, by its URI', (id) => schemaDocuments(base).find((schema) => schema.id === id));

      const WRITE_ERRORS = scimErrors(400, 401, 403, 404, 409, 412, 413, 415);
      /** The six routes of a resource type: list, read, create, replace, delete and change. */
      const resourceRoutes = ({ path, schema, service, what, ...texts }: ResourceRoutes) => {
        /** PUT and PATCH: the written resource with its ETag, or 204 when the write answers none (a Group's PATCH). */
        const written =
          (write: typeof service.replace | typeof service.patch) =>
          async (request: FastifyRequest<WriteRoute>, reply: FastifyReply) => {
            const { resource, version } = await write(
              principalOf(request),
              request.params.id,
              request.body,
              request.query,
              ifMatchOf(request),
            );
            reply.header('etag', etagOf(version));
            return resource ? reply.send(resource) : reply.code(204).send();
          };
        scope.get<{ Querystring: Static<typeof ListQuery> }>(
          path,
          {
            config: policy,
            schema: {
              ...common,
              summary: `List or filter ${what}s`,
              description: `${AUTH}400 invalidFilter for a filter outside the supported grammar or attributes.`,
              querystring: ListQuery,
              response: { 200: listOf(schema), ...scimErrors(400, 401, 403, 404) },
            },
          },
          async (request) => service.list(principalOf(request), request.query),
        );
        scope.get<{ Params: Static<typeof IdParams>; Querystring: Static<typeof ProjectionQuery> }>(
          `${path}/:id`,
          {
            config: policy,
            schema: {
              ...common,
              summary: `One ${what}`,
              description: `${AUTH}ETag carries meta.version; If-None-Match with it answers 304.`,
              params: IdParams,
              querystring: ProjectionQuery,
              response: { 200: schema, 304: { type: 'null' }, ...scimErrors(400, 401, 403, 404) },
            },
          },
          async (request, reply) => {
            const { resource, version } = await service.get(principalOf(request), request.params.id, request.query);
            if (notModified(request, version)) return reply.code(304).send();
            return reply.header('etag', etagOf(version)).send(resource);
          },
        );
        scope.post<{ Body: Record<string, unknown>; Querystring: Static<typeof ProjectionQuery> }>(
          path,
          {
            config: policy,
            schema: {
              ...common,
              summary: texts.create.summary,
              description: `${AUTH}${texts.create.description}`,
              body: ResourceBody(`A ${what}`),
              querystring: ProjectionQuery,
              response: { 201: schema, ...WRITE_ERRORS },
            },
          },
          async (request, reply) => {
            const { resource, version } = await service.create(principalOf(request), request.body, request.query);
            return reply
              .code(201)
              .header('location', `${base}${path}/${resource.id}`)
              .header('etag', etagOf(version))
              .send(resource);
          },
        );
        scope.put<WriteRoute>(
          `${path}/:id`,
          {
            config: policy,
            schema: {
              ...common,
              summary: `Replace a ${what}`,
              description:
                `${AUTH}Every writable attribute is replaced (${texts.replaceLeftOut}); ` +
                'If-Match with an old version answers 412.',
              params: IdParams,
              body: ResourceBody(`A ${what}`),
              querystring: ProjectionQuery,
              response: { 200: schema, ...WRITE_ERRORS },
            },
          },
          written(service.replace),
        );
        scope.delete<{ Params: Static<typeof IdParams> }>(
          `${path}/:id`,
          {
            config: policy,
            schema: {
              ...common,
              summary: texts.removeSummary,
              description: `${AUTH}If-Match with an old version answers 412.`,
              params: IdParams,
              response: { 204: { type: 'null' }, ...scimErrors(401, 403, 404, 412) },
            },
          },
          async (request, reply) => {
            await service.remove(principalOf(request), request.params.id, ifMatchOf(request));
            return reply.code(204).send();
          },
        );
        scope.patch<WriteRoute>(
          `${path}/:id`,
          {
            config: policy,
            schema: {
              ...common,
              summary: texts.patch.summary,
              description: `${AUTH}${texts.patch.description}`,
              params: IdParams,
              body: ResourceBody('A PatchOp message'),
              querystring: ProjectionQuery,
              response: {
                200: schema,
                ...(texts.patch.mayAnswerEmpty ? { 204: { type: 'null' } } : {}),
                ...WRITE_ERRORS,
              },
            },
          },
          written(service.patch),
        );
      };
      resourceRoutes({
        path: '/Users',
        schema: UserSchema,
        service: users,
        what: 'User',
        create: {
          summary: 'Provision a User: an account and a SCIM-managed membership (role member)',
          description:
            'An address that has an account links it. 409 uniqueness: userName taken, or the address belongs to the ' +
            'owner or a customer; 403 seat cap reached.',
        },
        replaceLeftOut: '`active` left out keeps its value',
        removeSummary: 'Deprovision a User: the membership is removed and the person’s sessions end',
        patch: {
          summary: 'Change a User (RFC 7644 PATCH, as Okta and Entra send it); active false signs the person out',
          description:
            'All operations apply or none. 400 with scimType invalidSyntax, invalidPath, noTarget, invalidValue or ' +
            'mutability; 409 uniqueness; 412 If-Match with an old version.',
          mayAnswerEmpty: false,
        },
      });
      resourceRoutes({
        path: '/Groups',
        schema: GroupSchema,
        service: groups,
        what: 'Group',
        create: {
          summary: 'Create a Group',
          description: '409 uniqueness: displayName taken; 400 invalidValue: a member that is no User.',
        },
        replaceLeftOut: '`members` left out keep theirs',
        removeSummary: 'Delete a Group',
        patch: {
          summary: 'Change a Group: rename, add or remove members (Okta and Entra styles)',
          description:
            '204 without a body; 200 with the Group when `attributes` or `excludedAttributes` is given. 400 ' +
            'invalidValue for a member that is no User of the organization.',
          mayAnswerEmpty: true,
        },
      });
    },
    { prefix: SCIM_PREFIX },
  );

  registerScimAdminRoutes(app, { admin: deps.scim.admin });
}
