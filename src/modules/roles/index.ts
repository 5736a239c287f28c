import type { FastifyRequest } from 'fastify';
import { type CredentialResolver, readCredential } from '../../kernel/auth/index.js';
import { isSystemRole } from '../../kernel/authz/catalog.js';
import type { Queryable, Transactions } from '../../kernel/db/index.js';
import { unauthorized } from '../../kernel/http/index.js';
import { findCustomRole as findRole, insertCustomRoleRow, listCustomRoles } from './store.js';

export type { CustomRole } from './store.js';
export { customRoleStanding } from './store.js';

/** The code syntax of a custom role (ARCHITECTURE.md): lowercase, 2 to 64 characters, never a system role's. */
const CODE = /^[a-z][a-z0-9_-]{1,63}$/;
export const isCustomRoleCode = (code: string): boolean => CODE.test(code) && !isSystemRole(code);

export { mayGrant } from './grants.js';

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

export { registerRoleRoutes } from './routes.js';
export type { RolesDeps, RolesService } from './service.js';
export { createRolesService } from './service.js';

/**
 * The custom roles of the organization a request's credential belongs to, for the public catalogue (Part A
 * 5.9): none without a credential; a credential that no resolver accepts is refused like on any other route.
 */
export function customRolesOfRequest(deps: { resolvers: readonly CredentialResolver[]; transactions: Transactions }) {
  return async (request: FastifyRequest) => {
    const credential = readCredential(request);
    if (!credential) return [];
    for (const resolve of deps.resolvers) {
      const principal = await resolve(request, credential);
      if (principal) {
        return deps.transactions.tenant(principal.tenantId, (tx) => listCustomRoles(tx, principal.tenantId));
      }
    }
    throw unauthorized();
  };
}
