import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { principalOf } from '../../kernel/auth/index.js';
import { HttpError } from '../../kernel/http/index.js';
import { errors } from '../accounts/index.js';
import type { OpenIdProvider } from './provider.js';
import { PROVIDER_PATHS } from './provider.js';
import { type FormBody, NOT_A_FORM, readForm } from './token-endpoint.js';
import {
  CLIENT_AUTH_FAILURES_PER_CLIENT_IP,
  CLIENT_AUTH_FAILURES_PER_IP,
  OAUTH_REQUESTS_PER_IP,
} from './token-throttles.js';

export const TOKEN_PATH = PROVIDER_PATHS.token;

const Param = (description: string) => Type.Optional(Type.String({ description }));

/** Documentation only: the endpoint's own checks read the form, so every refusal is an RFC 6749 error. */
const TokenForm = Type.Object(
  {
    grant_type: Type.String({ description: '`authorization_code`, `refresh_token` or `client_credentials`' }),
    code: Param('authorization_code: the code from the redirect'),
    redirect_uri: Param('authorization_code: the redirect URI of the authorization request, exactly'),
    code_verifier: Param('authorization_code: the PKCE verifier (43-128 characters)'),
    refresh_token: Param('refresh_token: the current refresh token (rotated on use)'),
    client_id: Param('The client id, when HTTP Basic is not used'),
    client_secret: Param('The client secret, when HTTP Basic is not used (never both)'),
    scope: Param(
      "client_credentials: capped to the client's registered scopes (default: all; none registered is invalid_scope); refresh_token: a subset of the grant's (narrowing only)",
    ),
    resource: Param('RFC 8707 resource identifier registered and enabled in the organization; at most one'),
  },
  { additionalProperties: true },
);

const TokenAnswer = Type.Object({
  id_token: Type.Optional(Type.String({ description: 'With `openid` on a person grant (Part A 2.9)' })),
  refresh_token: Type.Optional(
    Type.String({ description: 'When the client has the refresh_token grant; rotated on each use' }),
  ),
  access_token: Type.String({ description: 'RS256 JWT; its claims are not contract (Part A 2.11)' }),
  token_type: Type.Union([Type.Literal('Bearer'), Type.Literal('DPoP')], {
    description: '`DPoP` when a DPoP proof bound the token to its key (RFC 9449)',
  }),
  expires_in: Type.Integer({ description: 'Lifetime in seconds (900 by default)' }),
  scope: Type.String({ description: 'The granted scopes, space-separated' }),
});

const OAuthProblem = Type.Object(
  { error: Type.String(), error_description: Type.String() },
  { description: 'RFC 6749 section 5.2' },
);

const AuthorizeQuery = Type.Object(
  {
    response_type: Type.String({ description: '`code`' }),
    client_id: Type.String(),
    redirect_uri: Type.String({ description: 'Exactly one of the registered redirect URIs' }),
    scope: Type.String({ description: 'Space-separated subset of `openid profile email` registered for the client' }),
    state: Param('Returned unchanged on the redirect'),
    nonce: Param('Returned in the ID token'),
    code_challenge: Type.String({ description: 'PKCE: base64url SHA-256 of the verifier' }),
    code_challenge_method: Type.String({ description: '`S256` (plain is refused)' }),
    prompt: Param('`login`, `consent`, `none` or `select_account` (space-separated; `none` alone)'),
    max_age: Param('Non-negative integer seconds; 0 behaves like prompt=login'),
    login_hint: Param('Accepted and carried'),
    resource: Param('RFC 8707 resource identifier registered and enabled in the organization'),
  },
  { additionalProperties: true },
);

const AUTHORIZE_DESCRIPTION =
  'Part A 4.14. Answers a redirect: to the hosted `/login` or `/consent` page, or to the redirect URI with `code` ' +
  'and `state`, or with `error`, `error_description` and `state` (invalid_request, unsupported_response_type, ' +
  'invalid_scope, unauthorized_client, access_denied, login_required, consent_required, invalid_target, ' +
  'request_not_supported, request_uri_not_supported). An ' +
  'unknown client or a redirect URI not registered exactly answers 400 with an RFC 6749 error body and never ' +
  'redirects; 429 when the per-client or per-address allowance is spent.';

