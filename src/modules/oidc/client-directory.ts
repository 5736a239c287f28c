import { type AuthStateListener, createAuthStateCache } from '../../kernel/auth/index.js';
import type { Transactions } from '../../kernel/db/index.js';
import { isClientId } from './clients.js';
import * as store from './store.js';

/**
 * The OAuth clients the provider's endpoints look up on every request (token, authorize, end session), with
 * their organization's plan, slug, state and negotiated allowance: cached per node and dropped on every node
 * as soon as any of it changes (auth-state notifications, migration 0014), like session state. A client id
 * names one organization across the installation, so the look-up needs no organization.
 *
 * A first-party client (each organization's console, migration 0034) stores its URIs as paths, because the
 * migration cannot know BASE_URL: they are answered here as absolute URIs on BASE_URL, so every endpoint still
 * compares exact strings.
 */
export function createClientDirectory(deps: {
  transactions: Transactions;
  authState: AuthStateListener;
  baseUrl: string;
}) {
  const onBase = (paths: string[]) => paths.map((path) => (path.startsWith('/') ? deps.baseUrl + path : path));
  const cache = createAuthStateCache<store.TokenClientRow>(deps.authState, {
    tenantOf: (client) => client.tenantId,
    maxEntries: 10_000,
  });
  return {
    async find(clientId: string | undefined): Promise<store.TokenClientRow | undefined> {
      if (clientId === undefined || !isClientId(clientId)) return undefined;
      const client = await cache.read(
        clientId,
        () => deps.transactions.systemRead((q) => store.tokenClient(q, clientId)),
        () => true,
      );
      if (!client?.firstParty) return client;
      return {
        ...client,
        redirectUris: onBase(client.redirectUris),
        postLogoutRedirectUris: onBase(client.postLogoutRedirectUris),
      };
    },
  };
}

export type ClientDirectory = ReturnType<typeof createClientDirectory>;
