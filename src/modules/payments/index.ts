export type { PaymentsDeps } from './deps.js';
export { registerPaymentRoutes } from './routes.js';
