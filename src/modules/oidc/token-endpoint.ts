import type { AfterAnswer } from '../../kernel/after-answer.js';
import { type AccessTokens, DpopError, type DpopVerifier } from '../../kernel/auth/index.js';
import type { Clock } from '../../kernel/clock.js';
import type { Transactions } from '../../kernel/db/index.js';
import type { Events } from '../../kernel/events/index.js';
import { OAuthError } from '../../kernel/http/index.js';
import type { LimitDecision, Limiter } from '../../kernel/limits/index.js';
import type { Metrics } from '../../kernel/observability/index.js';
import {
  type AuthenticationFailure,
  authenticationFailure,
  type ClientCredentials,
  invalidClient,
  readClientCredentials,
} from './client-auth.js';
import { createClientCredentialsGrant } from './client-credentials.js';
import type { ClientDirectory } from './client-directory.js';
import { type Check, type Grant, grantFor, runChecks, type TokenResponse } from './grants.js';
import type * as store from './store.js';
import {
  CLIENT_AUTH_FAILURES_PER_CLIENT_IP,
  CLIENT_AUTH_FAILURES_PER_IP,
  clientAddressKey,
  clientAllowance,
  createWindowedLimiter,
  OAUTH_REQUESTS_PER_IP,
  oauthThrottled,
  type Spent,
} from './token-throttles.js';

/** What the route's body parser answers for anything but a form: the endpoint takes forms only. */
export const NOT_A_FORM: unique symbol = Symbol('not a form');

/** A form body as parsed: every value of each parameter, in order. */
export type FormBody = Record<string, string[]>;

/** `application/x-www-form-urlencoded` (WHATWG URL): repeated parameters keep all their values. */
export function readForm(text: string): FormBody {
  const form: FormBody = Object.create(null);
  for (const [name, value] of new URLSearchParams(text)) {
    const values = form[name];
    if (values) values.push(value);
    else form[name] = [value];
  }
  return form;
}

/** The facts of an HTTP request the endpoint needs (the route passes them; no Fastify type reaches here). */
export interface TokenRequest {
  body: FormBody | typeof NOT_A_FORM | undefined;
  authorization: string | undefined;
  dpop: string | string[] | undefined;
  ip: string;
  method: string;
  /** The request target as received (path and query), for the DPoP proof's `htu`. */
  url: string;
}

interface TokenContext {
  readonly request: TokenRequest;
  params: Record<string, string>;
  resources: string[];
  grant: Grant;
  credentials: ClientCredentials;
  /** Undefined when no client has the presented id (the answer stays the one of a wrong secret). */
  client: store.TokenClientRow | undefined;
  /** Whether the per-address floor was read (with the failure budgets). */
  floorRead: boolean;
  /** Set once the client authenticated: the request then costs the per-address floor nothing. */
  authenticated: boolean;
  /**
   * The failure budgets' units, spent before verification: a failed authentication keeps them, anything else
   * (a success, a refusal before verification) gives them back.
   */
  failureUnits: Spent[];
  /** No failure in the window yet: the attempt was verified first, and a failure is counted after it. */
  countFailureAfter: boolean;
  dpopJkt: string | undefined;
  response: TokenResponse;
}

export interface TokenEndpointDeps {
  transactions: Transactions;
  events: Events;
  clock: Clock;
  limiter: Limiter;
  accessTokens: AccessTokens;
  dpop: DpopVerifier;
  logger: { warn(obj: object, msg: string): void };
  afterAnswer: AfterAnswer;
  clients: ClientDirectory;
  /** OIDC_ISSUER: discovery advertises this endpoint under it, so proofs name it there (`htu`). */
  issuer: string;
  /** The grants of a person's authorization (authorization_code, refresh_token), built by the provider. */
  personGrants?: ReadonlyArray<readonly [string, Grant]>;
  metrics?: Pick<Metrics, 'tokenIssued'> | undefined;
}

/**
 * `POST /oauth/token` (Part A 4.14): an ordered list of small named checks, then the grant the registry holds
 * for `grant_type`. The first check that throws answers with an RFC 6749 section 5.2 error.
 */
const floorRefusal = (decision: LimitDecision) => oauthThrottled(decision, 'Too many token requests from this address');

