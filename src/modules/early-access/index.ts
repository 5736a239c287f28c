export { acceptsMail, assertMailableEmail, isDisposableDomain } from './domains.js';
export { registerEarlyAccessRoutes } from './routes.js';
export { createEarlyAccessService, type EarlyAccessService } from './service.js';
