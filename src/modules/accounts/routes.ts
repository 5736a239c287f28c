import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DpopError, type DpopVerifier, principalOf } from '../../kernel/auth/index.js';
import { errors, HttpError } from '../../kernel/http/index.js';
import {
  clearRefreshCookie,
  deliverPair,
  deliverSignIn,
  MfaRequiredSchema,
  refreshCookieOf,
  type SessionService,
  SignInHeaders,
  SignInResultSchema,
  signInContext,
  TokenPairSchema,
  UseCookie,
} from '../sign-in/index.js';
import { registerMeRoutes } from './me-routes.js';
import type { AccountService } from './service.js';

const Email = Type.String({ format: 'email', maxLength: 320, description: 'Email address' });
const Password = Type.String({
  minLength: 1,
  maxLength: 1024,
  description: '12 to 128 characters, not a common password',
});
const LinkToken = Type.String({ minLength: 1, maxLength: 512, description: 'The token of the emailed link' });

const SignUpBody = Type.Object({
  email: Email,
  password: Password,
  organization_name: Type.String({ minLength: 1, maxLength: 255 }),
  use_cookie: UseCookie,
});
const CustomerSignUpBody = Type.Object({
  email: Email,
  password: Password,
  tenant_slug: Type.String({ minLength: 1, maxLength: 255 }),
  use_cookie: UseCookie,
});
const LogInBody = Type.Object({
  email: Email,
  password: Password,
  tenant_slug: Type.String({ minLength: 1, maxLength: 255 }),
  use_cookie: UseCookie,
});
const RefreshBody = Type.Object({
  refresh_token: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
  use_cookie: UseCookie,
});
const ChangePasswordBody = Type.Object({ current_password: Password, new_password: Password, use_cookie: UseCookie });
const EmailBody = Type.Object({ email: Email });
const TokenBody = Type.Object({ token: LinkToken });
const ResetBody = Type.Object({ token: LinkToken, new_password: Password });
const Accepted = Type.Object({ status: Type.Literal('accepted') });

