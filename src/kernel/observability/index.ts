export {
  createMetrics,
  type Metrics,
  type QueueStats,
  type SignInOutcome,
  type WebhookDeliveryOutcome,
} from './metrics.js';
export { createReadiness, type Readiness, type ReadinessReport } from './readiness.js';
export { registerObservability } from './routes.js';
