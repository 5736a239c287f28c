import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { principalOf } from '../../kernel/auth/index.js';
import { CapsSchema, PlanCodeSchema, PricingDocumentSchema } from './schemas.js';
import type { PricingService } from './service.js';

const Problem = Type.Object({ detail: Type.String() });
const Entitlements = Type.Object({
  plan_code: PlanCodeSchema,
  name: Type.String(),
  features: Type.Array(Type.String()),
  caps: CapsSchema,
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
        response: { 200: PricingDocumentSchema },
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
