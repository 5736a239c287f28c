import { useAppAskDeps } from './asks.js';
import type { ManifestsDeps } from './deps.js';
import { createManifestService } from './service.js';

// IAM manifests (Part B 2.4, 4.6). Onboarding calls `parseManifest`, `createManifestPlanner(deps).plan(...)` and
// `recordApprovedManifestAsk(...)` in-process (ARCHITECTURE.md interfaces); the routes serve the rest.

export { recordApprovedManifestAsk } from './asks.js';
export type { ManifestsDeps, ManifestTestHooks } from './deps.js';
export {
  declaredCodesOf,
  type Manifest,
  manifestHashOf,
  type ParsedManifest,
  parseManifest,
} from './document.js';
export {
  createManifestPlanner,
  type ManifestPlan,
  type ManifestPlanner,
  type PlanStep,
} from './planner.js';
export { registerManifestRoutes } from './routes.js';
export { createManifestService, type ManifestService } from './service.js';
export { declaredResourcePermissions } from './store.js';

/** The manifest services of the app (`deps.manifests`): the routes' service and its test-only hooks. */
export function createManifests(deps: ManifestsDeps) {
  const service = createManifestService(deps);
  useAppAskDeps({ events: deps.events, clock: deps.clock, catalogueVersion: service.catalogueVersion });
  return { service, testHooks: deps.testHooks };
}

export type Manifests = ReturnType<typeof createManifests>;
// For the MCP tools (issue 24): their input schema is the REST envelope.
export { ManifestEnvelope } from './http-schemas.js';
