import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { principalOf } from '../../kernel/auth/index.js';
import type { MembersService } from './index.js';
import { errors } from './problem.js';
import { registerRedemptionRoutes } from './redemption-routes.js';

const Member = Type.Object({
  membership_id: Type.String(),
  user_id: Type.String(),
  email: Type.String(),
  name: Type.Union([Type.String(), Type.Null()]),
  role: Type.String(),
  status: Type.String(),
  population: Type.String(),
  scim_managed: Type.Boolean(),
  joined_at: Type.String({ format: 'date-time' }),
});
const Invite = Type.Object({
  invite_id: Type.String(),
  email: Type.String(),
  role: Type.String(),
  expires_at: Type.String({ format: 'date-time' }),
  reissued: Type.Boolean(),
});
const DomainClaim = Type.Object({
  domain_id: Type.String(),
  domain: Type.String(),
  txt_record: Type.String({ description: 'Publish as a TXT record at the domain name itself' }),
  verified: Type.Boolean(),
  verified_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

const RosterQuery = Type.Object({
  population: Type.Optional(Type.Union([Type.Literal('workforce'), Type.Literal('customer')])),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
});
const Role = Type.String({
  minLength: 1,
  maxLength: 64,
  description:
    "A system role other than owner and customer, or the code of one of the organization's custom roles (`GET /api/v1/authz/roles`)",
});
const RoleBody = Type.Object({ role: Role });
const InviteBody = Type.Object({
  email: Type.String({ format: 'email', maxLength: 320 }),
  role: Type.Optional(Role),
});
const DomainBody = Type.Object({ domain: Type.String({ minLength: 1, maxLength: 253 }) });
const MembershipParams = Type.Object({ membership_id: Type.String({ maxLength: 64 }) });
const InviteParams = Type.Object({ invite_id: Type.String({ maxLength: 64 }) });
const DomainParams = Type.Object({ domain_id: Type.String({ maxLength: 64 }) });

const read = { auth: 'any', permission: 'members:read', quarantineGated: true } as const;
const manage = { auth: 'any', permission: 'members:manage', quarantineGated: true } as const;
const security = [{ bearer: [] }];
const tags = ['members'];

/** Part A 4.7: members, invitations and verified domains (quarantine-gated), and their public redemption. */
export function registerMemberRoutes(app: FastifyInstance, deps: { members: MembersService }): void {
  const { roster, invitations, domains } = deps.members;

  app.get<{ Querystring: Static<typeof RosterQuery> }>(
    '/api/v1/members',
    {
      config: read,
      schema: {
        tags,
        summary: 'The roster (workforce by default)',
        security,
        querystring: RosterQuery,
        response: { 200: Type.Array(Member), ...errors(401, 403, 422) },
      },
    },
    async (request) => roster.list(principalOf(request), request.query),
  );

  app.patch<{ Params: Static<typeof MembershipParams>; Body: Static<typeof RoleBody> }>(
    '/api/v1/members/:membership_id',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Change a member’s role',
        description:
          '`role` is a system role or a custom role code. 422 unknown role; 403 the role holds a permission you lack; 404; 409 for owner or SCIM-managed memberships and separation-of-duties breaches (a custom role counts by the permissions it grants).',
        security,
        params: MembershipParams,
        body: RoleBody,
        response: { 200: Member, ...errors(401, 403, 404, 409, 422) },
      },
    },
    async (request) => roster.changeRole(principalOf(request), request.params.membership_id, request.body.role),
  );

  app.delete<{ Params: Static<typeof MembershipParams> }>(
    '/api/v1/members/:membership_id',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Remove a member; their sessions end in the same transaction',
        security,
        params: MembershipParams,
        response: { 204: Type.Null(), ...errors(401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await roster.remove(principalOf(request), request.params.membership_id);
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/v1/members/invites',
    {
      config: read,
      schema: {
        tags,
        summary: 'Pending invitations',
        security,
        response: { 200: Type.Array(Invite), ...errors(401, 403) },
      },
    },
    async (request) => invitations.list(principalOf(request)),
  );

  app.post<{ Body: Static<typeof InviteBody> }>(
    '/api/v1/members/invites',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Invite a person (re-inviting an address re-issues its pending invitation)',
        description:
          '`role` (default `member`) is a system role or a custom role code. 422 unknown role; 409 already a member; 403 seat cap reached, naming the plan (pending invitations count), or the role holds a permission you lack.',
        security,
        body: InviteBody,
        response: { 201: Invite, ...errors(401, 403, 409, 422) },
      },
    },
    async (request, reply) => reply.code(201).send(await invitations.create(principalOf(request), request.body)),
  );

  app.delete<{ Params: Static<typeof InviteParams> }>(
    '/api/v1/members/invites/:invite_id',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Revoke a pending invitation; its link dies at once',
        security,
        params: InviteParams,
        response: { 204: Type.Null(), ...errors(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await invitations.revoke(principalOf(request), request.params.invite_id);
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/v1/members/domains',
    {
      config: read,
      schema: {
        tags,
        summary: 'Claimed domains',
        security,
        response: { 200: Type.Array(DomainClaim), ...errors(401, 403) },
      },
    },
    async (request) => domains.list(principalOf(request)),
  );

  app.post<{ Body: Static<typeof DomainBody> }>(
    '/api/v1/members/domains',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Claim a domain; answers the TXT record to publish at the domain name',
        description: '422 malformed or a public email provider; 409 verified by another organization.',
        security,
        body: DomainBody,
        response: { 201: DomainClaim, ...errors(401, 403, 409, 422) },
      },
    },
    async (request, reply) => reply.code(201).send(await domains.claim(principalOf(request), request.body.domain)),
  );

  app.post<{ Params: Static<typeof DomainParams> }>(
    '/api/v1/members/domains/:domain_id/verify',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Look the TXT record up now and verify the domain',
        security,
        params: DomainParams,
        response: {
          200: Type.Object({ domain: Type.String(), verified: Type.Boolean() }),
          ...errors(401, 403, 404, 409),
        },
      },
    },
    async (request) => domains.verify(principalOf(request), request.params.domain_id),
  );

  app.delete<{ Params: Static<typeof DomainParams> }>(
    '/api/v1/members/domains/:domain_id',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Withdraw a domain claim',
        security,
        params: DomainParams,
        response: { 204: Type.Null(), ...errors(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await domains.remove(principalOf(request), request.params.domain_id);
      return reply.code(204).send();
    },
  );

  registerRedemptionRoutes(app, deps);
}
