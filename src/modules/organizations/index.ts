export { createOrganizationService, type OrganizationService, slugify } from './service.js';
export {
  listTenants,
  lockActiveOwners,
  lockMembership,
  lockTenant,
  type MembershipRow,
  membershipStanding,
  organizationName,
  planOfTenant,
  setTenantPlan,
  type TenantListRow,
  type TenantRow,
  tenantIdBySlug,
  tenantListRowById,
  tenantStanding,
} from './store.js';
