import { and, count, desc, eq, sql } from 'drizzle-orm';
import { type Queryable, rows } from '../../kernel/db/index.js';
import { webhookDeliveries, webhookEndpoints } from './schema.js';

export type EndpointRow = typeof webhookEndpoints.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;

/** Serializes registrations of one organization, so the endpoint cap holds under concurrency. */
export async function lockEndpointsOf(q: Queryable, tenantId: string): Promise<void> {
  await q.execute(sql`select pg_advisory_xact_lock(hashtext(${`webhook-endpoints:${tenantId}`}))`);
}

export async function countEndpoints(q: Queryable, tenantId: string): Promise<number> {
  const [row] = await q.select({ n: count() }).from(webhookEndpoints).where(eq(webhookEndpoints.tenantId, tenantId));
  return Number(row?.n ?? 0);
}

export async function insertEndpoint(q: Queryable, row: EndpointRow): Promise<void> {
  await q.insert(webhookEndpoints).values(row);
}

export async function listEndpoints(q: Queryable, tenantId: string): Promise<EndpointRow[]> {
  return q
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.tenantId, tenantId))
    .orderBy(webhookEndpoints.createdAt);
}

export async function endpoint(q: Queryable, tenantId: string, id: string): Promise<EndpointRow | undefined> {
  const [row] = await q
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.tenantId, tenantId), eq(webhookEndpoints.id, id)))
    .for('update');
  return row;
}

export async function updateEndpoint(
  q: Queryable,
  tenantId: string,
  id: string,
  patch: Partial<EndpointRow>,
): Promise<EndpointRow | undefined> {
  const [row] = await q
    .update(webhookEndpoints)
    .set(patch)
    .where(and(eq(webhookEndpoints.tenantId, tenantId), eq(webhookEndpoints.id, id)))
    .returning();
  return row;
}

export async function deleteEndpoint(q: Queryable, tenantId: string, id: string): Promise<boolean> {
  const gone = await q
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.tenantId, tenantId), eq(webhookEndpoints.id, id)))
    .returning({ id: webhookEndpoints.id });
  return gone.length > 0;
}

export async function listDeliveries(q: Queryable, tenantId: string, endpointId: string, limit: number) {
  return q
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.tenantId, tenantId), eq(webhookDeliveries.endpointId, endpointId)))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(limit);
}

export async function delivery(q: Queryable, tenantId: string, endpointId: string, id: string) {
  const [row] = await q
    .select()
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.tenantId, tenantId),
        eq(webhookDeliveries.endpointId, endpointId),
        eq(webhookDeliveries.id, id),
      ),
    );
  return row;
}

export async function insertDeliveries(q: Queryable, values: DeliveryRow[]): Promise<void> {
  if (values.length > 0) await q.insert(webhookDeliveries).values(values);
}

// ---- worker statements: explicitly cross-organization, every row names its organization ----

export interface OutboxItem {
  id: string;
  tenant_id: string;
  event_id: string;
  event_type: string;
  payload: { id: string; type: string; schema_version: number; data: Record<string, unknown> };
  created_at: string;
}

/** Undispatched outbox rows, oldest first, locked for this transaction (other workers skip them). */
export async function claimOutbox(q: Queryable, limit: number): Promise<OutboxItem[]> {
  return rows<OutboxItem>(
    q,
    sql`select id, tenant_id, event_id, event_type, payload, created_at from webhook_outbox
        where dispatched_at is null order by created_at, id limit ${limit} for update skip locked`,
  );
}

export async function markDispatched(q: Queryable, ids: string[], now: Date): Promise<void> {
  if (ids.length === 0) return;
  await q.execute(
    sql`update webhook_outbox set dispatched_at = ${now} where id in (${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )})`,
  );
}

/**
 * Outbox rows fanned out before `before`: their payload lives on in the deliveries, so they are deleted (a
 * bounded batch per pass, oldest first) instead of growing the table forever.
 */
export async function pruneDispatchedOutbox(q: Queryable, before: Date, limit: number): Promise<number> {
  const pruned = await rows<{ id: string }>(
    q,
    sql`delete from webhook_outbox where id in (
          select id from webhook_outbox where dispatched_at < ${before}
          order by dispatched_at limit ${limit} for update skip locked)
        returning id`,
  );
  return pruned.length;
}

export async function subscribedEndpoints(q: Queryable, tenantIds: string[]) {
  if (tenantIds.length === 0) return [];
  return rows<{ id: string; tenant_id: string; event_types: string[]; created_at: string }>(
    q,
    sql`select id, tenant_id, event_types, created_at from webhook_endpoints
        where enabled and tenant_id in (${sql.join(
          tenantIds.map((id) => sql`${id}`),
          sql`, `,
        )})`,
  );
}

export interface ClaimedAttempt {
  id: string;
  tenant_id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  body: string;
  attempts: number;
  url: string;
  secret_sealed: string;
  previous_secret_sealed: string | null;
}

