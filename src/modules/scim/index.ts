import type { PersonalDataRegistry } from '../../kernel/personal-data.js';
import type { ScimDeps } from './common.js';
import { createGroupService } from './groups.js';
import { scimPersonalData } from './personal-data.js';
import { createScimResolver } from './resolver.js';
import { createScimAdminService } from './service.js';
import { createUserService } from './users.js';

export { registerScimRoutes } from './routes.js';
export type { ScimConfigView } from './service.js';

/**
 * SCIM 2.0 provisioning (Part A 4.6; RFC 7643, RFC 7644): the organization's token and configuration, Users and
 * Groups, and the credential resolver for the guard (principal kind `scim`).
 */
export function createScim(deps: ScimDeps & { personalData: PersonalDataRegistry }) {
  deps.personalData.add(scimPersonalData(deps.organizations));
  return {
    admin: createScimAdminService(deps),
    users: createUserService(deps),
    groups: createGroupService(deps),
    resolver: createScimResolver(deps),
  };
}

export type Scim = ReturnType<typeof createScim>;
