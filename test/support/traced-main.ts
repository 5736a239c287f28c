// `svc` as bin/svc.cjs starts it when OTEL_EXPORTER_OTLP_ENDPOINT is set: tracing first, then the CLI (run with
// `node --import tsx`, like the CLI tests, so no build is needed).
import { startTracing } from '../../src/kernel/observability/tracing.js';

await startTracing();
await import('../../src/main.js');
