export { registerMfaRoutes } from './routes.js';
export { createMfaService, type MfaService } from './service.js';
