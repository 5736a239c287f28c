import { timingSafeEqual } from 'node:crypto';
import type { AccessTokens } from '../../kernel/auth/index.js';
import type { Clock } from '../../kernel/clock.js';
import { sha256Base64Url, sha256Hex } from '../../kernel/crypto/index.js';
import type { Transactions, Tx } from '../../kernel/db/index.js';
import type { Events } from '../../kernel/events/index.js';
import { OAuthError } from '../../kernel/http/index.js';
import type { SessionService } from '../sign-in/index.js';
import { issueGrantTokens } from './grant-tokens.js';
import {
  type Check,
  type Grant,
  type GrantRequest,
  grantRegistered,
  invalidGrant,
  organizationOpen,
  runChecks,
  type TokenResponse,
} from './grants.js';
import type { IdTokens } from './id-tokens.js';
import * as store from './store.js';

const GRANT_TYPE = 'authorization_code';
/** RFC 7636 section 4.1: 43 to 128 unreserved characters. */
const CODE_VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

interface CodeContext extends GrantRequest {
  code: string;
  redirectUri: string;
  codeVerifier: string;
}

const required: Check<CodeContext> = {
  name: 'required',
  run(context) {
    const { code, redirect_uri: redirectUri, code_verifier: codeVerifier } = context.params;
    if (code === undefined) throw new OAuthError('invalid_request', 'code is required');
    if (redirectUri === undefined) throw new OAuthError('invalid_request', 'redirect_uri is required');
    if (codeVerifier === undefined) throw new OAuthError('invalid_request', 'code_verifier is required (PKCE)');
    if (!CODE_VERIFIER.test(codeVerifier)) {
      throw new OAuthError('invalid_request', 'code_verifier must be 43 to 128 unreserved characters (RFC 7636)');
    }
    if (context.resources.length > 1) {
      throw new OAuthError('invalid_target', 'Only one resource may be named per token request');
    }
    Object.assign(context, { code, redirectUri, codeVerifier });
  },
};

const CHECKS = [grantRegistered<CodeContext>(GRANT_TYPE), organizationOpen<CodeContext>(), required];

/** The outcome decided inside the transaction; a refusal that changed state (a replay) commits before it answers. */
type Exchange = { tokens: TokenResponse } | { refusal: OAuthError };

/**
 * The authorization_code grant (RFC 6749 section 4.1.3, Part A 4.14): the code is spent once; PKCE S256 and the
 * redirect URI are verified; a grant session starts under the browser session that signed in, so every
 * revocation reaches its tokens. A replayed code ends the grant it minted and raises a detection (Part A 3).
 */
export function createAuthorizationCodeGrant(deps: {
  transactions: Transactions;
  events: Events;
  clock: Clock;
  accessTokens: AccessTokens;
  idTokens: IdTokens;
  sessions: SessionService;
}): Grant {
  const { transactions, events, clock, sessions } = deps;

  async function replayed(tx: Tx, code: store.AuthorizationCodeRow): Promise<OAuthError> {
    if (code.grantSessionId) {
      await sessions.revoke(tx, code.grantSessionId, 'authorization_code_replayed');
    }
    await events.emit(tx, {
      tenantId: code.tenantId,
      actor: { id: code.clientId, type: 'service' },
      category: 'security',
      action: 'oauth.authorization_code_replayed',
      severity: 'high',
      outcome: 'denied',
      subjectUserId: code.userId,
      data: { client_id: code.clientId, user_id: code.userId, session_id: code.grantSessionId },
    });
    await events.detect(tx, {
      tenantId: code.tenantId,
      ruleId: 'authorization-code-replay',
      groupKey: `client:${code.clientId}`,
      severity: 'high',
      data: { client_id: code.clientId, user_id: code.userId },
    });
    return invalidGrant('The authorization code was already used; the tokens it issued are revoked');
  }

  return {
    async handle(request): Promise<TokenResponse> {
      const context = request as CodeContext;
      await runChecks(CHECKS, context);
      const { client } = context;
      const now = clock.now();
      const outcome = await transactions.tenant(client.tenantId, async (tx): Promise<Exchange> => {
        const code = await store.authorizationCode(tx, client.tenantId, client.clientId, sha256Hex(context.code));
        if (!code) return { refusal: invalidGrant('The authorization code is invalid') };
        if (code.spentAt) {
          // Spent by a refused exchange, it minted nothing: refused again, without a replay alarm (anyone who saw
          // a code could otherwise raise one against its client by burning it with a wrong verifier).
          if (!code.grantSessionId) return { refusal: invalidGrant('The authorization code is no longer valid') };
          return { refusal: await replayed(tx, code) };
        }
        // Any failure from here on spends the code: a guessed verifier gets one try.
        const refuse = async (refusal: OAuthError): Promise<Exchange> => {
          await store.spendAuthorizationCode(tx, code.id, now, null);
          return { refusal };
        };
        if (code.expiresAt <= now) return refuse(invalidGrant('The authorization code has expired'));
        if (code.redirectUri !== context.redirectUri) {
          return refuse(invalidGrant('redirect_uri does not match the one of the authorization request'));
        }
        const challenge = Buffer.from(sha256Base64Url(context.codeVerifier));
        const expected = Buffer.from(code.codeChallenge);
        if (challenge.length !== expected.length || !timingSafeEqual(challenge, expected)) {
          return refuse(invalidGrant('PKCE verification failed: code_verifier does not match code_challenge'));
        }
        const resource = context.resources[0];
        if (resource !== undefined && resource !== code.resource) {
          return refuse(
            new OAuthError('invalid_target', 'The resource differs from the one of the authorization request'),
          );
        }
        const session = await sessions.liveSession(client.tenantId, code.sessionId, tx);
        if (!session) return refuse(invalidGrant('The sign-in session has ended'));
        // Locked for the exchange: a revocation committing meanwhile waits, then ends the grant it finds.
        const consent = await store.consent(tx, client.tenantId, code.userId, client.clientId, { lock: true });
        const scopes = code.scope.split(' ');
        // The first-party console asks no consent (migration 0034): the person is using this service itself.
        if (!client.firstParty && (!consent || !scopes.every((value) => consent.scopes.includes(value)))) {
          return refuse(invalidGrant('The consent for this client was revoked'));
        }
        const grant = await sessions.startGrant(tx, {
          tenantId: client.tenantId,
          userId: code.userId,
          population: session.population,
          epoch: session.epoch,
          amr: session.amr,
          authTime: session.authTime,
          dpopJkt: context.dpopJkt,
          clientId: client.clientId,
          scope: code.scope,
          resource: code.resource,
          parentSessionId: session.sessionId,
          refreshable: client.grantTypes.includes('refresh_token'),
        });
        await store.spendAuthorizationCode(tx, code.id, now, grant.sessionId);
        const tokens = await issueGrantTokens(deps, tx, {
          client,
          grantType: GRANT_TYPE,
          authMethod: context.credentials.method,
          userId: code.userId,
          grantSessionId: grant.sessionId,
          sid: session.sessionId,
          epoch: session.epoch,
          scope: code.scope,
          resource: code.resource,
          dpopJkt: context.dpopJkt,
          authTime: session.authTime,
          amr: session.amr,
          nonce: code.nonce,
          refreshToken: grant.refreshToken,
        });
        return { tokens };
      });
      if ('refusal' in outcome) throw outcome.refusal;
      return outcome.tokens;
    },
  };
}
