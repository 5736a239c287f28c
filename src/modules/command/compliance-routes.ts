import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { principalOf } from '../../kernel/auth/index.js';
import { errors } from '../../kernel/http/index.js';
import { ControlCatalogue, ControlsQuery, Evidence, EvidenceQuery, Report, ReportQuery } from './compliance-schemas.js';
import { createComplianceService } from './compliance-service.js';
import type { CommandDeps } from './deps.js';

// Compliance (Part B 4.8): the control catalogue, and evidence computed from the organization's audit chain and
// settings. All reads: `command:read`.

const BASE = '/api/v1/command/compliance';
const read = { auth: 'any', permission: 'command:read' } as const;
const common = { tags: ['command'], security: [{ bearer: [] }] };

export function registerComplianceRoutes(app: FastifyInstance, deps: CommandDeps): void {
  const compliance = createComplianceService(deps);

  app.get<{ Querystring: Static<typeof ControlsQuery> }>(
    `${BASE}/controls`,
    {
      config: read,
      schema: {
        ...common,
        summary: 'The control catalogue per framework (SOC 2, ISO 27001, GDPR): what evidences each control',
        querystring: ControlsQuery,
        response: { 200: ControlCatalogue, ...errors(401, 403, 422, 429) },
      },
    },
    async (request) => compliance.controls(request.query),
  );

  app.get<{ Querystring: Static<typeof EvidenceQuery> }>(
    `${BASE}/evidence`,
    {
      config: read,
      schema: {
        ...common,
        summary:
          'Evidence for one framework over the last `days` days: readiness, gaps, and per control the newest audit entries (all with export=true) with their hashes',
        querystring: EvidenceQuery,
        response: { 200: Evidence, ...errors(401, 403, 422, 429) },
      },
    },
    async (request) => compliance.evidence(principalOf(request), request.query),
  );

  app.get<{ Querystring: Static<typeof ReportQuery> }>(
    `${BASE}/report`,
    {
      config: read,
      schema: {
        ...common,
        summary: 'Readiness report for one framework: readiness_pct, satisfied versus gaps, open incidents, posture',
        querystring: ReportQuery,
        response: { 200: Report, ...errors(401, 403, 422, 429) },
      },
    },
    async (request) => compliance.report(principalOf(request), request.query),
  );
}
