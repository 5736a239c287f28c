import { and, eq } from 'drizzle-orm';
import type { Queryable } from '../../kernel/db/index.js';
import { memberships, tenants } from './schema.js';

export type TenantRow = typeof tenants.$inferSelect;
export type MembershipRow = typeof memberships.$inferSelect;

export async function insertTenant(q: Queryable, row: typeof tenants.$inferInsert): Promise<void> {
  await q.insert(tenants).values(row);
}

export async function insertMembership(q: Queryable, row: typeof memberships.$inferInsert): Promise<void> {
  await q.insert(memberships).values(row);
}

export async function tenantById(q: Queryable, id: string): Promise<TenantRow | undefined> {
  const [row] = await q.select().from(tenants).where(eq(tenants.id, id));
  return row;
}

export async function tenantBySlug(q: Queryable, slug: string): Promise<TenantRow | undefined> {
  const [row] = await q.select().from(tenants).where(eq(tenants.slug, slug));
  return row;
}

export async function tenantNameOrSlugTaken(q: Queryable, nameKey: string, slug: string): Promise<boolean> {
  const [byName] = await q.select({ id: tenants.id }).from(tenants).where(eq(tenants.nameKey, nameKey));
  const [bySlug] = await q.select({ id: tenants.id }).from(tenants).where(eq(tenants.slug, slug));
  return Boolean(byName || bySlug);
}

export async function platformOperatorTenant(q: Queryable): Promise<TenantRow | undefined> {
  const [row] = await q.select().from(tenants).where(eq(tenants.isPlatformOperator, true)).limit(1);
  return row;
}

export async function membershipOf(q: Queryable, tenantId: string, userId: string): Promise<MembershipRow | undefined> {
  const [row] = await q
    .select()
    .from(memberships)
    .where(and(eq(memberships.tenantId, tenantId), eq(memberships.userId, userId)));
  return row;
}
