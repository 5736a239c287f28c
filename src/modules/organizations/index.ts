/** Tables other modules may join in read queries on hot paths (principal resolution); writes go through the service. */
export { memberships, tenants } from './schema.js';
export { createOrganizationService, type OrganizationService, slugify } from './service.js';
export type { MembershipRow, TenantRow } from './store.js';
