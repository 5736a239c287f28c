// The records findings are computed from (docs/decisions.md, "Command Center findings"): the kernel's events for
// the analyst's findings, its detections for the rules' findings. Read only; nothing here is stored.
import { and, asc, desc, eq, ne, type SQL, sql } from 'drizzle-orm';
import { rows, type Tx } from '../../kernel/db/index.js';
import type { Outcome, Severity } from '../../kernel/events/index.js';
import { detections } from '../../kernel/events/schema.js';
import { ELEVATED_FROM, rankOfSeverity, severitiesFrom, severityOfRank, severityRank } from './events-model.js';

/** How many of a finding's events it names, newest first. */
export const FINDING_EVENT_IDS = 5;

export interface AdverseActivity {
  tenant_id: string | null;
  actor_type: string;
  actor_id: string;
  action: string;
  count: number;
  severity: Severity;
  by_outcome: Record<Outcome, number>;
  first_seen: Date;
  last_seen: Date;
  event_ids: string[];
}

/**
 * Adverse events since `since` (outcome failure or denied, or severity at or above warn), grouped by organization,
 * actor and action: most severe first, then the most recent. `severity` keeps the groups whose highest severity it is.
 */
export async function adverseActivity(
  tx: Tx,
  input: { tenantId: string | null; since: Date; severity?: Severity | undefined; limit: number },
): Promise<AdverseActivity[]> {
  const elevated = sql.join(
    severitiesFrom(ELEVATED_FROM).map((severity) => sql`${severity}`),
    sql`, `,
  );
  const rank = severityRank(sql.raw('severity'));
  const found = await rows<{
    tenant_id: string | null;
    actor_type: string;
    actor_id: string;
    action: string;
    count: number | string;
    rank: number | string;
    success: number | string;
    failure: number | string;
    denied: number | string;
    first_seen: Date | string;
    last_seen: Date | string;
    event_ids: string[];
  }>(
    tx,
    sql`select tenant_id, actor_type, actor_id, action,
               count(*) as count,
               max(${rank}) as rank,
               count(*) filter (where outcome = 'success') as success,
               count(*) filter (where outcome = 'failure') as failure,
               count(*) filter (where outcome = 'denied') as denied,
               min(occurred_at) as first_seen,
               max(occurred_at) as last_seen,
               (array_agg(id::text order by occurred_at desc, id desc))[1:${sql.raw(String(FINDING_EVENT_IDS))}]
                 as event_ids
          from events
         where ${input.tenantId === null ? sql`true` : sql`tenant_id = ${input.tenantId}`}
           and occurred_at >= ${input.since}
           and (outcome <> 'success' or severity in (${elevated}))
         group by tenant_id, actor_type, actor_id, action
        ${input.severity === undefined ? sql`` : sql`having max(${rank}) = ${rankOfSeverity(input.severity)}`}
         order by max(${rank}) desc, max(occurred_at) desc, actor_id, action
         limit ${input.limit}`,
  );
  return found.map((row) => ({
    tenant_id: row.tenant_id,
    actor_type: row.actor_type,
    actor_id: row.actor_id,
    action: row.action,
    count: Number(row.count),
    severity: severityOfRank(Number(row.rank)),
    by_outcome: { success: Number(row.success), failure: Number(row.failure), denied: Number(row.denied) },
    first_seen: new Date(row.first_seen),
    last_seen: new Date(row.last_seen),
    event_ids: row.event_ids,
  }));
}

export type DetectionRow = typeof detections.$inferSelect;

/** Detections still open or acknowledged (not resolved): most severe first, then the most recently seen. */
export function unresolvedDetections(
  tx: Tx,
  input: { tenantId: string | null; severity?: Severity | undefined; limit: number },
): Promise<DetectionRow[]> {
  const conditions = [
    input.tenantId !== null && eq(detections.tenantId, input.tenantId),
    ne(detections.status, 'resolved'),
    input.severity !== undefined && eq(detections.severity, input.severity),
  ].filter((condition): condition is SQL => Boolean(condition));
  return tx
    .select()
    .from(detections)
    .where(and(...conditions))
    .orderBy(desc(severityRank(sql`${detections.severity}`)), desc(detections.lastSeen), asc(detections.id))
    .limit(input.limit);
}
