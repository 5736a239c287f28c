export { registerContentApprovalRoutes } from './content-routes.js';
export type { ApprovalsDeps } from './deps.js';
export { type ParkOutcome, type ParkRequest, parkAction, spendApproval } from './park.js';
export { approvalsPersonalData } from './personal-data.js';
export { registerApprovalRoutes } from './routes.js';
export {
  APPROVAL_TTL_MS,
  type ApprovalStatus,
  approvalStatus,
  DENIAL_REPEAT_MS,
  requiredApprovalsFor,
  TWO_PERSON_RISK,
} from './status.js';
export {
  type ApprovalRequestRow,
  askById,
  consumeApproved,
  decisionsOn,
  insertAsk,
  insertDecision,
  liveManifestAsks,
  newestManifestAsk,
} from './store.js';
