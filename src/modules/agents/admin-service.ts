import { hasPermission, type Principal } from '../../kernel/auth/index.js';
import type { Clock } from '../../kernel/clock.js';
import type { Transactions, Tx } from '../../kernel/db/index.js';
import type { Events } from '../../kernel/events/index.js';
import { conflict, decodeCursor, forbidden, notFound, pageOf, unprocessable } from '../../kernel/http/index.js';
import { newId } from '../../kernel/ids.js';
import type { Limiter } from '../../kernel/limits/index.js';
import type { RevocationCascade } from '../../kernel/revocation.js';
import * as store from './admin-store.js';
import { issueAgentCredential } from './credentials.js';
import { createDelegations, delegationOfAgentView, knownAgentId } from './delegations.js';
import type { AgentViewType, KillSwitchInput, RegisterAgentInput, UpdateAgentInput } from './http-schemas.js';
import { engageKillSwitch, releaseKillSwitch } from './kill-switch.js';

// Agent administration (ARCHITECTURE.md "Interfaces the specification leaves out", Agents; Part B 2.1, 3): the one
// place agents are created and changed. People only (the routes say `auth: 'user'`); each change and its event
// share one transaction. The credential is returned once and never stored, logged or put in an event.

const iso = (date: Date | null) => date?.toISOString() ?? null;

export function agentView(row: store.AgentRow): AgentViewType {
  return {
    agent_id: row.id,
    name: row.name,
    description: row.description,
    status: row.status,
    oversight_mode: row.oversightMode,
    risk_ceiling: row.riskCeiling,
    confidence_floor: row.confidenceFloor,
    write_budget_per_hour: row.writeBudgetPerHour,
    kill_switch: {
      engaged: row.killSwitchEngaged,
      reason: row.killSwitchReason,
      engaged_by:
        row.killSwitchEngaged && row.killSwitchById && row.killSwitchByType
          ? { id: row.killSwitchById, type: row.killSwitchByType }
          : null,
      changed_at: iso(row.killSwitchAt),
    },
    credential_prefix: row.credentialPrefix,
    credential_issued_at: row.credentialIssuedAt.toISOString(),
    created_by_user_id: row.createdByUserId,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    suspended_at: iso(row.suspendedAt),
    retired_at: iso(row.retiredAt),
  };
}

/** The lifecycle (Part B 3): retirement is permanent; suspension pauses until resumed. */
const LIFECYCLE = {
  suspend: { from: ['active'], to: 'suspended', action: 'agent.suspended' },
  resume: { from: ['suspended'], to: 'active', action: 'agent.resumed' },
  retire: { from: ['active', 'suspended'], to: 'retired', action: 'agent.retired' },
} as const;
type LifecycleVerb = keyof typeof LIFECYCLE;

/** Agents that are not retired can be changed (retirement is final; the record stays for the audit trail). */
const CHANGEABLE = ['active', 'suspended'] as const;

