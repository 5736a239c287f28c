export { registerMfaRoutes } from './routes.js';
export { createSecondFactorGate } from './second-factor-gate.js';
export { createMfaService, type MfaService } from './service.js';
