import type { AuthStateCache, CredentialResolver, Principal } from '../../kernel/auth/index.js';
import { planOf } from '../../kernel/authz/plans.js';
import type { Clock } from '../../kernel/clock.js';
import type { Transactions } from '../../kernel/db/index.js';
import { unauthorized } from '../../kernel/http/index.js';
import { environmentOf, hashKey, isWellFormedKey, looksLikeApiKey } from './format.js';
import type { UsageMeter } from './meter.js';
import * as store from './store.js';

/**
 * Part A 5.3: API keys are used exactly as access tokens. A malformed key, a key of the other environment, an
 * unknown, expired or revoked key all get the guard's one generic 401; the first two without a database
 * look-up. Every admitted call is counted against the organization's monthly quota.
 */
export function createApiKeyResolver(deps: {
  svcEnv: string;
  transactions: Transactions;
  cache: AuthStateCache<store.KeyState>;
  meter: UsageMeter;
  clock: Clock;
}): CredentialResolver {
  const { transactions, cache, meter, clock } = deps;
  const environment = environmentOf(deps.svcEnv);
  const isLive = (state: store.KeyState) =>
    state.revokedAt === null &&
    state.environment === environment &&
    (state.expiresAt === null || state.expiresAt.getTime() > clock.now().getTime());
  return async (_request, credential) => {
    if (!looksLikeApiKey(credential.token)) return null;
    if (credential.scheme !== 'bearer' || !isWellFormedKey(credential.token, environment)) throw unauthorized();
    const hash = hashKey(credential.token);
    const state = await cache.read(hash, () => transactions.systemRead((q) => store.keyState(q, hash)), isLive);
    if (!state || !isLive(state)) throw unauthorized();
    await meter.admit(state.tenantId, state.id, planOf(state.plan).caps.api_calls_monthly);
    const principal: Principal = {
      kind: 'api_key',
      tenantId: state.tenantId,
      apiKeyId: state.id,
      // Scopes name permissions; a key holds exactly those, nothing through a role (Part A 2.3).
      permissions: new Set(state.scopes),
      isOwner: false,
      population: null,
      quarantined: state.quarantined,
      actor: { id: state.id, type: 'service' },
      attributes: { createdByUserId: state.createdByUserId },
    };
    return principal;
  };
}
