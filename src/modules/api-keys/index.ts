import { type AuthStateListener, createAuthStateCache } from '../../kernel/auth/index.js';
import type { Clock } from '../../kernel/clock.js';
import type { Transactions } from '../../kernel/db/index.js';
import type { Events } from '../../kernel/events/index.js';
import type { PersonalDataRegistry } from '../../kernel/personal-data.js';
import { createUsageMeter } from './meter.js';
import { apiKeysPersonalData } from './personal-data.js';
import { createApiKeyResolver } from './resolver.js';
import { type ApiKeyService, createApiKeyService } from './service.js';
import type { KeyState } from './store.js';

export { registerApiKeyRoutes } from './routes.js';
export type { ApiKeyService };

/**
 * The API-key module: the service behind the routes, the credential resolver for the guard, and the usage
 * meter (started here, written out on close).
 */
export async function createApiKeys(deps: {
  svcEnv: string;
  authState: AuthStateListener;
  transactions: Transactions;
  events: Events;
  clock: Clock;
  personalData: PersonalDataRegistry;
}) {
  let service: ApiKeyService | undefined;
  const meter = createUsageMeter({
    transactions: deps.transactions,
    clock: deps.clock,
    onQuotaSpent: (tenantId, period) => service!.recordQuotaSpent(tenantId, period),
  });
  service = createApiKeyService({ ...deps, meter });
  // Validated key state per node, dropped like the session cache: the triggers on `api_keys` and `tenants`
  // (migration 0005) notify every node; keys belong to the organization, so `user:` changes leave them alone.
  const cache = createAuthStateCache<KeyState>(deps.authState, { tenantOf: (state) => state.tenantId });
  meter.start();
  deps.personalData.add(apiKeysPersonalData);
  const resolver = createApiKeyResolver({ ...deps, cache, meter });
  return {
    service,
    resolver,
    /** Writes counted calls now (usage reads do it themselves; tests and shutdown use it). */
    flushUsage: () => meter.flush(),
    close: () => meter.close(),
  };
}

export type ApiKeys = Awaited<ReturnType<typeof createApiKeys>>;
