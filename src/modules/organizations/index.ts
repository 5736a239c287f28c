/**
 * Tables the accounts module, the other core owner, joins with `users` in its one-statement reads (sign-in subject,
 * OIDC claims, owners' addresses, an account's organizations): for accounts only (docs/decisions.md "Module
 * boundaries"). Every other module calls the functions below, or joins `tenantStanding` / `membershipStanding`.
 */
export { memberships, tenants } from './schema.js';
export { createOrganizationService, type OrganizationService, slugify } from './service.js';
export {
  lockActiveOwners,
  lockMembership,
  lockTenant,
  type MembershipRow,
  membershipStanding,
  organizationName,
  planOfTenant,
  type TenantRow,
  tenantIdBySlug,
  tenantStanding,
} from './store.js';
