import { and, asc, count, eq, lt } from 'drizzle-orm';
import type { Queryable } from '../../kernel/db/index.js';
import { tenantStanding } from '../organizations/index.js';
import { agentIssuerBindings, agentIssuerJtis, agentIssuers, agents } from './schema.js';

// The queries of federated issuers, their bindings and spent attestation ids (the agents module's own tables;
// the organization is read through its owner's standing sub-select). Every query names its tenant.

export type IssuerRow = typeof agentIssuers.$inferSelect;
export type BindingRow = typeof agentIssuerBindings.$inferSelect;

/** Inserts the issuer unless the organization already trusts one by that exact `iss`; true when inserted. */
export async function insertIssuer(q: Queryable, row: typeof agentIssuers.$inferInsert): Promise<boolean> {
  const inserted = await q
    .insert(agentIssuers)
    .values(row)
    .onConflictDoNothing({ target: [agentIssuers.tenantId, agentIssuers.issuer] })
    .returning({ id: agentIssuers.id });
  return inserted.length > 0;
}

export async function issuersOf(q: Queryable, tenantId: string): Promise<IssuerRow[]> {
  return q
    .select()
    .from(agentIssuers)
    .where(eq(agentIssuers.tenantId, tenantId))
    .orderBy(asc(agentIssuers.createdAt), asc(agentIssuers.id));
}

export async function bindingsOfTenant(q: Queryable, tenantId: string): Promise<BindingRow[]> {
  return q
    .select()
    .from(agentIssuerBindings)
    .where(eq(agentIssuerBindings.tenantId, tenantId))
    .orderBy(asc(agentIssuerBindings.createdAt), asc(agentIssuerBindings.id));
}

export async function bindingsOfIssuer(q: Queryable, tenantId: string, issuerId: string): Promise<BindingRow[]> {
  return q
    .select()
    .from(agentIssuerBindings)
    .where(and(eq(agentIssuerBindings.tenantId, tenantId), eq(agentIssuerBindings.issuerId, issuerId)))
    .orderBy(asc(agentIssuerBindings.createdAt), asc(agentIssuerBindings.id));
}

/** The issuer, locked for the rest of the transaction (binding additions of one issuer queue here: at most 25). */
export async function issuerForUpdate(q: Queryable, tenantId: string, id: string): Promise<IssuerRow | undefined> {
  const [row] = await q
    .select()
    .from(agentIssuers)
    .where(and(eq(agentIssuers.tenantId, tenantId), eq(agentIssuers.id, id)))
    .for('update');
  return row;
}

export async function setIssuerEnabled(q: Queryable, tenantId: string, id: string, enabled: boolean) {
  const [row] = await q
    .update(agentIssuers)
    .set({ enabled })
    .where(and(eq(agentIssuers.tenantId, tenantId), eq(agentIssuers.id, id)))
    .returning();
  return row;
}

/** Removes the issuer; its bindings and spent attestation ids go with it (foreign keys cascade). */
export async function deleteIssuer(q: Queryable, tenantId: string, id: string): Promise<IssuerRow | undefined> {
  const [row] = await q
    .delete(agentIssuers)
    .where(and(eq(agentIssuers.tenantId, tenantId), eq(agentIssuers.id, id)))
    .returning();
  return row;
}

export async function countBindings(q: Queryable, tenantId: string, issuerId: string): Promise<number> {
  const [row] = await q
    .select({ n: count() })
    .from(agentIssuerBindings)
    .where(and(eq(agentIssuerBindings.tenantId, tenantId), eq(agentIssuerBindings.issuerId, issuerId)));
  return Number(row?.n ?? 0);
}

/** Inserts the binding unless the issuer already has one with the same claim set; true when inserted. */
export async function insertBinding(q: Queryable, row: typeof agentIssuerBindings.$inferInsert): Promise<boolean> {
  const inserted = await q
    .insert(agentIssuerBindings)
    .values(row)
    .onConflictDoNothing({ target: [agentIssuerBindings.issuerId, agentIssuerBindings.claimsKey] })
    .returning({ id: agentIssuerBindings.id });
  return inserted.length > 0;
}

export async function deleteBinding(
  q: Queryable,
  where: { tenantId: string; issuerId: string; bindingId: string },
): Promise<BindingRow | undefined> {
  const [row] = await q
    .delete(agentIssuerBindings)
    .where(
      and(
        eq(agentIssuerBindings.tenantId, where.tenantId),
        eq(agentIssuerBindings.issuerId, where.issuerId),
        eq(agentIssuerBindings.id, where.bindingId),
      ),
    )
    .returning();
  return row;
}

/** An agent's lifecycle status in the organization (undefined when it is not one of its agents). */
export async function agentStatus(q: Queryable, tenantId: string, agentId: string) {
  const [row] = await q
    .select({ status: agents.status })
    .from(agents)
    .where(and(eq(agents.tenantId, tenantId), eq(agents.id, agentId)));
  return row?.status;
}

/**
 * The first read of a federated exchange, in one statement: the organization named by `slug` and, when it
 * trusts one by exactly that `iss`, the issuer. No row: no such organization.
 */
export async function exchangeIssuer(q: Queryable, slug: string, iss: string) {
  const standing = tenantStanding(q);
  const [row] = await q
    .select({
      tenantId: standing.tenantId,
      issuerId: agentIssuers.id,
      issuer: agentIssuers.issuer,
      jwksUri: agentIssuers.jwksUri,
      profile: agentIssuers.profile,
      enabled: agentIssuers.enabled,
    })
    .from(standing)
    .leftJoin(agentIssuers, and(eq(agentIssuers.tenantId, standing.tenantId), eq(agentIssuers.issuer, iss)))
    .where(eq(standing.slug, slug));
  return row;
}

/** An issuer's bindings with the state of each bound agent: what the exchange decides on. */
export async function bindingsWithAgents(q: Queryable, tenantId: string, issuerId: string) {
  return q
    .select({
      bindingId: agentIssuerBindings.id,
      agentId: agentIssuerBindings.agentId,
      claims: agentIssuerBindings.claims,
      status: agents.status,
      killSwitchEngaged: agents.killSwitchEngaged,
    })
    .from(agentIssuerBindings)
    .innerJoin(
      agents,
      and(eq(agents.tenantId, agentIssuerBindings.tenantId), eq(agents.id, agentIssuerBindings.agentId)),
    )
    .where(and(eq(agentIssuerBindings.tenantId, tenantId), eq(agentIssuerBindings.issuerId, issuerId)));
}

/**
 * Spends an attestation id: the first caller on any node inserts it, every later one finds it there
 * (`ON CONFLICT DO NOTHING`; a concurrent insert waits for the first to commit). True when spent now.
 */
export async function spendJti(
  q: Queryable,
  row: { tenantId: string; issuerId: string; jti: string; expiresAt: Date },
): Promise<boolean> {
  const inserted = await q
    .insert(agentIssuerJtis)
    .values(row)
    .onConflictDoNothing({ target: [agentIssuerJtis.issuerId, agentIssuerJtis.jti] })
    .returning({ jti: agentIssuerJtis.jti });
  return inserted.length > 0;
}

/** Forgets spent ids whose attestations have expired (they can no longer be presented). */
export async function purgeExpiredJtis(q: Queryable, tenantId: string, issuerId: string, now: Date): Promise<void> {
  await q
    .delete(agentIssuerJtis)
    .where(
      and(
        eq(agentIssuerJtis.tenantId, tenantId),
        eq(agentIssuerJtis.issuerId, issuerId),
        lt(agentIssuerJtis.expiresAt, now),
      ),
    );
}
