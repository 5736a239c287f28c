import { and, eq, isNull, lte, or, sql } from 'drizzle-orm';
import { type Queryable, rows } from '../../kernel/db/index.js';
import type { ApprovalRequestRow } from '../approvals/index.js';
import { manifestApplies, manifestApplySteps, manifestResourceBindings } from './schema.js';

// The manifest module's queries. A plan compares a manifest with other modules' state (OAuth resources,
// memberships, invitations, the plan): those are plain reads here, one statement each, so the planner needs nothing
// but a transaction (onboarding plans in-process); every write to them goes through their own modules. The SSO
// connection is read and written through the SSO module's own functions (sso/scaffold.ts).

export type BindingRow = typeof manifestResourceBindings.$inferSelect;
export type ApplyRow = typeof manifestApplies.$inferSelect;
export type AskRow = ApprovalRequestRow;

// ---- live state a plan reads ----

export async function bindingOfResource(q: Queryable, tenantId: string, resourceId: string) {
  const [row] = await q
    .select()
    .from(manifestResourceBindings)
    .where(and(eq(manifestResourceBindings.tenantId, tenantId), eq(manifestResourceBindings.resourceId, resourceId)));
  return row;
}

export async function bindingOfNamespace(q: Queryable, tenantId: string, namespace: string) {
  const [row] = await q
    .select()
    .from(manifestResourceBindings)
    .where(and(eq(manifestResourceBindings.tenantId, tenantId), eq(manifestResourceBindings.namespace, namespace)));
  return row;
}

export async function bindings(q: Queryable, tenantId: string): Promise<BindingRow[]> {
  return q.select().from(manifestResourceBindings).where(eq(manifestResourceBindings.tenantId, tenantId));
}

/** Inserts a binding; false when the resource or the namespace is bound already (a concurrent apply won). */
export async function insertBinding(q: Queryable, row: BindingRow): Promise<boolean> {
  const inserted = await q
    .insert(manifestResourceBindings)
    .values(row)
    .onConflictDoNothing()
    .returning({ id: manifestResourceBindings.resourceId });
  return inserted.length === 1;
}

/** The membership (any status) of the account with this email key in the organization. */
export async function membershipByEmailKey(
  q: Queryable,
  tenantId: string,
  emailKey: string,
): Promise<{ role: string; status: string } | undefined> {
  const [row] = await rows<{ role: string; status: string }>(
    q,
    sql`select m.role, m.status from memberships m join users u on u.id = m.user_id
        where m.tenant_id = ${tenantId} and u.email_key = ${emailKey}`,
  );
  return row;
}

/** The pending invitation of this address that still holds (not past its expiry). */
export async function liveInvitation(
  q: Queryable,
  tenantId: string,
  emailKey: string,
  now: Date,
): Promise<{ id: string; role: string } | undefined> {
  const [row] = await rows<{ id: string; role: string }>(
    q,
    sql`select id, role from invitations where tenant_id = ${tenantId} and email_key = ${emailKey}
        and status = 'pending' and expires_at > ${now.toISOString()}`,
  );
  return row;
}

export async function planCodeOf(q: Queryable, tenantId: string): Promise<string | undefined> {
  const [row] = await rows<{ plan: string | null }>(q, sql`select plan from tenants where id = ${tenantId}`);
  return row?.plan ?? undefined;
}

/** The role of a person's active membership (null: not an active member). */
export async function activeRoleOf(q: Queryable, tenantId: string, userId: string): Promise<string | null> {
  const [row] = await rows<{ role: string }>(
    q,
    sql`select role from memberships where tenant_id = ${tenantId} and user_id = ${userId} and status = 'active'`,
  );
  return row?.role ?? null;
}

// ---- asks ----

