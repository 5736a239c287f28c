import { unprocessable } from '../../kernel/http/index.js';
import { assertOutboundUrl } from '../../kernel/net/index.js';
import { redirectUriRefusal } from './redirect-uris.js';

export const CLIENT_TYPES = ['confidential', 'public'] as const;
export type ClientType = (typeof CLIENT_TYPES)[number];
/** Part A 4.14: implicit and ROPC are never implemented. */
export const GRANT_TYPES = ['authorization_code', 'refresh_token', 'client_credentials'] as const;
/** Part A 2.8: a subset of the scopes discovery advertises. */
export const SCOPES = ['openid', 'profile', 'email'] as const;
export const DEFAULT_GRANT_TYPES: readonly string[] = ['authorization_code'];
/** Every scope the provider knows, unless the organization narrows it (docs/oidc.md). */
export const DEFAULT_SCOPES: readonly string[] = SCOPES;
export const MAX_REDIRECT_URIS = 20;
export const NAME_MAX = 255;

/** C0 and C1 controls and the bidirectional overrides that could disguise a name on the consent screen. */
const CONTROL = /[\p{Cc}\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

/** The registration parameters as the API names them (Part A 2.8). */
export interface RegistrationInput {
  name: string;
  client_type: string;
  redirect_uris: string[];
  grant_types?: string[] | undefined;
  scopes?: string[] | undefined;
  post_logout_redirect_uris?: string[] | undefined;
  backchannel_logout_uri?: string | null | undefined;
}

/** A registration that holds every rule, defaults applied. */
export interface Registration {
  name: string;
  clientType: ClientType;
  redirectUris: string[];
  grantTypes: string[];
  scopes: string[];
  postLogoutRedirectUris: string[];
  backchannelLogoutUri: string | null;
}

/** A display name (client, resource): shown on the consent screen, so no controls that could disguise it. */
export function checkName(raw: string): string {
  const name = raw.trim();
  if (name.length === 0 || [...name].length > NAME_MAX)
    throw unprocessable(`name: must be 1 to ${NAME_MAX} characters`);
  if (CONTROL.test(name)) throw unprocessable('name: must not contain control characters');
  return name;
}

function checkClientType(raw: string): ClientType {
  if (!(CLIENT_TYPES as readonly string[]).includes(raw)) {
    throw unprocessable('client_type: must be confidential or public');
  }
  return raw as ClientType;
}

/** Exact strings, each under the redirect URI rule, no duplicates; `min` is 0 or 1 (redirectUrisMin). */
function checkUris(field: string, uris: readonly string[], min: number): string[] {
  if (uris.length < min || uris.length > MAX_REDIRECT_URIS) {
    throw unprocessable(`${field}: must hold ${min} to ${MAX_REDIRECT_URIS} URIs`);
  }
  uris.forEach((uri, i) => {
    const refusal = redirectUriRefusal(uri);
    if (refusal) throw unprocessable(`${field}.${i}: ${refusal}`);
    if (uris.indexOf(uri) !== i) throw unprocessable(`${field}.${i}: duplicate of ${field}.${uris.indexOf(uri)}`);
  });
  return [...uris];
}

/** A non-empty subset of `allowed`, duplicates dropped, in the order given. */
function checkSubset(field: string, values: readonly string[], allowed: readonly string[], noun: string): string[] {
  const unknown = values.find((value) => !allowed.includes(value));
  if (unknown !== undefined) {
    throw unprocessable(`${field}: unknown ${noun} "${unknown}" (allowed: ${allowed.join(', ')})`);
  }
  if (values.length === 0) throw unprocessable(`${field}: must name at least one ${noun}`);
  return [...new Set(values)];
}

/** Part A 4.14 grant-type registration rules. */
function checkGrantTypes(values: readonly string[], clientType: ClientType): string[] {
  const grantTypes = checkSubset('grant_types', values, GRANT_TYPES, 'grant type');
  if (grantTypes.includes('refresh_token') && !grantTypes.includes('authorization_code')) {
    throw unprocessable('grant_types: refresh_token requires authorization_code');
  }
  if (grantTypes.includes('client_credentials') && clientType !== 'confidential') {
    throw unprocessable('grant_types: client_credentials is only for confidential clients');
  }
  return grantTypes;
}

/**
 * Only the authorization_code grant redirects (RFC 6749 section 3.1.2): a client holding it needs at least one
 * redirect URI; a client that only takes client_credentials never sends a user anywhere, so none is required.
 */
const redirectUrisMin = (grantTypes: readonly string[]) => (grantTypes.includes('authorization_code') ? 1 : 0);

/**
 * Every registration rule of Part A 2.8 and 4.14, checked on creation and again on each change (on the
 * registration as it would be after the change): 422 naming the first rule broken, nothing stored.
 */
export function checkRegistration(input: RegistrationInput): Registration {
  const clientType = checkClientType(input.client_type);
  const name = checkName(input.name);
  // The grants first: they decide how many redirect URIs are required.
  const grantTypes = checkGrantTypes(input.grant_types ?? DEFAULT_GRANT_TYPES, clientType);
  return {
    name,
    clientType,
    redirectUris: checkUris('redirect_uris', input.redirect_uris, redirectUrisMin(grantTypes)),
    grantTypes,
    scopes: checkSubset('scopes', input.scopes ?? DEFAULT_SCOPES, SCOPES, 'scope'),
    postLogoutRedirectUris: checkUris('post_logout_redirect_uris', input.post_logout_redirect_uris ?? [], 0),
    backchannelLogoutUri:
      input.backchannel_logout_uri == null
        ? null
        : // One rule for every URL the service POSTs to (webhook endpoints too).
          assertOutboundUrl(input.backchannel_logout_uri, 'backchannel_logout_uri'),
  };
}
