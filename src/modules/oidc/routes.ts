import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { NOT_AGENTS, principalOf } from '../../kernel/auth/index.js';
import { errors } from '../../kernel/http/index.js';
import type { ClientService } from './clients.js';
import { MAX_URI_LENGTH } from './redirect-uris.js';
import { GRANT_TYPES, MAX_REDIRECT_URIS, NAME_MAX, SCOPES } from './registration.js';
import type { ResourceService } from './resources.js';

const Timestamp = Type.String({ format: 'date-time' });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

// The schemas bound sizes only: the registration rules are checked by the service, so a 422 names the rule.
const Name = Type.String({
  maxLength: 4096,
  description: `1 to ${NAME_MAX} characters, no control characters; shown on the consent screen`,
});
const UriList = (description: string) => Type.Array(Type.String({ maxLength: 4096 }), { maxItems: 100, description });
const REDIRECT_RULE =
  `exact strings, at most ${MAX_URI_LENGTH} characters each, no duplicates; absolute, no fragment, no wildcard; ` +
  'https, http only on localhost, 127.0.0.1 or [::1], or a private-use scheme such as com.example.app:/callback';
const registrationFields = {
  name: Name,
  client_type: Type.String({ maxLength: 64, description: '`confidential` (holds a secret) or `public`' }),
  redirect_uris: UriList(
    `1 to ${MAX_REDIRECT_URIS} URIs when grant_types include authorization_code, else 0 to ${MAX_REDIRECT_URIS} ` +
      `(a client_credentials-only client may send []): ${REDIRECT_RULE}`,
  ),
  grant_types: Type.Optional(
    Type.Array(Type.String({ maxLength: 64 }), {
      maxItems: 20,
      description:
        `Non-empty subset of ${GRANT_TYPES.join(', ')}; default ["authorization_code"]; refresh_token needs ` +
        'authorization_code; client_credentials only for confidential clients',
    }),
  ),
  scopes: Type.Optional(
    Type.Array(Type.String({ maxLength: 64 }), {
      maxItems: 20,
      description: `Non-empty subset of ${SCOPES.join(', ')}; default all three`,
    }),
  ),
  post_logout_redirect_uris: Type.Optional(UriList(`0 to ${MAX_REDIRECT_URIS} URIs, default []: ${REDIRECT_RULE}`)),
  backchannel_logout_uri: Type.Optional(
    Nullable(
      Type.String({
        maxLength: 4096,
        description: 'https, port 443, a fully-qualified public host name, no credentials or fragment; null: none',
      }),
    ),
  ),
};
const CreateClientBody = Type.Object(registrationFields, { additionalProperties: false });
const PatchClientBody = Type.Object(
  {
    ...registrationFields,
    name: Type.Optional(Name),
    client_type: Type.Optional(
      Type.String({ maxLength: 64, description: 'Fixed at registration: a different value is 422' }),
    ),
    redirect_uris: Type.Optional(registrationFields.redirect_uris),
  },
  { additionalProperties: false },
);
const Client = Type.Object({
  client_id: Type.String(),
  name: Type.String(),
  client_type: Type.Union([Type.Literal('confidential'), Type.Literal('public')]),
  redirect_uris: Type.Array(Type.String()),
  grant_types: Type.Array(Type.String()),
  scopes: Type.Array(Type.String()),
  post_logout_redirect_uris: Type.Array(Type.String()),
  backchannel_logout_uri: Nullable(Type.String()),
  created_at: Timestamp,
  updated_at: Timestamp,
});
const SECRET_ONCE = 'The client secret: shown only now, store it now (only its SHA-256 is kept)';
const CreatedClient = Type.Intersect([
  Client,
  Type.Object({
    client_secret: Type.Optional(Type.String({ description: `Confidential clients only. ${SECRET_ONCE}` })),
  }),
]);
const RotatedClient = Type.Intersect([
  Client,
  Type.Object({ client_secret: Type.String({ description: SECRET_ONCE }) }),
]);
const ClientParams = Type.Object({ client_id: Type.String({ maxLength: 64 }) });

