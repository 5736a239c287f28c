// Reads of the kernel's events table for the Command Center (no second log). Every read names its organization
// first when it has one, so PostgreSQL serves it from the (tenant_id, occurred_at) index, newest first.
import { and, eq, gte, type SQL, sql } from 'drizzle-orm';
import { type Queryable, rows, type Tx } from '../../kernel/db/index.js';
import type { ActorType, Outcome, Severity } from '../../kernel/events/index.js';
import { events } from '../../kernel/events/schema.js';
import { ELEVATED_FROM, severitiesFrom } from './events-model.js';

export interface EventFilter {
  /** One organization, or every organization (null: the platform operator). */
  tenantId: string | null;
  since?: Date | undefined;
  category?: string | undefined;
  action?: string | undefined;
  severity?: Severity | undefined;
  correlationId?: string | undefined;
  actorId?: string | undefined;
  actorType?: ActorType | undefined;
}

/** Where a page ends: the last event's instant (microseconds, as stored) and id. */
export interface EventPosition {
  occurredAt: string;
  id: string;
}

/** The organization condition: one organization's rows, or (platform operator) every row. */
export const inTenant = (column: typeof events.tenantId, tenantId: string | null): SQL | undefined =>
  tenantId === null ? undefined : eq(column, tenantId);

/** A row of the events list as read: the envelope's columns (`data` as PostgreSQL writes it) and the position. */
interface ListedRow {
  id: string;
  tenant_id: string | null;
  actor_id: string;
  actor_type: ActorType;
  category: string;
  action: string;
  severity: Severity;
  outcome: Outcome;
  correlation_id: string | null;
  data: string;
  position: string;
}

const json = JSON.stringify;

/**
 * The envelope of a listed row as JSON text: the kernel's `envelopeOf` of the same columns, the same fields in the
 * same order, the timestamp the position cut to the millisecond as `Date#toISOString` writes it (both truncate),
 * and `data` the text PostgreSQL sent, never parsed here and serialized again (`command-stream.test.ts` compares a
 * listed envelope with the streamed one, `command-events.test.ts` the page with its declared schema).
 */
function envelopeJson(row: ListedRow): string {
  return (
    `{"id":${json(row.id)},"tenant_id":${json(row.tenant_id)},"timestamp":"${row.position.slice(0, 23)}Z",` +
    `"actor":{"id":${json(row.actor_id)},"type":${json(row.actor_type)}},"category":${json(row.category)},` +
    `"action":${json(row.action)},"severity":${json(row.severity)},"outcome":${json(row.outcome)},` +
    `"correlation_id":${json(row.correlation_id)},"data":${row.data}}`
  );
}

/**
 * Up to `limit` events matching `filter`, newest first, after `after` when given; each as its envelope's JSON text
 * (envelopeJson) with its position, the instant to the microsecond as stored (a JavaScript Date would cut a page
 * boundary to the millisecond) and its id. A raw statement mapped here rather than Drizzle's select builder, whose
 * per-column result mapping was about a sixth of the route's CPU for a page of 100, and `data` read as text: a
 * page is a hundred envelopes, and parsing each one's `data` only to serialize it again was most of what the
 * service added to its statement (docs/benchmarks.md).
 */
export async function listEvents(
  q: Queryable,
  filter: EventFilter,
  limit: number,
  after?: EventPosition,
): Promise<Array<{ envelope: string; position: EventPosition }>> {
  const conditions = [
    inTenant(events.tenantId, filter.tenantId),
    filter.since && gte(events.occurredAt, filter.since),
    filter.category !== undefined && eq(events.category, filter.category),
    filter.action !== undefined && eq(events.action, filter.action),
    filter.severity !== undefined && eq(events.severity, filter.severity),
    filter.correlationId !== undefined && eq(events.correlationId, filter.correlationId),
    filter.actorId !== undefined && eq(events.actorId, filter.actorId),
    filter.actorType !== undefined && eq(events.actorType, filter.actorType),
    // Written so the instant bound is an index condition (a row comparison would only filter).
    after &&
      sql`${events.occurredAt} <= ${after.occurredAt}::timestamptz
          and (${events.occurredAt} < ${after.occurredAt}::timestamptz or ${events.id} < ${after.id}::uuid)`,
  ].filter((condition): condition is SQL => Boolean(condition));
  const found = await rows<ListedRow>(
    q,
    sql`select "id", "tenant_id", "actor_id", "actor_type", "category", "action", "severity", "outcome",
               "correlation_id", "data"::text as "data",
               to_char("occurred_at" at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as "position"
          from "events"
         where ${and(...conditions) ?? sql`true`}
         order by "occurred_at" desc, "id" desc
         limit ${limit}`,
  );
  return found.map((row) => ({ envelope: envelopeJson(row), position: { occurredAt: row.position, id: row.id } }));
}

/**
 * Whether an event of the organization (every organization: null) sits exactly at `position`: a page's cursor
 * names the last event it listed, so one naming no such event (forged, or another organization's) is refused.
 */
export async function eventAt(q: Queryable, tenantId: string | null, position: EventPosition): Promise<boolean> {
  const found = await rows<{ id: string }>(
    q,
    sql`select "id" from "events"
         where ${and(inTenant(events.tenantId, tenantId), eq(events.id, position.id)) ?? sql`true`}
           and "occurred_at" = ${position.occurredAt}::timestamptz
         limit 1`,
  );
  return found.length > 0;
}

export interface ActorActivity {
  actor_id: string;
  total: number;
  by_outcome: Record<Outcome, number>;
  elevated: number;
  first_seen: Date;
  last_seen: Date;
}

/**
 * Events per principal of one actor type since `since`, by volume then actor id: the first `shown` principals,
 * and how many principals there are in all.
 */
export async function activityByActor(
  tx: Tx,
  input: { tenantId: string | null; actorType: ActorType; since: Date; shown: number },
): Promise<{ principals: number; actors: ActorActivity[] }> {
  const elevated = severitiesFrom(ELEVATED_FROM);
  const tenant = input.tenantId === null ? sql`true` : sql`tenant_id = ${input.tenantId}`;
  const found = await rows<{
    actor_id: string;
    total: number | string;
    success: number | string;
    failure: number | string;
    denied: number | string;
    elevated: number | string;
    first_seen: Date | string;
    last_seen: Date | string;
    principals: number | string;
  }>(
    tx,
    sql`select actor_id,
               count(*) as total,
               count(*) filter (where outcome = 'success') as success,
               count(*) filter (where outcome = 'failure') as failure,
               count(*) filter (where outcome = 'denied') as denied,
               count(*) filter (where severity in (${sql.join(
                 elevated.map((s) => sql`${s}`),
                 sql`, `,
               )})) as elevated,
               min(occurred_at) as first_seen,
               max(occurred_at) as last_seen,
               count(*) over () as principals
          from events
         where ${tenant} and occurred_at >= ${input.since} and actor_type = ${input.actorType}
         group by actor_id
         order by count(*) desc, actor_id asc
         limit ${input.shown}`,
  );
  return {
    principals: Number(found[0]?.principals ?? 0),
    actors: found.map((row) => ({
      actor_id: row.actor_id,
      total: Number(row.total),
      by_outcome: { success: Number(row.success), failure: Number(row.failure), denied: Number(row.denied) },
      elevated: Number(row.elevated),
      first_seen: new Date(row.first_seen),
      last_seen: new Date(row.last_seen),
    })),
  };
}
