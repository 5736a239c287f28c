import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { principalOf } from '../../kernel/auth/index.js';
import type { AccountService } from './service.js';
import type { SessionService } from './sessions.js';

const Email = Type.String({ format: 'email', maxLength: 320, description: 'Email address' });
const Password = Type.String({
  minLength: 1,
  maxLength: 1024,
  description: '12 to 128 characters, not a common password',
});

export const TokenPairSchema = Type.Object(
  {
    access_token: Type.String(),
    refresh_token: Type.Union([Type.String(), Type.Null()], { description: 'null in cookie mode' }),
    token_type: Type.Union([Type.Literal('bearer'), Type.Literal('DPoP')]),
    expires_in: Type.Integer({ description: 'Access-token lifetime in seconds' }),
  },
  { $id: 'TokenPair' },
);

const SignUpBody = Type.Object({
  email: Email,
  password: Password,
  organization_name: Type.String({ minLength: 1, maxLength: 255 }),
});
const LogInBody = Type.Object({
  email: Email,
  password: Password,
  tenant_slug: Type.String({ minLength: 1, maxLength: 255 }),
  use_cookie: Type.Optional(Type.Boolean()),
});
const RefreshBody = Type.Object({ refresh_token: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })) });

const IdentitySchema = Type.Object({
  user_id: Type.String({ format: 'uuid' }),
  tenant_id: Type.String({ format: 'uuid' }),
  role: Type.String(),
  is_owner: Type.Boolean(),
  tenant_isolation: Type.String(),
  population: Type.Union([Type.Literal('workforce'), Type.Literal('customer')]),
  email_verified: Type.Boolean(),
});

const Problem = Type.Object({ detail: Type.String() }, { $id: 'Problem' });
const errors = (...codes: number[]) => Object.fromEntries(codes.map((code) => [code, Type.Ref(Problem)]));

export function registerAccountRoutes(
  app: FastifyInstance,
  deps: { accounts: AccountService; sessions: SessionService },
): void {
  const { accounts, sessions } = deps;
  app.addSchema(Problem);
  app.addSchema(TokenPairSchema);
  const context = (request: { ip: string; headers: Record<string, unknown> }) => ({
    ip: request.ip,
    userAgent: typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'] : undefined,
  });

  app.post<{ Body: Static<typeof SignUpBody> }>(
    '/api/v1/auth/signup',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['accounts'],
        summary: 'Create an account and its organization',
        body: SignUpBody,
        response: { 201: Type.Ref(TokenPairSchema), ...errors(400, 403, 409, 422, 429) },
      },
    },
    async (request, reply) => {
      const { email, password, organization_name } = request.body;
      const tokens = await accounts.signUp({ email, password, organizationName: organization_name }, context(request));
      return reply.code(201).send(tokens);
    },
  );

  app.post<{ Body: Static<typeof LogInBody> }>(
    '/api/v1/auth/login',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['accounts'],
        summary: 'Sign in with email and password',
        body: LogInBody,
        response: { 200: Type.Ref(TokenPairSchema), ...errors(401, 403, 422, 429) },
      },
    },
    async (request) => {
      const { email, password, tenant_slug } = request.body;
      return accounts.logIn({ email, password, tenantSlug: tenant_slug }, context(request));
    },
  );

  app.post<{ Body: Static<typeof RefreshBody> | undefined }>(
    '/api/v1/auth/refresh',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['accounts'],
        summary: 'Rotate the refresh token and get a new pair',
        description: 'A rotated refresh token presented again ends its whole session.',
        body: RefreshBody,
        response: { 200: Type.Ref(TokenPairSchema), ...errors(401, 422) },
      },
    },
    async (request) => {
      return sessions.refresh(request.body?.refresh_token);
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
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/v1/me',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['accounts'],
        summary: 'The caller’s identity',
        security: [{ bearer: [] }],
        response: { 200: IdentitySchema, ...errors(401) },
      },
    },
    async (request) => accounts.identity(principalOf(request)),
  );
}