export function createAgentAdmin(deps: {
  transactions: Transactions;
  events: Events;
  clock: Clock;
  limiter: Limiter;
  revocation: RevocationCascade;
}) {
  const { transactions, events, clock, limiter, revocation } = deps;

  const record = (tx: Tx, principal: Principal, action: string, data: Record<string, unknown>) =>
    events.emit(tx, { tenantId: principal.tenantId, actor: principal.actor, category: 'agent', action, data });

  /** 404 for an unknown agent (or another organization's), else 409 naming why `verb` does not apply. */
  async function refuseChange(tx: Tx, principal: Principal, agentId: string, verb: string): Promise<never> {
    const row = await store.agentById(tx, principal.tenantId, agentId);
    if (!row) throw notFound('Agent not found');
    throw conflict(`Cannot ${verb} an agent that is ${row.status}`);
  }

  async function changeLifecycle(principal: Principal, agentId: string, verb: LifecycleVerb) {
    const id = knownAgentId(agentId);
    const step = LIFECYCLE[verb];
    return transactions.tenant(principal.tenantId, async (tx) => {
      const now = clock.now();
      const row = await store.updateAgentIn(
        tx,
        { tenantId: principal.tenantId, agentId: id, from: step.from },
        {
          status: step.to,
          updatedAt: now,
          ...(verb === 'suspend' ? { suspendedAt: now } : {}),
          ...(verb === 'resume' ? { suspendedAt: null } : {}),
          // The credential dies at once and every held token fails its epoch check (Part B 2.1 "Retire").
          ...(verb === 'retire' ? { retiredAt: now } : {}),
        },
      );
      if (!row) return refuseChange(tx, principal, id, verb);
      await record(tx, principal, step.action, { agent_id: id, name: row.name });
      // What else ends with a retired agent is the revocation cascade's list (src/app.ts).
      if (verb === 'retire') {
        await revocation.agentRetired(tx, {
          tenantId: principal.tenantId,
          agentId: id,
          actor: principal.actor,
          at: now,
        });
      }
      return agentView(row);
    });
  }

  return {
    /** `POST /agents`: the credential once; only its SHA-256 is kept. */
    async register(principal: Principal, input: RegisterAgentInput) {
      const issued = issueAgentCredential();
      return transactions.tenant(principal.tenantId, async (tx) => {
        const now = clock.now();
        const row: store.AgentRow = {
          id: newId(),
          tenantId: principal.tenantId,
          name: input.name,
          description: input.description ?? null,
          credentialHash: issued.hash,
          credentialPrefix: issued.prefix,
          credentialIssuedAt: now,
          status: 'active',
          oversightMode: input.oversight_mode ?? 'autonomous',
          riskCeiling: input.risk_ceiling ?? 100,
          confidenceFloor: input.confidence_floor ?? 0,
          writeBudgetPerHour: null,
          killSwitchEngaged: false,
          killSwitchReason: null,
          killSwitchById: null,
          killSwitchByType: null,
          killSwitchAt: null,
          tokenEpoch: 0,
          createdByUserId: principal.userId ?? null,
          createdAt: now,
          updatedAt: now,
          suspendedAt: null,
          retiredAt: null,
        };
        await store.insertAgent(tx, row);
        await record(tx, principal, 'agent.registered', {
          agent_id: row.id,
          name: row.name,
          oversight_mode: row.oversightMode,
          risk_ceiling: row.riskCeiling,
          confidence_floor: row.confidenceFloor,
        });
        return { ...agentView(row), credential: issued.credential };
      });
    },

    /** `GET /agents`: newest first, one page; `next_cursor` continues it. */
    async list(principal: Principal, page: { limit: number; cursor?: string | undefined }) {
      const after = decodeCursor(page.cursor, ['timestamp', 'uuid']);
      const rows = await transactions.tenant(principal.tenantId, (tx) =>
        store.listAgents(
          tx,
          principal.tenantId,
          page.limit + 1,
          after ? { createdAt: new Date(after[0] as string), id: after[1] as string } : undefined,
        ),
      );
      const shown = pageOf(rows, page.limit, (row) => [row.createdAt.toISOString(), row.id]);
      return { agents: shown.rows.map(agentView), next_cursor: shown.next };
    },

    /** `GET /agents/{agent_id}`: the record and its live delegations. */
    async get(principal: Principal, agentId: string) {
      const id = knownAgentId(agentId);
      return transactions.tenant(principal.tenantId, async (tx) => {
        const row = await store.agentById(tx, principal.tenantId, id);
        if (!row) throw notFound('Agent not found');
        const delegations = await store.liveDelegationsOfAgent(tx, principal.tenantId, id, clock.now());
        return { ...agentView(row), delegations: delegations.map(delegationOfAgentView) };
      });
    },

    /** `PATCH /agents/{agent_id}`: the name, description and governance fields; a retired agent is final (409). */
    async update(principal: Principal, agentId: string, input: UpdateAgentInput) {
      const id = knownAgentId(agentId);
      const changes: Partial<store.AgentRow> = {};
      if (input.name !== undefined) changes.name = input.name;
      if (input.description !== undefined) changes.description = input.description;
      if (input.oversight_mode !== undefined) changes.oversightMode = input.oversight_mode;
      if (input.risk_ceiling !== undefined) changes.riskCeiling = input.risk_ceiling;
      if (input.confidence_floor !== undefined) changes.confidenceFloor = input.confidence_floor;
      if (input.write_budget_per_hour !== undefined) changes.writeBudgetPerHour = input.write_budget_per_hour;
      return transactions.tenant(principal.tenantId, async (tx) => {
        const row = await store.updateAgentIn(
          tx,
          { tenantId: principal.tenantId, agentId: id, from: CHANGEABLE },
          { ...changes, updatedAt: clock.now() },
        );
        if (!row) return refuseChange(tx, principal, id, 'update');
        await record(tx, principal, 'agent.updated', { agent_id: id, changes: input });
        return agentView(row);
      });
    },

    suspend: (principal: Principal, agentId: string) => changeLifecycle(principal, agentId, 'suspend'),
    resume: (principal: Principal, agentId: string) => changeLifecycle(principal, agentId, 'resume'),
    retire: (principal: Principal, agentId: string) => changeLifecycle(principal, agentId, 'retire'),

    /** `POST …/rotate-credential`: a new credential once; the old one and every token minted under it stop. */
    async rotateCredential(principal: Principal, agentId: string) {
      const id = knownAgentId(agentId);
      const issued = issueAgentCredential();
      return transactions.tenant(principal.tenantId, async (tx) => {
        const now = clock.now();
        const row = await store.updateAgentIn(
          tx,
          { tenantId: principal.tenantId, agentId: id, from: CHANGEABLE },
          {
            credentialHash: issued.hash,
            credentialPrefix: issued.prefix,
            credentialIssuedAt: now,
            tokenEpoch: store.nextTokenEpoch,
            updatedAt: now,
          },
        );
        if (!row) return refuseChange(tx, principal, id, 'rotate the credential of');
        await record(tx, principal, 'agent.credential_rotated', { agent_id: id, name: row.name });
        return {
          agent_id: id,
          credential: issued.credential,
          credential_prefix: row.credentialPrefix,
          credential_issued_at: row.credentialIssuedAt.toISOString(),
        };
      });
    },

    /**
     * `POST …/kill-switch`: engaging needs `agents:manage` and a reason; releasing needs `agents:kill` (Part B 3,
     * 4.2). The state change, its event and the critical detection are `kill-switch.ts`'s.
     */
    async setKillSwitch(principal: Principal, agentId: string, input: KillSwitchInput) {
      const needed = input.engaged ? 'agents:manage' : 'agents:kill';
      if (!hasPermission(principal, needed)) throw forbidden(`Missing permission: ${needed}`);
      if (input.engaged && !input.reason) throw unprocessable('reason: is required to engage the kill switch');
      const id = knownAgentId(agentId);
      return transactions.tenant(principal.tenantId, async (tx) => {
        const current = await store.agentById(tx, principal.tenantId, id);
        if (!current) throw notFound('Agent not found');
        if (current.status === 'retired') throw conflict('Cannot change the kill switch of an agent that is retired');
        const change = { tenantId: principal.tenantId, agentId: id, by: principal.actor };
        // The limiter: a release also restarts the agent's blast-radius breaker counters.
        const changed = input.engaged
          ? await engageKillSwitch(tx, { events, clock }, { ...change, reason: input.reason! })
          : await releaseKillSwitch(tx, { events, clock, limiter }, { ...change, reason: input.reason ?? null });
        if (!changed) throw conflict(input.engaged ? 'Kill switch is already engaged' : 'Kill switch is not engaged');
        return agentView((await store.agentById(tx, principal.tenantId, id))!);
      });
    },

    ...createDelegations(deps),
  };
}

export type AgentAdmin = ReturnType<typeof createAgentAdmin>;
