import type { FastifyInstance } from 'fastify';
import type { OperatorDeps } from './deps.js';
import { registerDistributionRoutes } from './distribution-routes.js';
import { createLicensing } from './licences-service.js';
import { createReleaseObjectStore } from './object-store.js';
import { createReleases } from './releases-service.js';
import { registerOperatorRoutes } from './routes.js';
import { createTenantAdministration } from './tenants-service.js';

export type { OperatorDeps } from './deps.js';

/**
 * The operator plane (Part B 4.10) and release downloads: tenant plans and operator settings, pricing, licences,
 * distribution credentials, the release catalogue, and the release object store RELEASE_STORE names.
 */
export function registerOperatorPlane(app: FastifyInstance, deps: OperatorDeps): void {
  const { store, files } = createReleaseObjectStore(deps.config, deps.secretKey);
  const releases = createReleases({ ...deps, objects: store });
  registerOperatorRoutes(app, {
    tenants: createTenantAdministration(deps),
    licensing: createLicensing(deps),
    releases,
  });
  registerDistributionRoutes(app, { releases, files, clock: deps.clock });
}
