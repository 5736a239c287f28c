import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { unprocessable } from '../../kernel/http/index.js';
import type { EarlyAccessService } from './service.js';

const Problem = Type.Object({ detail: Type.String() });
const errors = (...codes: number[]) => Object.fromEntries(codes.map((code) => [code, Problem]));
const Text = (maxLength: number, description?: string) =>
  Type.String({ minLength: 1, maxLength, ...(description ? { description } : {}) });
const Enum = <T extends string>(values: readonly T[]) => Type.Union(values.map((value) => Type.Literal(value)));

export const STAGES = ['idea', 'building', 'production'] as const;
export const PLATFORMS = ['web', 'mobile', 'api', 'internal'] as const;
export const INTEGRATIONS = ['agents_mcp', 'customer_oidc', 'workforce_sso', 'api_keys'] as const;
export const EXPECTED_USERS = ['lt_100', '100_1k', '1k_10k', 'gt_10k'] as const;
export const EXPECTED_AGENTS = ['0', '1_5', '6_50', 'gt_50'] as const;
export const TIMELINES = ['this_month', 'next_quarter', 'later'] as const;

/** Part A 4.12, every field. Unknown fields are refused (422), so nothing unexpected is stored. */
const EarlyAccessBody = Type.Object(
  {
    email: Type.String({ format: 'email', maxLength: 320 }),
    full_name: Text(200),
    role: Text(200, 'The person’s role or job title'),
    organization: Text(200),
    app_name: Type.Optional(Text(200)),
    app_url: Type.Optional(Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2048 })),
    app_description: Type.Optional(Text(4000)),
    stage: Enum(STAGES),
    platforms: Type.Array(Enum(PLATFORMS), { uniqueItems: true, maxItems: PLATFORMS.length }),
    integrations: Type.Array(Enum(INTEGRATIONS), { minItems: 1, uniqueItems: true, maxItems: INTEGRATIONS.length }),
    test_goals: Text(4000),
    expected_users: Enum(EXPECTED_USERS),
    expected_agents: Enum(EXPECTED_AGENTS),
    timeline: Enum(TIMELINES),
    consent: Type.Boolean({ description: 'Must be true' }),
    acknowledgement: Type.Boolean({ description: 'Must be true' }),
    consent_text_version: Text(64),
    acknowledgement_text_version: Text(64),
    intended_use: Type.Optional(Text(4000)),
    source: Type.Optional(Text(200)),
  },
  { additionalProperties: false },
);

const ConfirmBody = Type.Object({ token: Type.String({ minLength: 1, maxLength: 512 }) });

/**
 * Consent must be the JSON value `true` itself: validation coerces scalars (`"true"`, `1`), which must not count
 * as consent, so the raw types are checked before it.
 */
async function consentIsBoolean(request: FastifyRequest): Promise<void> {
  const body = request.body as Record<string, unknown> | null;
  if (!body || typeof body !== 'object') return;
  for (const field of ['consent', 'acknowledgement']) {
    if (field in body && typeof body[field] !== 'boolean') throw unprocessable(`${field}: must be a boolean`);
  }
}

export function registerEarlyAccessRoutes(app: FastifyInstance, deps: { earlyAccess: EarlyAccessService }): void {
  const { earlyAccess } = deps;

  app.post<{ Body: Static<typeof EarlyAccessBody> }>(
    '/api/v1/early-access',
    {
      config: { auth: 'public' },
      preValidation: consentIsBoolean,
      schema: {
        tags: ['early-access'],
        summary: 'Join the early-access waitlist',
        description:
          'Answers 202 alike for new and repeat addresses; a confirmation link is mailed. 422 and nothing stored ' +
          'unless `consent` and `acknowledgement` are true.',
        body: EarlyAccessBody,
        response: { 202: Type.Object({ status: Type.Literal('accepted') }), ...errors(400, 422, 429) },
      },
    },
    async (request, reply) => {
      await earlyAccess.request(request.body, request.ip);
      return reply.code(202).send({ status: 'accepted' });
    },
  );

  app.post<{ Body: Static<typeof ConfirmBody> }>(
    '/api/v1/early-access/confirm',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['early-access'],
        summary: 'Confirm the address of a waitlist request with the mailed token',
        body: ConfirmBody,
        response: { 204: Type.Null(), ...errors(400, 422) },
      },
    },
    async (request, reply) => {
      await earlyAccess.confirm(request.body.token);
      return reply.code(204).send();
    },
  );
}
