import { OAuthError } from '../../kernel/http/index.js';
import type { ClientCredentials } from './client-auth.js';
import type { TokenClientRow } from './store.js';

/**
 * The token endpoint's grant registry, shaped like panva's oidc-provider (ARCHITECTURE "Rules of the house"):
 * `grant_type` -> handler. Adding a grant is adding one entry to the map `createTokenEndpoint` builds.
 */

/** One step of an endpoint or grant: reads and fills the context, or throws the OAuthError that answers. */
export interface Check<Context> {
  name: string;
  run(context: Context): void | Promise<void>;
}

/** Runs the checks in their order; the first that throws answers the request. */
export async function runChecks<Context>(checks: ReadonlyArray<Check<Context>>, context: Context): Promise<void> {
  for (const check of checks) await check.run(context);
}

/** The success answer of /token (RFC 6749 section 5.1). */
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer' | 'DPoP';
  expires_in: number;
  scope: string;
  /** authorization_code and refresh_token grants with `openid` (Part A 2.9). */
  id_token?: string;
  /** When the client has the refresh_token grant (Part A 4.14). */
  refresh_token?: string;
}

/** What a grant receives once the endpoint's checks passed: an authenticated client and the request. */
export interface GrantRequest {
  client: TokenClientRow;
  credentials: ClientCredentials;
  /** The form parameters, each sent once (RFC 6749 section 3.2); empty ones are left out. */
  params: Readonly<Record<string, string>>;
  /** Every `resource` parameter (RFC 8707 section 2 lets a client repeat it). */
  resources: readonly string[];
  /** The thumbprint of the DPoP key the tokens are to be bound to (RFC 9449 section 5), if a proof was sent. */
  dpopJkt: string | undefined;
  /** The request's source address. */
  ip: string;
}

/** RFC 6749 section 5.2: a grant the client is not registered for is `unauthorized_client`. */
export function grantRegistered<Context extends GrantRequest>(grantType: string): Check<Context> {
  return {
    name: 'grantRegistered',
    run({ client }) {
      if (!client.grantTypes.includes(grantType)) {
        throw new OAuthError('unauthorized_client', `This client is not registered for the ${grantType} grant`);
      }
    },
  };
}

/**
 * Part B 4.5 (quarantine): an organization awaiting approval has its OAuth clients closed. Checked after the
 * client authenticated, so it tells a guesser nothing.
 */
export function organizationOpen<Context extends GrantRequest>(): Check<Context> {
  return {
    name: 'organizationOpen',
    run({ client }) {
      if (client.quarantined) {
        throw new OAuthError(
          'unauthorized_client',
          'The organization is awaiting approval: its owner must approve the pending sign-up before its OAuth clients obtain tokens',
        );
      }
    },
  };
}

/** Part A 7: `invalid_grant` (400) with the reason in `error_description`. */
export const invalidGrant = (description: string) => new OAuthError('invalid_grant', description);

export interface Grant {
  handle(request: GrantRequest): Promise<TokenResponse>;
}

/**
 * RFC 6749 section 5.2: no grant_type is `invalid_request`; one without a registered handler is unsupported. An
 * unknown value is not echoed: `error_description` is restricted to a few ASCII characters (section 5.2).
 */
export function grantFor(grants: ReadonlyMap<string, Grant>, grantType: string | undefined): Grant {
  if (grantType === undefined) throw new OAuthError('invalid_request', 'grant_type is required');
  const grant = grants.get(grantType);
  if (grant) return grant;
  throw new OAuthError(
    'unsupported_grant_type',
    `This grant_type is not supported (supported: ${[...grants.keys()].join(', ')})`,
  );
}
