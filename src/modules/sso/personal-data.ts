import type { PersonalDataContributor } from '../../kernel/personal-data.js';
import * as links from './link-store.js';
import * as signIns from './sign-in-store.js';

/**
 * Privacy rights (Part A 4.10) over what SSO sign-in keeps about a person in an organization: the identity
 * provider's id of them with the address it asserted and how it was linked, their sign-ins (when, through which
 * provider session), and the links mailed to confirm a link. Completion codes and link tokens are secrets and never
 * exported. Erasure deletes all three: the next SSO sign-in links afresh.
 */
export function ssoPersonalData(): PersonalDataContributor {
  return {
    name: 'sso',
    tables: ['sso_identities', 'sso_sign_ins', 'sso_link_requests'],
    async export(tx, tenantId, userId) {
      // One after the other: statements of one transaction share its connection.
      const identities = await signIns.identitiesOfUser(tx, tenantId, userId);
      const records = await signIns.signInsOfUser(tx, tenantId, userId);
      const linkRequests = await links.linkRequestsOfUser(tx, tenantId, userId);
      return {
        identities: identities.map((identity) => ({
          protocol: identity.protocol,
          issuer: identity.issuer,
          subject: identity.subject,
          email: identity.email,
          linked_by: identity.linkedBy,
          created_at: identity.createdAt.toISOString(),
          last_sign_in_at: identity.lastSignInAt.toISOString(),
        })),
        sign_ins: records.map((signIn) => ({
          protocol: signIn.protocol,
          issuer: signIn.issuer,
          created_at: signIn.createdAt.toISOString(),
          completed_at: signIn.completedAt?.toISOString() ?? null,
        })),
        link_requests: linkRequests.map((request) => ({
          protocol: request.protocol,
          issuer: request.issuer,
          email: request.email,
          created_at: request.createdAt.toISOString(),
          expires_at: request.expiresAt.toISOString(),
          used_at: request.spentAt?.toISOString() ?? null,
        })),
      };
    },
    async erase(tx, tenantId, userId) {
      await signIns.deleteOfUser(tx, tenantId, userId);
      await links.deleteLinkRequestsOfUser(tx, tenantId, userId);
    },
  };
}
