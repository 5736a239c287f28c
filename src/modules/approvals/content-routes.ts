import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { principalOf } from '../../kernel/auth/index.js';
import { errors } from '../../kernel/http/index.js';
import {
  ContentAsk,
  ContentConsumed,
  ContentFeedback,
  ContentHashBody,
  ContentNotReady,
  ContentRequestBody,
  Reversal,
  ReversalBody,
  TrackRecordParams,
  TrackRecordView,
} from './content-http-schemas.js';
import { createContentApprovals } from './content-service.js';
import type { ApprovalsDeps } from './deps.js';

// Agent-authored content (Part B 4.3): `/approvals/content/{request,feedback,consume,reversal}` and
// `/approvals/content/track-record/{agent_id}`, keyed on `content_hash`. Like every approvals route, dormant (404
// before authentication and validation, like an unknown path) while AGENT_APPROVALS_ENABLED is off. Decisions are
// made through POST /approvals/{id}/decide.

const BASE = '/api/v1/approvals/content';
const flag = 'agentApprovalsEnabled' as const;
const common = { tags: ['approvals'], security: [{ bearer: [] }] };

export function registerContentApprovalRoutes(app: FastifyInstance, deps: ApprovalsDeps): void {
  const content = createContentApprovals(deps);

  app.post<{ Body: Static<typeof ContentRequestBody> }>(
    `${BASE}/request`,
    {
      config: {
        auth: 'agent',
        permission: 'content:draft:write',
        flag,
        kindRefusal: 'Only the AI agent that wrote the content asks for its review',
      },
      schema: {
        ...common,
        summary: 'An agent asks a person to review content it wrote (keyed on the SHA-256 of its exact bytes)',
        description:
          'Creates a pending approval request (`resource_type` content) that a person holding agents:approvals:decide and content:review decides through POST /approvals/{id}/decide; it expires after 24 hours undecided. 201 with a new ask; 200 with the same ask when this agent already has a live one (pending, or approved and unspent) for these bytes. 403 when another agent of the organization asked about these bytes.',
        body: ContentRequestBody,
        response: { 200: ContentAsk, 201: ContentAsk, ...errors(401, 403, 404, 422, 429) },
      },
    },
    async (request, reply) => {
      const { created, ask } = await content.request(principalOf(request), request.body);
      return reply.code(created ? 201 : 200).send(ask);
    },
  );

  app.post<{ Body: Static<typeof ContentHashBody> }>(
    `${BASE}/feedback`,
    {
      // A read of the agent's own ask: `content:read` (read-only) keeps it out of oversight parking and the
      // blast-radius breaker's write count, which a POST naming no permission would fall under.
      config: {
        auth: 'agent',
        permission: 'content:read',
        flag,
        kindRefusal: 'Feedback is read by the AI agent that asked for the review',
      },
      schema: {
        ...common,
        summary: 'The requesting agent reads the decision on its newest ask about these bytes (on denial, the reason)',
        description: '404 when this agent asked about no content with this hash (another agent’s ask included).',
        body: ContentHashBody,
        response: { 200: ContentFeedback, ...errors(401, 403, 404, 422, 429) },
      },
    },
    async (request) => content.feedback(principalOf(request), request.body.content_hash),
  );

  app.post<{ Body: Static<typeof ContentHashBody> }>(
    `${BASE}/consume`,
    {
      config: { auth: 'any', permission: 'content:read', flag },
      schema: {
        ...common,
        summary: 'Spend the approval of these exact bytes, once, before publishing them',
        description:
          '409 with `state` and `message` when there is nothing to spend: `pending` (not decided), `denied`, `expired`, or `consumed` (already spent). 404 when nobody in the organization asked about these bytes.',
        body: ContentHashBody,
        response: { 200: ContentConsumed, 409: ContentNotReady, ...errors(401, 403, 404, 422, 429) },
      },
    },
    async (request) => content.consume(principalOf(request), request.body.content_hash),
  );

  app.post<{ Body: Static<typeof ReversalBody> }>(
    `${BASE}/reversal`,
    {
      config: {
        auth: 'user',
        permission: 'content:review',
        flag,
        kindRefusal: 'A reversal is recorded by the person who reviewed the published content',
      },
      schema: {
        ...common,
        summary: 'Record that published agent-authored content had to be pulled',
        description:
          "Counts against the agent that wrote it (its track record's reversals_30d) and emits content.reversal_recorded whose actor is the reviewing person, with the agent in its data. 201 when recorded; 200 with the first record when this content's ask already has one. 404 when nobody in the organization asked about these bytes.",
        body: ReversalBody,
        response: { 200: Reversal, 201: Reversal, ...errors(401, 403, 404, 422, 429) },
      },
    },
    async (request, reply) => {
      const { created, reversal } = await content.reverse(principalOf(request), request.body);
      return reply.code(created ? 201 : 200).send(reversal);
    },
  );

  app.get<{ Params: Static<typeof TrackRecordParams> }>(
    `${BASE}/track-record/:agent_id`,
    {
      config: { auth: 'any', permission: 'content:read', flag },
      schema: {
        ...common,
        summary:
          "An agent's earned-autonomy evidence: decided content asks, the approval rate's lower bound, reversals",
        description:
          '`lower_bound` is the Wilson score lower bound (95 %, z = 1.96) of approvals / decided; the agent is `eligible` when it has at least `min_decided` decided asks, `lower_bound` reaches `bar`, and no reversal in 30 days; `unmet` lists the criteria it misses. 404 for an agent of another organization, like an unknown one.',
        params: TrackRecordParams,
        response: { 200: TrackRecordView, ...errors(401, 403, 404, 429) },
      },
    },
    async (request) => content.trackRecord(principalOf(request), request.params.agent_id),
  );
}
