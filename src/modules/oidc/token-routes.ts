import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { errors } from '../accounts/index.js';
import { createTokenEndpoint, type FormBody, NOT_A_FORM, readForm, type TokenEndpointDeps } from './token-endpoint.js';
import {
  CLIENT_AUTH_FAILURES_PER_CLIENT_IP,
  CLIENT_AUTH_FAILURES_PER_IP,
  OAUTH_REQUESTS_PER_IP,
} from './token-throttles.js';

export const TOKEN_PATH = '/api/v1/oauth/token';

const Param = (description: string) => Type.Optional(Type.String({ description }));

/** Documentation only: the endpoint's own checks read the form, so every refusal is an RFC 6749 error. */
const TokenForm = Type.Object(
  {
    grant_type: Type.String({ description: '`client_credentials` (authorization_code and refresh_token: not yet)' }),
    client_id: Param('The client id, when HTTP Basic is not used'),
    client_secret: Param('The client secret, when HTTP Basic is not used (never both)'),
    scope: Param("Space-separated; a subset of the client's registered scopes; default: all of them"),
    resource: Param('RFC 8707 resource identifier registered and enabled in the organization; at most one'),
  },
  { additionalProperties: true },
);

const TokenAnswer = Type.Object({
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

/**
 * The OpenID Provider's endpoints (Part A 4.14); today the token endpoint. It is registered in a scope of its
 * own whose only body parser reads forms: a JSON body, or any other content type, reaches the endpoint as "not a
 * form" and is answered with `invalid_request` (RFC 6749 JSON) instead of the service's `{"detail"}` 415 or 400.
 */
export function registerOAuthProviderRoutes(app: FastifyInstance, deps: TokenEndpointDeps): void {
  const endpoint = createTokenEndpoint(deps);

  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) =>
      done(null, readForm(body as string)),
    );
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, _body, done) => done(null, NOT_A_FORM));

    scope.post(
      TOKEN_PATH,
      {
        config: { auth: 'public' },
        // Every parameter rule is a check of the endpoint, answered as RFC 6749 requires (never a 422).
        validatorCompiler: () => () => true,
        schema: {
          tags: ['oauth'],
          summary: 'OAuth token endpoint (client_credentials)',
          description:
            'Form-encoded (RFC 6749 section 4.4). Client authentication: HTTP Basic with the form-encoded id and ' +
            'secret, or the client_id and client_secret form fields, never both. A `DPoP` proof binds the token ' +
            '(token_type DPoP). Errors are RFC 6749 section 5.2 JSON: 400 invalid_request, unsupported_grant_type, ' +
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
        const answer = await endpoint.token({
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
