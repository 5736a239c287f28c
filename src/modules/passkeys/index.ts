export { AssertionFields, AssertionValue } from './http-schemas.js';
export { registerPasskeyRoutes } from './routes.js';
export { createPasskeyService, type PasskeyService } from './service.js';
