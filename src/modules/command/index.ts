// The Command Center module (Part B 1.6, 2.7, 4.8): the security read plane over the kernel's events, audit chain
// and detections. Events and the live stream (events-*), the audit chain (audit-*), detections and findings
// (detections-*), incidents (incidents-*) and compliance evidence (compliance-*).
import type { FastifyInstance } from 'fastify';
import { registerAuditRoutes } from './audit-routes.js';
import { registerComplianceRoutes } from './compliance-routes.js';
import type { CommandDeps } from './deps.js';
import { registerDetectionsRoutes } from './detections-routes.js';
import { registerEventsRoutes } from './events-routes.js';
import { registerFindingsRoutes } from './findings-routes.js';
import { registerIncidentsRoutes } from './incidents-routes.js';

export type { CommandDeps } from './deps.js';

export function registerCommandRoutes(app: FastifyInstance, deps: CommandDeps): void {
  registerEventsRoutes(app, deps);
  registerAuditRoutes(app, deps);
  registerFindingsRoutes(app, deps);
  registerDetectionsRoutes(app, deps);
  registerIncidentsRoutes(app, deps);
  registerComplianceRoutes(app, deps);
}

// For the MCP tools (issue 24): tools call these services in-process, their input schemas are these REST schemas.
export { AuditQuery } from './audit-routes.js';
export { createAuditReader } from './audit-service.js';
export { AcknowledgeBody, DetectionListQuery, DetectionParams } from './detections-schemas.js';
export { createDetectionsService, type DetectionView, operableScope } from './detections-service.js';
export { operableDetection } from './detections-store.js';