export function registerAccountRoutes(
  app: FastifyInstance,
  deps: { accounts: AccountService; sessions: SessionService; dpop: DpopVerifier },
): void {
  const { accounts, sessions, dpop } = deps;
  app.addSchema(TokenPairSchema);
  app.addSchema(MfaRequiredSchema);

  const context = (request: FastifyRequest) => signInContext(request, dpop);
  const tokenRoute = (summary: string, body: ReturnType<typeof Type.Object>, codes: number[], status = 200) => ({
    config: { auth: 'public' as const },
    schema: {
      tags: ['accounts'],
      summary,
      headers: SignInHeaders,
      body,
      response: { [status]: Type.Ref(TokenPairSchema), ...errors(...codes) },
    },
  });

  app.post<{ Body: Static<typeof SignUpBody> }>(
    '/api/v1/auth/signup',
    tokenRoute('Create an account and its organization', SignUpBody, [400, 403, 409, 422, 429], 201),
    async (request, reply) => {
      const { email, password, organization_name, use_cookie } = request.body;
      const tokens = await accounts.signUp(
        { email, password, organizationName: organization_name },
        await context(request),
      );
      return reply.code(201).send(deliverPair(reply, tokens, use_cookie));
    },
  );

  app.post<{ Body: Static<typeof CustomerSignUpBody> }>(
    '/api/v1/auth/signup/customer',
    tokenRoute('Register as a customer of an organization', CustomerSignUpBody, [400, 403, 409, 422, 429], 201),
    async (request, reply) => {
      const { email, password, tenant_slug, use_cookie } = request.body;
      const tokens = await accounts.signUpCustomer(
        { email, password, tenantSlug: tenant_slug },
        await context(request),
      );
      return reply.code(201).send(deliverPair(reply, tokens, use_cookie));
    },
  );

  app.post<{ Body: Static<typeof LogInBody> }>(
    '/api/v1/auth/login',
    {
      config: { auth: 'public' as const },
      schema: {
        tags: ['accounts'],
        summary: 'Sign in with email and password',
        description:
          'Answers a token pair, or `{mfa_required: true, mfa_token}` when the account has TOTP enrolled: complete ' +
          'it with `POST /mfa/challenge`. 403 when the organization requires SSO (owners pass as break-glass).',
        headers: SignInHeaders,
        body: LogInBody,
        response: { 200: SignInResultSchema, ...errors(400, 401, 403, 422, 429) },
      },
    },
    async (request, reply) => {
      const { email, password, tenant_slug, use_cookie } = request.body;
      const result = await accounts.logIn({ email, password, tenantSlug: tenant_slug }, await context(request));
      return deliverSignIn(reply, result, use_cookie);
    },
  );

  app.post<{ Body: Static<typeof RefreshBody> | undefined }>(
    '/api/v1/auth/refresh',
    {
      config: { auth: 'public' },
      // Cookie mode sends no body at all: validate it as an empty object.
      preValidation: async (request) => {
        request.body ??= {};
      },
      schema: {
        tags: ['accounts'],
        summary: 'Rotate the refresh token and get a new pair',
        description:
          'Send `refresh_token`, or an empty body to use (and rotate) the cookie; `use_cookie: true` with a body ' +
          'token answers in cookie mode too. A rotated refresh token ' +
          'presented again ends its whole session. A DPoP-bound session needs a proof under its key, without `ath`.',
        headers: SignInHeaders,
        body: RefreshBody,
        response: { 200: Type.Ref(TokenPairSchema), ...errors(401, 422) },
      },
    },
    async (request, reply) => {
      const fromBody = request.body?.refresh_token;
      // An empty body uses the cookie and answers in cookie mode; `use_cookie` moves a body token to the cookie.
      const cookieMode = !fromBody || request.body?.use_cookie === true;
      try {
        let proofJkt: string | undefined;
        if (request.headers.dpop !== undefined) {
          try {
            ({ jkt: proofJkt } = await dpop.verify({
              proof: request.headers.dpop,
              method: request.method,
              url: dpop.urlOf(request.url),
            }));
          } catch (error) {
            if (error instanceof DpopError) throw new HttpError(401, 'Invalid refresh token');
            throw error;
          }
        }
        const tokens = await sessions.refresh(fromBody ?? refreshCookieOf(request), proofJkt);
        return deliverPair(reply, tokens, cookieMode);
      } catch (error) {
        // Part A 4.1: any failed cookie refresh clears the cookie.
        if (cookieMode) clearRefreshCookie(reply);
        throw error;
      }
    },
  );

  app.post(
    '/api/v1/auth/logout',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['accounts'],
        summary: 'End the current session',
        security: [{ bearer: [] }],
        response: { 204: Type.Null(), ...errors(401) },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      await sessions.logout({
        tenantId: principal.tenantId,
        userId: principal.userId!,
        sessionId: principal.sessionId!,
      });
      clearRefreshCookie(reply);
      return reply.code(204).send();
    },
  );

  app.post(
    '/api/v1/auth/sign-out-all',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['accounts'],
        summary: 'End every session of the account, everywhere',
        description: 'Bumps the revocation epoch: every earlier access and refresh token is refused on next use.',
        security: [{ bearer: [] }],
        response: { 204: Type.Null(), ...errors(401) },
      },
    },
    async (request, reply) => {
      await accounts.signOutAll(principalOf(request));
      clearRefreshCookie(reply);
      return reply.code(204).send();
    },
  );

  app.post<{ Body: Static<typeof ChangePasswordBody> }>(
    '/api/v1/auth/change-password',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['accounts'],
        summary: 'Change the password; every other token stops working',
        description: '403 for a session through an organization’s SSO: it cannot change the account’s sign-in methods.',
        security: [{ bearer: [] }],
        body: ChangePasswordBody,
        response: { 200: Type.Ref(TokenPairSchema), ...errors(400, 401, 403, 422, 429) },
      },
    },
    async (request, reply) => {
      const { current_password, new_password, use_cookie } = request.body;
      const tokens = await accounts.changePassword(
        principalOf(request),
        { currentPassword: current_password, newPassword: new_password },
        { userAgent: request.headers['user-agent'] },
      );
      return deliverPair(reply, tokens, use_cookie);
    },
  );

  app.post<{ Body: Static<typeof TokenBody> }>(
    '/api/v1/auth/verify-email',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['accounts'],
        summary: 'Confirm an email address with the emailed token',
        body: TokenBody,
        response: { 204: Type.Null(), ...errors(400, 422) },
      },
    },
    async (request, reply) => {
      await accounts.verifyEmail(request.body.token);
      return reply.code(204).send();
    },
  );

  const enumerationSafe = (summary: string, description: string, codes: number[]) => ({
    config: { auth: 'public' as const },
    schema: {
      tags: ['accounts'],
      summary,
      description,
      body: EmailBody,
      response: { 202: Accepted, ...errors(...codes) },
    },
  });

  app.post<{ Body: Static<typeof EmailBody> }>(
    '/api/v1/auth/resend-verification',
    enumerationSafe(
      'Send the verification mail again',
      'Always 202, whether or not the address has an account.',
      [422],
    ),
    async (request, reply) => {
      accounts.resendVerification(request.body.email, request.ip);
      return reply.code(202).send({ status: 'accepted' });
    },
  );

  app.post<{ Body: Static<typeof EmailBody> }>(
    '/api/v1/auth/forgot-password',
    enumerationSafe(
      'Mail a password-reset link',
      'Always 202 with no rate headers; 403 with a reason while PASSWORD_RESET_ENABLED is off.',
      [403, 422],
    ),
    async (request, reply) => {
      accounts.forgotPassword(request.body.email, request.ip);
      return reply.code(202).send({ status: 'accepted' });
    },
  );

  app.post<{ Body: Static<typeof ResetBody> }>(
    '/api/v1/auth/reset-password',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['accounts'],
        summary: 'Set a new password with the emailed token',
        description: 'Every token issued before stops working. Not gated by PASSWORD_RESET_ENABLED.',
        body: ResetBody,
        response: { 204: Type.Null(), ...errors(400, 422) },
      },
    },
    async (request, reply) => {
      await accounts.resetPassword(request.body.token, request.body.new_password);
      return reply.code(204).send();
    },
  );

  registerMeRoutes(app, { accounts });
}
