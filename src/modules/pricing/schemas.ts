import { type Static, Type } from '@sinclair/typebox';

/** Part A 2.16: the pricing document, as served and as the operator plane stores its editorial half. */

const Cap = Type.Union([Type.Integer(), Type.Null()], { description: 'null is unlimited' });
export const CapsSchema = Type.Object({
  seats: Cap,
  mau: Cap,
  api_calls_monthly: Cap,
  oauth_client_requests_per_5min: Cap,
  agent_writes_per_hour: Cap,
});
export const PlanCodeSchema = Type.Union([Type.Literal('free'), Type.Literal('pro'), Type.Literal('enterprise')]);

/** The editorial half of a pricing plan; `features` and `caps` are added from the catalogue. */
export const PlanContentSchema = Type.Object(
  {
    plan_code: PlanCodeSchema,
    name: Type.String({ minLength: 1 }),
    /** Per period, in the document's currency; null when the price is negotiated. */
    price: Type.Union([Type.Number({ minimum: 0 }), Type.Null()]),
    period: Type.Union([Type.String(), Type.Null()]),
    blurb: Type.String(),
    cta_label: Type.String(),
    cta_href: Type.String(),
    highlights: Type.Array(Type.String()),
    popular: Type.Boolean(),
    published: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type PlanContent = Static<typeof PlanContentSchema>;

export const PricingContentSchema = Type.Object(
  { currency: Type.String({ pattern: '^[A-Z]{3}$' }), note: Type.String(), plans: Type.Array(PlanContentSchema) },
  { additionalProperties: false },
);
export type PricingContent = Static<typeof PricingContentSchema>;

export const PricingPlanSchema = Type.Composite([
  PlanContentSchema,
  Type.Object({ features: Type.Array(Type.String()), caps: CapsSchema }),
]);
export const PricingDocumentSchema = Type.Object({
  currency: Type.String(),
  note: Type.String(),
  plans: Type.Array(PricingPlanSchema),
});
export type PricingDocument = Static<typeof PricingDocumentSchema>;
