import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { type DpopVerifier, principalOf } from '../../kernel/auth/index.js';
import { errors } from '../../kernel/http/index.js';
import { noStore, SignInResultSchema } from '../sign-in/index.js';
import {
  answerCompletion,
  authorizationUrlAnswer,
  CompletionHeaders,
  completionBody,
  createBrowserBinding,
  ProviderCallbackQuery,
  redirectBrowser,
  TenantSlugBody,
} from '../sso/index.js';
import type { SocialIdentities } from './identities.js';
import type { SocialSignIn } from './sign-in.js';

const ProviderParam = Type.Object({
  provider: Type.String({ maxLength: 32, description: 'A configured provider: `google` or `github`' }),
});
const AuthorizationUrl = authorizationUrlAnswer('Send the browser here: the provider’s sign-in');
const CompleteBody = completionBody('social_code');
const UnlinkBody = Type.Object({
  password: Type.Optional(
    Type.String({ minLength: 1, maxLength: 1024, description: 'Required when the account has a password' }),
  ),
});
const Identities = Type.Object({
  identities: Type.Array(
    Type.Object({
      provider: Type.String(),
      email: Type.Union([Type.String(), Type.Null()], { description: 'The address the provider vouched for' }),
      linked_at: Type.String({ format: 'date-time' }),
      last_used_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    }),
  ),
});

const tags = ['social'];
export const SOCIAL_FLOW_COOKIE = 'svc_social_flow';
const BINDING =
  'Sets an httpOnly, Secure, SameSite=Lax cookie that binds the round trip to this browser: it must come back to ' +
  'the callback in the same browser within about 10 minutes. ';

/** Part A 4.5: social login with Google (OpenID Connect) and GitHub (OAuth 2.0), and linked identities. */
export function registerSocialRoutes(
  app: FastifyInstance,
  deps: { signIn: SocialSignIn; identities: SocialIdentities; dpop: DpopVerifier },
): void {
  const { signIn, identities, dpop } = deps;
  const binding = createBrowserBinding({ cookieName: SOCIAL_FLOW_COOKIE, path: '/api/v1/auth/social' });

  app.get(
    '/api/v1/auth/social/providers',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'The social providers this deployment configured',
        response: { 200: Type.Object({ providers: Type.Array(Type.String()) }) },
      },
    },
    async () => ({ providers: signIn.providers() }),
  );

  app.post<{ Params: Static<typeof ProviderParam>; Body: Static<typeof TenantSlugBody> }>(
    '/api/v1/auth/social/:provider/start',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'Start a social sign-in',
        description:
          `${BINDING}404 when the provider is not configured. The same answer for an unknown organization and ` +
          'one that turned social sign-in off (that round trip ends in the error flag). 502 when the provider ' +
          'cannot be reached; 429 past 60 starts per 10 minutes from one address.',
        params: ProviderParam,
        body: TenantSlugBody,
        response: { 200: AuthorizationUrl, ...errors(404, 422, 429, 502) },
      },
      preValidation: async (request) => signIn.assertConfigured((request.params as { provider: string }).provider),
    },
    async (request, reply) => {
      const secret = binding.secretFor(request);
      const answer = await signIn.start(request.params.provider, request.body.tenant_slug, { secret, ip: request.ip });
      binding.remember(reply, secret);
      return noStore(reply).send(answer);
    },
  );

  app.get<{ Params: Static<typeof ProviderParam>; Querystring: Static<typeof ProviderCallbackQuery> }>(
    '/api/v1/auth/social/:provider/callback',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'The provider’s redirect back (browser)',
        description:
          '302 to SIGN_IN_RETURN_URL with `social_code` (a sign-in: single use, 60 seconds, redeem it with ' +
          '`POST /auth/social/complete`), `social_linked=<provider>` (a link), or `social_error=true` for every ' +
          'failure alike. 404 when the provider is not configured.',
        params: ProviderParam,
        querystring: ProviderCallbackQuery,
      },
      preValidation: async (request) => signIn.assertConfigured((request.params as { provider: string }).provider),
    },
    async (request, reply) => {
      const target = await signIn.callback(request.params.provider, request.query, binding.read(request));
      return redirectBrowser(reply, target, 302);
    },
  );

  app.post<{ Body: Static<typeof CompleteBody> }>(
    '/api/v1/auth/social/complete',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'Redeem the one-time social sign-in code',
        description:
          'A token pair (amr `social`), or `{mfa_required: true, mfa_token}` when the account has TOTP enrolled. ' +
          '401 `Invalid or expired code` alike for an unknown, expired (60 seconds) or used code, an account or ' +
          'membership no longer active and social sign-in turned off. 403 when the organization requires SSO ' +
          '(owners pass as break-glass). A DPoP proof binds the tokens to its key.',
        headers: CompletionHeaders,
        body: CompleteBody,
        response: { 200: SignInResultSchema, ...errors(400, 401, 403, 422) },
      },
    },
    async (request, reply) => answerCompletion(request, reply, dpop, signIn.complete),
  );

  app.get(
    '/api/v1/auth/social/identities',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'The caller’s linked provider accounts in this organization',
        security: [{ bearer: [] }],
        response: { 200: Identities, ...errors(401, 403) },
      },
    },
    async (request) => identities.list(principalOf(request)),
  );

  app.post<{ Params: Static<typeof ProviderParam> }>(
    '/api/v1/auth/social/:provider/link/start',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Start linking a provider account to the signed-in person',
        description:
          `${BINDING}The callback links what the provider answers to the person and session that started it ` +
          '(if that session is still live), and sends the browser to the app with `social_linked=<provider>`. ' +
          '403 without a sign-in in the last 10 minutes (with the second factor when TOTP is on), from a session ' +
          'through an organization’s SSO, or when the organization turned social sign-in off; 404 when the ' +
          'provider is not configured.',
        security: [{ bearer: [] }],
        params: ProviderParam,
        response: { 200: AuthorizationUrl, ...errors(401, 403, 404, 429, 502) },
      },
      preValidation: async (request) => signIn.assertConfigured((request.params as { provider: string }).provider),
    },
    async (request, reply) => {
      const secret = binding.secretFor(request);
      const answer = await signIn.startLink(request.params.provider, principalOf(request), {
        secret,
        ip: request.ip,
      });
      binding.remember(reply, secret);
      return noStore(reply).send(answer);
    },
  );

  app.post<{ Params: Static<typeof ProviderParam>; Body: Static<typeof UnlinkBody> | undefined }>(
    '/api/v1/auth/social/:provider/unlink',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Unlink a provider account',
        description:
          '204. `password` is required when the account has one (400 when wrong or missing). 404 when the provider ' +
          'is not configured or not linked; 409 when it is the last way to sign in to an account without a ' +
          'password (other linked providers and passkeys count). 403 for a session through an organization’s SSO ' +
          '(as for link/start).',
        security: [{ bearer: [] }],
        params: ProviderParam,
        body: UnlinkBody,
        response: { 204: Type.Null(), ...errors(400, 401, 403, 404, 409, 422, 429) },
      },
    },
    async (request, reply) => {
      await identities.unlink(principalOf(request), request.params.provider, request.body?.password);
      return reply.code(204).send();
    },
  );
}
