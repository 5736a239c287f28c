import type { FastifyInstance } from 'fastify';
import type { CommandDeps } from './deps.js';

/** Placeholder: replaced by the Command Center work (issue 22). */
export function registerAuditRoutes(_app: FastifyInstance, _deps: CommandDeps): void {}
