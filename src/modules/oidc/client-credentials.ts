import type { AccessTokens } from '../../kernel/auth/index.js';
import type { Transactions } from '../../kernel/db/index.js';
import type { Events } from '../../kernel/events/index.js';
import { OAuthError } from '../../kernel/http/index.js';
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

interface ClientCredentialsContext extends GrantRequest {
  scopes: string[];
  /** The single RFC 8707 resource asked for, if any. */
  resource: string | undefined;
}

const unauthorizedClient = (description: string) => new OAuthError('unauthorized_client', description);

/** Part A 4.14: client_credentials is for confidential clients only (a public client cannot keep a secret). */
const confidentialOnly: Check<ClientCredentialsContext> = {
  name: 'confidentialOnly',
  run({ client }) {
    if (client.clientType !== 'confidential') {
      throw unauthorizedClient('client_credentials is only for confidential clients');
    }
  },
};

/**
 * Part A 4.14, scopes capped to the registered set: an absent `scope` grants the whole registered set; a scope
 * outside it refuses the request (`invalid_scope`, RFC 6749 section 5.2) rather than being dropped silently.
 * Space-separated (section 3.3); a value repeated counts once, in the order asked.
 */
const grantedScope: Check<ClientCredentialsContext> = {
  name: 'grantedScope',
  run(context) {
    const registered = context.client.scopes;
    const asked = context.params.scope;
    if (asked === undefined) {
      context.scopes = [...registered];
      return;
    }
    const scopes = [...new Set(asked.split(' ').filter(Boolean))];
    if (scopes.length === 0) {
      context.scopes = [...registered];
      return;
    }
    if (scopes.some((scope) => !registered.includes(scope))) {
      throw new OAuthError(
        'invalid_scope',
        `The requested scope exceeds the client's registered scopes (${registered.join(' ')})`,
      );
    }
    context.scopes = scopes;
  },
};

/** RFC 8707: one resource per request here; several are refused rather than merged into one audience. */
const singleResource: Check<ClientCredentialsContext> = {
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
}): Grant {
  const { transactions, events, accessTokens } = deps;
  return {
    async handle(request): Promise<TokenResponse> {
      const context: ClientCredentialsContext = { ...request, scopes: [], resource: undefined };
      await runChecks(CHECKS, context);
      const { client, scopes, resource, dpopJkt } = context;
      const scope = scopes.join(' ');
      return transactions.tenant(client.tenantId, async (tx) => {
        // Part A 4.14: only a registered, enabled resource of the client's own organization (the read runs
        // under its row-level security); the token's audience becomes its identifier.
        if (resource !== undefined && !(await store.enabledResource(tx, client.tenantId, resource))) {
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
        await events.emit(tx, {
          tenantId: client.tenantId,
          actor: { id: client.clientId, type: 'service' },
          category: 'auth',
          action: 'oauth.token_issued',
          // A Command Center event, not a hash-chained audit entry: machine clients may ask for thousands of
          // tokens a second, and the chain's head is one lock for the installation (docs/oidc.md).
          audit: false,
          // Never the token itself.
          data: {
            client_id: client.clientId,
            grant_type: GRANT_TYPE,
            scope,
            resource: resource ?? null,
            token_type: tokenType,
            auth_method: request.credentials.method,
          },
        });
        return { access_token: token, token_type: tokenType, expires_in: expiresIn, scope };
      });
    },
  };
}
