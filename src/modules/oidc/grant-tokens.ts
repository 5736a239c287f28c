import type { AccessTokens } from '../../kernel/auth/index.js';
import type { Tx } from '../../kernel/db/index.js';
import type { Events } from '../../kernel/events/index.js';
import type { TokenResponse } from './grants.js';
import type { IdTokens } from './id-tokens.js';
import type { TokenClientRow } from './store.js';

/** What a person's grant issues on a code exchange or a refresh. */
export interface GrantTokensInput {
  client: TokenClientRow;
  grantType: 'authorization_code' | 'refresh_token';
  authMethod: string;
  userId: string;
  grantSessionId: string;
  /** The provider's browser session: the ID token's `sid`. */
  sid: string;
  epoch: number;
  /** The scopes this answer grants (a refresh may narrow the grant's). */
  scope: string;
  resource: string | null;
  dpopJkt: string | undefined;
  authTime: Date;
  amr: string[];
  nonce: string | null;
  refreshToken: string | null;
}

/**
 * The token answer of a person's grant (Part A 4.14, 2.9, 2.11): an access token of the grant session carrying
 * the client and scopes, audience the resource when bound, DPoP-bound when a proof came; an ID token only with
 * `openid`; the refresh token when the client may refresh. The event is written in the caller's transaction.
 *
 * The first-party console client (migration 0034) is the service's own sign-in in another form: its access
 * token names no client, so the API accepts it as the person's own token (their permissions, no more), bound to
 * the grant session, so every revocation that reaches the grant reaches the console.
 */
export async function issueGrantTokens(
  deps: { accessTokens: AccessTokens; idTokens: IdTokens; events: Events },
  tx: Tx,
  input: GrantTokensInput,
): Promise<TokenResponse> {
  const { client } = input;
  const { token, expiresIn } = await deps.accessTokens.issue(
    {
      sub: input.userId,
      tid: client.tenantId,
      sid: input.grantSessionId,
      ep: input.epoch,
      act: 'human',
      ...(client.firstParty ? {} : { client_id: client.clientId, scope: input.scope }),
      ...(input.dpopJkt ? { cnf: { jkt: input.dpopJkt } } : {}),
    },
    input.resource === null ? {} : { audience: input.resource },
  );
  const tokenType = input.dpopJkt ? 'DPoP' : 'Bearer';
  const idToken = input.scope.split(' ').includes('openid')
    ? await deps.idTokens.idToken({
        clientId: client.clientId,
        userId: input.userId,
        tenantId: client.tenantId,
        tenantSlug: client.tenantSlug,
        sid: input.sid,
        authTime: input.authTime,
        amr: input.amr,
        nonce: input.nonce,
        accessToken: token,
      })
    : undefined;
  await deps.events.emit(tx, {
    tenantId: client.tenantId,
    actor: { id: input.userId, type: 'human' },
    category: 'auth',
    action: 'oauth.token_issued',
    subjectUserId: input.userId,
    // Never a token itself.
    data: {
      client_id: client.clientId,
      grant_type: input.grantType,
      scope: input.scope,
      resource: input.resource,
      token_type: tokenType,
      auth_method: input.authMethod,
    },
  });
  return {
    access_token: token,
    token_type: tokenType,
    expires_in: expiresIn,
    scope: input.scope,
    ...(idToken ? { id_token: idToken } : {}),
    ...(input.refreshToken ? { refresh_token: input.refreshToken } : {}),
  };
}