/**
 * Claims due deliveries of enabled endpoints: in one statement the row is locked (others skip it), its attempt
 * counted and a lease taken, so each attempt number is sent by exactly one worker. A worker that dies
 * mid-attempt leaves its lease to expire; the next claim is the next attempt.
 */
export async function claimDue(
  q: Queryable,
  now: Date,
  leaseUntil: Date,
  limit: number,
  maxAttempts: number,
): Promise<ClaimedAttempt[]> {
  // A worker that stopped during the last attempt left it leased: that attempt counts, so the delivery is
  // dead-lettered instead of claimed a time too many.
  await q.execute(
    sql`update webhook_deliveries
        set status = 'dead_letter', next_attempt_at = null, lease_until = null,
            last_error = coalesce(last_error, 'interrupted'), updated_at = ${now}
        where status in ('pending', 'retrying') and next_attempt_at <= ${now}
          and attempts >= ${maxAttempts} and lease_until <= ${now}`,
  );
  return rows<ClaimedAttempt>(
    q,
    sql`with due as (
          select d.id from webhook_deliveries d
          join webhook_endpoints e on e.id = d.endpoint_id and e.tenant_id = d.tenant_id
          where d.status in ('pending', 'retrying') and d.next_attempt_at <= ${now}
            and d.attempts < ${maxAttempts}
            and (d.lease_until is null or d.lease_until <= ${now}) and e.enabled
          order by d.next_attempt_at, d.id
          limit ${limit}
          for update of d skip locked)
        update webhook_deliveries d
        set attempts = d.attempts + 1, lease_until = ${leaseUntil}, updated_at = ${now}
        from due, webhook_endpoints e
        where d.id = due.id and e.id = d.endpoint_id
        returning d.id, d.tenant_id, d.endpoint_id, d.event_id, d.event_type, d.body, d.attempts,
                  e.url, e.secret_sealed, e.previous_secret_sealed`,
  );
}

export async function recordAttempt(
  q: Queryable,
  attempt: { id: string; tenantId: string; attempts: number },
  outcome: {
    status: DeliveryRow['status'];
    statusCode: number | null;
    error: string | null;
    nextAttemptAt: Date | null;
    now: Date;
  },
): Promise<boolean> {
  const updated = await q
    .update(webhookDeliveries)
    .set({
      status: outcome.status,
      lastStatusCode: outcome.statusCode,
      lastError: outcome.error,
      nextAttemptAt: outcome.nextAttemptAt,
      leaseUntil: null,
      updatedAt: outcome.now,
    })
    .where(
      and(
        eq(webhookDeliveries.tenantId, attempt.tenantId),
        eq(webhookDeliveries.id, attempt.id),
        eq(webhookDeliveries.attempts, attempt.attempts),
      ),
    )
    .returning({ id: webhookDeliveries.id });
  return updated.length > 0;
}

export async function endpointSucceeded(q: Queryable, tenantId: string, endpointId: string): Promise<void> {
  await q.execute(
    sql`update webhook_endpoints set consecutive_failures = 0
        where tenant_id = ${tenantId} and id = ${endpointId} and consecutive_failures <> 0`,
  );
}

/** Counts a failed attempt; the one that reaches `limit` disables the endpoint. */
export async function endpointFailed(
  q: Queryable,
  tenantId: string,
  endpointId: string,
  limit: number,
  reason: string,
  now: Date,
): Promise<void> {
  await q.execute(
    sql`update webhook_endpoints set
          consecutive_failures = consecutive_failures + 1,
          enabled = case when consecutive_failures + 1 >= ${limit} then false else enabled end,
          disabled_reason = case when enabled and consecutive_failures + 1 >= ${limit} then ${reason}
                                 else disabled_reason end,
          updated_at = case when enabled and consecutive_failures + 1 >= ${limit} then ${now} else updated_at end
        where tenant_id = ${tenantId} and id = ${endpointId}`,
  );
}

/** Metrics: deliveries waiting (pending or retrying) and the due time of the oldest one that is due. */
export async function deliveryQueue(q: Queryable, now: Date): Promise<{ depth: number; oldest: Date | null }> {
  const [row] = await rows<{ depth: number; oldest: Date | string | null }>(
    q,
    sql`select count(*)::int as depth, min(next_attempt_at) filter (where next_attempt_at <= ${now}) as oldest
        from webhook_deliveries where status in ('pending', 'retrying')`,
  );
  return { depth: Number(row?.depth ?? 0), oldest: row?.oldest ? new Date(row.oldest) : null };
}

/** Metrics: outbox events not fanned out yet, and when the oldest of them happened. */
export async function outboxQueue(q: Queryable): Promise<{ depth: number; oldest: Date | null }> {
  const [row] = await rows<{ depth: number; oldest: Date | string | null }>(
    q,
    sql`select count(*)::int as depth, min(created_at) as oldest from webhook_outbox where dispatched_at is null`,
  );
  return { depth: Number(row?.depth ?? 0), oldest: row?.oldest ? new Date(row.oldest) : null };
}
