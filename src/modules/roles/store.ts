import { and, asc, count, eq, ne } from 'drizzle-orm';
import type { Queryable } from '../../kernel/db/index.js';
import { membershipStanding } from '../organizations/index.js';
import { customRoles } from './schema.js';

export interface CustomRole {
  code: string;
  name: string;
  description: string | null;
  permissions: string[];
}

export type CustomRoleRow = typeof customRoles.$inferSelect;

const toRole = (row: CustomRoleRow): CustomRole => ({
  code: row.code,
  name: row.name,
  description: row.description,
  permissions: [...row.permissions],
});

/**
 * One custom role of the organization, or null. `lock: 'share'` holds it against a concurrent delete while the
 * caller assigns it to a member or an invitation; `lock: 'update'` is the writer's side (patch, delete).
 */
export async function findCustomRole(
  q: Queryable,
  tenantId: string,
  code: string,
  options: { lock?: 'share' | 'update' } = {},
): Promise<CustomRole | null> {
  const query = q
    .select()
    .from(customRoles)
    .where(and(eq(customRoles.tenantId, tenantId), eq(customRoles.code, code)));
  const [row] = options.lock ? await query.for(options.lock) : await query;
  return row ? toRole(row) : null;
}

export async function findCustomRoleRow(q: Queryable, tenantId: string, code: string, lock?: 'update') {
  const query = q
    .select()
    .from(customRoles)
    .where(and(eq(customRoles.tenantId, tenantId), eq(customRoles.code, code)));
  const [row] = lock ? await query.for(lock) : await query;
  return row ?? null;
}

/** Memberships of the organization (not removed) holding the role: through the organizations module's read. */
export async function membersHolding(q: Queryable, tenantId: string, code: string): Promise<number> {
  const membership = membershipStanding(q);
  const [row] = await q
    .select({ n: count() })
    .from(membership)
    .where(and(eq(membership.tenantId, tenantId), eq(membership.role, code), ne(membership.status, 'removed')));
  return Number(row?.n ?? 0);
}

export async function listCustomRoles(q: Queryable, tenantId: string): Promise<CustomRoleRow[]> {
  return q.select().from(customRoles).where(eq(customRoles.tenantId, tenantId)).orderBy(asc(customRoles.code));
}

/**
 * Adds a custom role as given (callers validate the code, the name and the permissions). Answers false when the
 * organization already has a role with that code (the primary key decides, so concurrent creates yield one).
 */
export async function insertCustomRoleRow(
  q: Queryable,
  tenantId: string,
  role: { code: string; name: string; description?: string | null; permissions: readonly string[] },
  at?: Date,
): Promise<boolean> {
  const inserted = await q
    .insert(customRoles)
    .values({
      tenantId,
      code: role.code,
      name: role.name,
      description: role.description ?? null,
      permissions: [...role.permissions],
      ...(at ? { createdAt: at, updatedAt: at } : {}),
    })
    .onConflictDoNothing()
    .returning({ code: customRoles.code });
  return inserted.length === 1;
}

export async function updateCustomRole(
  q: Queryable,
  tenantId: string,
  code: string,
  set: { name?: string; description?: string | null; permissions?: string[]; updatedAt: Date },
): Promise<void> {
  await q
    .update(customRoles)
    .set(set)
    .where(and(eq(customRoles.tenantId, tenantId), eq(customRoles.code, code)));
}

export async function deleteCustomRole(q: Queryable, tenantId: string, code: string): Promise<boolean> {
  const deleted = await q
    .delete(customRoles)
    .where(and(eq(customRoles.tenantId, tenantId), eq(customRoles.code, code)))
    .returning({ code: customRoles.code });
  return deleted.length === 1;
}

/**
 * The custom roles as a sub-select another module's single-statement read can join (memberships name their
 * role by code): `tenantId`, `code`, `permissions`.
 */
export function customRoleStanding(q: Queryable) {
  return q
    .select({ tenantId: customRoles.tenantId, code: customRoles.code, permissions: customRoles.permissions })
    .from(customRoles)
    .as('custom_role_standing');
}
