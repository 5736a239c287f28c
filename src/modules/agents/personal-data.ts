import type { Clock } from '../../kernel/clock.js';
import type { PersonalDataContributor } from '../../kernel/personal-data.js';
import * as store from './admin-store.js';

/**
 * The agents a person registered and the delegations they granted (Part A 4.10). Export: summaries, never a
 * credential. Erasure ends the person's live delegations and unlinks the agents they registered, which stay
 * with the organization (the audit trail keeps who did what).
 */
export const agentsPersonalData = (deps: { clock: Clock }): PersonalDataContributor => ({
  name: 'agents',
  tables: ['agents', 'agent_delegations'],
  async export(tx, tenantId, userId) {
    // One after the other: statements of one transaction share its connection.
    const registered = await store.agentsRegisteredBy(tx, tenantId, userId);
    const delegations = await store.delegationsGrantedBy(tx, tenantId, userId);
    return {
      registered: registered.map((agent) => ({
        agent_id: agent.id,
        name: agent.name,
        status: agent.status,
        created_at: agent.createdAt.toISOString(),
      })),
      delegations: delegations.map((delegation) => ({
        delegation_id: delegation.id,
        agent_id: delegation.agentId,
        permissions: delegation.permissions,
        created_at: delegation.createdAt.toISOString(),
        expires_at: delegation.expiresAt?.toISOString() ?? null,
        revoked_at: delegation.revokedAt?.toISOString() ?? null,
      })),
    };
  },
  async erase(tx, tenantId, userId) {
    await store.forgetPerson(tx, tenantId, userId, deps.clock.now());
  },
});
