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

// ---- reads other modules call (they own no query of the organization tables) ----

/**
 * The organization a sign-in names by its slug (compared lowercased), read without a tenant: the registry of
 * organizations is not tenant-scoped, and sign-in must find it before it can enter it.
 */
export async function tenantIdBySlug(q: Queryable, slug: string): Promise<string | undefined> {
  const [row] = await q.select({ id: tenants.id }).from(tenants).where(eq(tenants.slug, slug.trim().toLowerCase()));
  return row?.id;
}

/** The organization's name, for the mails that speak of it. */
export async function organizationName(q: Queryable, tenantId: string): Promise<string | undefined> {
  const [row] = await q.select({ name: tenants.name }).from(tenants).where(eq(tenants.id, tenantId));
  return row?.name;
}

export async function planOfTenant(q: Queryable, tenantId: string): Promise<string | undefined> {
  const [row] = await q.select({ plan: tenants.plan }).from(tenants).where(eq(tenants.id, tenantId));
  return row?.plan;
}

/** Serializes seat-affecting changes of one organization (invitations, acceptances, domain joins). */
export async function lockTenant(q: Queryable, tenantId: string): Promise<void> {
  await q.select({ id: tenants.id }).from(tenants).where(eq(tenants.id, tenantId)).for('update');
}

/**
 * Holds the person's membership row until the transaction ends: two concurrent requests for the same person
 * and organization are serialized (a magic link's request sees, and supersedes, the link the earlier one issued).
 */
export async function lockMembership(q: Queryable, tenantId: string, userId: string): Promise<void> {
  await q
    .select({ id: memberships.id })
    .from(memberships)
    .where(and(eq(memberships.tenantId, tenantId), eq(memberships.userId, userId)))
    .for('update');
}

/**
 * The organization's active owners, locked until the caller commits: two owners erased at the same time cannot
 * both pass the sole-owner check.
 */
export async function lockActiveOwners(q: Queryable, tenantId: string): Promise<string[]> {
  const owners = await q
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(and(eq(memberships.tenantId, tenantId), eq(memberships.role, 'owner'), eq(memberships.status, 'active')))
    .orderBy(memberships.id)
    .for('update');
  return owners.map((o) => o.userId);
}

/**
 * The organization's standing (plan, quarantine, slug) as a derived table another module joins by `tenantId` in
 * its own one-statement read, so a hot look-up stays one round trip while only this module names the columns.
 * PostgreSQL pulls a plain sub-select like this one up into the join: the plan is the one of a direct join.
 */
export function tenantStanding(q: Queryable) {
  return q
    .select({
      tenantId: tenants.id,
      plan: tenants.plan,
      quarantined: tenants.quarantined,
      slug: tenants.slug,
      name: tenants.name,
      isolation: tenants.isolation,
      ssoRequired: tenants.ssoRequired,
    })
    .from(tenants)
    .as('tenant_standing');
}

/**
 * A membership's standing (role, population, status) as a derived table another module joins by `tenantId` and
 * `userId` in its own one-statement read (the sign-in module's session state and refresh diagnosis), like
 * `tenantStanding`: one round trip, and only this module names the columns.
 */
export function membershipStanding(q: Queryable) {
  return q
    .select({
      id: memberships.id,
      tenantId: memberships.tenantId,
      userId: memberships.userId,
      role: memberships.role,
      population: memberships.population,
      status: memberships.status,
      scimManaged: memberships.scimManaged,
      createdAt: memberships.createdAt,
    })
    .from(memberships)
    .as('membership_standing');
}

// The installation's organizations as the platform operator reads and plans them (Part B 4.10, operator plane).

export interface TenantListRow {
  id: string;
  slug: string;
  name: string;
  plan: string;
  createdAt: Date;
  quarantined: boolean;
}

const TENANT_COLUMNS = sql`id, slug, name, plan, created_at as "createdAt", quarantined`;
const asTenant = (row: TenantListRow): TenantListRow => ({ ...row, createdAt: new Date(row.createdAt) });

/** A page of organizations by slug (unique, so a keyset), `q` matching slug or name anywhere, case-blind. */
export async function listTenants(
  q: Queryable,
  query: { q?: string | undefined; afterSlug?: string | undefined; limit: number },
): Promise<TenantListRow[]> {
  const pattern = query.q ? `%${query.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
  const found = await rows<TenantListRow>(
    q,
    sql`select ${TENANT_COLUMNS} from ${tenants}
        where (${pattern ?? null}::text is null or slug ilike ${pattern ?? null} or name ilike ${pattern ?? null})
          and (${query.afterSlug ?? null}::text is null or slug > ${query.afterSlug ?? null})
        order by slug limit ${query.limit + 1}`,
  );
  return found.map(asTenant);
}

export async function tenantListRowById(q: Queryable, id: string, lock: boolean): Promise<TenantListRow | undefined> {
  const [row] = await rows<TenantListRow>(
    q,
    lock
      ? sql`select ${TENANT_COLUMNS} from ${tenants} where id = ${id} for update`
      : sql`select ${TENANT_COLUMNS} from ${tenants} where id = ${id}`,
  );
  return row && asTenant(row);
}

export async function setTenantPlan(q: Queryable, id: string, plan: string): Promise<void> {
  await q.execute(sql`update ${tenants} set plan = ${plan} where id = ${id}`);
}
