import { and, desc, eq, gte, inArray, type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../kernel/db/index.js';
import type { Severity } from '../../kernel/events/index.js';
import { membershipStanding } from '../organizations/index.js';
import { incidents } from './schema.js';

// Queries of the incidents table. Reads name their organization, or none (`null`: the platform operator's read of
// every organization, in a system transaction); writes always name the caller's organization.

export type IncidentRow = typeof incidents.$inferSelect;
export type IncidentStatus = IncidentRow['status'];
export type IncidentInsert = typeof incidents.$inferInsert;

/** Statuses of an incident not yet dealt with: the backlog. */
export const UNRESOLVED: readonly IncidentStatus[] = ['open', 'investigating', 'contained'];

const inTenant = (tenantId: string | null): SQL | undefined =>
  tenantId === null ? undefined : eq(incidents.tenantId, tenantId);

export async function insertIncident(q: Queryable, row: IncidentInsert): Promise<IncidentRow> {
  const [inserted] = await q.insert(incidents).values(row).returning();
  return inserted!;
}

/** Newest first: by creation time, then id. */
export function listIncidents(
  q: Queryable,
  filter: {
    tenantId: string | null;
    status?: IncidentStatus | undefined;
    severity?: Severity | undefined;
    limit: number;
  },
): Promise<IncidentRow[]> {
  return q
    .select()
    .from(incidents)
    .where(
      and(
        inTenant(filter.tenantId),
        filter.status ? eq(incidents.status, filter.status) : undefined,
        filter.severity ? eq(incidents.severity, filter.severity) : undefined,
      ),
    )
    .orderBy(desc(incidents.createdAt), desc(incidents.id))
    .limit(filter.limit);
}

/** The incident, locked until the caller's transaction ends: changes to one incident queue up. */
export async function lockIncident(q: Queryable, tenantId: string, id: string): Promise<IncidentRow | undefined> {
  const [row] = await q
    .select()
    .from(incidents)
    .where(and(eq(incidents.tenantId, tenantId), eq(incidents.id, id)))
    .for('update');
  return row;
}

export async function updateIncident(
  q: Queryable,
  tenantId: string,
  id: string,
  set: Partial<IncidentInsert>,
): Promise<IncidentRow> {
  const [row] = await q
    .update(incidents)
    .set(set)
    .where(and(eq(incidents.tenantId, tenantId), eq(incidents.id, id)))
    .returning();
  return row!;
}

/** Incidents opened at or after `since`, counted by status and severity. */
export function incidentCounts(q: Queryable, tenantId: string | null, since: Date) {
  return q
    .select({ status: incidents.status, severity: incidents.severity, count: sql<number>`count(*)::int` })
    .from(incidents)
    .where(and(inTenant(tenantId), gte(incidents.createdAt, since)))
    .groupBy(incidents.status, incidents.severity);
}

/** The whole backlog, whatever its age: how many unresolved incidents, and when the oldest was opened. */
export interface UnresolvedBacklog {
  count: number;
  oldest: Date | null;
  bySeverity: Array<{ severity: Severity; count: number }>;
}

export async function unresolvedBacklog(q: Queryable, tenantId: string | null): Promise<UnresolvedBacklog> {
  const found = await q
    .select({
      severity: incidents.severity,
      count: sql<number>`count(*)::int`,
      oldest: sql<string>`min(${incidents.createdAt})`,
    })
    .from(incidents)
    .where(and(inTenant(tenantId), inArray(incidents.status, [...UNRESOLVED])))
    .groupBy(incidents.severity);
  const oldest = found.reduce<Date | null>((min, row) => {
    const at = new Date(row.oldest);
    return min === null || at < min ? at : min;
  }, null);
  return {
    count: found.reduce((sum, row) => sum + row.count, 0),
    oldest,
    bySeverity: found.map((row) => ({ severity: row.severity, count: row.count })),
  };
}

/** Whether `userId` is an active workforce member of the organization (who an incident may be assigned to). */
export async function isActiveWorkforceMember(q: Queryable, tenantId: string, userId: string): Promise<boolean> {
  const member = membershipStanding(q);
  const [row] = await q
    .select({ id: member.id })
    .from(member)
    .where(
      and(
        eq(member.tenantId, tenantId),
        eq(member.userId, userId),
        eq(member.status, 'active'),
        eq(member.population, 'workforce'),
      ),
    );
  return row !== undefined;
}
