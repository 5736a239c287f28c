export { registerPricingRoutes } from './routes.js';
export { CapsSchema, PricingContentSchema } from './schemas.js';
export {
  createPricingService,
  type Entitlements,
  type PlanContent,
  type PricingContent,
  type PricingService,
} from './service.js';
