// Which organizations a Command Center caller may read: the one rule, used by every Command Center read.
import type { Principal } from '../../kernel/auth/principal.js';
import type { Queryable, Tx } from '../../kernel/db/index.js';
import { forbidden } from '../../kernel/http/errors.js';
import type { CommandDeps } from './deps.js';

/** The organizations a read covers: one organization, or every organization (`null`, platform operator only). */
export interface ReadScope {
  /** The organization the read is confined to; `null` means every organization. */
  tenantId: string | null;
  /** Whether the caller belongs to the platform-operator organization. */
  platformOperator: boolean;
}

/** Whether an organization is the platform operator's. */
export const isPlatformOperator = (deps: CommandDeps, tenantId: string) => deps.isPlatformOperator(tenantId);

/**
 * The scope of a read (Part B 4.8): a caller reads its own organization. A caller of the platform-operator
 * organization reads every organization, or the one its `tenant_id` filter names. Anyone else naming another
 * organization's `tenant_id` gets 403.
 */
export async function readScope(
  deps: CommandDeps,
  principal: Principal,
  requestedTenantId?: string | undefined,
): Promise<ReadScope> {
  if (requestedTenantId === principal.tenantId) {
    return { tenantId: principal.tenantId, platformOperator: await isPlatformOperator(deps, principal.tenantId) };
  }
  const platformOperator = await isPlatformOperator(deps, principal.tenantId);
  if (platformOperator) return { tenantId: requestedTenantId ?? null, platformOperator };
  if (requestedTenantId !== undefined) {
    throw forbidden('Only the platform operator reads another organization');
  }
  return { tenantId: principal.tenantId, platformOperator };
}

/**
 * Runs a read within a scope: a read-only tenant transaction for one organization (row-level security backs the query's own
 * `tenant_id` filter), a system transaction for every organization (the platform operator's explicit cross-tenant
 * read, ARCHITECTURE.md).
 */
export function readWithin<T>(deps: CommandDeps, scope: ReadScope, work: (tx: Tx) => Promise<T>): Promise<T> {
  return scope.tenantId === null ? deps.transactions.system(work) : deps.transactions.tenantRead(scope.tenantId, work);
}

/**
 * `readWithin` for reads that need no common snapshot, each statement naming its organization (the events list):
 * one round trip a statement, row-level security still behind the query's `tenant_id` filter for one organization
 * (transactions.tenantStatement); the platform operator's read of every organization runs as the owner.
 */
export function readStatementsWithin<T>(
  deps: CommandDeps,
  scope: ReadScope,
  work: (q: Queryable) => Promise<T>,
): Promise<T> {
  return scope.tenantId === null
    ? deps.transactions.systemRead(work)
    : deps.transactions.tenantStatement(scope.tenantId, work);
}
