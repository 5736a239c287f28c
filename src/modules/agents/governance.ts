import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import {
  type Governance,
  type GovernanceCheck,
  type GovernedAction,
  type Principal,
  runChecks,
} from '../../kernel/auth/index.js';
import { permissionRisk } from '../../kernel/authz/catalog.js';
import type { Action } from '../../kernel/authz/fingerprint.js';
import type { PlanCode } from '../../kernel/authz/plans.js';
import type { Clock } from '../../kernel/clock.js';
import type { Transactions, Tx } from '../../kernel/db/index.js';
import type { Events } from '../../kernel/events/index.js';
import { HttpError } from '../../kernel/http/index.js';
import { type Limiter, type LimitPolicy, rateLimitHeaders } from '../../kernel/limits/index.js';
import { parkAction, spendApproval } from '../approvals/index.js';
import { createBreaker, REFUSAL_ALLOWANCE } from './breaker.js';
import { engageKillSwitch } from './kill-switch.js';
import type { AgentState, AgentTask } from './model.js';
import { returnTaskUnit, spendTaskUnit, taskUnitLeft } from './task-budget.js';

// Governance of every agent action (Part B 4.1, 4.2; ARCHITECTURE.md "One guard for agents"): one ordered list of
// named checks, run by the kernel's guard for every agent principal instead of the plain permission check. The
// first refusal stops the rest, so a refused action spends nothing later checks would spend; what an earlier
// check spent for it (a budget unit, a counted write) is given back. Every refusal carries a reason code and is
// recorded as `agent.action_refused`; the refusals that say the agent overreached count towards the breaker's
// refusal allowance. People and API keys never come here.

/** Why an agent's action was refused: the `reason` of its `agent.action_refused` event. */
export type RefusalReason =
  | 'kill_switch'
  | 'suspended'
  | 'retired'
  | 'authority'
  | 'risk_ceiling'
  | 'oversight_unavailable'
  | 'awaiting_approval'
  | 'approval_denied'
  | 'confidence'
  | 'task_scope'
  | 'budget_spent'
  | 'breaker'
  | 'rate_limit';

/** A governance refusal: the HTTP answer and the reason code recorded with it. */
export class AgentRefusal extends HttpError {
  constructor(
    readonly reason: RefusalReason,
    detail: string,
    options: { status?: number; headers?: Record<string, string>; extra?: Record<string, unknown> } = {},
  ) {
    super(options.status ?? 403, detail, options.headers, options.extra);
  }
}

/**
 * Refusals that say the agent overreached (asked beyond its authority, ceiling, confidence, scope or budget):
 * past the allowance in an hour the breaker stops the agent. A stopped, suspended or supervised agent's refusals
 * and throttling describe its state, not its behaviour, and do not count.
 */
const COUNTED: ReadonlySet<RefusalReason> = new Set([
  'authority',
  'risk_ceiling',
  'confidence',
  'task_scope',
  'budget_spent',
]);

/**
 * Refusals that repeat as long as a state lasts (stopped, suspended, retired, throttled): recorded once a minute
 * per agent and reason, so an agent hammering a closed door does not write an event per knock.
 */
const RECORDED_ONCE_A_MINUTE: ReadonlySet<RefusalReason> = new Set([
  'kill_switch',
  'suspended',
  'retired',
  'rate_limit',
]);
const REPEATED_REFUSAL_EVENT: LimitPolicy = { name: 'agent-refusal-event', points: 1, durationSeconds: 60 };

/** Requests per minute per agent, by plan (every request, reads included). */
export const AGENT_REQUESTS_PER_MINUTE: Readonly<Record<PlanCode, LimitPolicy>> = {
  free: { name: 'agent-requests-free', points: 600, durationSeconds: 60 },
  pro: { name: 'agent-requests-pro', points: 6_000, durationSeconds: 60 },
  enterprise: { name: 'agent-requests-enterprise', points: 60_000, durationSeconds: 60 },
};

export const TASK_SCOPE_DETECTION = 'agent-task-scope-exceeded';
export const BREAKER_DETECTION = 'agent-blast-radius-breaker';

