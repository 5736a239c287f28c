import type { Transactions } from '../kernel/db/index.js';
import type { OrganizationService } from '../modules/organizations/index.js';

/** The display name of an organization, for the pages that know it only by id (sign-in, consent, sign-out). */
export type OrganizationNames = (tenantId: string) => Promise<string | undefined>;

/**
 * Read in a read-only transaction held to that organization: a page can show the name of the organization its
 * own request names, and nothing of any other.
 */
export function createOrganizationNames(deps: {
  organizations: OrganizationService;
  transactions: Transactions;
}): OrganizationNames {
  return async (tenantId) =>
    (await deps.transactions.tenantRead(tenantId, (tx) => deps.organizations.tenant(tx, tenantId)))?.name;
}
