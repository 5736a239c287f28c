import type { FastifyInstance } from 'fastify';
import type { ApprovalsDeps } from './deps.js';

/** Placeholder: replaced by the approvals work (issue 21). */
export function registerApprovalRoutes(_app: FastifyInstance, _deps: ApprovalsDeps): void {}
