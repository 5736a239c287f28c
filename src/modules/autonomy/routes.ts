import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { principalOf } from '../../kernel/auth/index.js';
import { errors } from '../../kernel/http/index.js';
import {
  AdjudicateBody,
  Adjudicated,
  DecisionParams,
  DecisionsList,
  DecisionsQuery,
  DrillReport,
  GraduationReport,
  KillSwitchBody,
  KillSwitchState,
  Metrics,
  RevertBody,
  Reverted,
} from './http-schemas.js';
import type { Autonomy } from './index.js';

// /api/v1/autonomy (Part B 4.9). Always served (AUTONOMY_EXECUTION_ENABLED only decides whether anything runs).

const BASE = '/api/v1/autonomy';
const common = { tags: ['autonomy'], security: [{ bearer: [] }] };
type ById = { Params: Static<typeof DecisionParams> };

export function registerAutonomyRoutes(app: FastifyInstance, deps: { autonomy: Autonomy }): void {
  const { service, killSwitch, insight, drill } = deps.autonomy;

  app.get<{ Querystring: Static<typeof DecisionsQuery> }>(
    `${BASE}/decisions`,
    {
      config: { auth: 'any', permission: 'autonomy:read' },
      schema: {
        ...common,
        summary: 'The autonomy ledger, newest first',
        description: '`mode` filters; `limit` 1 to 200 (default 50). The platform operator reads every organization.',
        querystring: DecisionsQuery,
        response: { 200: DecisionsList, ...errors(401, 403, 422, 429) },
      },
    },
    async (request) => service.list(principalOf(request), request.query),
  );

  app.post<ById & { Body: Static<typeof AdjudicateBody> }>(
    `${BASE}/decisions/:id/adjudicate`,
    {
      config: { auth: 'any', permission: 'autonomy:approve' },
      schema: {
        ...common,
        summary: 'Approve or deny a proposal',
        description:
          "Needs `autonomy:approve` and the action's own permission (`tenant:manage` to end sessions, `agents:manage` to engage a kill switch). The verdict is recorded first; an approval then executes with every guard re-checked: a changed world gives `expired` with `executed: false` and the reason. 409 when not awaiting a verdict.",
        params: DecisionParams,
        body: AdjudicateBody,
        response: { 200: Adjudicated, ...errors(401, 403, 404, 409, 422, 429, 503) },
      },
    },
    async (request) => service.adjudicate(principalOf(request), request.params.id, request.body),
  );

  app.post<ById & { Body: Static<typeof RevertBody> }>(
    `${BASE}/decisions/:id/revert`,
    {
      config: { auth: 'any', permission: 'autonomy:approve' },
      schema: {
        ...common,
        summary: 'Revert an executed decision',
        description:
          "Needs `autonomy:approve` and the permission to undo the action yourself; a contain_non_human revert is a person's only (403 otherwise). 409 with nothing changed when superseded. A reversal holds the class below unattended operation for 30 days.",
        params: DecisionParams,
        body: RevertBody,
        response: { 200: Reverted, ...errors(401, 403, 404, 409, 422, 429, 503) },
      },
    },
    async (request) => service.revert(principalOf(request), request.params.id, request.body.reason),
  );

  app.get(
    `${BASE}/metrics`,
    {
      config: { auth: 'any', permission: 'autonomy:read' },
      schema: {
        ...common,
        summary: 'Ledger metrics: modes, execution latency, caps used, pending proposals',
        response: { 200: Metrics, ...errors(401, 403, 429) },
      },
    },
    async (request) => insight.metrics(principalOf(request)),
  );

  app.get(
    `${BASE}/graduation`,
    {
      config: { auth: 'any', permission: 'autonomy:read' },
      schema: {
        ...common,
        summary: "Each class's graduation against its bar (own organization only; no disable_principal entry)",
        response: { 200: GraduationReport, ...errors(401, 403, 429) },
      },
    },
    async (request) => insight.graduation(principalOf(request)),
  );

  app.get(
    `${BASE}/kill-switch`,
    {
      config: { auth: 'any', permission: 'autonomy:read' },
      schema: {
        ...common,
        summary: 'The autonomy kill switch',
        response: { 200: KillSwitchState, ...errors(401, 403, 429) },
      },
    },
    async (request) => killSwitch.state(principalOf(request)),
  );

  app.post<{ Body: Static<typeof KillSwitchBody> }>(
    `${BASE}/kill-switch`,
    {
      config: { auth: 'any', permission: 'autonomy:disable' },
      schema: {
        ...common,
        summary: 'Engage (for 1, 8 or 24 hours, or indefinitely with a reason) or release the kill switch',
        description:
          "Stored as the expiry `autonomy.disabled_until` (it re-arms by itself); 400 for other hours or an indefinite stop without a reason. Each change raises a critical detection. Releasing is a person's only.",
        body: KillSwitchBody,
        response: { 200: KillSwitchState, ...errors(400, 401, 403, 422, 429) },
      },
    },
    async (request) => killSwitch.change(principalOf(request), request.body),
  );

  app.get(
    `${BASE}/drill`,
    {
      config: { auth: 'any', permission: 'autonomy:read', platformOnly: true },
      schema: {
        ...common,
        summary: 'Soak drill (platform operator): synthetic detections replayed in shadow',
        description:
          "Synthetic detections of every trigger, 100 per class and level on distinct targets, replayed through the engine's decision rule and live guards (kill switches, rate and spread caps, reversal breaker, graduation) of the operator's organization, in shadow: nothing is recorded or executed. Per class and level: executed, proposed, dry_run, and held_by guard.",
        response: { 200: DrillReport, ...errors(401, 403, 429) },
      },
    },
    async (request) => drill.run(principalOf(request)),
  );
}
