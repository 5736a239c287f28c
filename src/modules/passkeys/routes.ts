import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { type DpopVerifier, principalOf } from '../../kernel/auth/index.js';
import { errors } from '../../kernel/http/index.js';
import { deliverSignIn, SignInHeaders, SignInResultSchema, signInContext } from '../sign-in/index.js';
import {
  CreationOptionsSchema,
  PasskeySummarySchema,
  RegistrationBody,
  RemoveBody,
  RequestOptionsSchema,
  SignInBody,
} from './http-schemas.js';
import type { PasskeyService } from './service.js';

const tags = ['passkeys'];
const security = [{ bearer: [] }];
const user = { auth: 'user' as const };
const IdParams = Type.Object({ id: Type.String({ maxLength: 64, description: 'The passkey’s id (from the list)' }) });

export function registerPasskeyRoutes(
  app: FastifyInstance,
  deps: { passkeys: PasskeyService; dpop: DpopVerifier },
): void {
  const { passkeys, dpop } = deps;

  app.post(
    '/api/v1/webauthn/credentials/options',
    {
      config: user,
      schema: {
        tags,
        summary: 'Start registering a passkey',
        description:
          'Creation options for `navigator.credentials.create()`: a discoverable credential (resident key required), ' +
          'user verification preferred, the account’s passkeys excluded. The challenge is single use and expires ' +
          'after about 5 minutes. 403 unless the session signed in within 10 minutes (with the second factor when ' +
          'TOTP is on), and always for a session through an organization’s SSO (it cannot add sign-in methods).',
        security,
        response: { 200: CreationOptionsSchema, ...errors(401, 403) },
      },
    },
    async (request) => passkeys.registrationOptions(principalOf(request)),
  );

  app.post<{ Body: Static<typeof RegistrationBody> }>(
    '/api/v1/webauthn/credentials',
    {
      config: user,
      schema: {
        tags,
        summary: 'Finish registering a passkey',
        description:
          'The browser’s registration response (`PublicKeyCredential.toJSON()`) and an optional `name`. 400 for an ' +
          'invalid response, or a challenge that is expired, used already or not issued to this account.',
        security,
        body: RegistrationBody,
        response: { 201: PasskeySummarySchema, ...errors(400, 401, 403, 422) },
      },
    },
    async (request, reply) => {
      const { name, ...response } = request.body;
      const summary = await passkeys.register(principalOf(request), {
        response: { clientExtensionResults: {}, ...response } as RegistrationResponseJSON,
        name,
      });
      return reply.code(201).send(summary);
    },
  );

  app.get(
    '/api/v1/webauthn/credentials',
    {
      config: user,
      schema: {
        tags,
        summary: 'List the account’s passkeys',
        security,
        response: { 200: Type.Array(PasskeySummarySchema), ...errors(401) },
      },
    },
    async (request) => passkeys.listPasskeys(principalOf(request)),
  );

  app.post<{ Params: Static<typeof IdParams>; Body: Static<typeof RemoveBody> | undefined }>(
    '/api/v1/webauthn/credentials/:id/remove',
    {
      config: user,
      preValidation: async (request) => {
        request.body ??= {};
      },
      schema: {
        tags,
        summary: 'Remove a passkey',
        description:
          '`password` is required when the account has one (400 when missing or wrong; 429 after repeated wrong ' +
          'passwords). 404 alike for an unknown passkey and another account’s. An account without a password ' +
          'cannot remove its last passkey (400).',
        security,
        params: IdParams,
        body: RemoveBody,
        response: { 204: Type.Null(), ...errors(400, 401, 403, 404, 422, 429) },
      },
    },
    async (request, reply) => {
      await passkeys.removePasskey(principalOf(request), request.params.id, request.body?.password);
      return reply.code(204).send();
    },
  );

  app.post(
    '/api/v1/webauthn/login/options',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'Start signing in with a passkey',
        description:
          'Request options for `navigator.credentials.get()` with discoverable credentials (no `allowCredentials`), ' +
          'user verification preferred. The challenge is single use and expires after about 5 minutes. 429 past ' +
          'the per-IP budget.',
        response: { 200: RequestOptionsSchema, ...errors(429) },
      },
    },
    async (request) => passkeys.loginOptions({ ip: request.ip }),
  );

  app.post<{ Body: Static<typeof SignInBody> }>(
    '/api/v1/webauthn/login/verify',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'Sign in with a passkey',
        description:
          'The browser’s assertion (`PublicKeyCredential.toJSON()`), `tenant_slug` and optional `use_cookie`. A ' +
          'user-verified passkey counts as two factors (amr `webauthn`, `mfa`) and skips the TOTP challenge. 401 ' +
          '`Invalid credentials` for every refusal: unknown passkey, bad assertion, unknown organization or not a ' +
          'member, replayed or expired challenge, suspected clone (signature counter went backwards). 403 when the ' +
          'organization requires SSO (after the passkey verified; owners pass).',
        headers: SignInHeaders,
        body: SignInBody,
        response: { 200: SignInResultSchema, ...errors(400, 401, 403, 422, 429) },
      },
    },
    async (request, reply) => {
      const { tenant_slug, use_cookie, ...response } = request.body;
      const result = await passkeys.signInWithPasskey(
        {
          response: { clientExtensionResults: {}, ...response } as AuthenticationResponseJSON,
          tenantSlug: tenant_slug,
        },
        await signInContext(request, dpop),
      );
      return deliverSignIn(reply, result, use_cookie);
    },
  );
}
