import { addMs, type Clock, seconds } from '../../kernel/clock.js';
import { randomSecret, sha256Hex } from '../../kernel/crypto/index.js';
import type { Transactions } from '../../kernel/db/index.js';
import type { Events } from '../../kernel/events/index.js';
import { OAuthError } from '../../kernel/http/index.js';
import { newId } from '../../kernel/ids.js';
import type { LiveSession } from '../sign-in/index.js';
import type { ClientDirectory } from './client-directory.js';
import { type Check, runChecks } from './grants.js';
import { SCOPES } from './registration.js';
import type { SignedState } from './signed-state.js';
import * as store from './store.js';
import {
  AUTHORIZE_REQUESTS_PER_IP,
  clientAddressKey,
  clientAllowance,
  oauthThrottled,
  type WindowedLimiter,
} from './token-throttles.js';

/** A code lives a minute (RFC 6749 section 4.1.2 recommends at most ten). */
export const AUTHORIZATION_CODE_LIFETIME_SECONDS = 60;
/** Part A 4.14 prompt values; `none` stands alone. */
const PROMPTS = new Set(['login', 'consent', 'none', 'select_account']);
/** RFC 7636 section 4.2: S256 of a 43-128 character verifier is 43 base64url characters. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const MAX_VALUE_LENGTH = 1024;

/** An authorization request whose client and redirect URI are proven and whose parameters are valid. */
export interface AuthorizationRequest {
  clientId: string;
  /** Shown on the hosted pages (Part A 2.8: the name is shown on the consent screen). */
  clientName: string;
  tenantId: string;
  tenantSlug: string;
  redirectUri: string;
  scopes: string[];
  state: string | null;
  nonce: string | null;
  codeChallenge: string;
  resource: string | null;
  prompt: string[];
  maxAge: number | null;
  loginHint: string | null;
  /** The organization's own console (migration 0034): the person is signing in to this service, no consent. */
  firstParty?: boolean;
}

/** What the authorize endpoint answers: a redirect (to the client, or to a hosted page), never a body. */
export interface AuthorizeAnswer {
  location: string;
}

/**
 * 400 without a redirect (Part A 4.14): the client or the redirect URI is not proven, so sending the browser
 * anywhere could deliver an error, or a code, to an attacker.
 */
export class UnprovenRequest extends OAuthError {}

/** A refusal once client and redirect URI are proven: it goes back on the redirect URI (RFC 6749 4.1.2.1). */
export class RedirectedError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
  ) {
    super(description);
  }
}

interface AuthorizeContext {
  params: Record<string, string>;
  ip: string;
  client: store.TokenClientRow;
  request: AuthorizationRequest;
}

export interface AuthorizeDeps {
  transactions: Transactions;
  events: Events;
  clock: Clock;
  limits: WindowedLimiter;
  pendingRequests: SignedState<{ request: AuthorizationRequest; sid?: string }>;
  clients: ClientDirectory;
}

/** Appends parameters to a redirect URI, keeping its own query (RFC 6749 section 3.1.2). */
export function redirectTo(uri: string, params: Record<string, string | null | undefined>): string {
  const added = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value != null) added.append(name, value);
  const url = new URL(uri);
  // RFC 6749 section 3.1.2: the registered query is kept as it was written (not re-encoded), the answer appended.
  if (added.size > 0) url.search = url.search ? `${url.search}&${added}` : `?${added}`;
  return url.toString();
}

/**
 * OIDC Core 6.1 and 6.2: discovery says `request_parameter_supported` and `request_uri_parameter_supported` are
 * false, so a request object is refused, never ignored: its claims (another scope, redirect URI or nonce) may be
 * what the client means, and answering the query parameters alone would act on a request nobody made.
 */
function requestObjectRefusal(params: Record<string, string>): RedirectedError | undefined {
  if (params.request !== undefined) {
    return new RedirectedError('request_not_supported', 'Request objects (the request parameter) are not supported');
  }
  if (params.request_uri !== undefined) {
    return new RedirectedError('request_uri_not_supported', 'The request_uri parameter is not supported');
  }
  return undefined;
}

/**
 * The authorization endpoint (Part A 4.14, RFC 6749 section 4.1, OIDC Core 3.1.2) as ordered checks: the
 * address's floor, the client and the redirect URI (unproven: 400, no redirect), the client's allowance, then
 * every parameter rule (refused on the redirect URI), then the decision: sign-in page, consent page, or code.
 */
