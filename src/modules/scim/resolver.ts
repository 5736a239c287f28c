import type { CredentialResolver, Principal } from '../../kernel/auth/index.js';
import { planIncludes } from '../../kernel/authz/plans.js';
import { sha256Hex } from '../../kernel/crypto/index.js';
import type { Transactions } from '../../kernel/db/index.js';
import { unauthorized } from '../../kernel/http/index.js';
import { TOKEN_PREFIX } from './service.js';
import * as store from './store.js';

/**
 * Part A 5.8: a SCIM token authenticates its organization's provisioning (principal kind `scim`, no permissions:
 * it opens only the SCIM routes). The token is looked up by its SHA-256 on every request, without a cache, so a
 * rotation or revocation holds from the next request on every node. An unknown token cannot be tied to an
 * organization: the guard's 401. A known token of an organization that paused SCIM resolves, and the SCIM routes
 * answer 404 (dormant) for it.
 */
export function createScimResolver(deps: { transactions: Transactions }): CredentialResolver {
  const { transactions } = deps;
  return async (_request, credential) => {
    if (!credential.token.startsWith(TOKEN_PREFIX)) return null;
    if (credential.scheme !== 'bearer') throw unauthorized();
    const state = await transactions.systemRead((q) => store.tokenState(q, sha256Hex(credential.token)));
    if (!state) throw unauthorized();
    const principal: Principal = {
      kind: 'scim',
      tenantId: state.tenantId,
      permissions: new Set(),
      isOwner: false,
      population: null,
      quarantined: state.quarantined,
      actor: { id: state.tokenId, type: 'service' },
      // Dormant too once the plan no longer includes SCIM (a downgrade keeps the configuration, not the door).
      attributes: { scimEnabled: state.enabled && planIncludes(state.plan, 'scim') },
    };
    return principal;
  };
}
