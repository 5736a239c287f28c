import {
  type AccessTokens,
  type CredentialResolver,
  DpopError,
  type DpopVerifier,
  dpopRefused,
  type Principal,
} from '../../kernel/auth/index.js';
import { permissionRisk } from '../../kernel/authz/catalog.js';
import { unauthorized } from '../../kernel/http/index.js';
import type { AgentState, AgentTask } from './model.js';
import type { AgentStateCache } from './state-cache.js';
import type { AgentAccessClaims } from './token-mint.js';

const looksLikeJwt = (token: string) => token.split('.').length === 3;

/**
 * What the agent may use on this request: its authority, within its task token's scope and its risk ceiling.
 * Governance judges a route's own permission against each of these separately (so the refusals differ); this set
 * is what every further check a service makes (`hasPermission`, e.g. a setting tied to a second permission, an
 * autonomy decision's approver permission) sees, so no second check reaches past the scope or the ceiling.
 */
function usablePermissions(state: AgentState, task: AgentTask | undefined): ReadonlySet<string> {
  const usable = new Set<string>();
  for (const code of state.authority) {
    if (task && !task.permissions.includes(code)) continue;
    if (permissionRisk(code) > state.riskCeiling) continue;
    usable.add(code);
  }
  return usable;
}

/** What an agent principal carries for governance (`principal.attributes`). */
export interface AgentAttributes {
  agent: AgentState;
  task?: AgentTask;
  dpopJkt?: string;
}

/**
 * Resolves an agent's access token (Part B 5.1): signature and expiry, then the agent's state and authority as
 * they are now (per-node cache, dropped on every change), so a rotated credential's tokens (older epoch) and a
 * revoked delegation or a delegator's lost role hold from the next request. Lifecycle and kill switch are not
 * refused here: governance answers held tokens 403 with its reason. Answers null for anything but an agent token.
 */
export function createAgentTokenResolver(deps: {
  accessTokens: AccessTokens;
  states: AgentStateCache;
  dpop: DpopVerifier;
}): CredentialResolver {
  const { accessTokens, states, dpop } = deps;
  return async (request, credential) => {
    if (!looksLikeJwt(credential.token)) return null;
    let verified: Awaited<ReturnType<AccessTokens['verify']>>;
    try {
      verified = await accessTokens.verify(credential.token);
    } catch {
      return null;
    }
    if (verified.act !== 'agent') return null;
    const claims = verified as unknown as AgentAccessClaims;
    // Part A 5.4, as for people: a key-bound token is never accepted as a plain bearer token, nor a bearer as DPoP.
    const jkt = claims.cnf?.jkt;
    if (jkt && credential.scheme !== 'dpop') throw dpopRefused('Key-bound token presented without DPoP');
    if (!jkt && credential.scheme === 'dpop') throw unauthorized();
    const state = await states.state(claims.tid, claims.sub);
    if (!state || claims.ep !== state.tokenEpoch) throw unauthorized();
    if (jkt) {
      try {
        await dpop.verify({
          proof: request.headers.dpop,
          method: request.method,
          url: dpop.urlOf(request.url),
          accessToken: credential.token,
          expectedJkt: jkt,
        });
      } catch (error) {
        if (error instanceof DpopError) throw dpopRefused(error.message, 'invalid_dpop_proof');
        throw error;
      }
    }
    const attributes: AgentAttributes = { agent: state };
    if (claims.task) attributes.task = claims.task;
    if (jkt) attributes.dpopJkt = jkt;
    const principal: Principal = {
      kind: 'agent',
      tenantId: state.tenantId,
      agentId: state.agentId,
      permissions: usablePermissions(state, claims.task),
      isOwner: false,
      population: null,
      quarantined: state.quarantined,
      actor: { id: state.agentId, type: 'agent' },
      attributes: attributes as unknown as Record<string, unknown>,
    };
    return principal;
  };
}
