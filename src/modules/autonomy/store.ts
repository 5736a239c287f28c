import { and, desc, eq, gte, isNotNull, sql } from 'drizzle-orm';
import { type Queryable, rows, type Tx } from '../../kernel/db/index.js';
import { autonomyDecisions, autonomyKillSwitchNotes } from './schema.js';

// Queries of the autonomy ledger. Every query of a tenant's rows names the tenant; the cross-organization ones
// (the worker's, the platform operator's list) say so.

export type DecisionRow = typeof autonomyDecisions.$inferSelect;
export type Mode = DecisionRow['mode'];

/** Records a decision once per detection group occurrence; undefined when it was recorded already. */
export async function insertDecision(tx: Tx, row: typeof autonomyDecisions.$inferInsert) {
  const [inserted] = await tx
    .insert(autonomyDecisions)
    .values(row)
    .onConflictDoNothing({ target: [autonomyDecisions.tenantId, autonomyDecisions.detectionId] })
    .returning();
  return inserted;
}

export async function decisionById(q: Queryable, tenantId: string, id: string, lock = false) {
  const query = q
    .select()
    .from(autonomyDecisions)
    .where(and(eq(autonomyDecisions.tenantId, tenantId), eq(autonomyDecisions.id, id)));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

/** The `executing` row, locked; undefined when another worker holds it (SKIP LOCKED) or it is no longer due. */
export async function claimExecuting(tx: Tx, tenantId: string, id: string) {
  const [row] = await tx
    .select()
    .from(autonomyDecisions)
    .where(
      and(
        eq(autonomyDecisions.tenantId, tenantId),
        eq(autonomyDecisions.id, id),
        eq(autonomyDecisions.mode, 'executing'),
      ),
    )
    .for('update', { skipLocked: true });
  return row;
}

/** Work for the worker, across every organization (a system statement): the oldest `executing` rows. */
export async function dueForExecution(q: Queryable, limit: number) {
  return q
    .select({ id: autonomyDecisions.id, tenantId: autonomyDecisions.tenantId })
    .from(autonomyDecisions)
    .where(eq(autonomyDecisions.mode, 'executing'))
    .orderBy(autonomyDecisions.createdAt)
    .limit(limit);
}

export async function updateDecision(tx: Tx, tenantId: string, id: string, set: Partial<DecisionRow>) {
  const [row] = await tx
    .update(autonomyDecisions)
    .set(set)
    .where(and(eq(autonomyDecisions.tenantId, tenantId), eq(autonomyDecisions.id, id)))
    .returning();
  if (!row) throw new Error(`autonomy decision ${id} vanished`);
  return row;
}

/** Newest first; `tenantId` null lists every organization (the platform operator's view). */
export async function listDecisions(q: Queryable, filter: { tenantId: string | null; mode?: Mode; limit: number }) {
  const conditions = [
    filter.tenantId ? eq(autonomyDecisions.tenantId, filter.tenantId) : undefined,
    filter.mode ? eq(autonomyDecisions.mode, filter.mode) : undefined,
  ].filter((c) => c !== undefined);
  return q
    .select()
    .from(autonomyDecisions)
    .where(and(...conditions))
    .orderBy(desc(autonomyDecisions.createdAt), desc(autonomyDecisions.id))
    .limit(filter.limit);
}

/** Serializes the guards of one class in one organization: caps are exact under concurrent executions. */
export async function lockClass(tx: Tx, tenantId: string, responseClass: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`svc:autonomy:${tenantId}:${responseClass}`}))`);
}

/** Executions of a class since `since`, and the distinct targets they touched. */
export async function classUse(q: Queryable, tenantId: string, responseClass: string, since: Date) {
  const found = await q
    .selectDistinct({ targetId: autonomyDecisions.targetId, id: autonomyDecisions.id })
    .from(autonomyDecisions)
    .where(
      and(
        eq(autonomyDecisions.tenantId, tenantId),
        eq(autonomyDecisions.blastClass, responseClass),
        isNotNull(autonomyDecisions.executedAt),
        gte(autonomyDecisions.executedAt, since),
      ),
    );
  return { executions: found.length, targets: new Set(found.map((row) => row.targetId)) };
}

/** The latest reversal of a class at or after `since`, if any (the circuit breaker). */
export async function latestReversal(q: Queryable, tenantId: string, responseClass: string, since: Date) {
  const [row] = await q
    .select({ revertedAt: autonomyDecisions.revertedAt })
    .from(autonomyDecisions)
    .where(
      and(
        eq(autonomyDecisions.tenantId, tenantId),
        eq(autonomyDecisions.blastClass, responseClass),
        isNotNull(autonomyDecisions.revertedAt),
        gte(autonomyDecisions.revertedAt, since),
      ),
    )
    .orderBy(desc(autonomyDecisions.revertedAt))
    .limit(1);
  return row?.revertedAt ?? undefined;
}

/** Every decision of an organization created since `since` (metrics, graduation: bounded by the window). */
export async function decisionsSince(q: Queryable, tenantId: string, since: Date) {
  return q
    .select()
    .from(autonomyDecisions)
    .where(and(eq(autonomyDecisions.tenantId, tenantId), gte(autonomyDecisions.createdAt, since)));
}

/** Proposals waiting for a verdict, whatever their age. */
export async function pendingProposals(q: Queryable, tenantId: string) {
  return q
    .select({ createdAt: autonomyDecisions.createdAt, actionId: autonomyDecisions.actionId })
    .from(autonomyDecisions)
    .where(and(eq(autonomyDecisions.tenantId, tenantId), eq(autonomyDecisions.mode, 'proposed')));
}

export async function killSwitchNote(q: Queryable, tenantId: string) {
  const [row] = await q.select().from(autonomyKillSwitchNotes).where(eq(autonomyKillSwitchNotes.tenantId, tenantId));
  return row;
}

export async function saveKillSwitchNote(tx: Tx, note: typeof autonomyKillSwitchNotes.$inferInsert) {
  await tx
    .insert(autonomyKillSwitchNotes)
    .values(note)
    .onConflictDoUpdate({
      target: autonomyKillSwitchNotes.tenantId,
      set: { until: note.until, reason: note.reason, changedBy: note.changedBy, changedAt: note.changedAt },
    });
}

/** Where a page of `detectionsWithoutDecision` ended: the next page starts after it. */
export interface DetectionPosition {
  lastSeen: Date;
  id: string;
}

/**
 * Detections of the rules that feed the ledger, seen since `since`, with no decision yet: the worker's backstop
 * for a detection whose after-commit hook never ran (the node stopped in between). A system statement, read in
 * pages in `(last_seen, id)` order after `after`: detections that name no target never get a decision, so without
 * the position a page full of them would hide every detection behind it.
 */
export async function detectionsWithoutDecision(
  q: Queryable,
  page: { ruleIds: readonly string[]; since: Date; limit: number; after?: DetectionPosition | undefined },
) {
  if (page.ruleIds.length === 0) return [];
  const after = page.after ? sql`and (d.last_seen, d.id) > (${page.after.lastSeen}, ${page.after.id}::uuid)` : sql``;
  return rows<{
    id: string;
    tenant_id: string;
    rule_id: string;
    group_key: string;
    severity: string;
    count: number;
    data: Record<string, unknown>;
    last_seen: Date;
  }>(
    q,
    sql`select d.id, d.tenant_id, d.rule_id, d.group_key, d.severity, d.count, d.data, d.last_seen from detections d
        where d.tenant_id is not null and d.last_seen >= ${page.since} and d.rule_id in (${sql.join(
          page.ruleIds.map((id) => sql`${id}`),
          sql`, `,
        )}) ${after}
          and not exists (select 1 from autonomy_decisions a where a.tenant_id = d.tenant_id and a.detection_id = d.id)
        order by d.last_seen, d.id limit ${page.limit}`,
  );
}
