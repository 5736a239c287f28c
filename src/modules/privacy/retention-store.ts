import { and, eq, sql } from 'drizzle-orm';
import { type Queryable, rows } from '../../kernel/db/index.js';
import { type DataClass, retentionArchive, retentionPolicies } from './schema.js';

export type PolicyRow = typeof retentionPolicies.$inferSelect;

/**
 * Where each data class lives: its table, the instant its age counts from and the person it is about.
 * A DSR ages from its resolution, so an open request is never past retention. The audit log is no data
 * class: nothing here can reach it.
 */
const CLASS_TABLES: Record<DataClass, { table: string; time: string; subject: string }> = {
  events: { table: 'events', time: 'occurred_at', subject: 'subject_user_id' },
  dsr: { table: 'data_subject_requests', time: 'resolved_at', subject: 'user_id' },
  consent_events: { table: 'consent_events', time: 'occurred_at', subject: 'user_id' },
};

/**
 * Legal hold: records about a person whose data-subject request is still open are kept, because
 * destroying data a pending request covers defeats the request (e.g. UK DPA 2018 s.173). A policy with
 * `legal_hold_exempt` purges them anyway.
 */
const heldSql = (subject: string) =>
  sql.raw(`exists (select 1 from data_subject_requests h where h.tenant_id = r.tenant_id
            and h.user_id = r.${subject} and h.status in ('pending', 'verified'))`);

export async function policies(q: Queryable, tenantId: string): Promise<PolicyRow[]> {
  return q.select().from(retentionPolicies).where(eq(retentionPolicies.tenantId, tenantId));
}

export async function policy(q: Queryable, tenantId: string, dataClass: DataClass): Promise<PolicyRow | undefined> {
  const [row] = await q
    .select()
    .from(retentionPolicies)
    .where(and(eq(retentionPolicies.tenantId, tenantId), eq(retentionPolicies.dataClass, dataClass)));
  return row;
}

export async function upsertPolicy(q: Queryable, row: PolicyRow): Promise<void> {
  const { tenantId: _tenant, dataClass: _class, ...changes } = row;
  await q
    .insert(retentionPolicies)
    .values(row)
    .onConflictDoUpdate({ target: [retentionPolicies.tenantId, retentionPolicies.dataClass], set: changes });
}

/** Records older than `cutoff`, and how many of them are held. */
export async function countPast(
  q: Queryable,
  tenantId: string,
  dataClass: DataClass,
  cutoff: Date,
): Promise<{ past: number; held: number }> {
  const { table, time, subject } = CLASS_TABLES[dataClass];
  const [row] = await rows<{ past: number; held: number }>(
    q,
    sql`select count(*)::int as past, (count(*) filter (where ${heldSql(subject)}))::int as held
        from ${sql.identifier(table)} r
        where r.tenant_id = ${tenantId} and r.${sql.identifier(time)} < ${cutoff}`,
  );
  return row ?? { past: 0, held: 0 };
}

/**
 * Deletes up to `batch` records past `cutoff` in one statement, copying them to `retention_archive` first
 * when asked (same statement: a record is archived exactly when it is deleted). Answers how many went.
 */
export async function purgeBatch(
  q: Queryable,
  input: {
    tenantId: string;
    dataClass: DataClass;
    cutoff: Date;
    skipHeld: boolean;
    archive: boolean;
    now: Date;
    batch: number;
  },
): Promise<number> {
  const { table, time, subject } = CLASS_TABLES[input.dataClass];
  const t = sql.identifier(table);
  const hold = input.skipHeld ? sql`and not ${heldSql(subject)}` : sql``;
  const [row] = await rows<{ purged: number }>(
    q,
    sql`with doomed as (
          delete from ${t} d where d.tenant_id = ${input.tenantId} and d.id in (
            select r.id from ${t} r
            where r.tenant_id = ${input.tenantId} and r.${sql.identifier(time)} < ${input.cutoff} ${hold}
            limit ${input.batch})
          returning d.*),
        archived as (
          insert into retention_archive (tenant_id, id, data_class, record_id, user_id, record, recorded_at, archived_at)
          select d.tenant_id, gen_random_uuid(), ${input.dataClass}::text, d.id, d.${sql.identifier(subject)}, to_jsonb(d),
                 d.${sql.identifier(time)}, ${input.now}
          from doomed d where ${sql.raw(input.archive ? 'true' : 'false')}
          returning 1)
        select (select count(*) from doomed)::int as purged`,
  );
  return row?.purged ?? 0;
}

/** Organizations with at least one enabled policy: the purge job's work list (a system read). */
export async function tenantsWithEnabledPolicies(q: Queryable): Promise<string[]> {
  const found = await rows<{ tenant_id: string }>(
    q,
    sql`select distinct tenant_id from retention_policies where enabled order by tenant_id`,
  );
  return found.map((r) => r.tenant_id);
}

/**
 * Claims this organization's enabled policies for one purge run; a node already purging it holds the rows,
 * so another node skips them (`SKIP LOCKED`) instead of deleting the same records twice.
 */
export async function claimEnabledPolicies(q: Queryable, tenantId: string): Promise<PolicyRow[]> {
  return q
    .select()
    .from(retentionPolicies)
    .where(and(eq(retentionPolicies.tenantId, tenantId), eq(retentionPolicies.enabled, true)))
    .for('update', { skipLocked: true });
}

/** Archived copies of a person's records (export and erasure reach them). */
export async function archivedOfUser(q: Queryable, tenantId: string, userId: string) {
  return q
    .select()
    .from(retentionArchive)
    .where(and(eq(retentionArchive.tenantId, tenantId), eq(retentionArchive.userId, userId)))
    .orderBy(retentionArchive.archivedAt, retentionArchive.recordId);
}

export async function deleteArchivedOfUser(q: Queryable, tenantId: string, userId: string): Promise<void> {
  await q
    .delete(retentionArchive)
    .where(and(eq(retentionArchive.tenantId, tenantId), eq(retentionArchive.userId, userId)));
}
