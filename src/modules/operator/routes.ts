import type { Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { principalOf } from '../../kernel/auth/index.js';
import { errors } from '../../kernel/http/index.js';
import { PricingContentSchema } from '../pricing/index.js';
import { OPERATOR_MANAGE, OPERATOR_READ } from './deps.js';
import {
  ConfigBody,
  ConfigParams,
  CredentialBody,
  CredentialView,
  IdParams,
  IssuedCredential,
  IssuedLicence,
  LicenceBody,
  LicenceView,
  OperatorSettingRecord,
  PlanBody,
  ReleaseBody,
  ReleaseView,
  TenantConfig,
  TenantsPage,
  TenantsQuery,
  TenantView,
  VersionParams,
} from './http-schemas.js';
import type { createLicensing } from './licences-service.js';
import type { createReleases } from './releases-service.js';
import { assertPlanCode, type createTenantAdministration } from './tenants-service.js';

// The operator plane (Part B 4.10; ARCHITECTURE.md "Operator tenant administration"). Every route needs its
// operator permission held in the platform-operator organization: the guard answers 403 to anyone else.

const BASE = '/api/v1/operator';
const common = { tags: ['operator'], security: [{ bearer: [] }] };
type IdRequest = { Params: Static<typeof IdParams> };

export function registerOperatorRoutes(
  app: FastifyInstance,
  services: {
    tenants: ReturnType<typeof createTenantAdministration>;
    licensing: ReturnType<typeof createLicensing>;
    releases: ReturnType<typeof createReleases>;
  },
): void {
  const { tenants, licensing, releases } = services;

  app.get<{ Querystring: Static<typeof TenantsQuery> }>(
    `${BASE}/tenants`,
    {
      config: OPERATOR_READ,
      schema: {
        ...common,
        summary: 'The organizations of the installation, by slug, one page at a time',
        querystring: TenantsQuery,
        response: { 200: TenantsPage, ...errors(401, 403, 422, 429) },
      },
    },
    async (request) => tenants.list(request.query),
  );

  app.put<IdRequest & { Body: Static<typeof PlanBody> }>(
    `${BASE}/tenants/:id/plan`,
    {
      config: OPERATOR_MANAGE,
      schema: {
        ...common,
        summary: "Set an organization's plan; seats and features follow at once",
        description:
          'A downgrade removes nothing: what the organization has stays readable and removable, and what the new plan lacks is refused with 403 naming the plan. 422 for a plan code that is not an entitlement tier.',
        params: IdParams,
        body: PlanBody,
        response: { 200: TenantView, ...errors(401, 403, 404, 422, 429) },
      },
    },
    async (request) => tenants.setPlan(principalOf(request), request.params.id, request.body.plan_code),
  );

  app.get<IdRequest>(
    `${BASE}/tenants/:id/config`,
    {
      config: OPERATOR_READ,
      schema: {
        ...common,
        summary: "Every setting of an organization with its risk; the operator's own are editable",
        params: IdParams,
        response: { 200: TenantConfig, ...errors(401, 403, 404, 422, 429) },
      },
    },
    async (request) => tenants.config(request.params.id),
  );

  app.patch<{ Params: Static<typeof ConfigParams>; Body: Static<typeof ConfigBody> }>(
    `${BASE}/tenants/:id/config/:key`,
    {
      config: OPERATOR_MANAGE,
      schema: {
        ...common,
        summary: 'Set one operator setting of an organization (audited in that organization)',
        description:
          "400 stating the bounds; 403 for one of the organization's own settings (not editable here); 404 for an unknown key or organization.",
        params: ConfigParams,
        body: ConfigBody,
        response: { 200: OperatorSettingRecord, ...errors(400, 401, 403, 404, 422, 429) },
      },
    },
    async (request) =>
      tenants.setConfig(principalOf(request), request.params.id, request.params.key, request.body.value),
  );

  app.get(
    `${BASE}/pricing`,
    {
      config: OPERATOR_READ,
      schema: {
        ...common,
        summary: 'The full editable pricing content, unpublished plans included',
        response: { 200: PricingContentSchema, ...errors(401, 403, 429) },
      },
    },
    async () => tenants.pricing(),
  );

  app.put<{ Body: Static<typeof PricingContentSchema> }>(
    `${BASE}/pricing`,
    {
      config: OPERATOR_MANAGE,
      schema: {
        ...common,
        summary: 'Replace the pricing content; GET /pricing serves it at once on every node',
        description:
          '422 for a `plan_code` that is not an entitlement tier, naming it, and for any field out of shape.',
        body: PricingContentSchema,
        response: { 200: PricingContentSchema, ...errors(401, 403, 422, 429) },
      },
      // An unknown plan code is named before the schema's generic "must be equal to constant".
      preValidation: async (request: FastifyRequest) => {
        const plans = (request.body as { plans?: unknown } | undefined)?.plans;
        if (!Array.isArray(plans)) return;
        plans.forEach((plan, i) => {
          const code = (plan as { plan_code?: unknown } | null)?.plan_code;
          if (typeof code === 'string') assertPlanCode(code, `plans.${i}.plan_code`);
        });
      },
    },
    async (request) => tenants.replacePricing(principalOf(request), request.body),
  );

  app.get(
    `${BASE}/licences`,
    {
      config: OPERATOR_READ,
      schema: {
        ...common,
        summary: 'Licence lifecycle records, newest first (never the signed bundle)',
        response: { 200: { type: 'array', items: LicenceView }, ...errors(401, 403, 429) },
      },
    },
    async (request) => licensing.list(principalOf(request)),
  );

  app.post<{ Body: Static<typeof LicenceBody> }>(
    `${BASE}/licences`,
    {
      config: OPERATOR_MANAGE,
      schema: {
        ...common,
        summary: 'Issue a licence: the signed bundle is answered once in `licence_jwt`',
        description:
          '503 while LICENCE_SIGNING_KEY_FILE is not set; 422 for a plan code that is not an entitlement tier.',
        body: LicenceBody,
        response: { 201: IssuedLicence, ...errors(401, 403, 422, 429, 503) },
      },
    },
    async (request, reply) => {
      const issued = await licensing.issue(principalOf(request), request.body);
      reply.code(201).header('cache-control', 'no-store');
      return issued;
    },
  );

  app.post<IdRequest>(
    `${BASE}/licences/:id/revoke`,
    {
      config: OPERATOR_MANAGE,
      schema: {
        ...common,
        summary: 'Revoke a licence: its distribution credentials stop at once (issued bundles cannot be recalled)',
        params: IdParams,
        response: { 200: LicenceView, ...errors(401, 403, 404, 409, 422, 429) },
      },
    },
    async (request) => licensing.revoke(principalOf(request), request.params.id),
  );

  app.get(
    `${BASE}/distribution-credentials`,
    {
      config: OPERATOR_READ,
      schema: {
        ...common,
        summary: 'Distribution credentials: label, public prefix, expiry, revocation, last use (never the secret)',
        response: { 200: { type: 'array', items: CredentialView }, ...errors(401, 403, 429) },
      },
    },
    async (request) => licensing.listCredentials(principalOf(request)),
  );

  app.post<{ Body: Static<typeof CredentialBody> }>(
    `${BASE}/distribution-credentials`,
    {
      config: OPERATOR_MANAGE,
      schema: {
        ...common,
        summary: 'Issue a release download credential for a licence: `zdc_…` answered once',
        description: '404 for no such licence; 409 for a revoked licence; `expires_days` 1 to 1830 (default 365).',
        body: CredentialBody,
        response: { 201: IssuedCredential, ...errors(401, 403, 404, 409, 422, 429) },
      },
    },
    async (request, reply) => {
      const issued = await licensing.issueCredential(principalOf(request), request.body);
      reply.code(201).header('cache-control', 'no-store');
      return issued;
    },
  );

  app.post<IdRequest>(
    `${BASE}/distribution-credentials/:id/revoke`,
    {
      config: OPERATOR_MANAGE,
      schema: {
        ...common,
        summary: 'Revoke a distribution credential: it never authenticates again',
        params: IdParams,
        response: { 200: CredentialView, ...errors(401, 403, 404, 409, 422, 429) },
      },
    },
    async (request) => licensing.revokeCredential(principalOf(request), request.params.id),
  );

  app.get(
    `${BASE}/releases`,
    {
      config: OPERATOR_READ,
      schema: {
        ...common,
        summary: 'The release catalogue, yanked releases included',
        response: { 200: { type: 'array', items: ReleaseView }, ...errors(401, 403, 429) },
      },
    },
    async (request) => releases.list(principalOf(request)),
  );

  app.post<{ Body: Static<typeof ReleaseBody> }>(
    `${BASE}/releases`,
    {
      config: OPERATOR_MANAGE,
      schema: {
        ...common,
        summary: 'Publish a release (immutable once published)',
        description: '409 when the version exists; 422 for a version that is not vX.Y.Z or a malformed checksum.',
        body: ReleaseBody,
        response: { 201: ReleaseView, ...errors(401, 403, 409, 422, 429) },
      },
    },
    async (request, reply) => {
      const published = await releases.publish(principalOf(request), request.body);
      reply.code(201);
      return published;
    },
  );

  app.post<{ Params: Static<typeof VersionParams> }>(
    `${BASE}/releases/:version/yank`,
    {
      config: OPERATOR_MANAGE,
      schema: {
        ...common,
        summary: 'Yank a release: it stays in the catalogue, downloads refuse it',
        params: VersionParams,
        response: { 200: ReleaseView, ...errors(401, 403, 404, 409, 422, 429) },
      },
    },
    async (request) => releases.yank(principalOf(request), request.params.version),
  );
}
