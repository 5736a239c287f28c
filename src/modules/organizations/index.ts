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
