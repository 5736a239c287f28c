import { type AuthStateListener, createAuthStateCache } from '../../kernel/auth/index.js';
import type { Clock } from '../../kernel/clock.js';
import type { Transactions } from '../../kernel/db/index.js';
import { type CredentialHolder, credentialHolder, type LoadedAgentState, loadAgentState } from './state-store.js';

/**
 * What an agent's requests and mints read, cached per node like a session's state: every change to an agent,
 * a delegation, a delegator's membership, the organization or its operator settings notifies the auth-state
 * channel (migrations 0001, 0014, 0022), which drops the organization's entries on every node before the change
 * is answered. A state is served only until its authority changes by itself (a delegation's expiry).
 */
export function createAgentStateCache(deps: {
  authState: AuthStateListener;
  transactions: Transactions;
  clock: Clock;
}) {
  const { transactions, clock } = deps;
  const states = createAuthStateCache<LoadedAgentState>(deps.authState, { tenantOf: (state) => state.tenantId });
  const holders = createAuthStateCache<CredentialHolder>(deps.authState, { tenantOf: (holder) => holder.tenantId });
  const authorityUnchanged = (state: LoadedAgentState) =>
    state.authorityChangesAt === null || state.authorityChangesAt.getTime() > clock.now().getTime();
  return {
    /** The agent's state and authority as of now; undefined for an agent that does not exist (any more). */
    state: (tenantId: string, agentId: string) =>
      states.read(
        `${tenantId}/${agentId}`,
        () => transactions.systemRead((q) => loadAgentState(q, tenantId, agentId, clock.now())),
        authorityUnchanged,
      ),
    /** Whose current credential has this SHA-256; undefined when none (unknown, or rotated away). */
    holder: (credentialHash: string) =>
      holders.read(
        credentialHash,
        () => transactions.systemRead((q) => credentialHolder(q, credentialHash)),
        () => true,
      ),
  };
}

export type AgentStateCache = ReturnType<typeof createAgentStateCache>;
