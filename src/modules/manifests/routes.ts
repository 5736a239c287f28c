import type { FastifyInstance } from 'fastify';
import { principalOf } from '../../kernel/auth/index.js';
import { errors } from '../../kernel/http/index.js';
import {
  ApplyAnswer,
  ApplyConflict,
  ApplyRefused,
  ManifestEnvelope,
  PlanAnswer,
  RequestApprovalAnswer,
  SchemaFailure,
  StepFailed,
} from './http-schemas.js';
import type { ManifestService } from './service.js';

// IAM manifests (Part B 4.6): plan (`manifest:plan`), request-approval and apply (`manifest:apply`). Always on; the
// envelope `{"manifest": {...}}` is checked by the service so that every refusal names its field.

const BASE = '/api/v1/manifest';
const common = { tags: ['manifests'], security: [{ bearer: [] }] };

export function registerManifestRoutes(app: FastifyInstance, deps: { manifests: ManifestService }): void {
  const { manifests } = deps;

  app.post(
    `${BASE}/plan`,
    {
      config: { auth: 'any', permission: 'manifest:plan' },
      schema: {
        ...common,
        summary: 'What applying a manifest would do now, step by step (read-only)',
        description:
          'Each step `{index, kind, target, would, detail}` with `would` one of create, noop (exists identically), conflict (exists and differs: nothing is updated in place) and invalid (`detail.reason` says why). 422 for a document posted outside the envelope or failing the schema (each failure named).',
        body: ManifestEnvelope,
        response: { 200: PlanAnswer, 422: SchemaFailure, ...errors(401, 403, 429) },
      },
    },
    async (request) => manifests.plan(principalOf(request), request.body),
  );

  app.post(
    `${BASE}/request-approval`,
    {
      config: { auth: 'any', permission: 'manifest:apply' },
      schema: {
        ...common,
        summary: 'Ask a person to approve a manifest',
        description:
          "Creates a pending approval request (`resource_type` manifest) bound to the content hash, the resolved plan hash and the catalogue version, with the plan's steps and exact grants in its `resource`; decided through POST /approvals/{id}/decide by a person holding agents:approvals:decide and manifest:apply. 201 with a new ask; 200 with your identical live ask (`created: false`).",
        body: ManifestEnvelope,
        response: {
          200: RequestApprovalAnswer,
          201: RequestApprovalAnswer,
          422: SchemaFailure,
          ...errors(401, 403, 429),
        },
      },
    },
    async (request, reply) => {
      const answer = await manifests.requestApproval(principalOf(request), request.body);
      return reply.code(answer.created ? 201 : 200).send(answer);
    },
  );

  app.post(
    `${BASE}/apply`,
    {
      config: { auth: 'any', permission: 'manifest:apply' },
      schema: {
        ...common,
        summary: 'Apply an approved manifest, each step in its own audited change',
        description:
          '409 with `blockers` before anything is spent (conflicting or invalid steps, or another apply of the manifest running). 403 without spending, `approval_state` saying why: no-approval, plan-changed (the document, the organization or the catalogue now resolve differently) or approver-authority (the approving person lacks a permission the manifest grants). 502 when a step fails: applying again resumes after the finished steps. An applied manifest answers `resumed: true, applied: 0`. Every step is audited with the manifest hash as `correlation_id`.',
        body: ManifestEnvelope,
        response: {
          200: ApplyAnswer,
          403: ApplyRefused,
          409: ApplyConflict,
          422: SchemaFailure,
          502: StepFailed,
          ...errors(401, 429),
        },
      },
    },
    async (request) => manifests.apply(principalOf(request), request.body),
  );
}
