import type { FastifyInstance } from 'fastify';
import type { ApprovalsDeps } from './deps.js';

/** Placeholder: replaced by the content-approvals work (issue 21). */
export function registerContentApprovalRoutes(_app: FastifyInstance, _deps: ApprovalsDeps): void {}
