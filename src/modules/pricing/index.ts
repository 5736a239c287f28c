export { registerPricingRoutes } from './routes.js';
export {
  createPricingService,
  type Entitlements,
  type PlanContent,
  type PricingContent,
  type PricingService,
} from './service.js';