const UserinfoAnswer = Type.Object(
  {
    sub: Type.String(),
    tid: Type.String({ format: 'uuid', description: 'Organization id (immutable; the key to use)' }),
    tenant_slug: Type.String({ description: 'Organization slug (display only)' }),
    email: Type.Optional(Type.String({ description: 'scope email' })),
    email_verified: Type.Optional(Type.Boolean({ description: 'scope email' })),
    name: Type.Optional(Type.String({ description: 'scope profile, when set' })),
    given_name: Type.Optional(Type.String({ description: 'scope profile, when set' })),
    family_name: Type.Optional(Type.String({ description: 'scope profile, when set' })),
    picture: Type.Optional(Type.String({ description: 'scope profile, when set' })),
    updated_at: Type.Optional(Type.Integer({ description: 'scope profile: seconds since the epoch' })),
  },
  { additionalProperties: false },
);

const ConnectedApp = Type.Object({
  client_id: Type.String(),
  name: Type.String({ description: 'The client name shown on the consent page' }),
  scopes: Type.Array(Type.String(), { description: 'Scopes the person consented to' }),
  granted_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});

/** A query or form as the authorize endpoint reads it: every value of each parameter. */
const parametersOf = (source: unknown) =>
  source && typeof source === 'object' ? (source as Record<string, string | string[]>) : {};

/**
 * The OpenID Provider's endpoints (Part A 4.14). The form-taking ones are registered in a scope of their own
 * whose only body parser reads forms: a JSON body, or any other content type, reaches the endpoint as "not a
 * form" and is answered with `invalid_request` (RFC 6749 JSON) instead of the service's `{"detail"}` 415 or 400.
 */
