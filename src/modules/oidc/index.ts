import type { Clock } from '../../kernel/clock.js';
import type { Transactions } from '../../kernel/db/index.js';
import type { Events } from '../../kernel/events/index.js';
import { createClientService } from './clients.js';
import { createResourceService } from './resources.js';

export { type ClientService, type ClientView, verifyClientSecret } from './clients.js';
export { createOpenIdProvider, type OpenIdProvider } from './provider.js';
export type { ResourceService, ResourceView } from './resources.js';
export {
  queueBackchannelLogouts,
  queueBackchannelLogoutsOfAccount,
  queueBackchannelLogoutsOfMembership,
} from './revocation.js';
export { registerOAuthClientRoutes } from './routes.js';
export { resourceByIdentifier } from './store.js';
export { registerOAuthProviderRoutes } from './token-routes.js';

/**
 * OAuth client and protected-resource administration, the groundwork of the OpenID Provider (Part A 2.8, 4.14).
 * Clients and resources are organization data, not personal data: no personal-data contributor.
 */
export function createOAuthClients(deps: { transactions: Transactions; events: Events; clock: Clock }) {
  return { clients: createClientService(deps), resources: createResourceService(deps) };
}

export type OAuthClients = ReturnType<typeof createOAuthClients>;
