import type { AccessTokens } from '../../kernel/auth/index.js';
import type { Clock } from '../../kernel/clock.js';
import type { Transactions } from '../../kernel/db/index.js';
import type { Events } from '../../kernel/events/index.js';
import { OAuthError } from '../../kernel/http/index.js';
import type { Limiter, LimitPolicy } from '../../kernel/limits/index.js';
import {
  type Check,
  type Grant,
  type GrantRequest,
  grantRegistered,
  organizationOpen,
  runChecks,
  type TokenResponse,
} from './grants.js';
import * as store from './store.js';

const GRANT_TYPE = 'client_credentials';
/** `oauth.token_issued` for client_credentials: once per client, source address and clock hour. */
const ISSUANCE_RECORDED: LimitPolicy = { name: 'oauth-cc-issuance-recorded', points: 1, durationSeconds: 3600 };

export interface ClientCredentialsContext extends GrantRequest {
  scopes: string[];
  /** The single RFC 8707 resource asked for, if any. */
  resource: string | undefined;
}

const unauthorizedClient = (description: string) => new OAuthError('unauthorized_client', description);

/** Part A 4.14: client_credentials is for confidential clients only (a public client cannot keep a secret). */
export const confidentialOnly: Check<ClientCredentialsContext> = {
  name: 'confidentialOnly',
  run({ client }) {
    if (client.clientType !== 'confidential') {
      throw unauthorizedClient('client_credentials is only for confidential clients');
    }
  },
};

/**
 * Part A 4.14, "capped to the client's registered set": the grant is the intersection of what was asked and what
 * is registered, and the answer names it (RFC 6749 section 5.1: `scope` is required when it differs from the
 * request). An absent `scope` grants the whole registered set; only a request none of whose scopes is registered
 * is refused (`invalid_scope`, section 5.2), since no token could carry anything it asked for. Space-separated
 * (section 3.3); a value repeated counts once, in the order asked.
 */
export const grantedScope: Check<ClientCredentialsContext> = {
  name: 'grantedScope',
  run(context) {
    const registered = context.client.scopes;
    const asked = [...new Set((context.params.scope ?? '').split(' ').filter(Boolean))];
    if (asked.length === 0) {
      context.scopes = [...registered];
      return;
    }
    const granted = asked.filter((scope) => registered.includes(scope));
    if (granted.length === 0) {
      throw new OAuthError(
        'invalid_scope',
        `None of the requested scopes is registered for this client (${registered.join(' ')})`,
      );
    }
    context.scopes = granted;
  },
};

/** RFC 8707: one resource per request here; several are refused rather than merged into one audience. */
export const singleResource: Check<ClientCredentialsContext> = {
  name: 'singleResource',
  run(context) {
    if (context.resources.length > 1) {
      throw new OAuthError('invalid_target', 'Only one resource may be named per token request');
    }
    context.resource = context.resources[0];
  },
};

const CHECKS = [
  confidentialOnly,
  grantRegistered<ClientCredentialsContext>(GRANT_TYPE),
  organizationOpen<ClientCredentialsContext>(),
  grantedScope,
  singleResource,
];

/**
 * The client_credentials grant (RFC 6749 section 4.4, Part A 4.14): an access token for the client itself, no
 * ID token and no refresh token. Its issuance and its event share the organization's transaction.
 */
export function createClientCredentialsGrant(deps: {
  transactions: Transactions;
  events: Events;
  accessTokens: AccessTokens;
  limiter: Limiter;
  clock: Clock;
}): Grant {
  const { transactions, events, accessTokens, limiter, clock } = deps;
  /** What this node already saw recorded this hour: the shared budget is asked once per key, node and hour. */
  let seenHour = -1;
  const seen = new Set<string>();
  async function firstIssuanceThisHour(key: string): Promise<boolean> {
    const hour = Math.floor(clock.now().getTime() / 3_600_000);
    if (hour !== seenHour || seen.size >= 100_000) {
      seenHour = hour;
      seen.clear();
    }
    if (seen.has(key)) return false;
    seen.add(key);
    return (await limiter.consume(ISSUANCE_RECORDED, `${key}@${hour}`)).allowed;
  }
  return {
    async handle(request): Promise<TokenResponse> {
      const context: ClientCredentialsContext = { ...request, scopes: [], resource: undefined };
      await runChecks(CHECKS, context);
      const { client, scopes, resource, dpopJkt } = context;
      const scope = scopes.join(' ');
      // Part A 4.14: only a registered, enabled resource of the client's own organization (the read runs under
      // its row-level security); the token's audience becomes its identifier.
      if (
        resource !== undefined &&
        !(await transactions.tenant(client.tenantId, (tx) => store.enabledResource(tx, client.tenantId, resource)))
      ) {
        throw new OAuthError(
          'invalid_target',
          "The resource is not a registered, enabled resource of the client's organization",
        );
      }
      const { token, expiresIn } = await accessTokens.issueClientToken(
        {
          sub: client.clientId,
          client_id: client.clientId,
          tid: client.tenantId,
          scope,
          act: 'client',
          ...(dpopJkt ? { cnf: { jkt: dpopJkt } } : {}),
        },
        resource === undefined ? {} : { audience: resource },
      );
      const tokenType = dpopJkt ? 'DPoP' : 'Bearer';
      // Issuing a client its own token changes nothing in the service, and a machine client may ask thousands of
      // times a second: the event is written once per client, address and hour (docs/oidc.md), which tells a
      // security team which addresses use each client at a fraction of a row per token.
      if (await firstIssuanceThisHour(`${client.clientId}|${request.ip}`)) {
        await transactions.tenant(client.tenantId, (tx) =>
          events.emit(tx, {
            tenantId: client.tenantId,
            actor: { id: client.clientId, type: 'service' },
            category: 'auth',
            action: 'oauth.token_issued',
            // Never the token itself.
            data: {
              client_id: client.clientId,
              grant_type: GRANT_TYPE,
              scope,
              resource: resource ?? null,
              token_type: tokenType,
              auth_method: request.credentials.method,
              ip: request.ip,
            },
          }),
        );
      }
      return { access_token: token, token_type: tokenType, expires_in: expiresIn, scope };
    },
  };
}
