import type { PersonalDataContributor } from '../../kernel/personal-data.js';
import * as store from './store.js';

/**
 * A person's approval decisions (Part A 4.10): exported as records of what they approved or denied. Erasure keeps
 * them: each is evidence of who authorized an agent's action, held by an actor reference like the audit log's,
 * which identifies no one once the account is scrubbed (docs/privacy.md, GDPR Art. 17(3)(b), (e)). Asks are
 * requested by agents, never by people, so `approval_requests` holds only actor references too.
 */
export const approvalsPersonalData: PersonalDataContributor = {
  name: 'approvals',
  tables: ['approval_requests', 'approval_decisions'],
  async export(tx, tenantId, userId) {
    const decisions = await store.decisionsBy(tx, tenantId, userId);
    return {
      decisions: decisions.map((decision) => ({
        approval_id: decision.approvalRequestId,
        approve: decision.approve,
        reason: decision.reason,
        break_glass: decision.breakGlass,
        decided_at: decision.decidedAt.toISOString(),
      })),
    };
  },
  async erase() {},
};
