import { register } from 'node:module';

/** Paths not worth a trace: probes and scrapes arrive every few seconds and do nothing of interest. */
const UNTRACED = new Set(['/healthz', '/readyz', '/metrics']);

export interface Tracing {
  /** Sends the spans still buffered, then stops. */
  shutdown(): Promise<void>;
}

/**
 * OpenTelemetry tracing through the official Node SDK's instrumentations for HTTP (incoming and outgoing), Fastify
 * (routes and hooks, `@fastify/otel`) and pg, exported over OTLP/HTTP to OTEL_EXPORTER_OTLP_ENDPOINT. Off unless
 * that variable is set: the packages are then never loaded. The SDK reads its other `OTEL_*` variables itself
 * (OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES, OTEL_EXPORTER_OTLP_HEADERS, OTEL_TRACES_SAMPLER…).
 *
 * Instrumentation patches modules as they load, so this runs before the service's modules are imported: the `svc`
 * launcher (bin/svc.cjs) awaits it before importing dist/main.js. The service is ES modules, so the import hook
 * of `import-in-the-middle` is registered first; `pg` and `fastify` are CommonJS and are seen by either hook.
 */
export async function startTracing(env: NodeJS.ProcessEnv = process.env): Promise<Tracing | undefined> {
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT) return undefined;
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);
  const [trace, otlp, instrumentation, http, pg, fastify, resources] = await Promise.all([
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/instrumentation'),
    import('@opentelemetry/instrumentation-http'),
    import('@opentelemetry/instrumentation-pg'),
    import('@fastify/otel'),
    import('@opentelemetry/resources'),
  ]);
  const detected = resources.detectResources({ detectors: [resources.envDetector, resources.processDetector] });
  const provider = new trace.NodeTracerProvider({
    resource: resources.resourceFromAttributes({ 'service.name': 'svc' }).merge(detected),
    spanProcessors: [new trace.BatchSpanProcessor(new otlp.OTLPTraceExporter())],
  });
  provider.register();
  instrumentation.registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new http.HttpInstrumentation({
        ignoreIncomingRequestHook: (request) => UNTRACED.has((request.url ?? '').split('?')[0] ?? ''),
      }),
      new fastify.FastifyOtelInstrumentation({
        registerOnInitialization: true,
        ignorePaths: (route) => UNTRACED.has(route.url),
      }),
      // Statement text only, never the values bound to it (they carry emails, token hashes…); and only inside a
      // traced request, so the workers' polls every second and the start's migrations make no traces of their own.
      new pg.PgInstrumentation({ enhancedDatabaseReporting: false, requireParentSpan: true }),
    ],
  });
  return { shutdown: () => provider.shutdown() };
}
