import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { type DpopVerifier, principalOf } from '../../kernel/auth/index.js';
import { errors } from '../../kernel/http/index.js';
import { noStore } from '../sign-in/index.js';
import type { FederationAdmin } from './federation-admin.js';
import type { FederatedExchange } from './federation-exchange.js';
import { ISSUER_PROFILES } from './federation-profiles.js';
import { AgentTokenAnswer } from './token-routes.js';

// Federated issuers, bindings (ARCHITECTURE.md "Federated issuers", people only) and the federated exchange
// (Part B 4.1, the attestation is the authentication).

const Uuid = Type.String({ format: 'uuid' });
const Timestamp = Type.String({ format: 'date-time' });
const Profile = Type.Union(
  [Type.Literal('generic'), Type.Literal('github-actions'), Type.Literal('gitlab-ci'), Type.Literal('kubernetes')],
  { description: `The issuer's kind (${ISSUER_PROFILES.join(', ')}): it decides which claims a binding may name` },
);
const Claims = Type.Record(Type.String(), Type.String(), {
  description: "Claim name to exact value, from the profile's claim_schema; `sub` required; no wildcards",
});

const Binding = Type.Object({
  binding_id: Uuid,
  agent_id: Uuid,
  claims: Claims,
  created_at: Timestamp,
});
const Issuer = Type.Object({
  id: Uuid,
  issuer: Type.String({ description: 'Matched exactly against the `iss` of attestations' }),
  jwks_uri: Type.String(),
  profile: Profile,
  claim_schema: Type.Array(Type.String(), { description: 'The claims a binding may name' }),
  enabled: Type.Boolean(),
  name: Type.Union([Type.String(), Type.Null()]),
  created_at: Timestamp,
});
const IssuerWithBindings = Type.Intersect([Issuer, Type.Object({ bindings: Type.Array(Binding) })]);

const RegisterBody = Type.Object(
  {
    issuer: Type.String({ minLength: 1, maxLength: 2048, description: 'The exact `iss` of its attestations (https)' }),
    jwks_uri: Type.Optional(
      Type.String({ minLength: 1, maxLength: 2048, description: "Default: the one the issuer's discovery names" }),
    ),
    profile: Type.Optional(Profile),
    name: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 200 }), Type.Null()])),
  },
  { additionalProperties: false },
);
const PatchBody = Type.Object({ enabled: Type.Boolean() }, { additionalProperties: false });
const BindingBody = Type.Object(
  {
    agent_id: Type.String({ minLength: 1, maxLength: 64 }),
    claims: Type.Object({}, { additionalProperties: true, maxProperties: 32, description: Claims.description }),
  },
  { additionalProperties: false },
);
const IssuerParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
const BindingParams = Type.Object({ id: Type.String({ maxLength: 64 }), binding_id: Type.String({ maxLength: 64 }) });

const ExchangeBody = Type.Object({
  tenant: Type.String({ minLength: 1, maxLength: 200, description: 'The organization slug' }),
  subject_token: Type.String({ minLength: 1, maxLength: 16_384, description: 'The attestation JWT' }),
});

const BASE = '/api/v1/agents/issuers';
const read = { auth: 'user', permission: 'agents:read' } as const;
const manage = { auth: 'user', permission: 'agents:manage' } as const;
const common = { tags: ['agents'], security: [{ bearer: [] }] };

export function registerFederationRoutes(
  app: FastifyInstance,
  deps: { federation: { admin: FederationAdmin; exchange: FederatedExchange }; dpop: DpopVerifier },
): void {
  const { admin, exchange } = deps.federation;

  app.post<{ Body: Static<typeof RegisterBody> }>(
    BASE,
    {
      config: manage,
      schema: {
        ...common,
        summary: 'Trust a workload identity issuer for federated exchange',
        body: RegisterBody,
        response: { 201: Issuer, ...errors(401, 403, 409, 422, 429) },
      },
    },
    async (request, reply) => reply.code(201).send(await admin.register(principalOf(request), request.body)),
  );

  app.get(
    BASE,
    {
      config: read,
      schema: {
        ...common,
        summary: "The organization's trusted issuers, each with its bindings",
        response: { 200: Type.Array(IssuerWithBindings), ...errors(401, 403, 429) },
      },
    },
    async (request) => admin.list(principalOf(request)),
  );

  app.patch<{ Params: Static<typeof IssuerParams>; Body: Static<typeof PatchBody> }>(
    `${BASE}/:id`,
    {
      config: manage,
      schema: {
        ...common,
        summary: 'Enable or disable an issuer (disabled: every exchange refused, configuration kept)',
        params: IssuerParams,
        body: PatchBody,
        response: { 200: Issuer, ...errors(401, 403, 404, 422, 429) },
      },
    },
    async (request) => admin.setEnabled(principalOf(request), request.params.id, request.body.enabled),
  );

  app.delete<{ Params: Static<typeof IssuerParams> }>(
    `${BASE}/:id`,
    {
      config: manage,
      schema: {
        ...common,
        summary: 'Stop trusting an issuer; its bindings are removed',
        params: IssuerParams,
        response: { 204: Type.Null(), ...errors(401, 403, 404, 429) },
      },
    },
    async (request, reply) => {
      await admin.remove(principalOf(request), request.params.id);
      return reply.code(204).send();
    },
  );

  app.post<{ Params: Static<typeof IssuerParams>; Body: Static<typeof BindingBody> }>(
    `${BASE}/:id/bindings`,
    {
      config: manage,
      schema: {
        ...common,
        summary: "Bind an issuer's attestations with exactly these claims to an agent",
        params: IssuerParams,
        body: BindingBody,
        response: { 201: Binding, ...errors(401, 403, 404, 409, 422, 429) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await admin.addBinding(principalOf(request), request.params.id, request.body)),
  );

  app.delete<{ Params: Static<typeof BindingParams> }>(
    `${BASE}/:id/bindings/:binding_id`,
    {
      config: manage,
      schema: {
        ...common,
        summary: 'Remove one binding',
        params: BindingParams,
        response: { 204: Type.Null(), ...errors(401, 403, 404, 429) },
      },
    },
    async (request, reply) => {
      await admin.removeBinding(principalOf(request), request.params.id, request.params.binding_id);
      return reply.code(204).send();
    },
  );

  app.post<{ Body: Static<typeof ExchangeBody> }>(
    '/api/v1/agents/token/federated',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['agents'],
        summary: 'Exchange a workload attestation for an agent token (the attestation is the authentication)',
        body: ExchangeBody,
        response: { 200: AgentTokenAnswer, ...errors(401, 422, 429) },
      },
    },
    async (request, reply) => {
      const token = await exchange.exchange(
        { tenant: request.body.tenant, subjectToken: request.body.subject_token },
        {
          ip: request.ip,
          dpopProof: request.headers.dpop,
          method: request.method,
          url: deps.dpop.urlOf(request.url),
        },
      );
      return noStore(reply).send(token);
    },
  );
}