export function registerOAuthProviderRoutes(app: FastifyInstance, deps: { provider: OpenIdProvider }): void {
  const { provider } = deps;

  app.get(
    '/.well-known/openid-configuration',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['oauth'],
        summary: 'OpenID Provider discovery',
        description: 'OIDC Discovery 1.0: every URL derives from OIDC_ISSUER; advertises exactly what is enforced.',
        response: { 200: Type.Object({}, { additionalProperties: true }) },
      },
    },
    async (_request, reply) => reply.header('cache-control', 'public, max-age=300').send(provider.discovery()),
  );

  async function authorize(request: FastifyRequest, reply: FastifyReply, source: unknown, status: 302 | 303) {
    const params = provider.authorize.parameters(parametersOf(source));
    const session = await provider.readBrowserSession(request);
    const { location } = await provider.authorize.authorize(params, request.ip, session);
    return reply.code(status).header('cache-control', 'no-store').redirect(location, status);
  }

  app.get(
    PROVIDER_PATHS.authorize,
    {
      config: { auth: 'public' },
      validatorCompiler: () => () => true,
      schema: {
        tags: ['oauth'],
        summary: 'Authorization endpoint',
        description: AUTHORIZE_DESCRIPTION,
        querystring: AuthorizeQuery,
        response: { 302: Type.Null(), 400: OAuthProblem, 429: OAuthProblem },
      },
    },
    (request, reply) => authorize(request, reply, request.query, 302),
  );

  app.get(
    PROVIDER_PATHS.userinfo,
    {
      config: { auth: 'public' },
      schema: {
        tags: ['oauth'],
        summary: 'UserInfo',
        description:
          'Part A 2.10: `Authorization: Bearer` (or `DPoP` with a proof) with an access token from the authorization ' +
          'code flow. 401 with `WWW-Authenticate` error="invalid_token" when the token is invalid, bound to a ' +
          'resource, issued by client_credentials, or its session was revoked.',
        response: { 200: UserinfoAnswer, ...errors(401) },
      },
    },
    async (request, reply) => reply.header('cache-control', 'no-store').send(await userinfo(request)),
  );

  async function userinfo(request: FastifyRequest) {
    return provider.userinfo(request.headers.authorization, {
      dpop: request.headers.dpop,
      method: request.method,
      url: request.url,
    });
  }

  app.get(
    PROVIDER_PATHS.endSession,
    {
      config: { auth: 'public' },
      validatorCompiler: () => () => true,
      schema: {
        tags: ['oauth'],
        summary: 'End session (RP-initiated logout)',
        description:
          'Part A 4.14: `id_token_hint` (required), `post_logout_redirect_uri` (registered, exact), `state`. ' +
          'Redirects to the hosted `/logout` confirmation page; after confirmation the session ends and the ' +
          'browser goes to the post-logout redirect URI with `state`. 400 `{"detail"}` otherwise, never redirected.',
        querystring: Type.Object(
          {
            id_token_hint: Type.String(),
            post_logout_redirect_uri: Param('Registered for the client, exactly'),
            state: Param('Returned unchanged'),
          },
          { additionalProperties: true },
        ),
        response: { 303: Type.Null(), ...errors(400) },
      },
    },
    async (request, reply) => {
      const params = provider.authorize.parameters(parametersOf(request.query));
      if (params.__invalid !== undefined) throw new HttpError(400, 'A parameter is sent more than once');
      const { location } = await provider.endSession(params);
      return reply.header('cache-control', 'no-store').redirect(location, 303);
    },
  );

  app.get(
    '/api/v1/me/connected-apps',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['me'],
        summary: 'Apps the caller consented to',
        description: 'Every consent given on the consent page, in this organization.',
        response: { 200: Type.Object({ connected_apps: Type.Array(ConnectedApp) }), ...errors(401, 403) },
      },
    },
    async (request) => ({ connected_apps: await provider.connectedApps(principalOf(request) as Me) }),
  );

  app.delete(
    '/api/v1/me/connected-apps/:client_id',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['me'],
        summary: 'Revoke an app',
        description:
          'Removes the consent, ends the live grant sessions of that app (each receiving a back-channel logout ' +
          'token when it registered a URI) and blocks further refresh. 404 when the caller has no consent for it.',
        params: Type.Object({ client_id: Type.String({ maxLength: 200 }) }),
        response: { 204: Type.Null(), ...errors(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { client_id: clientId } = request.params as { client_id: string };
      await provider.revokeConnectedApp(principalOf(request) as Me, clientId);
      return reply.code(204).send();
    },
  );

  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) =>
      done(null, readForm(body as string)),
    );
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, _body, done) => done(null, NOT_A_FORM));

    scope.post(
      PROVIDER_PATHS.authorize,
      {
        config: { auth: 'public' },
        validatorCompiler: () => () => true,
        schema: {
          tags: ['oauth'],
          summary: 'Authorization endpoint (form post)',
          description: `${AUTHORIZE_DESCRIPTION} The same parameters as GET, form-encoded.`,
          consumes: ['application/x-www-form-urlencoded'],
          body: AuthorizeQuery,
          response: { 303: Type.Null(), 400: OAuthProblem, 429: OAuthProblem },
        },
      },
      (request, reply) => {
        const body = request.body === NOT_A_FORM ? {} : request.body;
        return authorize(request, reply, body, 303);
      },
    );

    scope.post(
      PROVIDER_PATHS.userinfo,
      {
        config: { auth: 'public' },
        validatorCompiler: () => () => true,
        schema: {
          tags: ['oauth'],
          summary: 'UserInfo (POST)',
          description: 'As GET; the access token travels in the Authorization header.',
          response: { 200: UserinfoAnswer, ...errors(401) },
        },
      },
      async (request, reply) => reply.header('cache-control', 'no-store').send(await userinfo(request)),
    );

    scope.post(
      TOKEN_PATH,
      {
        config: { auth: 'public' },
        // Every parameter rule is a check of the endpoint, answered as RFC 6749 requires (never a 422).
        validatorCompiler: () => () => true,
        schema: {
          tags: ['oauth'],
          summary: 'OAuth token endpoint',
          description:
            'Form-encoded (RFC 6749 sections 4.1.3, 4.4 and 6). Client authentication: HTTP Basic with the form-encoded id and ' +
            'secret, or the client_id and client_secret form fields, never both. A `DPoP` proof binds the token ' +
            '(token_type DPoP). Errors are RFC 6749 section 5.2 JSON: 400 invalid_request, invalid_grant (naming the reason), unsupported_grant_type, ' +
            'unauthorized_client, invalid_scope, invalid_target, invalid_dpop_proof; 401 invalid_client; 429 ' +
            `temporarily_unavailable with Retry-After and RateLimit headers (per-client plan allowance per 5 minutes, ` +
            `${CLIENT_AUTH_FAILURES_PER_CLIENT_IP.points} failed authentications per client id and address, ` +
            `${CLIENT_AUTH_FAILURES_PER_IP.points} per address, ${OAUTH_REQUESTS_PER_IP.points} unauthenticated ` +
            'requests per address). Answers are never cached.',
          consumes: ['application/x-www-form-urlencoded'],
          body: TokenForm,
          response: {
            200: TokenAnswer,
            // A body the HTTP layer refuses before the endpoint runs (a bad Content-Length) keeps `{"detail"}`.
            400: Type.Union([OAuthProblem, errors(400)[400]!]),
            401: OAuthProblem,
            429: OAuthProblem,
            ...errors(413),
          },
        },
      },
      async (request, reply) => {
        const answer = await provider.token({
          body: request.body as FormBody | typeof NOT_A_FORM | undefined,
          authorization: request.headers.authorization,
          dpop: request.headers.dpop,
          ip: request.ip,
          method: request.method,
          url: request.url,
        });
        // RFC 6749 section 5.1: a token answer is never stored by a cache.
        return reply.headers({ 'cache-control': 'no-store', pragma: 'no-cache' }).send(answer);
      },
    );
  });
}

type Me = { tenantId: string; userId: string };
