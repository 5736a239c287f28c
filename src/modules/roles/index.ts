import { isSystemRole } from '../../kernel/authz/catalog.js';
import type { Queryable } from '../../kernel/db/index.js';
import { findCustomRole as findRole, insertCustomRoleRow } from './store.js';

export type { CustomRole } from './store.js';

/** The code syntax of a custom role (ARCHITECTURE.md): lowercase, 2 to 64 characters, never a system role's. */
const CODE = /^[a-z][a-z0-9_-]{1,63}$/;
export const isCustomRoleCode = (code: string): boolean => CODE.test(code) && !isSystemRole(code);

/** One custom role of the organization, or null (an unknown code, a system role's code, another tenant's). */
export async function findCustomRole(
  tx: Queryable,
  tenantId: string,
  code: string,
  options: { lock?: 'share' | 'update' } = {},
) {
  if (!isCustomRoleCode(code)) return null;
  return findRole(tx, tenantId, code, options);
}

/**
 * Adds a custom role exactly as given: callers validate the code, the name and the permissions. A code the
 * organization already has is left as it is (nothing is updated in place). `at` is the caller's clock instant.
 */
export async function insertCustomRole(
  tx: Queryable,
  tenantId: string,
  role: { code: string; name: string; description?: string | null; permissions: readonly string[] },
  at?: Date,
): Promise<void> {
  await insertCustomRoleRow(tx, tenantId, role, at);
}