const Resource = Type.Object({
  id: Type.String({ format: 'uuid' }),
  identifier: Type.String({ description: 'RFC 8707 resource identifier; the `aud` of tokens minted for it' }),
  name: Type.String(),
  enabled: Type.Boolean(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
const CreateResourceBody = Type.Object(
  {
    identifier: Type.String({
      maxLength: 4096,
      description: `Absolute URI without fragment (RFC 8707 section 2), at most ${MAX_URI_LENGTH} characters; unique in the organization; matched exactly`,
    }),
    name: Name,
    enabled: Type.Optional(Type.Boolean({ description: 'Default true' })),
  },
  { additionalProperties: false },
);
const PatchResourceBody = Type.Object(
  { name: Type.Optional(Name), enabled: Type.Optional(Type.Boolean()) },
  { additionalProperties: false, description: 'The identifier is fixed once registered' },
);
const ResourceParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

const CLIENTS = '/api/v1/oauth/clients';
const RESOURCES = '/api/v1/oauth/resources';
const policy = { auth: 'any', permission: 'tenant:manage', quarantineGated: true } as const;
/** A client secret outlives an agent's governance: like API keys, agents never mint one (Part B 4.2). */
const mint = { ...policy, kinds: NOT_AGENTS, kindRefusal: 'AI agents may never mint credentials' } as const;
const common = { tags: ['oauth'], security: [{ bearer: [] }] };
const ADMIN = 'Needs `tenant:manage` (a person or an API key holding it); 403 while the organization awaits approval. ';

/**
 * OAuth client and resource administration (ARCHITECTURE "Interfaces the specification leaves out", Part A
 * 2.8 and 4.14). Another organization's client or resource is the same 404 as an unknown one.
 */
export function registerOAuthClientRoutes(
  app: FastifyInstance,
  deps: { oauthClients: { clients: ClientService; resources: ResourceService } },
): void {
  const { clients, resources } = deps.oauthClients;

  app.post<{ Body: Static<typeof CreateClientBody> }>(
    CLIENTS,
    {
      config: mint,
      schema: {
        ...common,
        summary: 'Register an OAuth client (a confidential client’s secret is returned once)',
        description: `${ADMIN}422 names the registration rule broken; nothing is stored then.`,
        body: CreateClientBody,
        response: { 201: CreatedClient, ...errors(401, 403, 422, 429) },
      },
    },
    async (request, reply) => reply.code(201).send(await clients.create(principalOf(request), request.body)),
  );

  app.get(
    CLIENTS,
    {
      config: policy,
      schema: {
        ...common,
        summary: 'List the organization’s OAuth clients (never secrets)',
        description: ADMIN,
        response: { 200: Type.Array(Client), ...errors(401, 403, 429) },
      },
    },
    async (request) => clients.list(principalOf(request)),
  );

  app.get<{ Params: Static<typeof ClientParams> }>(
    `${CLIENTS}/:client_id`,
    {
      config: policy,
      schema: {
        ...common,
        summary: 'One OAuth client (never its secret)',
        description: ADMIN,
        params: ClientParams,
        response: { 200: Client, ...errors(401, 403, 404, 429) },
      },
    },
    async (request) => clients.get(principalOf(request), request.params.client_id),
  );

  app.patch<{ Params: Static<typeof ClientParams>; Body: Static<typeof PatchClientBody> }>(
    `${CLIENTS}/:client_id`,
    {
      config: policy,
      schema: {
        ...common,
        summary: 'Change registration parameters (every rule is checked again)',
        description:
          `${ADMIN}Fields left out keep their value; \`backchannel_logout_uri: null\` removes it. The client ` +
          'type is fixed at registration (422).',
        params: ClientParams,
        body: PatchClientBody,
        response: { 200: Client, ...errors(401, 403, 404, 422, 429) },
      },
    },
    async (request) => clients.update(principalOf(request), request.params.client_id, request.body),
  );

  app.delete<{ Params: Static<typeof ClientParams> }>(
    `${CLIENTS}/:client_id`,
    {
      config: policy,
      schema: {
        ...common,
        summary: 'Delete an OAuth client',
        description: `${ADMIN}Immediate and permanent; the client id is never issued again.`,
        params: ClientParams,
        response: { 204: Type.Null(), ...errors(401, 403, 404, 429) },
      },
    },
    async (request, reply) => {
      await clients.remove(principalOf(request), request.params.client_id);
      return reply.code(204).send();
    },
  );

  app.post<{ Params: Static<typeof ClientParams> }>(
    `${CLIENTS}/:client_id/rotate-secret`,
    {
      config: mint,
      schema: {
        ...common,
        summary: 'New client secret (returned once); the previous one stops working at once',
        description: `${ADMIN}409 for a public client, which has no secret.`,
        params: ClientParams,
        response: { 200: RotatedClient, ...errors(401, 403, 404, 409, 429) },
      },
    },
    async (request) => clients.rotateSecret(principalOf(request), request.params.client_id),
  );

  app.post<{ Body: Static<typeof CreateResourceBody> }>(
    RESOURCES,
    {
      config: policy,
      schema: {
        ...common,
        summary: 'Register a protected resource (RFC 8707 resource identifier)',
        description: `${ADMIN}409 when the organization registered the identifier already; 422 names the rule.`,
        body: CreateResourceBody,
        response: { 201: Resource, ...errors(401, 403, 409, 422, 429) },
      },
    },
    async (request, reply) => reply.code(201).send(await resources.create(principalOf(request), request.body)),
  );

  app.get(
    RESOURCES,
    {
      config: policy,
      schema: {
        ...common,
        summary: 'List the organization’s protected resources',
        description: ADMIN,
        response: { 200: Type.Array(Resource), ...errors(401, 403, 429) },
      },
    },
    async (request) => resources.list(principalOf(request)),
  );

  app.patch<{ Params: Static<typeof ResourceParams>; Body: Static<typeof PatchResourceBody> }>(
    `${RESOURCES}/:id`,
    {
      config: policy,
      schema: {
        ...common,
        summary: 'Rename, enable or disable a protected resource',
        description: `${ADMIN}A disabled resource is refused as a token's \`resource\` (invalid_target).`,
        params: ResourceParams,
        body: PatchResourceBody,
        response: { 200: Resource, ...errors(401, 403, 404, 422, 429) },
      },
    },
    async (request) => resources.update(principalOf(request), request.params.id, request.body),
  );
}
