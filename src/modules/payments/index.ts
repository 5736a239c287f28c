export type { PaymentsDeps } from './deps.js';
export { paymentsPersonalData } from './personal-data.js';
export { registerPaymentRoutes } from './routes.js';
