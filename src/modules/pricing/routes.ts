import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { principalOf } from '../../kernel/auth/index.js';
import type { PricingService } from './service.js';

const Problem = Type.Object({ detail: Type.String() });
const Cap = Type.Union([Type.Integer(), Type.Null()], { description: 'null is unlimited' });
const Caps = Type.Object({
  seats: Cap,
  mau: Cap,
  api_calls_monthly: Cap,
  oauth_client_requests_per_5min: Cap,
  agent_writes_daily: Cap,
});
const PlanCodeSchema = Type.Union([Type.Literal('free'), Type.Literal('pro'), Type.Literal('enterprise')]);

const PricingPlan = Type.Object({
  plan_code: PlanCodeSchema,
  name: Type.String(),
  price: Type.Union([Type.Number(), Type.Null()]),
  period: Type.Union([Type.String(), Type.Null()]),
  blurb: Type.String(),
  cta_label: Type.String(),
  cta_href: Type.String(),
  highlights: Type.Array(Type.String()),
  popular: Type.Boolean(),
  published: Type.Boolean(),
  features: Type.Array(Type.String()),
  caps: Caps,
});
const PricingDocument = Type.Object({ currency: Type.String(), note: Type.String(), plans: Type.Array(PricingPlan) });
const Entitlements = Type.Object({
  plan_code: PlanCodeSchema,
  name: Type.String(),
  features: Type.Array(Type.String()),
  caps: Caps,
});

/** Part A 4.13: the public pricing document and the caller's entitlements. */
export function registerPricingRoutes(app: FastifyInstance, deps: { pricing: PricingService }): void {
  const { pricing } = deps;

  app.get(
    '/api/v1/pricing',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['metadata'],
        summary: 'Pricing plans; features and caps come from the entitlements catalogue',
        response: { 200: PricingDocument },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return pricing.document();
    },
  );

  app.get(
    '/api/v1/entitlements',
    {
      config: { auth: 'any' },
      schema: {
        tags: ['metadata'],
        summary: 'Features and caps of the caller’s organization’s plan',
        security: [{ bearer: [] }],
        response: { 200: Entitlements, 401: Problem },
      },
    },
    async (request) => pricing.entitlements(principalOf(request)),
  );
}
