import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { principalOf } from '../../kernel/auth/index.js';
import { errors } from '../../kernel/http/index.js';
import { ACTIVITY_DEFAULT_LIMIT, ACTIVITY_MAX_LIMIT } from './self-service.js';
import type { AccountService } from './service.js';

const IdentitySchema = Type.Object({
  user_id: Type.String({ format: 'uuid' }),
  tenant_id: Type.String({ format: 'uuid' }),
  role: Type.String(),
  is_owner: Type.Boolean(),
  tenant_isolation: Type.String(),
  population: Type.Union([Type.Literal('workforce'), Type.Literal('customer')]),
  email_verified: Type.Boolean(),
});

const PermissionsSchema = Type.Object({ is_owner: Type.Boolean(), permissions: Type.Array(Type.String()) });

const SessionSchema = Type.Object({
  session_id: Type.String({ format: 'uuid' }),
  current: Type.Boolean({ description: 'The session of the token making this request' }),
  created_at: Type.String({ format: 'date-time' }),
  last_used_at: Type.String({ format: 'date-time', description: 'Sign-in or last refresh' }),
  expires_at: Type.String({ format: 'date-time' }),
  user_agent: Type.Union([Type.String(), Type.Null()]),
  methods: Type.Array(Type.String(), { description: 'Authentication methods (RFC 8176 amr values)' }),
  dpop_bound: Type.Boolean(),
  application: Type.Union([Type.Object({ client_id: Type.String(), name: Type.String() }), Type.Null()], {
    description:
      'For a session an OAuth application holds (an authorization-code grant): the client and its name. Null for a sign-in of your own.',
  }),
});

const ActivitySchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  occurred_at: Type.String({ format: 'date-time' }),
  action: Type.String(),
  category: Type.String(),
  severity: Type.String(),
  outcome: Type.String(),
  actor_type: Type.String(),
  data: Type.Record(Type.String(), Type.Unknown()),
});
const ActivityQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: ACTIVITY_MAX_LIMIT, default: ACTIVITY_DEFAULT_LIMIT })),
});

const Nullable = (schema: ReturnType<typeof Type.String>) => Type.Union([schema, Type.Null()]);
const ProfileSchema = Type.Object({
  email: Type.String(),
  name: Nullable(Type.String()),
  given_name: Nullable(Type.String()),
  family_name: Nullable(Type.String()),
  picture: Nullable(Type.String()),
  editable: Type.Boolean({ description: 'false while an identity provider (SCIM, SSO) manages the profile' }),
});
// Length and control characters are checked by the service, so the 422 names the rule and not the schema.
const ProfileField = Type.Optional(Type.Union([Type.String({ maxLength: 4096 }), Type.Null()]));
const ProfilePatch = Type.Object(
  { name: ProfileField, given_name: ProfileField, family_name: ProfileField },
  { additionalProperties: false, description: 'Names only: email and picture are not editable' },
);

const me = { config: { auth: 'user' as const } };
const security = [{ bearer: [] }];

export function registerMeRoutes(app: FastifyInstance, deps: { accounts: AccountService }): void {
  const { accounts } = deps;

  app.get(
    '/api/v1/me',
    {
      ...me,
      schema: {
        tags: ['accounts'],
        summary: 'The caller’s identity',
        security,
        response: { 200: IdentitySchema, ...errors(401) },
      },
    },
    async (request) => accounts.identity(principalOf(request)),
  );

  app.get(
    '/api/v1/me/permissions',
    {
      ...me,
      schema: {
        tags: ['accounts'],
        summary: 'The caller’s permissions in this organization',
        security,
        response: { 200: PermissionsSchema, ...errors(401) },
      },
    },
    async (request) => accounts.permissions(principalOf(request)),
  );

  app.get(
    '/api/v1/me/sessions',
    {
      ...me,
      schema: {
        tags: ['accounts'],
        summary: 'The caller’s live sessions in this organization',
        security,
        response: { 200: Type.Object({ sessions: Type.Array(SessionSchema) }), ...errors(401) },
      },
    },
    async (request) => accounts.listSessions(principalOf(request)),
  );

  app.delete<{ Params: { sid: string } }>(
    '/api/v1/me/sessions/:sid',
    {
      ...me,
      schema: {
        tags: ['accounts'],
        summary: 'End one of the caller’s sessions',
        description: 'One 404 for a session that is not yours, unknown, or already ended.',
        security,
        params: Type.Object({ sid: Type.String({ maxLength: 64 }) }),
        response: { 204: Type.Null(), ...errors(401, 404) },
      },
    },
    async (request, reply) => {
      await accounts.revokeSession(principalOf(request), request.params.sid);
      return reply.code(204).send();
    },
  );

  app.get<{ Querystring: Static<typeof ActivityQuery> }>(
    '/api/v1/me/activity',
    {
      ...me,
      schema: {
        tags: ['accounts'],
        summary: 'The caller’s own recent security events, newest first',
        security,
        querystring: ActivityQuery,
        response: { 200: Type.Object({ events: Type.Array(ActivitySchema) }), ...errors(401, 422) },
      },
    },
    async (request) => accounts.activity(principalOf(request), request.query.limit),
  );

  app.get(
    '/api/v1/me/profile',
    {
      ...me,
      schema: {
        tags: ['accounts'],
        summary: 'The caller’s profile',
        security,
        response: { 200: ProfileSchema, ...errors(401) },
      },
    },
    async (request) => accounts.profile(principalOf(request)),
  );

  app.patch<{ Body: Static<typeof ProfilePatch> }>(
    '/api/v1/me/profile',
    {
      ...me,
      schema: {
        tags: ['accounts'],
        summary: 'Change the caller’s names',
        security,
        body: ProfilePatch,
        response: { 200: ProfileSchema, ...errors(401, 409, 422) },
      },
    },
    async (request) => accounts.updateProfile(principalOf(request), request.body),
  );
}
