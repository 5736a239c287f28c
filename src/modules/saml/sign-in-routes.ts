import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { errors } from '../../kernel/http/index.js';
import { noStore } from '../sign-in/index.js';
import { authorizationUrlAnswer, redirectBrowser, TenantParam, TenantSlugBody } from '../sso/index.js';
import { MAX_RESPONSE_BYTES } from './assertion.js';
import { samlBrowserBinding } from './browser-binding.js';
import type { SamlConnectionService } from './connection.js';
import type { SamlSignIn } from './sign-in.js';
import type { SingleLogout } from './single-logout.js';

const AuthorizationUrl = authorizationUrlAnswer('Send the browser here: the identity provider with the AuthnRequest');
/** SAML 2.0 bindings 3.5.4 form: `SAMLResponse` (base64) and `RelayState` (at most 80 bytes, 3.5.3). */
const AcsForm = Type.Object(
  {
    SAMLResponse: Type.Optional(Type.String({ maxLength: Math.ceil(MAX_RESPONSE_BYTES / 3) * 4 + 4096 })),
    RelayState: Type.Optional(Type.String({ maxLength: 80 })),
  },
  { additionalProperties: true },
);
const SloQuery = Type.Object(
  {
    SAMLRequest: Type.Optional(Type.String({ maxLength: 16384 })),
    SAMLResponse: Type.Optional(Type.String({ maxLength: 16384 })),
    RelayState: Type.Optional(Type.String({ maxLength: 80 })),
    SigAlg: Type.Optional(Type.String({ maxLength: 256 })),
    Signature: Type.Optional(Type.String({ maxLength: 2048 })),
  },
  { additionalProperties: true },
);

const tags = ['sso'];
const BASE = '/api/v1/auth/sso/saml';

/** Part A 4.6: sign-in through the organization's SAML identity provider, its SP metadata and single logout. */
export function registerSamlSignInRoutes(
  app: FastifyInstance,
  deps: { connection: SamlConnectionService; signIn: SamlSignIn; singleLogout: SingleLogout },
): void {
  const { connection, signIn, singleLogout } = deps;

  app.post<{ Body: Static<typeof TenantSlugBody> }>(
    `${BASE}/start`,
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'Start SAML single sign-on for an organization',
        description:
          'Answers the identity provider’s URL with an AuthnRequest (HTTP-Redirect binding) and sets an httpOnly, ' +
          'Secure, SameSite=None cookie binding the round trip to this browser: the response must come back to ' +
          'the ACS in the same browser within about 10 minutes. 404 alike for an unknown organization and one ' +
          'without an enabled SAML connection (dormant); 429 past 60 SSO starts per 10 minutes from one address.',
        body: TenantSlugBody,
        response: { 200: AuthorizationUrl, ...errors(404, 422, 429) },
      },
    },
    async (request, reply) => {
      const secret = samlBrowserBinding.secretFor(request);
      const answer = await signIn.start(request.body.tenant_slug, { secret, ip: request.ip });
      samlBrowserBinding.remember(reply, secret);
      return noStore(reply).send(answer);
    },
  );

  app.post<{ Params: Static<typeof TenantParam>; Body: Static<typeof AcsForm> }>(
    `${BASE}/:tenant/acs`,
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'Assertion Consumer Service (HTTP-POST binding, browser)',
        description:
          '`application/x-www-form-urlencoded` with `SAMLResponse`. 303 to SIGN_IN_RETURN_URL with `sso_code` ' +
          '(single use, 60 seconds: redeem it with `POST /auth/sso/complete`), or with `sso_error=true` for every ' +
          'refusal alike (signature, issuer, audience, recipient, destination, time conditions, unknown or ' +
          'answered request, another browser, replayed assertion, no usable email, provisioning). 404 while the ' +
          'organization has no enabled SAML connection.',
        consumes: ['application/x-www-form-urlencoded'],
        params: TenantParam,
        body: AcsForm,
        response: { 303: Type.Null({ description: 'To SIGN_IN_RETURN_URL' }), ...errors(404, 422) },
      },
    },
    async (request, reply) => {
      const target = await signIn.acs(request.params.tenant, request.body ?? {}, samlBrowserBinding.read(request));
      return redirectBrowser(reply, target, 303);
    },
  );

  app.get<{ Params: Static<typeof TenantParam> }>(
    `${BASE}/:tenant/metadata`,
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'The service provider’s SAML 2.0 metadata for this organization',
        description:
          'Entity id, ACS (HTTP-POST) and single logout (HTTP-Redirect), `application/samlmetadata+xml`. 404 while ' +
          'the organization has no SAML connection.',
        produces: ['application/samlmetadata+xml'],
        params: TenantParam,
      },
    },
    async (request, reply) =>
      reply
        .type('application/samlmetadata+xml; charset=utf-8')
        .send(await connection.serviceProviderMetadata(request.params.tenant)),
  );

  app.get<{ Params: Static<typeof TenantParam>; Querystring: Static<typeof SloQuery> }>(
    `${BASE}/:tenant/slo`,
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'Single logout from the identity provider (HTTP-Redirect binding, browser)',
        description:
          'A signed LogoutRequest (`SAMLRequest`, `SigAlg` with SHA-256 or SHA-512, `Signature`, optional ' +
          '`RelayState`). Ends the live SSO sessions of the person it names, then 302 to the identity provider’s ' +
          'SingleLogoutService with the LogoutResponse. 400 when the request fails validation (unsigned, ' +
          'signature, issuer, destination, expired, replayed); 404 while the organization has no enabled SAML ' +
          'connection with an `slo_url`.',
        params: TenantParam,
        querystring: SloQuery,
        response: {
          302: Type.Null({ description: 'To the identity provider with the LogoutResponse' }),
          ...errors(400, 404),
        },
      },
    },
    async (request, reply) => {
      const raw = request.raw.url ?? '';
      const rawQuery = raw.includes('?') ? raw.slice(raw.indexOf('?') + 1) : '';
      const target = await singleLogout.receive(request.params.tenant, request.query, rawQuery);
      return redirectBrowser(reply, target, 302);
    },
  );
}
