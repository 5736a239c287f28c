#!/usr/bin/env node
// The `svc` command: runs the built CLI (npm start and npm run build produce dist/).
//
// CommonJS on purpose: it runs before any ES module is loaded, and loading ES modules is the libuv thread pool's
// first use, which fixes its size. The pool signs tokens, checks elliptic-curve DPoP proofs and hashes passwords;
// the event loop answers every request. libuv's default is 4 threads whatever the machine: on 2 cores, four busy
// pool threads take the event loop's core in turns (DPoP-bound GET /me fell to 0.65 of bearer, against 0.78 with
// two threads; one thread gave 0.87 but cost sign-ins on the embedded database a fifth: docs/benchmarks.md). So one
// thread per CPU the process may use, unless the operator chose a size.
const { existsSync } = require('node:fs');
const { availableParallelism } = require('node:os');
const { join } = require('node:path');
const { pathToFileURL } = require('node:url');

if (!process.env.UV_THREADPOOL_SIZE) process.env.UV_THREADPOOL_SIZE = String(availableParallelism());

const main = join(__dirname, '..', 'dist', 'main.js');
if (!existsSync(main)) {
  console.error('svc: not built yet; run `npm run build` (npm start builds too)');
  process.exit(1);
}
// OpenTelemetry patches modules as they load: tracing starts before the service's first module is imported, and
// only when an OTLP endpoint is configured (its packages are not loaded otherwise; docs/operating.md).
const tracing = process.env.OTEL_EXPORTER_OTLP_ENDPOINT
  ? import(pathToFileURL(join(__dirname, '..', 'dist', 'kernel', 'observability', 'tracing.js')).href).then((module) =>
      module.startTracing(),
    )
  : Promise.resolve();
tracing.then(
  () => import(pathToFileURL(main).href),
  (error) => {
    console.error(`svc: OpenTelemetry tracing could not start (OTEL_EXPORTER_OTLP_ENDPOINT is set): ${error.message}`);
    process.exit(1);
  },
);
