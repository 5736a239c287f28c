import {
  type AccessTokens,
  type CredentialResolver,
  DpopError,
  type DpopVerifier,
  dpopRefused,
  type Population,
  type Principal,
} from '../../kernel/auth/index.js';
import { isSystemRole, permissionsOfRole } from '../../kernel/authz/catalog.js';
import type { Clock } from '../../kernel/clock.js';
import type { Transactions } from '../../kernel/db/index.js';
import { HttpError, unauthorized } from '../../kernel/http/index.js';
import { findCustomRole } from '../roles/index.js';
import type { SessionStateCache } from './session-state-cache.js';
import { sessionIsLive } from './sessions.js';
import * as store from './store.js';

/** A session's state plus, when its membership holds a custom role, that role's permissions as read with it. */
type ResolvedSessionState = store.SessionState & { rolePermissions?: readonly string[] | null };

const looksLikeJwt = (token: string) => token.split('.').length === 3;

/**
 * Resolves a person's access token: signature and expiry, then the live session, account epoch and
 * membership from the database on every request, so a revocation holds from the next use on every node.
 */
export function createUserTokenResolver(deps: {
  accessTokens: AccessTokens;
  transactions: Transactions;
  cache: SessionStateCache;
  clock: Clock;
  dpop: DpopVerifier;
}): CredentialResolver {
  const { accessTokens, transactions, cache, clock, dpop } = deps;
  return async (request, credential) => {
    if (!looksLikeJwt(credential.token)) return null;
    let claims: Awaited<ReturnType<AccessTokens['verify']>>;
    try {
      claims = await accessTokens.verify(credential.token);
    } catch {
      return null;
    }
    if (claims.act !== 'human') return null;
    // Part A 4.14: a person's token issued to an OAuth client carries what the person consented to for that
    // client (UserInfo, its resource), not the person's authority over the platform API.
    if (claims.client_id !== undefined) {
      throw new HttpError(403, 'This token was issued to an OAuth client: it is accepted at UserInfo only');
    }
    // Part A 5.4: a key-bound token is never accepted as a plain bearer token, nor a bearer token as DPoP.
    const jkt = claims.cnf?.jkt;
    if (jkt && credential.scheme !== 'dpop') throw dpopRefused('Key-bound token presented without DPoP');
    if (!jkt && credential.scheme === 'dpop') throw unauthorized();
    const state = await cache.read(
      claims.tid,
      claims.sid,
      // A custom role's permissions are read with the session and cached with it: the roles table notifies
      // `tenant:<id>` on every change (migration 0027), which drops this entry on every node.
      () =>
        transactions.systemRead(async (q): Promise<ResolvedSessionState | undefined> => {
          const found = await store.sessionState(q, claims.tid, claims.sid);
          if (!found || isSystemRole(found.role)) return found;
          const role = await findCustomRole(q, claims.tid, found.role);
          return { ...found, rolePermissions: role?.permissions ?? null };
        }),
      (candidate) => sessionIsLive(candidate, clock.now()),
    );
    if (!state || state.userId !== claims.sub || claims.ep !== state.tokenEpoch || !sessionIsLive(state, clock.now())) {
      throw unauthorized();
    }
    if (jkt) {
      if (state.dpopJkt !== jkt) throw unauthorized();
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
    const principal: Principal = {
      kind: 'user',
      tenantId: claims.tid,
      userId: claims.sub,
      sessionId: claims.sid,
      role: state.role,
      permissions: permissionsOfRole(state.role, (state as ResolvedSessionState).rolePermissions),
      isOwner: state.role === 'owner',
      population: state.population as Population,
      quarantined: state.quarantined,
      actor: { id: claims.sub, type: 'human' },
      attributes: { emailVerified: state.emailVerified, tenantIsolation: state.isolation, dpopJkt: jkt },
    };
    return principal;
  };
}