/** Holds the transaction's turn for one manifest's asks in one organization (request-approval, onboarding). */
export async function lockAsks(q: Queryable, tenantId: string, fingerprint: string): Promise<void> {
  await q.execute(sql`select pg_advisory_xact_lock(hashtext(${`manifest-ask:${tenantId}:${fingerprint}`}))`);
}

// ---- applies ----

export async function applyOf(q: Queryable, tenantId: string, manifestHash: string): Promise<ApplyRow | undefined> {
  const [row] = await q
    .select()
    .from(manifestApplies)
    .where(and(eq(manifestApplies.tenantId, tenantId), eq(manifestApplies.manifestHash, manifestHash)));
  return row;
}

/**
 * Takes the manifest's apply lock in one statement: creates the row, or takes it when no apply holds it (or the
 * holder stopped answering before `staleBefore`). Of concurrent applies exactly one gets it; undefined for the rest.
 */
export async function claimApply(
  q: Queryable,
  claim: { tenantId: string; manifestHash: string; token: string; now: Date; staleBefore: Date },
): Promise<ApplyRow | undefined> {
  const [row] = await q
    .insert(manifestApplies)
    .values({
      tenantId: claim.tenantId,
      manifestHash: claim.manifestHash,
      status: 'new',
      lockToken: claim.token,
      lockedAt: claim.now,
      createdAt: claim.now,
    })
    .onConflictDoUpdate({
      target: [manifestApplies.tenantId, manifestApplies.manifestHash],
      set: { lockToken: claim.token, lockedAt: claim.now },
      setWhere: or(isNull(manifestApplies.lockToken), lte(manifestApplies.lockedAt, claim.staleBefore)),
    })
    .returning();
  return row;
}

/** Lets go of the lock (only the holder's token does). */
export async function releaseApply(
  q: Queryable,
  tenantId: string,
  manifestHash: string,
  token: string,
  set: Partial<Pick<ApplyRow, 'status' | 'approvalId' | 'approvedBy' | 'stepsTotal' | 'finishedAt'>> = {},
): Promise<void> {
  await q
    .update(manifestApplies)
    .set({ ...set, lockToken: null, lockedAt: null })
    .where(
      and(
        eq(manifestApplies.tenantId, tenantId),
        eq(manifestApplies.manifestHash, manifestHash),
        eq(manifestApplies.lockToken, token),
      ),
    );
}

export async function updateApply(
  q: Queryable,
  tenantId: string,
  manifestHash: string,
  set: Partial<Pick<ApplyRow, 'status' | 'approvalId' | 'approvedBy' | 'stepsTotal' | 'finishedAt'>>,
): Promise<void> {
  await q
    .update(manifestApplies)
    .set(set)
    .where(and(eq(manifestApplies.tenantId, tenantId), eq(manifestApplies.manifestHash, manifestHash)));
}

export async function finishedSteps(q: Queryable, tenantId: string, manifestHash: string): Promise<Set<number>> {
  const found = await q
    .select({ index: manifestApplySteps.stepIndex })
    .from(manifestApplySteps)
    .where(and(eq(manifestApplySteps.tenantId, tenantId), eq(manifestApplySteps.manifestHash, manifestHash)));
  return new Set(found.map((row) => row.index));
}

export async function recordStep(q: Queryable, row: typeof manifestApplySteps.$inferInsert): Promise<void> {
  await q.insert(manifestApplySteps).values(row).onConflictDoNothing();
}

/**
 * The permission codes the organization's bound OAuth resources declare (`namespace:action`), with their risk:
 * codes its custom roles may grant besides the catalogue's (the roles module reads them).
 */
export async function declaredResourcePermissions(
  q: Queryable,
  tenantId: string,
): Promise<Array<{ code: string; risk: number | null; resource: string }>> {
  const rows = await bindings(q, tenantId);
  return rows.flatMap((row) =>
    row.permissions.map((p) => ({
      code: `${row.namespace}:${p.action}`,
      risk: p.risk ?? null,
      resource: row.identifier,
    })),
  );
}
