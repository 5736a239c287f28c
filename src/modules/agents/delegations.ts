import { hasPermission, type Principal } from '../../kernel/auth/index.js';
import { PERMISSIONS } from '../../kernel/authz/catalog.js';
import { addMs, type Clock, days } from '../../kernel/clock.js';
import type { Transactions } from '../../kernel/db/index.js';
import type { Events } from '../../kernel/events/index.js';
import { conflict, forbidden, notFound, unprocessable } from '../../kernel/http/index.js';
import { isUuid, newId } from '../../kernel/ids.js';
import type { RevocationConsequence } from '../../kernel/revocation.js';
import * as store from './admin-store.js';
import type { DelegateInput } from './http-schemas.js';

// Delegations (ARCHITECTURE.md, Agents; issue 20 item 3): a person grants an agent some of their own permissions,
// optionally time-boxed. What the grant is worth is decided on every request (the agent's authority bounds each
// delegation by its delegator's current permissions); here only the grant itself is checked and recorded.

const KNOWN_PERMISSIONS = new Set(PERMISSIONS.map((permission) => permission.code));

/** A path id that cannot be an agent's is an unknown agent (404), never a database error. */
export function knownAgentId(agentId: string): string {
  if (!isUuid(agentId)) throw notFound('Agent not found');
  return agentId.toLowerCase();
}

const iso = (date: Date | null) => date?.toISOString() ?? null;

/** A live delegation as the agent's record shows it. */
export const delegationOfAgentView = (row: store.DelegationRow) => ({
  delegation_id: row.id,
  delegator_user_id: row.delegatorUserId,
  permissions: row.permissions,
  expires_at: iso(row.expiresAt),
  created_at: row.createdAt.toISOString(),
});

/**
 * What a caller may delegate: exact codes of the catalogue (an unknown one is 422 naming it) that the caller
 * holds now (else 403 naming them; an owner holds every permission).
 */
export function assertMayDelegate(principal: Principal, permissions: readonly string[]): void {
  const unknown = permissions.filter((code) => !KNOWN_PERMISSIONS.has(code));
  if (unknown.length > 0) throw unprocessable(`permissions: unknown permission codes: ${unknown.join(', ')}`);
  const notHeld = permissions.filter((code) => !hasPermission(principal, code));
  if (notHeld.length > 0) throw forbidden(`Cannot delegate permissions you do not hold: ${notHeld.join(', ')}`);
}

export function createDelegations(deps: { transactions: Transactions; events: Events; clock: Clock }) {
  const { transactions, events, clock } = deps;

  return {
    /** `POST /agents/{agent_id}/delegations`: a subset of the caller's own permissions, to a live agent. */
    async delegate(principal: Principal, agentId: string, input: DelegateInput) {
      const id = knownAgentId(agentId);
      const permissions = [...new Set(input.permissions)];
      assertMayDelegate(principal, permissions);
      return transactions.tenant(principal.tenantId, async (tx) => {
        const agent = await store.agentById(tx, principal.tenantId, id);
        if (!agent) throw notFound('Agent not found');
        if (agent.status === 'retired') throw conflict('Cannot delegate to an agent that is retired');
        const now = clock.now();
        const row: store.DelegationRow = {
          id: newId(),
          tenantId: principal.tenantId,
          agentId: id,
          delegatorUserId: principal.userId!,
          permissions,
          createdAt: now,
          expiresAt: input.expires_in_days === undefined ? null : addMs(now, days(input.expires_in_days)),
          revokedAt: null,
          revokedReason: null,
        };
        await store.insertDelegation(tx, row);
        const granted = {
          delegation_id: row.id,
          agent_id: id,
          permissions,
          expires_at: iso(row.expiresAt),
          created_at: now.toISOString(),
        };
        await events.emit(tx, {
          tenantId: principal.tenantId,
          actor: principal.actor,
          category: 'agent',
          action: 'agent.delegation_granted',
          data: { delegation_id: row.id, agent_id: id, permissions, expires_at: granted.expires_at },
        });
        return granted;
      });
    },

    /** `GET /me/agents`: the live delegations the caller granted, with each agent's name. */
    async myDelegations(principal: Principal) {
      const rows = await transactions.tenant(principal.tenantId, (tx) =>
        store.liveDelegationsBy(tx, principal.tenantId, principal.userId!, clock.now()),
      );
      return {
        delegations: rows.map((row) => ({
          delegation_id: row.id,
          agent_id: row.agentId,
          agent_name: row.agentName,
          agent_status: row.agentStatus,
          permissions: row.permissions,
          expires_at: iso(row.expiresAt),
          created_at: row.createdAt.toISOString(),
        })),
      };
    },

    /**
     * `DELETE /me/agents/{delegation_id}` (Part A 4.1): one live delegation the caller granted. Someone else's, an
     * already revoked or expired one, and an id that is no delegation to an agent are all the same 404.
     */
    async revokeMyDelegation(principal: Principal, delegationId: string): Promise<void> {
      if (!isUuid(delegationId)) throw notFound('Delegation not found');
      await transactions.tenant(principal.tenantId, async (tx) => {
        const revoked = await store.revokeDelegationBy(
          tx,
          { tenantId: principal.tenantId, delegationId: delegationId.toLowerCase(), userId: principal.userId! },
          clock.now(),
          'revoked by its delegator',
        );
        if (!revoked) throw notFound('Delegation not found');
        await events.emit(tx, {
          tenantId: principal.tenantId,
          actor: principal.actor,
          category: 'agent',
          action: 'agent.delegation_revoked',
          data: { delegation_id: revoked.id, agent_id: revoked.agentId, permissions: revoked.permissions },
        });
      });
    },
  };
}

/**
 * The revocation cascade's consequence of a retirement (src/kernel/revocation.ts, wired in src/app.ts): the
 * agent's delegations end with it, each recorded, so no person keeps listing a grant to an agent that can never
 * act again.
 */
export function delegationsEndWithAgent(events: Events): RevocationConsequence<'agentRetired'> {
  return async function endDelegationsOfRetiredAgent(tx, change) {
    const ended = await store.revokeDelegationsOfAgent(tx, change.tenantId, change.agentId, change.at, 'agent retired');
    for (const delegation of ended) {
      await events.emit(tx, {
        tenantId: change.tenantId,
        actor: change.actor,
        category: 'agent',
        action: 'agent.delegation_revoked',
        data: {
          delegation_id: delegation.id,
          agent_id: change.agentId,
          permissions: delegation.permissions,
          reason: 'agent retired',
        },
      });
    }
  };
}
