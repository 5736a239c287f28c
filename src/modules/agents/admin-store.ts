import { and, desc, eq, gt, inArray, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../kernel/db/index.js';
import { agentDelegations, agents } from './schema.js';

// The queries of agent administration and delegations (the agents module's own tables only). Every query names
// its tenant; row-level security backs it up.

export type AgentRow = typeof agents.$inferSelect;
export type DelegationRow = typeof agentDelegations.$inferSelect;
export type AgentStatus = AgentRow['status'];

/** Columns of an agent to change; a value may be SQL computed from the row (`nextTokenEpoch`). */
export type AgentChanges = { [K in keyof typeof agents.$inferInsert]?: (typeof agents.$inferInsert)[K] | SQL };

/** The token epoch after this one: tokens minted under an older epoch are refused. */
export const nextTokenEpoch = sql`${agents.tokenEpoch} + 1`;

export async function insertAgent(q: Queryable, row: typeof agents.$inferInsert): Promise<void> {
  await q.insert(agents).values(row);
}

export async function agentById(q: Queryable, tenantId: string, agentId: string): Promise<AgentRow | undefined> {
  const [row] = await q
    .select()
    .from(agents)
    .where(and(eq(agents.tenantId, tenantId), eq(agents.id, agentId)));
  return row;
}

/** Newest first; `after` is the (created_at, id) of the last row of the previous page. */
export async function listAgents(
  q: Queryable,
  tenantId: string,
  limit: number,
  after?: { createdAt: Date; id: string },
): Promise<AgentRow[]> {
  const conditions: SQL[] = [eq(agents.tenantId, tenantId)];
  if (after) {
    conditions.push(
      or(lt(agents.createdAt, after.createdAt), and(eq(agents.createdAt, after.createdAt), lt(agents.id, after.id)))!,
    );
  }
  return q
    .select()
    .from(agents)
    .where(and(...conditions))
    .orderBy(desc(agents.createdAt), desc(agents.id))
    .limit(limit);
}

/**
 * Changes an agent in one statement, only while its status is one of `from`: a lifecycle transition or an update
 * is race-safe without a read first. Undefined when the agent is unknown or in another state.
 */
export async function updateAgentIn(
  q: Queryable,
  where: { tenantId: string; agentId: string; from: readonly AgentStatus[] },
  set: AgentChanges,
): Promise<AgentRow | undefined> {
  const [row] = await q
    .update(agents)
    .set(set)
    .where(
      and(eq(agents.tenantId, where.tenantId), eq(agents.id, where.agentId), inArray(agents.status, [...where.from])),
    )
    .returning();
  return row;
}

export async function insertDelegation(q: Queryable, row: typeof agentDelegations.$inferInsert): Promise<void> {
  await q.insert(agentDelegations).values(row);
}

/** Not revoked and not expired at `now`. */
const live = (now: Date) =>
  and(isNull(agentDelegations.revokedAt), or(isNull(agentDelegations.expiresAt), gt(agentDelegations.expiresAt, now)))!;

export async function liveDelegationsOfAgent(
  q: Queryable,
  tenantId: string,
  agentId: string,
  now: Date,
): Promise<DelegationRow[]> {
  return q
    .select()
    .from(agentDelegations)
    .where(and(eq(agentDelegations.tenantId, tenantId), eq(agentDelegations.agentId, agentId), live(now)))
    .orderBy(desc(agentDelegations.createdAt), desc(agentDelegations.id));
}

/** A person's live delegations, with the name of the agent each went to (`GET /me/agents`). */
export async function liveDelegationsBy(q: Queryable, tenantId: string, userId: string, now: Date) {
  return q
    .select({
      id: agentDelegations.id,
      agentId: agentDelegations.agentId,
      agentName: agents.name,
      agentStatus: agents.status,
      permissions: agentDelegations.permissions,
      createdAt: agentDelegations.createdAt,
      expiresAt: agentDelegations.expiresAt,
    })
    .from(agentDelegations)
    .innerJoin(agents, and(eq(agents.tenantId, agentDelegations.tenantId), eq(agents.id, agentDelegations.agentId)))
    .where(and(eq(agentDelegations.tenantId, tenantId), eq(agentDelegations.delegatorUserId, userId), live(now)))
    .orderBy(desc(agentDelegations.createdAt), desc(agentDelegations.id));
}

/** Revokes one live delegation the person granted, in one statement; undefined when there is none. */
export async function revokeDelegationBy(
  q: Queryable,
  where: { tenantId: string; delegationId: string; userId: string },
  now: Date,
  reason: string,
): Promise<DelegationRow | undefined> {
  const [row] = await q
    .update(agentDelegations)
    .set({ revokedAt: now, revokedReason: reason })
    .where(
      and(
        eq(agentDelegations.tenantId, where.tenantId),
        eq(agentDelegations.id, where.delegationId),
        eq(agentDelegations.delegatorUserId, where.userId),
        live(now),
      ),
    )
    .returning();
  return row;
}

/** Ends every delegation still open to an agent (its retirement); answers the ended ones. */
export async function revokeDelegationsOfAgent(
  q: Queryable,
  tenantId: string,
  agentId: string,
  now: Date,
  reason: string,
): Promise<Array<{ id: string; permissions: string[] }>> {
  return q
    .update(agentDelegations)
    .set({ revokedAt: now, revokedReason: reason })
    .where(
      and(
        eq(agentDelegations.tenantId, tenantId),
        eq(agentDelegations.agentId, agentId),
        isNull(agentDelegations.revokedAt),
      ),
    )
    .returning({ id: agentDelegations.id, permissions: agentDelegations.permissions });
}

/** Agents a person registered and every delegation they granted (live or ended), for their data export. */
export async function agentsRegisteredBy(q: Queryable, tenantId: string, userId: string) {
  return q
    .select({ id: agents.id, name: agents.name, status: agents.status, createdAt: agents.createdAt })
    .from(agents)
    .where(and(eq(agents.tenantId, tenantId), eq(agents.createdByUserId, userId)))
    .orderBy(desc(agents.createdAt));
}

export async function delegationsGrantedBy(q: Queryable, tenantId: string, userId: string) {
  return q
    .select()
    .from(agentDelegations)
    .where(and(eq(agentDelegations.tenantId, tenantId), eq(agentDelegations.delegatorUserId, userId)))
    .orderBy(desc(agentDelegations.createdAt));
}

/**
 * Erasure: the person's live delegations end (no agent keeps acting on the authority of someone erased) and
 * the agents they registered no longer name them; the agents, which belong to the organization, stay.
 */
export async function forgetPerson(q: Queryable, tenantId: string, userId: string, now: Date): Promise<void> {
  await q
    .update(agentDelegations)
    .set({ revokedAt: now, revokedReason: 'delegator erased' })
    .where(
      and(
        eq(agentDelegations.tenantId, tenantId),
        eq(agentDelegations.delegatorUserId, userId),
        isNull(agentDelegations.revokedAt),
      ),
    );
  await q
    .update(agents)
    .set({ createdByUserId: null })
    .where(and(eq(agents.tenantId, tenantId), eq(agents.createdByUserId, userId)));
}
