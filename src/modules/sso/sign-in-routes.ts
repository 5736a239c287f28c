import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { DpopVerifier } from '../../kernel/auth/index.js';
import { errors } from '../../kernel/http/index.js';
import type { RequestContext, SignInResult } from '../sign-in/index.js';
import { noStore, SignInResultSchema } from '../sign-in/index.js';
import type { BackchannelLogout } from './backchannel-logout.js';
import { createBrowserBinding } from './browser-binding.js';
import type { OidcSignIn, SamlSignIn } from './oidc-sign-in.js';
import {
  answerCompletion,
  authorizationUrlAnswer,
  CompletionHeaders,
  completionBody,
  ProviderCallbackQuery,
  redirectBrowser,
  TenantParam,
  TenantSlugBody,
} from './round-trip-http.js';

const AuthorizationUrl = authorizationUrlAnswer('Send the browser here: the identity provider’s sign-in');
const CompleteBody = completionBody('sso_code');
const LinkBody = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 512, description: 'The token of the mailed link' }),
});
const LogoutForm = Type.Object(
  { logout_token: Type.Optional(Type.String({ description: 'OIDC Back-Channel Logout 1.0 logout token (JWT)' })) },
  { additionalProperties: true },
);

const tags = ['sso'];
export const SSO_FLOW_COOKIE = 'svc_sso_flow';

/** Part A 4.6: sign-in through the organization's identity provider, and its back-channel logout. */
export function registerSsoSignInRoutes(
  app: FastifyInstance,
  deps: {
    oidcSignIn: OidcSignIn;
    complete(code: string, context: RequestContext): Promise<SignInResult>;
    /** The SAML flow's browser binding, when the SAML module is attached. */
    samlBinding(): SamlSignIn['binding'] | undefined;
    backchannelLogout: BackchannelLogout;
    /** The account holder's click on the mailed link that links their account (sso/account-link.ts). */
    confirmLink(token: string): Promise<void>;
    dpop: DpopVerifier;
  },
): void {
  const { oidcSignIn, complete, samlBinding, backchannelLogout, confirmLink, dpop } = deps;
  const binding = createBrowserBinding({ cookieName: SSO_FLOW_COOKIE, path: '/api/v1/auth/sso' });

  app.post<{ Body: Static<typeof TenantSlugBody> }>(
    '/api/v1/auth/sso/start',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'Start single sign-on for an organization',
        description:
          'Protocol-agnostic: the organization’s enabled OIDC connection, else its SAML connection. Answers the ' +
          'identity provider’s URL and sets an httpOnly, Secure, SameSite=Lax cookie that binds the round trip to ' +
          'this browser (it must finish within about 10 minutes, in the same browser). 404 alike for an unknown ' +
          'organization and one without SSO (dormant); 502 when the provider’s metadata cannot be read; 429 past ' +
          '60 starts per 10 minutes from one address.',
        body: TenantSlugBody,
        response: { 200: AuthorizationUrl, ...errors(404, 422, 429, 502) },
      },
    },
    async (request, reply) => {
      const secret = binding.secretFor(request);
      const saml = samlBinding();
      const samlSecret = saml?.secretFor(request);
      const started = await oidcSignIn.start(request.body.tenant_slug, { secret, samlSecret, ip: request.ip });
      if (started.protocol === 'saml' && saml && samlSecret) saml.remember(reply, samlSecret);
      else binding.remember(reply, secret);
      return noStore(reply).send(started.answer);
    },
  );

  app.get<{ Params: Static<typeof TenantParam>; Querystring: Static<typeof ProviderCallbackQuery> }>(
    '/api/v1/auth/sso/oidc/:tenant/callback',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'The identity provider’s redirect back (browser)',
        description:
          '302 to SIGN_IN_RETURN_URL with `sso_code` (single use, 60 seconds: redeem it with ' +
          '`POST /auth/sso/complete`), or with `sso_error=true` for every failure alike. Register ' +
          '`{BASE_URL}/api/v1/auth/sso/oidc/{tenant id}/callback` as the redirect URI at the identity provider.',
        params: TenantParam,
        querystring: ProviderCallbackQuery,
      },
    },
    async (request, reply) => {
      const target = await oidcSignIn.callback(request.params.tenant, request.query, binding.read(request));
      return redirectBrowser(reply, target, 302);
    },
  );

  app.post<{ Body: Static<typeof CompleteBody> }>(
    '/api/v1/auth/sso/complete',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'Redeem the one-time SSO code: what password login returns',
        description:
          'A token pair (amr `sso`), or `{mfa_required: true, mfa_token}` when the account has TOTP enrolled. ' +
          '401 `Invalid or expired code` alike for an unknown, expired (60 seconds) or used code and an account ' +
          'or membership no longer active. A DPoP proof binds the tokens to its key.',
        headers: CompletionHeaders,
        body: CompleteBody,
        response: { 200: SignInResultSchema, ...errors(400, 401, 422) },
      },
    },
    async (request, reply) => answerCompletion(request, reply, dpop, complete),
  );

  app.post<{ Body: Static<typeof LinkBody> }>(
    '/api/v1/auth/sso/link/confirm',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'Confirm linking your account to an organization’s identity provider (the mailed link)',
        description:
          'An identity provider asserted the address of an existing account (one its organization did not create, ' +
          'or an owner’s): only the account’s holder, by this link mailed to the account’s address, links it. 204 ' +
          'once linked (the next SSO sign-in signs the person in); 400 `Invalid or expired link` alike for an ' +
          'unknown, used or expired (30 minutes) link and an account whose address or membership changed since.',
        body: LinkBody,
        response: { 204: Type.Null(), ...errors(400, 422) },
      },
    },
    async (request, reply) => {
      await confirmLink(request.body.token);
      return noStore(reply).code(204).send();
    },
  );

  app.post<{ Params: Static<typeof TenantParam>; Body: Static<typeof LogoutForm> }>(
    '/api/v1/auth/sso/oidc/:tenant/backchannel-logout',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'OpenID Connect Back-Channel Logout from the organization’s identity provider',
        description:
          '`application/x-www-form-urlencoded` with `logout_token`. 200 once the person’s SSO sessions ended ' +
          '(also when the token names nobody known); 400 `invalid_request` when the token fails validation ' +
          '(signature against the provider’s keys, `iss`, `aud`, `iat`, `jti`, the back-channel logout event, ' +
          '`sub` or `sid`, no `nonce`); 404 while the organization has no enabled OIDC connection. Register ' +
          '`{BASE_URL}/api/v1/auth/sso/oidc/{tenant id}/backchannel-logout` at the identity provider.',
        consumes: ['application/x-www-form-urlencoded'],
        params: TenantParam,
        body: LogoutForm,
        response: { 200: Type.Null(), ...errors(404) },
      },
    },
    async (request, reply) => {
      await backchannelLogout.receive(request.params.tenant, request.body?.logout_token);
      return noStore(reply).code(200).send();
    },
  );
}
