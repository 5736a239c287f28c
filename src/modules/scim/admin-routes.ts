import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { NOT_AGENTS, principalOf } from '../../kernel/auth/index.js';
import { errors } from '../../kernel/http/index.js';
import type { ScimAdminService } from './service.js';

const Timestamp = Type.String({ format: 'date-time' });
const ConfigView = Type.Object({
  enabled: Type.Boolean({ description: 'false pauses provisioning: the token then gets 404 on every SCIM route' }),
  base_url: Type.String({ description: 'The SCIM base URL to configure at the identity provider' }),
  token_hint: Type.String({ description: 'The token’s prefix and first four characters of its secret' }),
  token_created_at: Timestamp,
  created_at: Timestamp,
  updated_at: Timestamp,
});
const IssuedToken = Type.Intersect([
  ConfigView,
  Type.Object({
    token: Type.String({
      description: 'The bearer token: shown only now, store it now (only its SHA-256 is kept)',
    }),
  }),
]);
const PatchBody = Type.Object({ enabled: Type.Optional(Type.Boolean()) }, { additionalProperties: false });

const PATH = '/api/v1/tenants/scim';
const policy = { auth: 'any', permission: 'tenant:manage', quarantineGated: true } as const;
/** A SCIM token outlives an agent's governance: like API keys, agents never mint one (Part B 4.2). */
const mint = { ...policy, kinds: NOT_AGENTS, kindRefusal: 'AI agents may never mint credentials' } as const;
const common = { tags: ['scim'], security: [{ bearer: [] }] };
const ADMIN =
  'Needs `tenant:manage` (a person or an API key holding it); 403 while the organization awaits approval. ' +
  '404 while SCIM is not configured (no token): SCIM is dormant then. ';

/** Part A 4.6: the organization's SCIM configuration and token. */
export function registerScimAdminRoutes(app: FastifyInstance, deps: { admin: ScimAdminService }): void {
  const { admin } = deps;

  app.get(
    PATH,
    {
      config: policy,
      schema: {
        ...common,
        summary: 'The organization’s SCIM configuration (never the token)',
        description: ADMIN,
        response: { 200: ConfigView, ...errors(401, 403, 404) },
      },
    },
    async (request) => admin.get(principalOf(request)),
  );

  app.patch<{ Body: Static<typeof PatchBody> }>(
    PATH,
    {
      config: policy,
      schema: {
        ...common,
        summary: 'Pause or resume SCIM provisioning',
        description: `${ADMIN}\`enabled: false\` keeps the token; the SCIM routes answer it 404 until re-enabled.`,
        body: PatchBody,
        response: { 200: ConfigView, ...errors(401, 403, 404, 422) },
      },
    },
    async (request) => admin.update(principalOf(request), request.body),
  );

  app.post(
    `${PATH}/token`,
    {
      config: mint,
      schema: {
        ...common,
        summary: 'Mint or rotate the SCIM token (returned once, with the base URL to configure)',
        description:
          'Needs `tenant:manage`; 403 while the organization awaits approval. The first token configures SCIM ' +
          '(enabled); a new one replaces the previous token, which stops working at once.',
        response: { 201: IssuedToken, ...errors(401, 403) },
      },
    },
    async (request, reply) => reply.code(201).send(await admin.issueToken(principalOf(request))),
  );

  app.delete(
    `${PATH}/token`,
    {
      config: policy,
      schema: {
        ...common,
        summary: 'Revoke the SCIM token: it stops at once and SCIM is dormant again',
        description: `${ADMIN}Provisioned users and groups stay as they are.`,
        response: { 204: Type.Null(), ...errors(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await admin.revokeToken(principalOf(request));
      return reply.code(204).send();
    },
  );
}
