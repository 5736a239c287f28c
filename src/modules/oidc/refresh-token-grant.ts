import type { AccessTokens } from '../../kernel/auth/index.js';
import type { Transactions } from '../../kernel/db/index.js';
import type { Events } from '../../kernel/events/index.js';
import { OAuthError } from '../../kernel/http/index.js';
import type { RefreshRefusal, SessionService } from '../sign-in/index.js';
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

const GRANT_TYPE = 'refresh_token';

/** Part A 4.14 and 7: each refusal names its reason in `error_description`. */
const REASONS: Record<RefreshRefusal, string> = {
  invalid: 'The refresh token is invalid',
  replayed: 'The refresh token was already used; the grant is revoked',
  expired: 'The refresh token has expired',
  session_ended: 'The session of this grant has ended',
  consent_revoked: 'The consent for this client was revoked',
  account_inactive: 'The user account is not active',
  not_a_member: 'The user is no longer a member of the organization',
  password_changed: 'The password was changed after this token was issued',
  signed_out_everywhere: 'The user signed out everywhere after this token was issued',
  other_key: 'The DPoP proof must use the key the grant is bound to',
};

interface RefreshContext extends GrantRequest {
  refreshToken: string;
  grant: NonNullable<Awaited<ReturnType<SessionService['grantOf']>>>;
  scope: string;
}

const required: Check<RefreshContext> = {
  name: 'required',
  run(context) {
    const token = context.params.refresh_token;
    if (token === undefined) throw new OAuthError('invalid_request', 'refresh_token is required');
    if (context.resources.length > 1) {
      throw new OAuthError('invalid_target', 'Only one resource may be named per token request');
    }
    context.refreshToken = token;
  },
};

/**
 * The refresh_token grant (RFC 6749 section 6, Part A 4.14): rotation with reuse detection, scope narrowed never
 * widened, the resource binding kept, and the person re-validated on every refresh (active member, active
 * account, no password change or sign-out-everywhere since), each refusal `invalid_grant` naming the reason.
 */
export function createRefreshTokenGrant(deps: {
  transactions: Transactions;
  events: Events;
  accessTokens: AccessTokens;
  idTokens: IdTokens;
  sessions: SessionService;
}): Grant {
  const { transactions, sessions } = deps;

  /** The grant must be this client's; a token of another client is as unknown as a made-up one. */
  const knownGrant: Check<RefreshContext> = {
    name: 'knownGrant',
    async run(context) {
      const grant = await sessions.grantOf(context.refreshToken);
      if (!grant || grant.clientId !== context.client.clientId) throw invalidGrant(REASONS.invalid);
      context.grant = grant;
    },
  };

  /** RFC 8707: the binding survives refresh; naming another resource is `invalid_target`. */
  const sameResource: Check<RefreshContext> = {
    name: 'sameResource',
    run({ resources, grant }) {
      const named = resources[0];
      if (named !== undefined && named !== grant.resource) {
        throw new OAuthError('invalid_target', 'The resource differs from the one this grant is bound to');
      }
    },
  };

  /** RFC 6749 section 6: a narrower scope may be asked for, never a wider one (`invalid_scope`). */
  const narrowerScope: Check<RefreshContext> = {
    name: 'narrowerScope',
    run(context) {
      const granted = context.grant.scope.split(' ');
      const asked = [...new Set((context.params.scope ?? '').split(' ').filter(Boolean))];
      if (asked.some((value) => !granted.includes(value))) {
        throw new OAuthError('invalid_scope', 'The requested scope is wider than the grant; it can only be narrowed');
      }
      context.scope = asked.length > 0 ? asked.join(' ') : context.grant.scope;
    },
  };

  const CHECKS = [
    grantRegistered<RefreshContext>(GRANT_TYPE),
    organizationOpen<RefreshContext>(),
    required,
    knownGrant,
    sameResource,
    narrowerScope,
  ];

  return {
    async handle(request): Promise<TokenResponse> {
      const context = request as RefreshContext;
      await runChecks(CHECKS, context);
      const { client, grant } = context;
      // Rotation and issuance commit together: a failure in between loses neither the old token nor the event.
      const outcome = await transactions.tenant(client.tenantId, async (tx) => {
        const rotated = await sessions.rotateGrant(context.refreshToken, client.clientId, context.dpopJkt, tx);
        // A refusal commits what it did (a replayed token ends its grant) and is answered after the commit.
        if ('refused' in rotated) return rotated;
        return issueGrantTokens(deps, tx, {
          client,
          grantType: GRANT_TYPE,
          authMethod: context.credentials.method,
          userId: rotated.userId,
          grantSessionId: rotated.sessionId,
          sid: grant.parentSessionId,
          epoch: rotated.epoch,
          scope: context.scope,
          resource: grant.resource,
          // The grant's key (RFC 9449 section 5: a refreshed token stays bound to it).
          dpopJkt: rotated.dpopJkt ?? undefined,
          authTime: grant.authTime,
          amr: grant.amr,
          nonce: null,
          refreshToken: rotated.refreshToken,
        });
      });
      if ('refused' in outcome) {
        if (outcome.refused === 'other_key') throw new OAuthError('invalid_dpop_proof', REASONS.other_key);
        throw invalidGrant(REASONS[outcome.refused]);
      }
      return outcome;
    },
  };
}
