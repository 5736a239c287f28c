import type { Clock } from '../../kernel/clock.js';
import { afterCommit, type Transactions } from '../../kernel/db/index.js';
import { newId } from '../../kernel/ids.js';
import { type Egress, EgressError } from '../../kernel/net/index.js';
import type { Metrics } from '../../kernel/observability/index.js';
import { openSecret, signatureHeader } from './signing.js';
import * as store from './store.js';

/** Part A 6 and 8. */
export const DELIVERY_TIMEOUT_MS = 10_000;
export const MAX_ATTEMPTS = 8;
export const DISABLE_AFTER_FAILURES = 20;
const FIRST_RETRY_MS = 30_000;
const MAX_RETRY_DELAY_MS = 6 * 3_600_000;
/** How long a claimed attempt belongs to its worker: well past the delivery timeout. */
const LEASE_MS = 60_000;
/** Bytes of a receiver's answer read before it is discarded. */
const RESPONSE_PREFIX_BYTES = 4096;
const BATCH = 50;
const CONCURRENCY = 16;
/** One run stops claiming new work after this long, so a node's runs do not pile up. */
const RUN_BUDGET_MS = 5_000;
/** A fanned-out outbox row is kept this long (for inspection), then deleted; the deliveries keep the payload. */
const OUTBOX_KEPT_MS = 7 * 86_400_000;

export const USER_AGENT = 'Svc-Auth-Webhooks/1';
export const DISABLED_REASON = `Disabled after ${DISABLE_AFTER_FAILURES} consecutive failed deliveries`;

/**
 * Delay before the attempt after `failedAttempt` (1-based): about 30 s, 1 min, 2 min, then doubling, each
 * with ±25% jitter, never more than 6 hours.
 */
export function retryDelayMs(failedAttempt: number, random: () => number = Math.random): number {
  const base = FIRST_RETRY_MS * 2 ** (failedAttempt - 1);
  const jittered = base * (0.75 + random() * 0.5);
  return Math.round(Math.min(jittered, MAX_RETRY_DELAY_MS));
}

export interface SendOutcome {
  delivered: boolean;
  statusCode: number | null;
  /** null, `http_status`, `timeout`, `blocked`, or the connection or TLS error's name. */
  error: string | null;
  blocked: boolean;
}

/** `last_error` vocabulary of Part A 2.6 from the egress client's failure. */
export function errorNameOf(error: unknown): { error: string; blocked: boolean } {
  if (error instanceof EgressError) {
    if (error.code === 'timeout' || error.code === 'blocked' || error.code === 'invalid_url') {
      return { error: error.code, blocked: error.code === 'blocked' };
    }
    return { error: error.reason, blocked: false };
  }
  return { error: (error as NodeJS.ErrnoException)?.code ?? 'error', blocked: false };
}

/** One signed POST through the egress client: any 2xx or 3xx is success, redirects are not followed. */
export async function send(
  egress: Egress,
  input: { url: string; body: string; eventId: string; eventType: string; attempt: number; secrets: string[] },
  now: Date,
): Promise<SendOutcome> {
  const t = Math.floor(now.getTime() / 1000);
  try {
    const response = await egress.request(input.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': USER_AGENT,
        'svc-event-id': input.eventId,
        'svc-event-type': input.eventType,
        'svc-delivery-attempt': String(input.attempt),
        'svc-signature': signatureHeader(input.secrets, t, input.body),
      },
      body: input.body,
      timeoutMs: DELIVERY_TIMEOUT_MS,
      maxBodyBytes: RESPONSE_PREFIX_BYTES,
    });
    const delivered = response.status >= 200 && response.status < 400;
    return { delivered, statusCode: response.status, error: delivered ? null : 'http_status', blocked: false };
  } catch (error) {
    return { delivered: false, statusCode: null, ...errorNameOf(error) };
  }
}

/**
 * Names a payload never carries (Part A 6): session identifiers, IP addresses, correlation and request ids,
 * internal telemetry. Emitters choose their webhook data; this is the last line, at any depth.
 */
const PRIVATE_FIELD = /(^|_)(session|sid|ip|ips|ip_address|correlation|request_id|trace|telemetry)(_|$)/i;

export function publicDataOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(publicDataOf);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      .filter(([name]) => !PRIVATE_FIELD.test(name))
      .map(([name, inner]) => [name, publicDataOf(inner)]),
  );
}

/** The body every attempt of an event sends (Part A 2.7), with `occurred_at` for unordered delivery. */
export function bodyOf(item: store.OutboxItem): string {
  const occurredAt = new Date(item.created_at).toISOString().replace('Z', '+00:00');
  const { id, type, schema_version } = item.payload;
  const data = publicDataOf(item.payload.data) as Record<string, unknown>;
  return JSON.stringify({ id, type, schema_version, data: { ...data, occurred_at: data.occurred_at ?? occurredAt } });
}

async function inPool<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/**
 * The delivery worker. Any number of nodes run it side by side: outbox rows and due deliveries are claimed
 * with `FOR UPDATE SKIP LOCKED`. These transactions are explicitly cross-organization (a worker serves every
 * organization); every statement names the organization of each row it touches.
 */
