import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** How a first factor ended (docs/operating.md, "Metrics"). */
export type SignInOutcome = 'success' | 'mfa_required' | 'failure' | 'throttled';
export type WebhookDeliveryOutcome = 'delivered' | 'retrying' | 'dead_letter';

/** A job queue's state at scrape time: how many items wait, and how long the oldest due one has waited. */
export interface QueueStats {
  depth: number;
  oldestDueAgeSeconds: number;
}

/** The counters' node-postgres pool, when the database is PostgreSQL (PGlite has no pool). */
interface PoolCounts {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

/**
 * The service's Prometheus metrics. One registry per app instance, never prom-client's global default one: tests
 * run many instances in one process, and each must count only its own. Modules count through the small named
 * functions below, one line at the point where the thing happens.
 */
export interface Metrics {
  readonly registry: Registry;
  /** A first factor ended: method is its first `amr` value (`pwd`, `mlink`, `hwk`, `sso`, `social`…). */
  signIn(method: string, outcome: SignInOutcome): void;
  /** Tokens were issued: `session` (a sign-in), `session_refresh`, or an OAuth `grant_type` at the token endpoint. */
  tokenIssued(grant: string): void;
  /** A request answered 429: `surface` is its route template, `reason` whether the limit or its store refused. */
  throttled(surface: string, reason: 'limit' | 'store_unavailable'): void;
  webhookDelivery(outcome: WebhookDeliveryOutcome): void;
  /** One answered HTTP request, by route template (never the raw path: its cardinality is unbounded). */
  httpRequest(route: string, method: string, status: number, seconds: number): void;
  /** A queue whose depth and lag are read at each scrape (the read must be cheap: an indexed count). */
  watchQueue(queue: string, stats: () => Promise<QueueStats>): void;
  /** A node-postgres pool read at each scrape: `main` (every transaction) or `tenant_sessions` (the tenant statements). */
  watchPool(name: 'main' | 'tenant_sessions', pool: PoolCounts): void;
  /** Process metrics (memory, CPU, event-loop lag, GC): started only where `/metrics` is exposed. */
  collectProcessMetrics(): void;
}

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export function createMetrics(): Metrics {
  const registry = new Registry();
  const registers = [registry];
  /** A counter of this registry: every counter here is a name, its help and its labels, nothing more. */
  const counter = <Label extends string>(name: string, help: string, labelNames: readonly Label[]) =>
    new Counter<Label>({ name, help, labelNames, registers });
  const httpRequests = counter(
    'svc_http_requests_total',
    'HTTP requests answered, by route template, method and status code',
    ['route', 'method', 'status_code'],
  );
  const httpDuration = new Histogram({
    name: 'svc_http_request_duration_seconds',
    help: 'Time from request to response, by route template, method and status code',
    labelNames: ['route', 'method', 'status_code'] as const,
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const signIns = counter('svc_sign_ins_total', 'First factors that ended, by method (first amr value) and outcome', [
    'method',
    'outcome',
  ]);
  const tokens = counter(
    'svc_tokens_issued_total',
    'Token responses issued, by grant (session, session_refresh, or the OAuth grant_type)',
    ['grant'],
  );
  const throttles = counter(
    'svc_throttled_requests_total',
    'Requests answered 429, by surface (route template) and reason (limit | store_unavailable)',
    ['surface', 'reason'],
  );
  const deliveries = counter(
    'svc_webhook_deliveries_total',
    'Webhook delivery attempts recorded, by outcome (delivered | retrying | dead_letter)',
    ['outcome'],
  );
  const queues = new Map<string, () => Promise<QueueStats>>();
  // Both queue gauges are collected in one scrape, side by side: they share one read of the queues.
  let reading: Promise<Array<{ queue: string; stats: QueueStats | undefined }>> | undefined;
  const readQueues = () => {
    reading ??= (async () => {
      const entries = [...queues];
      const stats = await Promise.all(entries.map(([, read]) => read().catch(() => undefined)));
      return entries.map(([queue], i) => ({ queue, stats: stats[i] }));
    })().finally(() => {
      reading = undefined;
    });
    return reading;
  };
  const queueGauge = (name: string, help: string, value: (stats: QueueStats) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['queue'] as const,
      registers,
      async collect() {
        const read = await readQueues();
        this.reset();
        for (const { queue, stats } of read) if (stats) this.set({ queue }, value(stats));
      },
    });
  queueGauge(
    'svc_queue_depth',
    'Items waiting in each job queue (webhook deliveries pending or retrying, outbox events not fanned out)',
    (stats) => stats.depth,
  );
  queueGauge(
    'svc_worker_job_lag_seconds',
    'How long the oldest due item of each job queue has waited (0 when none is due): the workers are that far behind',
    (stats) => stats.oldestDueAgeSeconds,
  );
  const pools = new Map<string, PoolCounts>();
  new Gauge({
    name: 'svc_db_pool_connections',
    help: 'PostgreSQL pool connections by pool and state (total, idle, waiting: requests queued for a connection)',
    labelNames: ['pool', 'state'] as const,
    registers,
    collect() {
      for (const [name, counts] of pools) {
        this.set({ pool: name, state: 'total' }, counts.totalCount);
        this.set({ pool: name, state: 'idle' }, counts.idleCount);
        this.set({ pool: name, state: 'waiting' }, counts.waitingCount);
      }
    },
  });
  let collectingProcess = false;

  return {
    registry,
    signIn: (method, outcome) => signIns.inc({ method, outcome }),
    tokenIssued: (grant) => tokens.inc({ grant }),
    throttled: (surface, reason) => throttles.inc({ surface, reason }),
    webhookDelivery: (outcome) => deliveries.inc({ outcome }),
    httpRequest(route, method, status, seconds) {
      const labels = { route, method, status_code: String(status) };
      httpRequests.inc(labels);
      httpDuration.observe(labels, seconds);
    },
    watchQueue: (queue, stats) => queues.set(queue, stats),
    watchPool(name, counts) {
      pools.set(name, counts);
    },
    collectProcessMetrics() {
      if (collectingProcess) return;
      collectingProcess = true;
      collectDefaultMetrics({ register: registry });
    },
  };
}
