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

/**
 * Detections of the rules that feed the ledger, seen since `since`, with no decision yet: the worker's backstop
 * for a detection whose after-commit hook never ran (the node stopped in between). A system statement.
 */
export async function detectionsWithoutDecision(q: Queryable, ruleIds: readonly string[], since: Date, limit: number) {
  if (ruleIds.length === 0) return [];
  return rows<{
    id: string;
    tenant_id: string;
    rule_id: string;
    group_key: string;
    severity: string;
    count: number;
    data: Record<string, unknown>;
  }>(
    q,
    sql`select d.id, d.tenant_id, d.rule_id, d.group_key, d.severity, d.count, d.data from detections d
        where d.tenant_id is not null and d.last_seen >= ${since} and d.rule_id in (${sql.join(
          ruleIds.map((id) => sql`${id}`),
          sql`, `,
        )})
          and not exists (select 1 from autonomy_decisions a where a.tenant_id = d.tenant_id and a.detection_id = d.id)
        order by d.last_seen limit ${limit}`,
  );
}

// The sign-in module's sessions and the agents module's agents, read and written by name only, as the sign-in
// module's own live-session reads do for the OAuth registry: neither module offers these two operations yet.

/**
 * Revives the first-party sessions a `revoke_access` decision ended (their reason names it), except those that
 * ended since for another reason: expired, or minted under an epoch the account has left (signed out everywhere,
 * password changed). Grant sessions ended with them stay ended: their clients were told (back-channel logout).
 */
export async function reviveSessionsEndedBy(tx: Tx, tenantId: string, reason: string, now: Date) {
  return rows<{ id: string }>(
    tx,
    sql`update sessions s set revoked_at = null, revoked_reason = null
        where s.tenant_id = ${tenantId} and s.revoked_reason = ${reason} and s.client_id is null
          and s.expires_at > ${now}
          and s.epoch = (select u.token_epoch from users u where u.id = s.user_id)
        returning s.id`,
  );
}

/** How many first-party sessions a decision ended (their recorded reason names it), revived or not. */
export async function sessionsEndedBy(tx: Tx, tenantId: string, reason: string): Promise<number> {
  const [row] = await rows<{ n: number }>(
    tx,
    sql`select count(*)::int as n from sessions where tenant_id = ${tenantId} and revoked_reason = ${reason}
        and client_id is null`,
  );
  return row?.n ?? 0;
}

export interface AgentStanding {
  status: string;
  killSwitchEngaged: boolean;
  killSwitchAt: string | null;
  tokenEpoch: number;
}

export async function agentStanding(q: Queryable, tenantId: string, agentId: string) {
  const [row] = await rows<{
    status: string;
    kill_switch_engaged: boolean;
    kill_switch_at: Date | string | null;
    token_epoch: number;
  }>(
    q,
    sql`select status, kill_switch_engaged, kill_switch_at, token_epoch from agents
        where tenant_id = ${tenantId} and id = ${agentId}`,
  );
  if (!row) return undefined;
  const at = row.kill_switch_at;
  return {
    status: row.status,
    killSwitchEngaged: row.kill_switch_engaged,
    killSwitchAt: at === null ? null : new Date(at).toISOString(),
    tokenEpoch: row.token_epoch,
  } satisfies AgentStanding;
}

/** Every token the agent holds now is refused from its next use (the resolver compares epochs). */
export async function bumpAgentTokenEpoch(tx: Tx, tenantId: string, agentId: string): Promise<void> {
  await tx.execute(
    sql`update agents set token_epoch = token_epoch + 1 where tenant_id = ${tenantId} and id = ${agentId}`,
  );
}