export function createDeliveryWorker(deps: {
  transactions: Transactions;
  clock: Clock;
  egress: Egress;
  sealingKey: Buffer;
  metrics?: Pick<Metrics, 'webhookDelivery'> | undefined;
}) {
  const { transactions, clock, egress, sealingKey } = deps;

  /** Fans new outbox events out to the subscribed, enabled endpoints of their organization. */
  async function dispatch(): Promise<number> {
    return transactions.system(async (tx) => {
      const items = await store.claimOutbox(tx, 200);
      if (items.length === 0) return 0;
      const endpoints = await store.subscribedEndpoints(tx, [...new Set(items.map((item) => item.tenant_id))]);
      const now = clock.now();
      const deliveries: store.DeliveryRow[] = [];
      for (const item of items) {
        const body = bodyOf(item);
        for (const endpoint of endpoints) {
          if (endpoint.tenant_id !== item.tenant_id || !endpoint.event_types.includes(item.event_type)) continue;
          // An endpoint receives the events that happen once it exists, not older ones still in the outbox.
          if (new Date(endpoint.created_at).getTime() > new Date(item.created_at).getTime()) continue;
          deliveries.push({
            id: newId(),
            tenantId: item.tenant_id,
            endpointId: endpoint.id,
            eventId: item.event_id,
            eventType: item.event_type,
            body,
            status: 'pending',
            attempts: 0,
            lastStatusCode: null,
            lastError: null,
            nextAttemptAt: now,
            leaseUntil: null,
            replayOf: null,
            createdAt: now,
            updatedAt: now,
          });
        }
      }
      await store.insertDeliveries(tx, deliveries);
      await store.markDispatched(
        tx,
        items.map((item) => item.id),
        now,
      );
      return items.length;
    });
  }

  async function attempt(claimed: store.ClaimedAttempt): Promise<SendOutcome> {
    let secrets: string[];
    try {
      secrets = [claimed.secret_sealed, claimed.previous_secret_sealed]
        .filter((sealed): sealed is string => sealed !== null)
        .map((sealed) => openSecret(sealingKey, claimed.endpoint_id, sealed));
    } catch {
      // A secret sealed under another SECRET_KEY: recorded as a failed attempt rather than retried blindly.
      return { delivered: false, statusCode: null, error: 'secret_unreadable', blocked: false };
    }
    return send(
      egress,
      {
        url: claimed.url,
        body: claimed.body,
        eventId: claimed.event_id,
        eventType: claimed.event_type,
        attempt: claimed.attempts,
        secrets,
      },
      clock.now(),
    );
  }

  /** The outcomes of a batch in one transaction (one commit per batch, not per delivery). */
  async function record(batch: Array<{ claimed: store.ClaimedAttempt; outcome: SendOutcome }>): Promise<void> {
    const now = clock.now();
    await transactions.system(async (tx) => {
      for (const { claimed, outcome } of batch) {
        const dead = !outcome.delivered && claimed.attempts >= MAX_ATTEMPTS;
        // Recorded only while the claim is still this worker's (its lease may have run out and the delivery
        // been claimed again): an outdated outcome counts neither for the delivery nor for its endpoint.
        const current = await store.recordAttempt(
          tx,
          { id: claimed.id, tenantId: claimed.tenant_id, attempts: claimed.attempts },
          {
            status: outcome.delivered ? 'delivered' : dead ? 'dead_letter' : 'retrying',
            statusCode: outcome.statusCode,
            error: outcome.error,
            nextAttemptAt: outcome.delivered || dead ? null : new Date(now.getTime() + retryDelayMs(claimed.attempts)),
            now,
          },
        );
        if (!current) continue;
        afterCommit(tx, () =>
          deps.metrics?.webhookDelivery(dead ? 'dead_letter' : outcome.delivered ? 'delivered' : 'retrying'),
        );
        if (outcome.delivered) await store.endpointSucceeded(tx, claimed.tenant_id, claimed.endpoint_id);
        else {
          await store.endpointFailed(
            tx,
            claimed.tenant_id,
            claimed.endpoint_id,
            DISABLE_AFTER_FAILURES,
            DISABLED_REASON,
            now,
          );
        }
      }
    });
  }

  let running: Promise<{ dispatched: number; attempted: number }> | null = null;

  async function run(): Promise<{ dispatched: number; attempted: number }> {
    const started = performance.now();
    let dispatched = 0;
    let attempted = 0;
    for (;;) {
      const fanned = await dispatch();
      dispatched += fanned;
      const now = clock.now();
      const claimed = await transactions.system((tx) =>
        store.claimDue(tx, now, new Date(now.getTime() + LEASE_MS), BATCH, MAX_ATTEMPTS),
      );
      const outcomes: Array<{ claimed: store.ClaimedAttempt; outcome: SendOutcome }> = [];
      await inPool(claimed, CONCURRENCY, async (item) => {
        outcomes.push({ claimed: item, outcome: await attempt(item) });
      });
      if (outcomes.length > 0) await record(outcomes);
      attempted += claimed.length;
      if ((fanned === 0 && claimed.length === 0) || performance.now() - started > RUN_BUDGET_MS) break;
    }
    const keptSince = new Date(clock.now().getTime() - OUTBOX_KEPT_MS);
    await transactions.system((tx) => store.pruneDispatchedOutbox(tx, keptSince, BATCH));
    return { dispatched, attempted };
  }

  return {
    /**
     * One pass of the worker: dispatch the outbox, then send every due attempt, until nothing is left (or the
     * run's time budget is spent). Concurrent calls on one node share the pass in progress.
     */
    runOnce(): Promise<{ dispatched: number; attempted: number }> {
      running ??= run().finally(() => {
        running = null;
      });
      return running;
    },
  };
}

export type DeliveryWorker = ReturnType<typeof createDeliveryWorker>;
