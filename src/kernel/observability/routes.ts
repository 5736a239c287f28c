import { createServer, type IncomingMessage, type Server } from 'node:http';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import { secretsEqual } from '../crypto/index.js';
import { HttpError } from '../http/index.js';
import type { Metrics } from './metrics.js';
import type { Readiness } from './readiness.js';

/**
 * Probes answer often (every few seconds per load balancer and orchestrator): their requests are logged at warn
 * and above only, so the info-level request log stays about real traffic.
 */
const PROBE_LOG_LEVEL = 'warn';

const ReadinessBody = Type.Object({
  status: Type.Union([Type.Literal('ready'), Type.Literal('not_ready')]),
  checks: Type.Record(Type.String(), Type.String(), {
    description: 'database, migrations, redis (when configured), signing_keys: `ok`, or why not',
  }),
});

/** The bearer token of `Authorization: Bearer <token>`, compared in constant time. */
function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer +(\S+)$/i.exec(header ?? '');
  return secretsEqual(match?.[1] ?? '', token);
}

const unauthorizedMetrics = () =>
  new HttpError(401, 'A valid METRICS_TOKEN bearer token is required', { 'WWW-Authenticate': 'Bearer' });

/** Counts every answer by route template; 429s also by surface (docs/operating.md, "Metrics"). */
function countRequests(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', async (request, reply) => {
    // Unmatched paths share one label: a raw path would give every scanner's guess a time series of its own.
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.httpRequest(route, request.method, reply.statusCode, reply.elapsedTime / 1000);
    if (reply.statusCode === 429) {
      // A refusal without counts is the fail-closed answer of a limit store that could not be reached.
      metrics.throttled(route, reply.hasHeader('ratelimit-limit') ? 'limit' : 'store_unavailable');
    }
  });
}

function registerProbes(app: FastifyInstance, readiness: Readiness): void {
  app.get(
    '/healthz',
    {
      config: { auth: 'public' },
      logLevel: PROBE_LOG_LEVEL,
      schema: {
        tags: ['operations'],
        summary: 'Liveness: the process answers',
        description: 'Checks nothing else: restart the process only when this fails (docs/operating.md).',
        response: { 200: Type.Object({ status: Type.Literal('ok') }) },
      },
    },
    async (_request, reply) => reply.header('cache-control', 'no-store').send({ status: 'ok' as const }),
  );
  app.get(
    '/readyz',
    {
      config: { auth: 'public' },
      logLevel: PROBE_LOG_LEVEL,
      schema: {
        tags: ['operations'],
        summary: 'Readiness: database, migrations, Redis and signing keys',
        description:
          '200 when the node can serve; 503 naming each check that is not `ok` (route no traffic to it meanwhile).',
        response: { 200: ReadinessBody, 503: ReadinessBody },
      },
    },
    async (_request, reply) => {
      const report = await readiness.check();
      return reply
        .code(report.ready ? 200 : 503)
        .header('cache-control', 'no-store')
        .send({ status: report.ready ? 'ready' : 'not_ready', checks: report.checks });
    },
  );
}

/**
 * `GET /metrics` on the service's port when METRICS_TOKEN is set (bearer token, 401 otherwise). Without a token
 * the path is not registered (404 like any unknown path): metrics name routes and volumes, not for everyone.
 */
function registerMetricsRoute(app: FastifyInstance, metrics: Metrics, token: string): void {
  app.get(
    '/metrics',
    {
      config: { auth: 'public' },
      logLevel: PROBE_LOG_LEVEL,
      schema: {
        tags: ['operations'],
        summary: 'Prometheus metrics (text exposition format)',
        description: 'Needs `Authorization: Bearer <METRICS_TOKEN>`; 401 otherwise. See docs/operating.md.',
        security: [{ bearer: [] }],
      },
    },
    async (request, reply) => {
      if (!bearerMatches(request.headers.authorization, token)) throw unauthorizedMetrics();
      return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
    },
  );
}

/** The METRICS_PORT listener: `/metrics` only, open unless METRICS_TOKEN is set too. */
function metricsListener(metrics: Metrics, token: string | undefined): Server {
  return createServer((request: IncomingMessage, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (request.method !== 'GET' || path !== '/metrics') {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"detail":"Not found"}');
      return;
    }
    if (token && !bearerMatches(request.headers.authorization, token)) {
      response
        .writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer' })
        .end('{"detail":"A valid METRICS_TOKEN bearer token is required"}');
      return;
    }
    metrics.registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
      () => response.writeHead(500, { 'content-type': 'application/json' }).end('{"detail":"Internal server error"}'),
    );
  });
}

/**
 * Health probes, request metrics and `/metrics` (docs/operating.md). The METRICS_PORT listener opens when the
 * service starts listening and closes with it (a port it cannot bind is logged as an error, not fatal).
 */
export function registerObservability(
  app: FastifyInstance,
  deps: { config: Pick<Config, 'metrics'>; metrics: Metrics; readiness: Readiness },
): void {
  const { metrics, readiness } = deps;
  const { token, port, host } = deps.config.metrics;
  countRequests(app, metrics);
  registerProbes(app, readiness);
  if (token || port) metrics.collectProcessMetrics();
  if (token) registerMetricsRoute(app, metrics, token);
  if (port === undefined) return;
  const server = metricsListener(metrics, token);
  app.addHook('onListen', async () => {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    }).catch((error: Error) => app.log.error({ err: error.message, port }, 'metrics listener could not start'));
  });
  app.addHook('onClose', async () => {
    if (!server.listening) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
}
