/**
 * Tables the accounts and sign-in modules (the other owners of the core identity tables) join in their one-statement
 * reads on hot paths (principal resolution, sign-in subject); every other module calls the functions below instead.
 */
export { memberships, tenants } from './schema.js';
export { createOrganizationService, type OrganizationService, slugify } from './service.js';
export {
  lockActiveOwners,
  lockMembership,
  lockTenant,
  type MembershipRow,
  organizationName,
  planOfTenant,
  type TenantRow,
  tenantIdBySlug,
  tenantStanding,
} from './store.js';
