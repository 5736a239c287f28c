import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTracing } from '../../src/kernel/observability/tracing.js';
import { request } from '../support/http.js';
import { removeProcessStorage } from '../support/node-process.js';

/**
 * OpenTelemetry tracing over OTLP/HTTP to a collector of our own: the `svc` process started as bin/svc.cjs starts
 * it (tracing first, then the CLI), serving on the embedded database or on DATABASE_URL.
 */

interface ExportedSpan {
  scope: string;
  name: string;
  traceId: string;
  attributes: Record<string, unknown>;
}

const spans: ExportedSpan[] = [];
let collector: Server;
let service: ChildProcess;
let url: string;
const dataDir = mkdtempSync(join(tmpdir(), 'svc-tracing-'));
const schema = `trace_${randomBytes(5).toString('hex')}`;

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

/** OTLP/JSON trace export (opentelemetry-proto): resourceSpans -> scopeSpans -> spans. */
function collect(body: string): void {
  const exported = JSON.parse(body) as {
    resourceSpans: Array<{
      scopeSpans: Array<{
        scope: { name: string };
        spans: Array<{ name: string; traceId: string; attributes: Array<{ key: string; value: unknown }> }>;
      }>;
    }>;
  };
  for (const resource of exported.resourceSpans) {
    for (const scoped of resource.scopeSpans) {
      for (const span of scoped.spans) {
        const attributes = Object.fromEntries(span.attributes.map(({ key, value }) => [key, value]));
        spans.push({ scope: scoped.scope.name, name: span.name, traceId: span.traceId, attributes });
      }
    }
  }
}

let exited: string | undefined;
let stderr = '';

async function until<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  what: string,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (exited) throw new Error(`svc exited (${exited}) before ${what}: ${stderr}`);
    if (Date.now() > deadline) {
      const seen = spans.map((span) => `${span.scope} ${span.name}`).join(', ');
      throw new Error(`timed out waiting for ${what}; spans so far: ${seen || 'none'}; stderr: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  collector = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => {
      if (req.url === '/v1/traces') collect(body);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  const collectorPort = await listen(collector);
  const probe = createServer();
  const port = await listen(probe);
  await new Promise((resolve) => probe.close(resolve));
  url = `http://127.0.0.1:${port}`;
  // Vitest puts Vite's BASE_URL ("/") into process.env; the service must not inherit it.
  const { BASE_URL: _viteBaseUrl, ...inherited } = process.env;
  service = spawn(process.execPath, ['--import', 'tsx', 'test/support/traced-main.ts', 'serve', '--no-workers'], {
    env: {
      ...inherited,
      SVC_ENV: 'development',
      LOG_LEVEL: 'warn',
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_SCHEMA: schema,
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${collectorPort}`,
      OTEL_SERVICE_NAME: 'svc-under-test',
      OTEL_BSP_SCHEDULE_DELAY: '100',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  service.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  service.once('exit', (code, signal) => {
    exited = String(code ?? signal);
  });
  // Loading every module through the instrumentation's import hook makes the start slow on a busy machine.
  const healthy = async () => ((await fetch(`${url}/healthz`).catch(() => undefined))?.ok ? true : undefined);
  await until(healthy, 'start', 100_000);
}, 120_000);

afterAll(async () => {
  service?.kill('SIGTERM');
  collector?.closeAllConnections();
  await new Promise((resolve) => collector?.close(resolve));
  await removeProcessStorage(dataDir, schema);
});

describe('OpenTelemetry tracing', () => {
  it('is off without OTEL_EXPORTER_OTLP_ENDPOINT', async () => {
    expect(await startTracing({})).toBeUndefined();
  });

  it('exports a request as one trace: HTTP server span, Fastify spans and, on PostgreSQL, its queries', async () => {
    await request(`${url}/healthz`);
    const res = await request(`${url}/api/v1/auth/login`, {
      json: { email: 'nobody@example.com', password: 'not a password at all', tenant_slug: 'nowhere' },
    });
    expect(res.status).toBe(401);
    const server = await until(
      () =>
        spans.find(
          (span) => span.scope === '@opentelemetry/instrumentation-http' && span.name === 'POST /api/v1/auth/login',
        ),
      'the HTTP server span',
    );
    await until(
      () => spans.find((span) => span.scope === '@fastify/otel' && span.traceId === server.traceId),
      'a Fastify span in the same trace',
    );
    if (process.env.DATABASE_URL) {
      const query = await until(
        () =>
          spans.find((span) => span.scope === '@opentelemetry/instrumentation-pg' && span.traceId === server.traceId),
        'a pg span in the same trace',
      );
      // The statement, never the values bound to it.
      expect(JSON.stringify(query.attributes)).not.toContain('nobody@example.com');
    }
    expect(JSON.stringify(spans)).not.toContain('not a password at all');
    // Probes make no traces.
    expect(spans.some((span) => span.name.includes('/healthz'))).toBe(false);
  }, 150_000);
});