export function createAuthorizeEndpoint(deps: AuthorizeDeps) {
  const { transactions, events, clock, limits, pendingRequests, clients } = deps;

  const throttleIp: Check<AuthorizeContext> = {
    name: 'throttleIp',
    async run({ ip }) {
      const decision = await limits.consume(AUTHORIZE_REQUESTS_PER_IP, ip);
      if (!decision.allowed) throw oauthThrottled(decision, 'Too many authorization requests from this address');
    },
  };

  const identifyClient: Check<AuthorizeContext> = {
    name: 'identifyClient',
    async run(context) {
      const client = await clients.find(context.params.client_id);
      if (!client) throw new UnprovenRequest('invalid_request', 'client_id is missing or names no registered client');
      context.client = client;
    },
  };

  /** Part A 4.14: exact, character for character, among the client's registered URIs; never a prefix. */
  const matchRedirectUri: Check<AuthorizeContext> = {
    name: 'matchRedirectUri',
    run(context) {
      const given = context.params.redirect_uri;
      if (given === undefined || !context.client.redirectUris.includes(given)) {
        // A request object's redirect URI is never read (OIDC Core 6.1, 6.2): say why, but not on any redirect.
        const unsupported = requestObjectRefusal(context.params);
        if (unsupported) throw new UnprovenRequest(unsupported.error, unsupported.description);
        throw new UnprovenRequest(
          'invalid_request',
          'redirect_uri is missing or is not exactly one of the redirect URIs registered for this client',
        );
      }
      context.request = { redirectUri: given } as AuthorizationRequest;
    },
  };

  /** Part A 8: the per-client allowance of the plan, shared with the token endpoint. */
  const throttleClient: Check<AuthorizeContext> = {
    name: 'throttleClient',
    async run({ client, ip }) {
      const policy = clientAllowance(client);
      if (!policy) return;
      // Per client AND address: a client id and its redirect URI are public, so a stranger spending the client's
      // whole allowance here would shut its users out (and its token endpoint with it).
      const decision = await limits.consume(policy, clientAddressKey(client.clientId, ip));
      if (!decision.allowed) {
        throw oauthThrottled(decision, "The client's request allowance for this 5-minute window is spent");
      }
    },
  };

  /** RFC 6749 section 3.1: a parameter sent more than once (or absurdly long) makes the request invalid. */
  const singleValues: Check<AuthorizeContext> = {
    name: 'singleValues',
    run({ params }) {
      if (params.__invalid !== undefined) {
        throw new RedirectedError('invalid_request', 'A parameter is sent more than once or is too long');
      }
    },
  };

  /** OIDC Core 6.1, 6.2: refused on the redirect URI, once client and redirect URI are proven. */
  const requestObject: Check<AuthorizeContext> = {
    name: 'requestObject',
    run({ params }) {
      const unsupported = requestObjectRefusal(params);
      if (unsupported) throw unsupported;
    },
  };

  const clientMayAuthorize: Check<AuthorizeContext> = {
    name: 'clientMayAuthorize',
    run({ client }) {
      if (client.quarantined) {
        throw new RedirectedError('unauthorized_client', 'The organization is awaiting approval');
      }
      if (!client.grantTypes.includes('authorization_code')) {
        throw new RedirectedError(
          'unauthorized_client',
          'This client is not registered for the authorization code flow',
        );
      }
    },
  };

  const responseType: Check<AuthorizeContext> = {
    name: 'responseType',
    run({ params }) {
      if (params.response_type === undefined) throw new RedirectedError('invalid_request', 'response_type is required');
      if (params.response_type !== 'code') {
        throw new RedirectedError('unsupported_response_type', 'Only response_type=code is supported');
      }
    },
  };

  /** Space-separated (RFC 6749 section 3.3), within the provider's and the client's registered scopes. */
  const scope: Check<AuthorizeContext> = {
    name: 'scope',
    run({ params, client, request }) {
      const scopes = [...new Set((params.scope ?? '').split(' ').filter(Boolean))];
      if (scopes.length === 0) throw new RedirectedError('invalid_request', 'scope is required');
      const unknown = scopes.filter(
        (value) => !(SCOPES as readonly string[]).includes(value) || !client.scopes.includes(value),
      );
      if (unknown.length > 0) {
        throw new RedirectedError(
          'invalid_scope',
          `The requested scope exceeds the client's registered scopes (${client.scopes.join(' ')})`,
        );
      }
      request.scopes = scopes;
    },
  };

  /** Part A 4.14: PKCE is mandatory and S256 only (an absent method means plain, RFC 7636 section 4.3). */
  const pkce: Check<AuthorizeContext> = {
    name: 'pkce',
    run({ params, request }) {
      if (params.code_challenge === undefined) {
        throw new RedirectedError('invalid_request', 'code_challenge is required (PKCE with S256)');
      }
      if (params.code_challenge_method !== 'S256') {
        throw new RedirectedError('invalid_request', 'code_challenge_method must be S256 (plain is not accepted)');
      }
      if (!S256_CHALLENGE.test(params.code_challenge)) {
        throw new RedirectedError('invalid_request', 'code_challenge must be the base64url SHA-256 of the verifier');
      }
      request.codeChallenge = params.code_challenge;
    },
  };

  /** Part A 4.14: unknown values, or `none` with another, are `invalid_request`. */
  const prompt: Check<AuthorizeContext> = {
    name: 'prompt',
    run({ params, request }) {
      const values = [...new Set((params.prompt ?? '').split(' ').filter(Boolean))];
      if (values.some((value) => !PROMPTS.has(value))) {
        throw new RedirectedError('invalid_request', 'prompt has an unsupported value');
      }
      if (values.includes('none') && values.length > 1) {
        throw new RedirectedError('invalid_request', 'prompt=none cannot be combined with another value');
      }
      request.prompt = values;
    },
  };

  /** Part A 4.14: a non-negative integer number of seconds. */
  const maxAge: Check<AuthorizeContext> = {
    name: 'maxAge',
    run({ params, request }) {
      const raw = params.max_age;
      if (raw === undefined) {
        request.maxAge = null;
        return;
      }
      if (!/^\d{1,10}$/.test(raw)) {
        throw new RedirectedError('invalid_request', 'max_age must be a non-negative integer number of seconds');
      }
      request.maxAge = Number(raw);
    },
  };

  /** RFC 8707: one registered, enabled resource of the client's organization, else `invalid_target`. */
  const resource: Check<AuthorizeContext> = {
    name: 'resource',
    async run({ params, client, request }) {
      const identifier = params.resource;
      request.resource = null;
      if (identifier === undefined) return;
      const found = await transactions.tenant(client.tenantId, (tx) =>
        store.enabledResource(tx, client.tenantId, identifier),
      );
      if (!found) {
        throw new RedirectedError(
          'invalid_target',
          "The resource is not a registered, enabled resource of the client's organization",
        );
      }
      request.resource = identifier;
    },
  };

  const carried: Check<AuthorizeContext> = {
    name: 'carried',
    run({ params, client, request }) {
      Object.assign(request, {
        clientId: client.clientId,
        clientName: client.name,
        tenantId: client.tenantId,
        tenantSlug: client.tenantSlug,
        state: params.state ?? null,
        nonce: params.nonce ?? null,
        loginHint: params.login_hint ?? null,
        firstParty: client.firstParty,
      });
    },
  };

  const PROVEN: ReadonlyArray<Check<AuthorizeContext>> = [throttleIp, identifyClient, matchRedirectUri, throttleClient];
  const PARAMETERS: ReadonlyArray<Check<AuthorizeContext>> = [
    singleValues,
    requestObject,
    clientMayAuthorize,
    responseType,
    scope,
    pkce,
    prompt,
    maxAge,
    resource,
    carried,
  ];

  /** Part A 4.14: sign-in is needed without a live session here, with prompt=login, or past max_age (0: always). */
  function needsSignIn(request: AuthorizationRequest, session: LiveSession | undefined): boolean {
    if (!session || session.tenantId !== request.tenantId) return true;
    if (request.prompt.includes('login')) return true;
    if (request.maxAge === null) return false;
    return clock.now().getTime() - session.authTime.getTime() >= request.maxAge * 1000 || request.maxAge === 0;
  }

  async function hasCoveringConsent(request: AuthorizationRequest, userId: string): Promise<boolean> {
    if (request.firstParty) return true;
    const consent = await transactions.tenant(request.tenantId, (tx) =>
      store.consent(tx, request.tenantId, userId, request.clientId),
    );
    return consent !== undefined && request.scopes.every((value) => consent.scopes.includes(value));
  }

  const errorRedirect = (request: Pick<AuthorizationRequest, 'redirectUri' | 'state'>, error: RedirectedError) =>
    redirectTo(request.redirectUri, {
      error: error.error,
      error_description: error.description,
      state: request.state,
    });

  /** Issues the code (Part A 3: single use) and answers the redirect that carries it. */
  async function issueCode(request: AuthorizationRequest, session: LiveSession): Promise<string> {
    const code = randomSecret();
    const now = clock.now();
    await transactions.tenant(request.tenantId, async (tx) => {
      await store.insertAuthorizationCode(tx, {
        id: newId(),
        tenantId: request.tenantId,
        clientId: request.clientId,
        codeHash: sha256Hex(code),
        userId: session.userId,
        sessionId: session.sessionId,
        redirectUri: request.redirectUri,
        scope: request.scopes.join(' '),
        nonce: request.nonce,
        codeChallenge: request.codeChallenge,
        resource: request.resource,
        createdAt: now,
        expiresAt: addMs(now, seconds(AUTHORIZATION_CODE_LIFETIME_SECONDS)),
        spentAt: null,
        grantSessionId: null,
      });
      await events.emit(tx, {
        tenantId: request.tenantId,
        actor: { id: session.userId, type: 'human' },
        category: 'auth',
        action: 'oauth.authorization_granted',
        subjectUserId: session.userId,
        data: { client_id: request.clientId, scope: request.scopes.join(' '), resource: request.resource },
      });
    });
    return redirectTo(request.redirectUri, { code, state: request.state });
  }

  /**
   * Where a valid request goes next for this browser: the sign-in page, the consent page, or the client with a
   * code. `signedInNow` is set right after the sign-in page authenticated, so prompt=login and max_age hold
   * without sending the person round again.
   */
  async function next(
    request: AuthorizationRequest,
    session: LiveSession | undefined,
    options: { signedInNow?: boolean } = {},
  ): Promise<AuthorizeAnswer> {
    const silent = request.prompt.includes('none');
    if (!options.signedInNow && needsSignIn(request, session)) {
      if (silent)
        return { location: errorRedirect(request, new RedirectedError('login_required', 'Sign-in is required')) };
      return { location: `/login?request=${encodeURIComponent(pendingRequests.sign({ request }))}` };
    }
    const live = session!;
    if (request.prompt.includes('consent') || !(await hasCoveringConsent(request, live.userId))) {
      if (silent) {
        return { location: errorRedirect(request, new RedirectedError('consent_required', 'Consent is required')) };
      }
      const pending = pendingRequests.sign({ request, sid: live.sessionId });
      return { location: `/consent?request=${encodeURIComponent(pending)}` };
    }
    return { location: await issueCode(request, live) };
  }

  return {
    /**
     * Validates the request; the session is the browser's live session at the provider, if any. Throws
     * UnprovenRequest (400) or a 429 OAuthError; every other refusal is a redirect.
     */
    async authorize(
      params: Record<string, string>,
      ip: string,
      session: LiveSession | undefined,
    ): Promise<AuthorizeAnswer> {
      const context = { params, ip } as AuthorizeContext;
      await runChecks(PROVEN, context);
      try {
        await runChecks(PARAMETERS, context);
      } catch (error) {
        if (error instanceof RedirectedError) {
          return {
            location: errorRedirect({ redirectUri: context.request.redirectUri, state: params.state ?? null }, error),
          };
        }
        throw error;
      }
      return next(context.request, session);
    },

    next,

    /** The person approved on the consent page: the consent is recorded (widened) and the code issued. */
    async approve(request: AuthorizationRequest, session: LiveSession): Promise<AuthorizeAnswer> {
      const now = clock.now();
      await transactions.tenant(request.tenantId, async (tx) => {
        await store.upsertConsent(tx, {
          tenantId: request.tenantId,
          userId: session.userId,
          clientId: request.clientId,
          scopes: request.scopes,
          createdAt: now,
          updatedAt: now,
        });
        await events.emit(tx, {
          tenantId: request.tenantId,
          actor: { id: session.userId, type: 'human' },
          category: 'auth',
          action: 'oauth.consent_granted',
          subjectUserId: session.userId,
          data: { client_id: request.clientId, scope: request.scopes.join(' ') },
        });
      });
      return { location: await issueCode(request, session) };
    },

    /** The person declined: `access_denied` with the state (Part A 4.14). */
    deny(request: AuthorizationRequest): AuthorizeAnswer {
      return {
        location: errorRedirect(request, new RedirectedError('access_denied', 'The user declined the request')),
      };
    },

    /** A refusal on the redirect URI, for pages that fail after the request was proven. */
    refuse(request: AuthorizationRequest, error: string, description: string): AuthorizeAnswer {
      return { location: errorRedirect(request, new RedirectedError(error, description)) };
    },

    /** Reads the authorize query or form: each parameter at most once (RFC 6749 section 3.1). */
    parameters(source: Record<string, string | string[] | undefined>): Record<string, string> {
      const params: Record<string, string> = Object.create(null);
      for (const [name, value] of Object.entries(source)) {
        if (value === undefined || value === '') continue;
        if (Array.isArray(value) || value.length > MAX_VALUE_LENGTH) {
          // Reported once the redirect URI is proven, when it can be: as a missing value before that.
          if (name === 'client_id' || name === 'redirect_uri') continue;
          params.__invalid = name;
          continue;
        }
        params[name] = value;
      }
      return params;
    },
  };
}

export type AuthorizeEndpoint = ReturnType<typeof createAuthorizeEndpoint>;
