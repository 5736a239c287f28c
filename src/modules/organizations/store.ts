import { and, count, eq, inArray, ne, or, sql } from 'drizzle-orm';
import { type Queryable, rows } from '../../kernel/db/index.js';
import { memberships, tenants } from './schema.js';

export type TenantRow = typeof tenants.$inferSelect;
export type MembershipRow = typeof memberships.$inferSelect;

export async function insertTenant(q: Queryable, row: typeof tenants.$inferInsert): Promise<void> {
  await q.insert(tenants).values(row);
}

export async function insertMembership(q: Queryable, row: typeof memberships.$inferInsert): Promise<void> {
  await q.insert(memberships).values(row);
}

export async function tenantNameOrSlugTaken(q: Queryable, nameKey: string, slug: string): Promise<boolean> {
  const [taken] = await q
    .select({ id: tenants.id })
    .from(tenants)
    .where(or(eq(tenants.nameKey, nameKey), eq(tenants.slug, slug)))
    .limit(1);
  return Boolean(taken);
}

/**
 * With `lock`, first waits for any other transaction about to create the platform-operator organization: nodes
 * that bootstrap by environment start together, and the check-then-create must run one at a time.
 */
export async function platformOperatorTenant(
  q: Queryable,
  options: { lock?: boolean } = {},
): Promise<TenantRow | undefined> {
  if (options.lock) await q.execute(sql`select pg_advisory_xact_lock(hashtext('svc:platform-operator'))`);
  const [row] = await q.select().from(tenants).where(eq(tenants.isPlatformOperator, true)).limit(1);
  return row;
}

export async function tenantById(q: Queryable, tenantId: string): Promise<TenantRow | undefined> {
  const [row] = await q.select().from(tenants).where(eq(tenants.id, tenantId));
  return row;
}

/** Part A 4.6 enforcement flag; answers the value it had before (undefined: no such organization). */
export async function setSsoRequired(q: Queryable, tenantId: string, required: boolean): Promise<boolean | undefined> {
  const [before] = await q
    .select({ ssoRequired: tenants.ssoRequired })
    .from(tenants)
    .where(eq(tenants.id, tenantId))
    .for('update');
  if (!before) return undefined;
  if (before.ssoRequired !== required)
    await q.update(tenants).set({ ssoRequired: required }).where(eq(tenants.id, tenantId));
  return before.ssoRequired;
}

export async function membershipById(
  q: Queryable,
  tenantId: string,
  membershipId: string,
): Promise<MembershipRow | undefined> {
  const [row] = await q
    .select()
    .from(memberships)
    .where(and(eq(memberships.tenantId, tenantId), eq(memberships.id, membershipId)))
    .for('update');
  return row;
}

export async function membershipOfUser(
  q: Queryable,
  tenantId: string,
  userId: string,
): Promise<MembershipRow | undefined> {
  const [row] = await q
    .select()
    .from(memberships)
    .where(and(eq(memberships.tenantId, tenantId), eq(memberships.userId, userId)))
    .for('update');
  return row;
}

export async function updateMembership(
  q: Queryable,
  tenantId: string,
  membershipId: string,
  set: Partial<Pick<MembershipRow, 'role' | 'status' | 'population' | 'scimManaged'>>,
): Promise<void> {
  await q
    .update(memberships)
    .set(set)
    .where(and(eq(memberships.tenantId, tenantId), eq(memberships.id, membershipId)));
}

export interface MembershipStatusChange {
  status: 'active' | 'suspended' | 'removed';
  scimManaged?: boolean;
}

/**
 * Sets a membership's status in one statement and answers what it was before (a row-locking read of the old
 * row joined to the update), so the caller knows whether an active membership just ended.
 */
export async function changeMembershipStatus(
  q: Queryable,
  tenantId: string,
  membershipId: string,
  set: MembershipStatusChange,
): Promise<{ previousStatus: string; userId: string } | undefined> {
  const [row] = await rows<{ previous_status: string; user_id: string }>(
    q,
    sql`update memberships m set status = ${set.status}${
      set.scimManaged === undefined ? sql`` : sql`, scim_managed = ${set.scimManaged}`
    }
      from (select id, status from memberships where tenant_id = ${tenantId} and id = ${membershipId} for update) old
      where m.tenant_id = ${tenantId} and m.id = old.id
      returning old.status as previous_status, m.user_id`,
  );
  return row ? { previousStatus: row.previous_status, userId: row.user_id } : undefined;
}

/** Active owners other than `exceptId`, locked so two concurrent removals cannot leave none. */
export async function otherActiveOwners(q: Queryable, tenantId: string, exceptId: string): Promise<number> {
  const found = await q
    .select({ id: memberships.id })
    .from(memberships)
    .where(
      and(
        eq(memberships.tenantId, tenantId),
        eq(memberships.role, 'owner'),
        eq(memberships.status, 'active'),
        ne(memberships.id, exceptId),
      ),
    )
    .for('update');
  return found.length;
}

/** Workforce members that occupy a seat (active or suspended). */
export async function seatedMembers(q: Queryable, tenantId: string): Promise<number> {
  const [row] = await q
    .select({ n: count() })
    .from(memberships)
    .where(
      and(
        eq(memberships.tenantId, tenantId),
        eq(memberships.population, 'workforce'),
        inArray(memberships.status, ['active', 'suspended']),
      ),
    );
  return Number(row?.n ?? 0);
}

/** A person's active memberships in every organization (separation of duties spans the platform organization). */
export async function activeMembershipsOfUser(q: Queryable, userId: string) {
  return q
    .select({ tenantId: memberships.tenantId, role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.userId, userId), eq(memberships.status, 'active')));
}
