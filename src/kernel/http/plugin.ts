import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance } from 'fastify';
import { DATABASE_UNAVAILABLE_RETRY_AFTER_SECONDS, databaseUnavailableReason } from '../db/unavailable.js';
import { HttpError, OAuthError, ScimError } from './errors.js';
import { parseJsonBody } from './json-body.js';
import { Problem } from './problem.js';
import { registerTextRule } from './text-rule.js';

export const BODY_LIMIT_BYTES = 1_000_000;

interface ValidationIssue {
  instancePath: string;
  message?: string;
  keyword: string;
  params: Record<string, unknown>;
}

/** `email: is required`, `limit: must be <= 100`: the first schema failure, naming its field. */
export function describeValidation(issues: ValidationIssue[], context: string | undefined): string {
  const issue = issues[0];
  if (!issue) return 'Invalid request';
  const path = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
  if (issue.keyword === 'required') {
    const field = [path, String(issue.params.missingProperty)].filter(Boolean).join('.');
    return `${field}: is required`;
  }
  if (issue.keyword === 'additionalProperties') {
    const field = [path, String(issue.params.additionalProperty)].filter(Boolean).join('.');
    return `${field}: is not a known field`;
  }
  return `${path || context || 'body'}: ${issue.message ?? 'is invalid'}`;
}

/** How long closing the app waits for handlers still running after their connection closed. */
const DRAIN_TIMEOUT_MS = 30_000;

/**
 * A handler goes on when its client goes away (its transaction, its mail): closing the server waits for the
 * connections only, so closing the app also waits, in an onClose hook (run once the server has closed and
 * before the resources the handlers use are released), for every handler still running.
 */
function drainHandlersOnClose(app: FastifyInstance): void {
  const running = new Set<Promise<void>>();
  const ignore = () => undefined;
  app.addHook('onRoute', (route) => {
    const handler = route.handler;
    route.handler = function (this: FastifyInstance, request, reply) {
      const result = handler.call(this, request, reply) as unknown;
      if (result instanceof Promise) {
        const settled = result.then(ignore, ignore);
        running.add(settled);
        void settled.then(() => running.delete(settled));
      }
      return result;
    } as typeof handler;
  });
  app.addHook('onClose', async () => {
    if (running.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(running),
      new Promise((resolve) => {
        timer = setTimeout(resolve, DRAIN_TIMEOUT_MS);
      }),
    ]);
    clearTimeout(timer);
  });
}

/**
 * Closing the server ends the idle keep-alive connections only. Two kinds would keep the stop waiting for their
 * client: a connection that has sent nothing yet (a browser's or a load balancer's pre-connect), which is
 * closed, and one whose request is in progress, whose answer now ends it.
 */
function closeConnectionsOnClose(app: FastifyInstance): void {
  const open = new Set<Socket>();
  let closing = false;
  app.server.on('connection', (socket: Socket) => {
    if (closing) {
      socket.destroy();
      return;
    }
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  app.addHook('preClose', async () => {
    closing = true;
    for (const socket of open) if (socket.bytesRead === 0) socket.destroy();
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });
}

/** The error model, JSON parsing, 404s and request ids: every response of the service goes through here. */
export function registerHttpKernel(app: FastifyInstance): void {
  app.addSchema(Problem);
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, parseJsonBody(body as string));
    } catch (error) {
      done(error as Error, undefined);
    }
  });

  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  drainHandlersOnClose(app);
  closeConnectionsOnClose(app);
  registerTextRule(app);

  // An unknown path answers before its body is read: oversized or malformed bodies change nothing, so a
  // dormant surface (refused in onRequest too) is indistinguishable from a path that does not exist.
  app.addHook('onRequest', async (request) => {
    if (request.is404) throw new HttpError(404, 'Not found');
  });

  app.setNotFoundHandler((_request, reply) => {
    reply.code(404).send({ detail: 'Not found' });
  });

  app.setErrorHandler((error: FastifyError | HttpError | OAuthError | ScimError, request, reply) => {
    if (error instanceof HttpError) {
      // A route's error schema is `{detail}`: extra members (a parked action's `approval_request_id`) would be
      // dropped by its serializer, so such an answer is serialized as it is.
      if (Object.keys(error.extra).length > 0) reply.serializer((payload) => JSON.stringify(payload));
      return reply
        .code(error.status)
        .headers(error.headers)
        .send({ detail: error.detail, ...error.extra });
    }
    if (error instanceof OAuthError) {
      return reply
        .code(error.status)
        .headers({ 'cache-control': 'no-store', ...error.headers })
        .send({ error: error.error, error_description: error.description });
    }
    if (error instanceof ScimError) {
      return reply
        .code(error.status)
        .type('application/scim+json')
        .send({
          schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
          status: String(error.status),
          detail: error.detail,
          ...(error.scimType ? { scimType: error.scimType } : {}),
        });
    }
    const fastifyError = error as FastifyError;
    if (fastifyError.validation) {
      return reply.code(422).send({
        detail: describeValidation(fastifyError.validation as ValidationIssue[], fastifyError.validationContext),
      });
    }
    switch (fastifyError.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return reply.code(413).send({ detail: 'Request body exceeds 1 MB' });
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return reply.code(415).send({ detail: 'Unsupported content type' });
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
        return reply.code(400).send({ detail: 'Malformed request body' });
    }
    if (fastifyError.statusCode && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
      return reply.code(fastifyError.statusCode).send({ detail: fastifyError.message });
    }
    const unavailable = databaseUnavailableReason(error);
    if (unavailable) {
      // The connection failed or was lost: the transaction rolled back (or, when only its acknowledgement was
      // lost, committed whole), and the same request can succeed once the database is back.
      request.log.warn({ reason: unavailable }, 'database unavailable');
      return reply
        .code(503)
        .header('retry-after', String(DATABASE_UNAVAILABLE_RETRY_AFTER_SECONDS))
        .send({ detail: 'Service temporarily unavailable' });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send({ detail: 'Internal server error' });
  });
}
