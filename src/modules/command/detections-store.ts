import { and, desc, eq, gte, inArray, isNull, like, or, type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../kernel/db/index.js';
import type { Severity } from '../../kernel/events/index.js';
import { detections } from '../../kernel/events/schema.js';

// Queries of the kernel's detections table (Part B 4.8). Every query names the organizations it reads: one
// organization, or every one (`null`, the platform operator's read, run in a system transaction).

export type DetectionRow = typeof detections.$inferSelect;
export type DetectionStatus = DetectionRow['status'];

export interface DetectionFilter {
  tenantId: string | null;
  severity?: Severity | undefined;
  ruleId?: string | undefined;
  status?: DetectionStatus | undefined;
  /** Groups keyed on this principal (`principalGroups`). */
  actorId?: string | undefined;
  limit: number;
}

const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (character) => `\\${character}`);

/**
 * Detections grouped on one principal (Part B 4.8 `actor_id`): the group-key spellings `actor:<id>` and `agent:<id>`,
 * alone or narrowed by a further `:` part (`agent:<id>:credential:<issued>`, one group per credential).
 */
function principalGroups(actorId: string): SQL {
  const spellings = [`actor:${actorId}`, `agent:${actorId}`];
  return or(
    inArray(detections.groupKey, spellings),
    ...spellings.map((spelling) => like(detections.groupKey, `${likeLiteral(`${spelling}:`)}%`)),
  )!;
}

const inTenant = (tenantId: string | null): SQL | undefined =>
  tenantId === null ? undefined : eq(detections.tenantId, tenantId);

/** Newest first: by the last time the group was seen, then by id (UUIDv7, creation order) to break ties. */
export function listDetections(q: Queryable, filter: DetectionFilter): Promise<DetectionRow[]> {
  return q
    .select()
    .from(detections)
    .where(
      and(
        inTenant(filter.tenantId),
        filter.severity ? eq(detections.severity, filter.severity) : undefined,
        filter.ruleId ? eq(detections.ruleId, filter.ruleId) : undefined,
        filter.status ? eq(detections.status, filter.status) : undefined,
        filter.actorId === undefined ? undefined : principalGroups(filter.actorId),
      ),
    )
    .orderBy(desc(detections.lastSeen), desc(detections.id))
    .limit(filter.limit);
}

export interface DetectionRollup {
  severity: Severity;
  ruleId: string;
  groups: number;
  open: number;
  occurrences: number;
  lastSeen: Date;
}

/** Groups seen in the window (`last_seen` at or after `since`), rolled up by severity and rule. */
export async function detectionRollup(q: Queryable, tenantId: string | null, since: Date): Promise<DetectionRollup[]> {
  const found = await q
    .select({
      severity: detections.severity,
      ruleId: detections.ruleId,
      groups: sql<number>`count(*)::int`,
      open: sql<number>`(count(*) filter (where ${detections.status} = 'open'))::int`,
      occurrences: sql<number>`coalesce(sum(${detections.count}), 0)::int`,
      lastSeen: sql<string>`max(${detections.lastSeen})`,
    })
    .from(detections)
    .where(and(inTenant(tenantId), gte(detections.lastSeen, since)))
    .groupBy(detections.severity, detections.ruleId);
  return found.map((row) => ({ ...row, lastSeen: new Date(row.lastSeen) }));
}

/**
 * Where a mutation may act: the caller's own organization, plus the platform-level detections (no organization)
 * when the caller is the platform operator.
 */
export interface OperableScope {
  tenantId: string;
  platformLevel: boolean;
}

const operable = (scope: OperableScope): SQL =>
  scope.platformLevel
    ? or(eq(detections.tenantId, scope.tenantId), isNull(detections.tenantId))!
    : eq(detections.tenantId, scope.tenantId);

/**
 * Moves a detection to `status` in one race-safe statement: only from a status it may leave for that one. Answers
 * the changed row, or nothing (unknown, out of scope, or in a status it may not leave for `status`).
 */
export async function settleDetection(
  q: Queryable,
  scope: OperableScope,
  id: string,
  change: { status: 'acknowledged' | 'resolved'; from: DetectionStatus[]; note: string | undefined },
): Promise<DetectionRow | undefined> {
  const [row] = await q
    .update(detections)
    .set({ status: change.status, ...(change.note === undefined ? {} : { note: change.note }) })
    .where(and(eq(detections.id, id), operable(scope), inArray(detections.status, change.from)))
    .returning();
  return row;
}

/** The detections among `ids` a mutation of `scope` may act on (for an incident's links). */
export async function operableDetections(q: Queryable, scope: OperableScope, ids: string[]): Promise<DetectionRow[]> {
  if (ids.length === 0) return [];
  return q
    .select()
    .from(detections)
    .where(and(inArray(detections.id, ids), operable(scope)));
}

export async function operableDetection(
  q: Queryable,
  scope: OperableScope,
  id: string,
): Promise<DetectionRow | undefined> {
  const [row] = await operableDetections(q, scope, [id]);
  return row;
}