export function createTokenEndpoint(deps: TokenEndpointDeps) {
  const { transactions, events, clock, dpop, logger } = deps;
  const limits = createWindowedLimiter(deps.limiter, clock);

  /** The grant registry: `grant_type` -> handler. */
  const grants: ReadonlyMap<string, Grant> = new Map([
    ...(deps.personGrants ?? []),
    ['client_credentials', createClientCredentialsGrant(deps)],
  ]);

  /**
   * The body is a form (Part A 4.14). RFC 6749 section 3.2: each parameter at most once, and one sent empty
   * counts as left out; `resource` alone may repeat (RFC 8707 section 2), the grant decides what it accepts.
   */
  const parseForm: Check<TokenContext> = {
    name: 'parseForm',
    run(context) {
      const { body } = context.request;
      if (body === undefined || body === NOT_A_FORM) {
        throw new OAuthError('invalid_request', 'The body must be application/x-www-form-urlencoded');
      }
      const params: Record<string, string> = Object.create(null);
      for (const [name, values] of Object.entries(body)) {
        const given = values.filter((value) => value !== '');
        if (name === 'resource') {
          context.resources = given;
          continue;
        }
        if (given.length > 1) {
          throw new OAuthError('invalid_request', `The parameter ${safeName(name)} is sent more than once`);
        }
        if (given.length === 1) params[name] = given[0]!;
      }
      context.params = params;
    },
  };

  const selectGrant: Check<TokenContext> = {
    name: 'selectGrant',
    run(context) {
      context.grant = grantFor(grants, context.params.grant_type);
    },
  };

  const identifyCredentials: Check<TokenContext> = {
    name: 'identifyCredentials',
    run(context) {
      context.credentials = readClientCredentials(context.params, context.request.authorization);
    },
  };

  /**
   * Part A 5.5: a client id from an address, or an address, with repeated failures is refused before any
   * credential is checked. While neither budget holds a failure in the window, attempts are verified first and a
   * failure is counted after it (a busy server's concurrent requests hold no units, so they never throttle each
   * other). Once either holds one, every attempt spends its unit atomically BEFORE verification, as if it were
   * going to fail, and gets it back when it does not: a concurrent burst cannot slip past the budget the way it
   * could past a read-then-spend. A success gives back only its own unit and never clears earlier failures.
   *
   * Part A 8, the per-IP floor for unauthenticated traffic, is read in the same round trip: a request that ends
   * without authenticating a client (a failure, an unknown or missing client, a refusal before authentication)
   * is counted when it ends (`token` below); an authenticated client is held to its plan's allowance instead,
   * and its requests cost the floor nothing.
   */
  const throttleFailedAuthentications: Check<TokenContext> = {
    name: 'throttleFailedAuthentications',
    async run(context) {
      const { credentials, request } = context;
      const pairKey = clientAddressKey(credentials.clientId, request.ip);
      const [floor, ...seen] = await limits.peekMany([
        { policy: OAUTH_REQUESTS_PER_IP, key: request.ip },
        { policy: CLIENT_AUTH_FAILURES_PER_CLIENT_IP, key: pairKey },
        { policy: CLIENT_AUTH_FAILURES_PER_IP, key: request.ip },
      ]);
      context.floorRead = true;
      if (!floor!.allowed) throw floorRefusal(floor!);
      const blocked = seen.find((decision) => !decision.allowed);
      if (blocked) throw oauthThrottled(blocked, 'Too many failed client authentications');
      if (seen.every((decision) => decision.remaining === decision.limit)) {
        context.failureUnits = [];
        context.countFailureAfter = true;
        return;
      }
      const units = await Promise.all([
        limits.spend(CLIENT_AUTH_FAILURES_PER_CLIENT_IP, pairKey),
        limits.spend(CLIENT_AUTH_FAILURES_PER_IP, request.ip),
      ]);
      const refused = units.find((unit) => !unit.decision.allowed);
      if (refused) {
        // Not verified, so not a failure: a refused attempt leaves the budgets where they were.
        await giveBack(units);
        throw oauthThrottled(refused.decision, 'Too many failed client authentications');
      }
      context.failureUnits = units;
    },
  };

  /** By id alone, across organizations: the request names none, and a client id names one (store.tokenClient). */
  const identifyClient: Check<TokenContext> = {
    name: 'identifyClient',
    async run(context) {
      context.client = await deps.clients.find(context.credentials.clientId);
    },
  };

  /**
   * Part A 8: the per-client allowance of the organization's plan. It runs after authentication, so only the
   * client itself spends it: a stranger who knows a client id (ids are public) cannot use up its window.
   */
  const throttleClient: Check<TokenContext> = {
    name: 'throttleClient',
    async run(context) {
      const policy = clientAllowance(context.client!);
      if (!policy) return;
      // A public client authenticates with its id alone, which is public: its allowance is per address, so a
      // stranger cannot spend it for the client's users.
      const { clientId, method } = context.credentials;
      const key = method === 'none' ? clientAddressKey(clientId, context.request.ip) : clientId;
      const decision = await limits.consume(policy, key);
      if (!decision.allowed) {
        throw oauthThrottled(decision, "The client's request allowance for this 5-minute window is spent");
      }
    },
  };

  const authenticateClient: Check<TokenContext> = {
    name: 'authenticateClient',
    async run(context) {
      const { client, credentials } = context;
      const failure = authenticationFailure(client, credentials);
      if (failure === null) {
        // Authenticated: this request was neither a failure nor unauthenticated traffic. Only its own units come
        // back; the failures before it stay counted.
        context.authenticated = true;
        await giveBack(context.failureUnits);
        return;
      }
      // A failure keeps the units it spent (both failure budgets'), or spends them now when it was verified first.
      if (context.countFailureAfter) {
        await Promise.all([
          limits.consume(
            CLIENT_AUTH_FAILURES_PER_CLIENT_IP,
            clientAddressKey(credentials.clientId, context.request.ip),
          ),
          limits.consume(CLIENT_AUTH_FAILURES_PER_IP, context.request.ip),
        ]);
      }
      // Not awaited: the answer must take as long for an unknown client as for a known one (Part A 7).
      if (client) {
        deps.afterAnswer.run(
          () => recordFailure(client, credentials, failure),
          (error) => logger.warn({ err: error.message }, 'client authentication failure not recorded'),
        );
      }
      throw invalidClient();
    },
  };

  /** RFC 9449 section 5: a proof binds the token to its key; a broken one is refused, never ignored. */
  const verifyDpopProof: Check<TokenContext> = {
    name: 'verifyDpopProof',
    async run(context) {
      const { request } = context;
      if (request.dpop === undefined) return;
      try {
        const { jkt } = await dpop.verify({
          proof: request.dpop,
          method: request.method,
          url: dpop.urlOf(request.url, deps.issuer),
        });
        context.dpopJkt = jkt;
      } catch (error) {
        if (error instanceof DpopError) throw new OAuthError('invalid_dpop_proof', error.message);
        throw error;
      }
    },
  };

  const grant: Check<TokenContext> = {
    name: 'grant',
    async run(context) {
      context.response = await context.grant.handle({
        client: context.client!,
        credentials: context.credentials,
        params: context.params,
        resources: context.resources,
        dpopJkt: context.dpopJkt,
        ip: context.request.ip,
      });
    },
  };

  /**
   * The order is the rule: the form's own checks (cheap, no look-up; a refusal there still answers the
   * floor's 429 when it is spent); the per-address floor and the failure budgets before any look-up or
   * verification (Part A 5.5); authentication settles the units spent ahead of it; the plan's allowance
   * (Part A 8) counts the authenticated client's own requests; the DPoP proof only for an authenticated client;
   * the grant last.
   */
  const CHECKS: ReadonlyArray<Check<TokenContext>> = [
    parseForm,
    selectGrant,
    identifyCredentials,
    throttleFailedAuthentications,
    identifyClient,
    authenticateClient,
    throttleClient,
    verifyDpopProof,
    grant,
  ];

  async function giveBack(units: readonly Spent[]): Promise<void> {
    await Promise.all(units.map((unit) => unit.giveBack()));
  }

  async function recordFailure(
    client: store.TokenClientRow,
    credentials: ClientCredentials,
    reason: AuthenticationFailure,
  ): Promise<void> {
    await transactions.tenant(client.tenantId, (tx) =>
      events.emit(tx, {
        tenantId: client.tenantId,
        actor: { id: client.clientId, type: 'service' },
        category: 'auth',
        action: 'oauth.client_authentication_failed',
        severity: 'low',
        outcome: 'failure',
        data: { client_id: client.clientId, auth_method: credentials.method, reason },
      }),
    );
  }

  return {
    async token(request: TokenRequest): Promise<TokenResponse> {
      // Each check fills in what the later ones read.
      const context = {
        request,
        params: {},
        resources: [],
        authenticated: false,
        floorRead: false,
      } as unknown as TokenContext;
      try {
        await runChecks(CHECKS, context);
      } catch (error) {
        // A refusal before the floor was read (a malformed request) is still the floor's 429 when it is spent.
        if (!context.floorRead) {
          const floor = await limits.peek(OAUTH_REQUESTS_PER_IP, request.ip);
          if (!floor.allowed) throw floorRefusal(floor);
        }
        throw error;
      } finally {
        if (!context.authenticated) await limits.consume(OAUTH_REQUESTS_PER_IP, request.ip);
      }
      deps.metrics?.tokenIssued(context.params.grant_type ?? 'unknown');
      return context.response;
    },
  };
}

export type TokenEndpoint = ReturnType<typeof createTokenEndpoint>;

/** A parameter name as it may appear in `error_description` (RFC 6749 section 5.2 allows a few ASCII characters). */
const safeName = (name: string) => (/^[A-Za-z0-9_.-]{1,64}$/.test(name) ? name : 'given');