/** `Agent-Confidence: <0..1>`, a plain decimal. */
const CONFIDENCE = /^(?:0(?:\.\d+)?|1(?:\.0+)?)$/;

export interface AgentGovernanceDeps {
  config: Pick<Config, 'flags'>;
  transactions: Transactions;
  events: Events;
  clock: Clock;
  limiter: Limiter;
}

/** What this request spent before a later check refused it, to be given back. */
interface Spent {
  taskUnit?: { tenantId: string; taskId: string };
  write?: boolean;
}

function agentOf(principal: Principal): AgentState {
  const agent = principal.attributes.agent as AgentState | undefined;
  if (!agent) throw new AgentRefusal('authority', 'Agent state unavailable');
  return agent;
}

const taskOf = (principal: Principal) => principal.attributes.task as AgentTask | undefined;

const routeOf = (request: FastifyRequest) => request.routeOptions.url ?? request.url;

/**
 * The route call an approval binds to (ARCHITECTURE.md "One action fingerprint"), as governance judged it: a copy,
 * since the route's validation fills in defaults in place before the approval is spent.
 */
const boundAction = (request: FastifyRequest): Action => ({
  method: request.method,
  route: routeOf(request),
  params: structuredClone(request.params),
  body: structuredClone(request.body),
});

export function createAgentGovernance(deps: AgentGovernanceDeps): Governance {
  const { transactions, events, clock, limiter } = deps;
  const breaker = createBreaker(limiter);
  const spentBy = new WeakMap<FastifyRequest, Spent>();
  const spentOf = (request: FastifyRequest) => {
    let spent = spentBy.get(request);
    if (!spent) {
      spent = {};
      spentBy.set(request, spent);
    }
    return spent;
  };

  /** Approvals found by the oversight check, spent by `afterValidation` once every check passed. */
  const approvedBy = new WeakMap<
    FastifyRequest,
    { action: GovernedAction; bound: Action; approvalRequestId: string }
  >();

  /** The action's ask (Part B 4.3): approved, denied, or pending (reused or created). */
  function park({ principal, permission }: GovernedAction, bound: Action) {
    const agent = agentOf(principal);
    return transactions.tenant(agent.tenantId, (tx) =>
      parkAction(
        tx,
        { events, clock },
        {
          tenantId: agent.tenantId,
          agentId: agent.agentId,
          action: bound,
          requiredPermission: permission ?? null,
          justification: taskOf(principal)?.task ?? null,
        },
      ),
    );
  }

  function parkedRefusal(parked: { outcome: string; approvalRequestId: string }): AgentRefusal {
    const extra = { approval_request_id: parked.approvalRequestId };
    if (parked.outcome === 'denied')
      return new AgentRefusal('approval_denied', 'A person denied this action', { extra });
    return new AgentRefusal('awaiting_approval', 'This action awaits a person’s approval; retry it once decided', {
      extra,
    });
  }

  /** Stops the agent: kill switch engaged with no person named, and one critical detection per trip. */
  async function tripBreaker(tx: Tx, agent: AgentState, reason: string): Promise<void> {
    const engaged = await engageKillSwitch(
      tx,
      { events, clock },
      { tenantId: agent.tenantId, agentId: agent.agentId, reason, by: null },
    );
    if (!engaged) return;
    await events.detect(tx, {
      tenantId: agent.tenantId,
      ruleId: BREAKER_DETECTION,
      groupKey: `agent:${agent.agentId}`,
      severity: 'critical',
      data: { agent_id: agent.agentId, name: agent.name, reason },
    });
  }

  const checks: GovernanceCheck[] = [
    {
      name: 'kill-switch',
      async check({ principal }) {
        if (agentOf(principal).killSwitchEngaged) {
          throw new AgentRefusal('kill_switch', "This agent's kill switch is engaged: every action is refused");
        }
      },
    },
    {
      name: 'lifecycle',
      async check({ principal }) {
        const { status } = agentOf(principal);
        if (status === 'suspended') throw new AgentRefusal('suspended', 'This agent is suspended');
        if (status === 'retired') throw new AgentRefusal('retired', 'This agent is retired');
      },
    },
    {
      // The agent's authority: its live delegations, each bounded by its delegator's current permissions. The
      // whole authority, not the principal's usable set (narrowed by scope and ceiling), so each refusal says why.
      name: 'authority',
      async check({ principal, permission }) {
        if (permission && !agentOf(principal).authority.has(permission)) {
          throw new AgentRefusal('authority', `Missing permission: ${permission}`);
        }
      },
    },
    {
      name: 'risk-ceiling',
      async check({ principal, permission }) {
        if (!permission) return;
        const risk = permissionRisk(permission);
        const { riskCeiling } = agentOf(principal);
        if (risk > riskCeiling) {
          throw new AgentRefusal(
            'risk_ceiling',
            `Permission ${permission} has risk ${risk}, above this agent's risk ceiling of ${riskCeiling}`,
          );
        }
      },
    },
    {
      // A supervised agent's state-changing action waits for a person (Part B 4.3); reads go ahead.
      name: 'oversight',
      async check(action) {
        const { request, principal, readOnly } = action;
        const agent = agentOf(principal);
        if (readOnly || agent.oversightMode !== 'supervised') return;
        if (!deps.config.flags.agentApprovalsEnabled) {
          throw new AgentRefusal(
            'oversight_unavailable',
            'This agent is supervised: its changes need a person’s approval, and approvals are not enabled on this deployment',
          );
        }
        const bound = boundAction(request);
        const parked = await park(action, bound);
        // Approved: spent last, by `afterValidation`, so a later refusal (or the route's 422) leaves it unspent.
        if (parked.outcome === 'approved') {
          approvedBy.set(request, { action, bound, approvalRequestId: parked.approvalRequestId });
          return;
        }
        throw parkedRefusal(parked);
      },
    },
    {
      name: 'confidence',
      async check({ request, principal }) {
        const floor = agentOf(principal).confidenceFloor;
        if (floor <= 0) return;
        const stated = request.headers['agent-confidence'];
        if (typeof stated !== 'string' || !CONFIDENCE.test(stated.trim())) {
          throw new AgentRefusal(
            'confidence',
            `This agent must state its confidence (Agent-Confidence: a number from 0 to 1); its floor is ${floor}`,
          );
        }
        const confidence = Number(stated.trim());
        if (confidence < floor) {
          throw new AgentRefusal(
            'confidence',
            `Stated confidence ${confidence} is below this agent's confidence floor of ${floor}`,
          );
        }
      },
    },
    {
      // A task token's scope is a ceiling within the agent's authority (checked above), so the two refusals differ.
      name: 'task-scope',
      async check({ principal, permission }) {
        const task = taskOf(principal);
        if (!task || !permission || task.permissions.includes(permission)) return;
        throw new AgentRefusal('task_scope', `Permission ${permission} is outside this task token's scope`);
      },
    },
    {
      name: 'budget',
      async check({ request, principal, dryRun }) {
        const task = taskOf(principal);
        if (!task) return;
        const unit = { tenantId: principal.tenantId, taskId: task.id };
        const granted = dryRun ? await taskUnitLeft(transactions, unit) : await spendTaskUnit(transactions, unit);
        if (!granted) throw new AgentRefusal('budget_spent', "This task token's budget is spent: mint a new token");
        if (!dryRun) spentOf(request).taskUnit = unit;
      },
    },
    {
      // Reads and parked changes never reach here as writes; the write over the hourly budget stops the agent.
      name: 'breaker',
      async check({ request, principal, readOnly }) {
        if (readOnly) return;
        const agent = agentOf(principal);
        const counted = await breaker.countWrite(agent, agent.writeBudgetPerHour);
        if (counted.unavailable) {
          throw new AgentRefusal('rate_limit', 'Too many requests', {
            status: 429,
            headers: rateLimitHeaders(counted.decision),
          });
        }
        spentOf(request).write = true;
        if (!counted.tripped) return;
        const reason = `blast-radius breaker: more than ${agent.writeBudgetPerHour} writes in an hour`;
        await transactions.tenant(agent.tenantId, (tx) => tripBreaker(tx, agent, reason));
        throw new AgentRefusal('breaker', `Refused by the ${reason}; the agent's kill switch is engaged`);
      },
    },
    {
      name: 'rate-limit',
      async check({ principal }) {
        const agent = agentOf(principal);
        const decision = await limiter.consume(
          AGENT_REQUESTS_PER_MINUTE[agent.plan],
          `${agent.tenantId}:${agent.agentId}`,
        );
        if (!decision.allowed) {
          throw new AgentRefusal('rate_limit', 'Too many requests', {
            status: 429,
            headers: rateLimitHeaders(decision),
          });
        }
      },
    },
  ];

  /** Gives back what the refused request spent, records the refusal, and counts it towards the breaker. */
  async function onRefusal(refusal: { check: string; error: unknown }, action: GovernedAction): Promise<void> {
    const { request, principal, permission } = action;
    const agent = principal.attributes.agent as AgentState | undefined;
    const spent = spentBy.get(request);
    spentBy.delete(request);
    if (spent?.taskUnit && refusal.check !== 'budget') await returnTaskUnit(transactions, spent.taskUnit);
    if (agent && spent?.write && refusal.check !== 'breaker') await breaker.giveBackWrite(agent);
    const { error } = refusal;
    if (!agent || !(error instanceof AgentRefusal)) return;
    const key = `${agent.tenantId}:${agent.agentId}:${error.reason}`;
    if (RECORDED_ONCE_A_MINUTE.has(error.reason) && !(await limiter.consume(REPEATED_REFUSAL_EVENT, key)).allowed) {
      return;
    }
    const allowance = COUNTED.has(error.reason) ? await breaker.countRefusal(agent) : undefined;
    const task = taskOf(principal);
    await transactions.tenant(agent.tenantId, async (tx) => {
      await events.emit(tx, {
        tenantId: agent.tenantId,
        actor: principal.actor,
        category: 'agent',
        action: 'agent.action_refused',
        severity: error.reason === 'breaker' ? 'critical' : 'warn',
        outcome: 'denied',
        data: {
          agent_id: agent.agentId,
          reason: error.reason,
          detail: error.detail,
          method: request.method,
          route: routeOf(request),
          permission: permission ?? null,
          task_id: task?.id ?? null,
          ...error.extra,
        },
      });
      if (error.reason === 'task_scope' && task && permission) {
        // One detection per task and permission: later occurrences count on it.
        await events.detect(tx, {
          tenantId: agent.tenantId,
          ruleId: TASK_SCOPE_DETECTION,
          groupKey: `agent:${agent.agentId}:task:${task.id}:${permission}`,
          severity: 'high',
          data: { agent_id: agent.agentId, task_id: task.id, permission },
        });
      }
      if (allowance?.tripped) {
        await tripBreaker(tx, agent, `blast-radius breaker: more than ${REFUSAL_ALLOWANCE} refused actions in an hour`);
      }
    });
  }

  return {
    async forAgents(action) {
      await runChecks(checks, action, onRefusal);
      // What was spent stays known until the approval is spent too: losing it gives them back.
      if (!approvedBy.has(action.request)) spentBy.delete(action.request);
    },

    async afterValidation(request) {
      const approved = approvedBy.get(request);
      if (!approved) return;
      approvedBy.delete(request);
      const { action, bound, approvalRequestId } = approved;
      const agent = agentOf(action.principal);
      const spent = await transactions.tenant(agent.tenantId, (tx) =>
        spendApproval(
          tx,
          { events, clock },
          { tenantId: agent.tenantId, agentId: agent.agentId, approvalRequestId, action: bound },
        ),
      );
      if (spent) {
        spentBy.delete(request);
        return;
      }
      // A concurrent identical retry spent it first (or it expired meanwhile): this one is parked anew.
      const error = parkedRefusal(await park(action, bound));
      await onRefusal({ check: 'oversight', error }, action);
      throw error;
    },
  };
}
