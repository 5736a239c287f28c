import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { DpopVerifier } from '../../kernel/auth/index.js';
import { errors } from '../../kernel/http/index.js';
import { noStore, signInProofKey } from '../sign-in/index.js';
import { AGENT_TOKEN_TTL_SECONDS } from './model.js';
import { TASK_BUDGET_MAX, TASK_PERMISSIONS_MAX, TASK_TEXT_MAX_LENGTH } from './task-scope.js';
import type { CredentialExchange } from './token-mint.js';

const TaskBlock = Type.Object(
  {
    task: Type.String({
      minLength: 1,
      maxLength: TASK_TEXT_MAX_LENGTH,
      description: 'The purpose of the task: recorded, and shown to approvers',
    }),
    permissions: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
      minItems: 1,
      maxItems: TASK_PERMISSIONS_MAX,
      description: 'Permission codes or patterns such as `command:*`, within the agent’s authority',
    }),
    budget: Type.Integer({
      minimum: 1,
      maximum: TASK_BUDGET_MAX,
      description: 'How many authorized requests the token may make',
    }),
  },
  { additionalProperties: false },
);

const MintBody = Type.Object(
  {
    credential: Type.String({ description: 'The agent credential (`agt_…`): it is the authentication' }),
    task: Type.Optional(TaskBlock),
  },
  { additionalProperties: false },
);

/** The answer of both agent token mints (Part B 2.1): no refresh token exists. */
export const AgentTokenAnswer = Type.Object({
  access_token: Type.String(),
  token_type: Type.Union([Type.Literal('Bearer'), Type.Literal('DPoP')]),
  expires_in: Type.Integer({ description: `Seconds (${AGENT_TOKEN_TTL_SECONDS})` }),
  agent_id: Type.String({ format: 'uuid' }),
  task: Type.Optional(
    Type.Object({
      id: Type.String({ format: 'uuid' }),
      task: Type.String(),
      permissions: Type.Array(Type.String(), { description: 'The concrete codes enforced (patterns expanded)' }),
      budget: Type.Integer(),
    }),
  ),
});

/** `POST /api/v1/agents/token` (Part B 4.1): the credential is the authentication; an optional DPoP proof binds. */
export function registerAgentTokenRoutes(
  app: FastifyInstance,
  deps: { exchange: CredentialExchange; dpop: DpopVerifier },
): void {
  app.post<{ Body: Static<typeof MintBody> }>(
    '/api/v1/agents/token',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['agents'],
        summary: 'Mint an agent access token (optionally a task token) with the agent credential',
        body: MintBody,
        response: { 200: AgentTokenAnswer, ...errors(400, 401, 403, 422, 429) },
      },
    },
    async (request, reply) => {
      // Part A 5.4, as at sign-in: a proof binds the token to its key; a broken proof is 400, never ignored.
      const dpopJkt = await signInProofKey(request, deps.dpop);
      const answer = await deps.exchange({ ...request.body, dpopJkt, ip: request.ip });
      return noStore(reply).send(answer);
    },
  );
}
