import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { principalOf } from '../../kernel/auth/index.js';
import { errors } from '../../kernel/http/index.js';
import type { ApprovalsDeps } from './deps.js';
import { ApprovalDetail, ApprovalParams, ApprovalQueue, ApprovalQueueQuery, DecideBody } from './http-schemas.js';
import { createApprovalService, DECIDE_PERMISSION, PEOPLE_DECIDE, READ_PERMISSION } from './service.js';

// The approval queue (Part B 4.3). Every route is behind AGENT_APPROVALS_ENABLED: while it is off the guard
// answers 404 before anything else, exactly like an unknown path.

const BASE = '/api/v1/approvals';
const flag = 'agentApprovalsEnabled' as const;
const common = { tags: ['approvals'], security: [{ bearer: [] }] };

type AskRequest = { Params: Static<typeof ApprovalParams> };

export function registerApprovalRoutes(app: FastifyInstance, deps: ApprovalsDeps): void {
  const approvals = createApprovalService(deps);

  app.get<{ Querystring: Static<typeof ApprovalQueueQuery> }>(
    BASE,
    {
      config: { auth: 'any', permission: READ_PERMISSION, flag },
      schema: {
        ...common,
        summary: 'The approval queue, newest first: every kind of ask, with what it binds to',
        description:
          'Filters `status` (as of now: a pending or approved ask past `expires_at` is `expired`), `agent_id` and `resource_type`.',
        querystring: ApprovalQueueQuery,
        response: { 200: ApprovalQueue, ...errors(401, 403, 422, 429) },
      },
    },
    async (request) => approvals.queue(principalOf(request), request.query),
  );

  app.get<AskRequest>(
    `${BASE}/:id`,
    {
      // People and keys need agents:approvals:read (checked by the service); an agent reads its own asks only.
      config: { auth: 'any', kinds: ['user', 'agent', 'api_key', 'oauth_client'], flag },
      schema: {
        ...common,
        summary: 'One approval request with each decision recorded on it',
        description:
          'Needs `agents:approvals:read`, except for the requesting agent reading its own request; any other agent gets 404.',
        params: ApprovalParams,
        response: { 200: ApprovalDetail, ...errors(401, 403, 404, 429) },
      },
    },
    async (request) => approvals.get(principalOf(request), request.params.id),
  );

  app.post<AskRequest & { Body: Static<typeof DecideBody> }>(
    `${BASE}/:id/decide`,
    {
      config: { auth: 'user', permission: DECIDE_PERMISSION, kindRefusal: PEOPLE_DECIDE, flag },
      schema: {
        ...common,
        summary: 'Approve or deny an approval request (people only)',
        description:
          'Also needs the permission the asked action needs (`required_permission`). 403 for the requester, for break-glass by a non-owner and for a missing permission (named); 409 once decided or expired, or when you already decided it.',
        params: ApprovalParams,
        body: DecideBody,
        response: { 200: ApprovalDetail, ...errors(401, 403, 404, 409, 422, 429) },
      },
    },
    async (request) => approvals.decide(principalOf(request), request.params.id, request.body),
  );
}
