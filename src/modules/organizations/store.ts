import { eq, or } from 'drizzle-orm';
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

export async function tenantNameOrSlugTaken(q: Queryable, nameKey: string, slug: string): Promise<boolean> {
  const [taken] = await q
    .select({ id: tenants.id })
    .from(tenants)
    .where(or(eq(tenants.nameKey, nameKey), eq(tenants.slug, slug)))
    .limit(1);
  return Boolean(taken);
}

export async function platformOperatorTenant(q: Queryable): Promise<TenantRow | undefined> {
  const [row] = await q.select().from(tenants).where(eq(tenants.isPlatformOperator, true)).limit(1);
  return row;
}
