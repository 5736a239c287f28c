import type { Config } from '../../config.js';
import type { AfterAnswer } from '../../kernel/after-answer.js';
import type { DpopVerifier } from '../../kernel/auth/index.js';
import type { Egress } from '../../kernel/net/index.js';
import { createFederationAdmin } from './federation-admin.js';
import { createFederatedExchange } from './federation-exchange.js';
import { createIssuerKeys } from './federation-keys.js';
import { createMintThrottles } from './mint-throttles.js';
import { type AgentTokenDeps, mintAgentToken } from './token-mint.js';

/**
 * Federated workload identity (Part B 2.2, 4.1): the organization's trusted issuers and bindings, and the
 * exchange of their attestations for agent tokens through the one mint. Keys are cached per node.
 */
export function createFederation(
  deps: AgentTokenDeps & {
    config: Pick<Config, 'oidcIssuer'>;
    egress: Egress;
    dpop: DpopVerifier;
    afterAnswer: AfterAnswer;
    logger: { warn(obj: object, msg: string): void };
  },
) {
  const keys = createIssuerKeys({ egress: deps.egress, clock: deps.clock });
  return {
    admin: createFederationAdmin({ ...deps, keys }),
    exchange: createFederatedExchange({
      ...deps,
      keys,
      throttles: createMintThrottles(deps.limiter),
      mint: (input) => mintAgentToken(deps, input),
    }),
  };
}

export type Federation = ReturnType<typeof createFederation>;
