import type { FastifyInstance } from 'fastify';
import { registerConsentRoutes } from './routes-consent.js';
import { registerRequestRoutes } from './routes-requests.js';
import { registerRetentionRoutes } from './routes-retention.js';
import type { PrivacyService } from './service.js';

export { type PurgeResult, purgeExpiredRecords } from './retention.js';
export { createPrivacyService, type PrivacyService } from './service.js';

/** Every Part A 4.10 route: data-subject requests, the consent ledger, retention. */
export function registerPrivacyRoutes(app: FastifyInstance, deps: { privacy: PrivacyService }): void {
  registerRequestRoutes(app, deps.privacy.requests);
  registerConsentRoutes(app, deps.privacy.consent);
  registerRetentionRoutes(app, deps.privacy.retention);
}

/** The retention purge as a worker job (src/workers.ts). */
export const RETENTION_PURGE_INTERVAL_MS = 60 * 60 * 1000;
