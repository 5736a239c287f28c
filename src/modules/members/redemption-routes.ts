import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { principalOf } from '../../kernel/auth/index.js';
import { deliverPair, TokenPairSchema, UseCookie } from '../sign-in/index.js';
import type { MembersService } from './index.js';
import { errors } from './problem.js';

const Token = Type.String({ minLength: 1, maxLength: 512, description: 'The token of the invitation link' });
const Password = Type.String({ minLength: 1, maxLength: 1024, description: '12 to 128 characters, not common' });
const Email = Type.String({ format: 'email', maxLength: 320 });
const TokenBody = Type.Object({ token: Token });
const AcceptBody = Type.Object({ token: Token, password: Password, use_cookie: UseCookie });
const DomainCheckBody = Type.Object({ email: Email });
const DomainJoinBody = Type.Object({ email: Email, password: Password, use_cookie: UseCookie });

const Preview = Type.Object({
  organization_name: Type.String(),
  tenant_slug: Type.String(),
  email: Type.String(),
  role: Type.String(),
  expires_at: Type.String({ format: 'date-time' }),
});
const DomainCheck = Type.Object({
  eligible: Type.Boolean(),
  tenant_slug: Type.Optional(Type.String()),
  organization_name: Type.Optional(Type.String()),
});

const context = (request: FastifyRequest) => ({
  ip: request.ip,
  userAgent: typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'] : undefined,
});

/** Anonymous invitation redemption and domain join (Part A 4.7); the token travels in the body. */
export function registerRedemptionRoutes(app: FastifyInstance, deps: { members: MembersService }): void {
  const { invitations, domains } = deps.members;
  const tags = ['members'];

  app.post<{ Body: Static<typeof TokenBody> }>(
    '/api/v1/invites/preview',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'What the invitation acceptance page shows',
        description: '404 invalid, revoked or redeemed; 410 expired; 429 (budget shared with accept).',
        body: TokenBody,
        response: { 200: Preview, ...errors(404, 410, 422, 429) },
      },
    },
    async (request) => invitations.preview(request.body.token, request.ip),
  );

  app.post<{ Body: Static<typeof AcceptBody> }>(
    '/api/v1/invites/accept',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'Accept an invitation with a new account',
        description: '400 weak password; 409 an account with that email exists; 404; 410; 429.',
        body: AcceptBody,
        response: { 200: Type.Ref(TokenPairSchema), ...errors(400, 404, 409, 410, 422, 429) },
      },
    },
    async (request, reply) => {
      const { token, password, use_cookie } = request.body;
      return deliverPair(reply, await invitations.accept({ token, password }, context(request)), use_cookie);
    },
  );

  app.post<{ Body: Static<typeof TokenBody> }>(
    '/api/v1/invites/accept-existing',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Accept an invitation as the signed-in account',
        description:
          '403 the invitation was sent to another address; 409 already a member or a separation-of-duties breach.',
        security: [{ bearer: [] }],
        body: TokenBody,
        response: {
          200: Type.Object({ tenant_slug: Type.String(), role: Type.String() }),
          ...errors(401, 403, 404, 409, 410, 422, 429),
        },
      },
    },
    async (request) => invitations.acceptExisting(principalOf(request), request.body.token, request.ip),
  );

  app.post<{ Body: Static<typeof DomainCheckBody> }>(
    '/api/v1/auth/signup/domain-check',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'Whether an address may join an organization by its verified domain',
        body: DomainCheckBody,
        response: { 200: DomainCheck, ...errors(422, 429) },
      },
    },
    async (request) => domains.check(request.body.email, request.ip),
  );

  app.post<{ Body: Static<typeof DomainJoinBody> }>(
    '/api/v1/auth/signup/domain',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'Join the organization of a verified domain with a new account',
        description:
          '400 weak password; 403 seat cap reached; 409 the address has an account or no open verified domain matches; 429.',
        body: DomainJoinBody,
        response: { 201: Type.Ref(TokenPairSchema), ...errors(400, 403, 409, 422, 429) },
      },
    },
    async (request, reply) => {
      const { email, password, use_cookie } = request.body;
      const pair = await domains.join({ email, password }, context(request));
      return reply.code(201).send(deliverPair(reply, pair, use_cookie));
    },
  );
}
