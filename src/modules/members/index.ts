import type { Tx } from '../../kernel/db/index.js';
import { assertSeatAvailable, type MembersDeps } from './common.js';
import { createDomainService } from './domains.js';
import { createInvitationService } from './invitations.js';
import { createRosterService } from './roster.js';

export { DOMAIN_JOIN_PER_IP, INVITE_REDEMPTION_PER_IP, type MembersDeps } from './common.js';
export { type DomainService, normalizeDomain } from './domains.js';
export { INVITATION_LIFETIME_MS, type InvitationService } from './invitations.js';
export { domainRecheckJob } from './jobs.js';
export { membershipPersonalData } from './personal-data.js';
export type { RosterService } from './roster.js';
export { registerMemberRoutes } from './routes.js';

/** Members, invitations and verified domains (Part A 4.7). */
export function createMembersService(deps: MembersDeps) {
  return {
    roster: createRosterService(deps),
    invitations: createInvitationService(deps),
    domains: createDomainService(deps),
    /** 403 when one more membership would pass the plan's seat cap (members and pending invitations count). */
    assertSeatAvailable: (tx: Tx, tenantId: string) => assertSeatAvailable(deps, tx, tenantId),
  };
}

export type MembersService = ReturnType<typeof createMembersService>;
