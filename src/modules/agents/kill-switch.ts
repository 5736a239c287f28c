import { and, eq, sql } from 'drizzle-orm';
import type { Clock } from '../../kernel/clock.js';
import { afterCommit, type Queryable, type Tx } from '../../kernel/db/index.js';
import type { Actor, Events } from '../../kernel/events/index.js';
import { forbidden } from '../../kernel/http/index.js';
import type { Limiter } from '../../kernel/limits/index.js';
import { resetBreaker } from './breaker.js';
import { agents } from './schema.js';

// An agent's kill switch (Part B 3, 4.2): engaged by a person, by autonomy or by the blast-radius breaker (no person
// named); released only by a person holding `agents:kill` (the route checks the permission, this the person).
// Every change updates the agents row, whose auth-state trigger drops the cached governance state on every node
// before the change is answered, so a held token is refused on its next call; every change is an event and a
// critical detection.

export const KILL_SWITCH_DETECTION = 'agent-kill-switch-changed';

/** Who stands behind a change made by no person (the breaker, autonomy): the event's actor. */
const NO_PERSON: Actor = { id: 'system', type: 'system' };

interface KillSwitchDeps {
  events: Events;
  clock: Clock;
  /** When given, releasing also restarts the agent's breaker counters (else its next write trips again). */
  limiter?: Limiter | undefined;
}

async function recordChange(
  tx: Tx,
  deps: KillSwitchDeps,
  change: {
    tenantId: string;
    agentId: string;
    name: string;
    engaged: boolean;
    reason: string | null;
    by: Actor | null;
  },
): Promise<void> {
  const data = {
    agent_id: change.agentId,
    name: change.name,
    engaged: change.engaged,
    reason: change.reason,
    by: change.by,
  };
  const event = await deps.events.emit(tx, {
    tenantId: change.tenantId,
    actor: change.by ?? NO_PERSON,
    category: 'agent',
    action: change.engaged ? 'agent.kill_switch_engaged' : 'agent.kill_switch_released',
    severity: 'critical',
    data,
  });
  // One detection per change (each change is news to security operators), tied to its event.
  await deps.events.detect(tx, {
    tenantId: change.tenantId,
    ruleId: KILL_SWITCH_DETECTION,
    groupKey: `agent:${change.agentId}:event:${event.id}`,
    severity: 'critical',
    data,
  });
}

/**
 * Engages the agent's kill switch; false when it was already engaged (nothing changes, nothing is recorded), so
 * concurrent engagements (two breaker trips) record one change.
 */
export async function engageKillSwitch(
  tx: Tx,
  deps: KillSwitchDeps,
  change: { tenantId: string; agentId: string; reason: string; by: Actor | null },
): Promise<boolean> {
  const now = deps.clock.now();
  const [row] = await tx
    .update(agents)
    .set({
      killSwitchEngaged: true,
      killSwitchReason: change.reason,
      killSwitchById: change.by?.id ?? null,
      killSwitchByType: change.by?.type ?? null,
      killSwitchAt: now,
      updatedAt: now,
    })
    .where(
      and(eq(agents.tenantId, change.tenantId), eq(agents.id, change.agentId), eq(agents.killSwitchEngaged, false)),
    )
    .returning({ name: agents.name });
  if (!row) return false;
  await recordChange(tx, deps, { ...change, name: row.name, engaged: true });
  return true;
}

/** Releases the agent's kill switch (a person only); false when it was not engaged. */
export async function releaseKillSwitch(
  tx: Tx,
  deps: KillSwitchDeps,
  change: { tenantId: string; agentId: string; by: Actor; reason?: string | null | undefined },
): Promise<boolean> {
  if (change.by.type !== 'human') throw forbidden('Only a person can release a kill switch');
  const now = deps.clock.now();
  const [row] = await tx
    .update(agents)
    .set({
      killSwitchEngaged: false,
      killSwitchReason: null,
      killSwitchById: null,
      killSwitchByType: null,
      killSwitchAt: now,
      updatedAt: now,
    })
    .where(and(eq(agents.tenantId, change.tenantId), eq(agents.id, change.agentId), eq(agents.killSwitchEngaged, true)))
    .returning({ name: agents.name });
  if (!row) return false;
  await recordChange(tx, deps, {
    tenantId: change.tenantId,
    agentId: change.agentId,
    name: row.name,
    engaged: false,
    reason: change.reason ?? null,
    by: change.by,
  });
  const { limiter } = deps;
  if (limiter) afterCommit(tx, () => resetBreaker(limiter, change.tenantId, change.agentId));
  return true;
}

/** What containing an agent is planned against and checked by (autonomy `contain_non_human`): its standing now. */
export interface KillSwitchStanding {
  status: string;
  killSwitchEngaged: boolean;
  killSwitchAt: string | null;
  tokenEpoch: number;
}

export async function killSwitchStanding(
  q: Queryable,
  tenantId: string,
  agentId: string,
): Promise<KillSwitchStanding | undefined> {
  const [row] = await q
    .select({
      status: agents.status,
      killSwitchEngaged: agents.killSwitchEngaged,
      killSwitchAt: agents.killSwitchAt,
      tokenEpoch: agents.tokenEpoch,
    })
    .from(agents)
    .where(and(eq(agents.tenantId, tenantId), eq(agents.id, agentId)));
  if (!row) return undefined;
  return { ...row, killSwitchAt: row.killSwitchAt ? row.killSwitchAt.toISOString() : null };
}

/**
 * Refuses every token the agent holds now from its next use (the resolver compares epochs), whatever happens to
 * the kill switch later: releasing it revives none of them (Part B 4.9). The row's auth-state trigger drops the
 * cached state on every node.
 */
export async function refuseHeldTokens(tx: Tx, tenantId: string, agentId: string): Promise<void> {
  await tx
    .update(agents)
    .set({ tokenEpoch: sql`${agents.tokenEpoch} + 1` })
    .where(and(eq(agents.tenantId, tenantId), eq(agents.id, agentId)));
}
