import type { AccessTokens } from '../../kernel/auth/index.js';
import type { Clock } from '../../kernel/clock.js';
import type { Transactions } from '../../kernel/db/index.js';
import type { Events } from '../../kernel/events/index.js';
import { forbidden, HttpError, unauthorized } from '../../kernel/http/index.js';
import { newId } from '../../kernel/ids.js';
import type { Limiter, LimitPolicy } from '../../kernel/limits/index.js';
import { hashAgentCredential, looksLikeAgentCredential } from './credentials.js';
import { TASK_SCOPE_DETECTION } from './governance.js';
import { createMintThrottles } from './mint-throttles.js';
import { AGENT_TOKEN_TTL_SECONDS, type AgentTask, type AgentTokenResponse } from './model.js';
import { createStaleCredentialCheck } from './stale-credentials.js';
import type { AgentStateCache } from './state-cache.js';
import { insertAgentTask } from './state-store.js';
import { type TaskRequest, taskScope } from './task-scope.js';

/**
 * Claims of an agent access token (Part B 2.1, 5.1): signed by the same keyring, issuer, audience and `typ` as a
 * person's, and unmistakably an agent's: `act: 'agent'` (the user resolver answers null for it), `sub` and
 * `agent_id` the agent, `ep` the agent's token epoch, `sid` the mint (the task id of a task token). A task token
 * carries its task, so governance reads its scope and budget without a database round trip.
 */
export interface AgentAccessClaims {
  sub: string;
  agent_id: string;
  tid: string;
  sid: string;
  ep: number;
  act: 'agent';
  cnf?: { jkt: string };
  task?: AgentTask;
}

export interface AgentTokenDeps {
  accessTokens: AccessTokens;
  transactions: Transactions;
  events: Events;
  clock: Clock;
  limiter: Limiter;
  states: AgentStateCache;
  plainMintRecords: PlainMintRecords;
}

/**
 * `agent.token_minted` of a plain token is written once per agent, path and hour (like client_credentials
 * issuance): minting changes nothing in the service and a busy agent mints often. A task token's event is
 * always written, with its task row.
 */
const PLAIN_MINT_RECORDED: LimitPolicy = { name: 'agent-mint-recorded', points: 1, durationSeconds: 3600 };
/** Agents whose hour this node remembers; past it the memory starts again (each agent then asks once more). */
const REMEMBERED_AGENTS = 10_000;

/**
 * Whether a plain mint is due its `agent.token_minted` event. The hour is shared across nodes (the limiter's
 * store); each node remembers until when the current hour runs, so a busy agent's mints ask the store once an
 * hour instead of once each.
 */
export function createPlainMintRecords(deps: { limiter: Limiter; clock: Clock }) {
  const quietUntil = new Map<string, number>();
  return {
    async due(key: string): Promise<boolean> {
      const now = deps.clock.now().getTime();
      if ((quietUntil.get(key) ?? 0) > now) return false;
      const decision = await deps.limiter.consume(PLAIN_MINT_RECORDED, key);
      if (decision.unavailable) return true;
      if (quietUntil.size >= REMEMBERED_AGENTS) quietUntil.clear();
      quietUntil.set(key, now + decision.resetSeconds * 1000);
      return decision.allowed;
    },
  };
}

export type PlainMintRecords = ReturnType<typeof createPlainMintRecords>;

/**
 * Issues an agent access token (Part B 4.1) for an agent whose credential or attestation has verified: the one
 * path of `POST /agents/token` and `POST /agents/token/federated`. A suspended, retired or unknown agent gets the
 * generic 401, an engaged kill switch 403; the organization's issuance allowance is charged next (429); a task
 * block is checked against the agent's current authority (403 naming the codes) and recorded with its budget.
 */
export async function mintAgentToken(
  deps: AgentTokenDeps,
  input: {
    tenantId: string;
    agentId: string;
    task?: TaskRequest | undefined;
    dpopJkt?: string | undefined;
    via: 'credential' | 'federated';
  },
): Promise<AgentTokenResponse> {
  const { transactions, events, clock } = deps;
  const state = await deps.states.state(input.tenantId, input.agentId);
  if (state?.status !== 'active') throw unauthorized();
  if (state.killSwitchEngaged) throw forbidden("This agent's kill switch is engaged: it may not mint tokens");
  await createMintThrottles(deps.limiter).chargeIssuance(state.tenantId);
  const actor = { id: state.agentId, type: 'agent' as const };
  const tokenType = input.dpopJkt ? 'DPoP' : 'Bearer';
  let task: AgentTask | undefined;
  if (input.task) {
    const permissions = await scopeOrRecordRefusal(deps, state, input.task);
    task = { id: newId(), task: input.task.task, permissions, budget: input.task.budget };
    const recorded = task;
    const now = clock.now();
    await transactions.tenant(state.tenantId, async (tx) => {
      await insertAgentTask(tx, {
        id: recorded.id,
        tenantId: state.tenantId,
        agentId: state.agentId,
        task: recorded.task,
        permissions: [...recorded.permissions],
        budget: recorded.budget,
        remaining: recorded.budget,
        createdAt: now,
        expiresAt: new Date(now.getTime() + AGENT_TOKEN_TTL_SECONDS * 1000),
      });
      await events.emit(tx, mintedEvent(state.tenantId, actor, input.via, tokenType, recorded));
    });
  } else if (await deps.plainMintRecords.due(`${state.agentId}|${input.via}`)) {
    await transactions.tenant(state.tenantId, (tx) =>
      events.emit(tx, mintedEvent(state.tenantId, actor, input.via, tokenType, undefined)),
    );
  }
  const claims: AgentAccessClaims = {
    sub: state.agentId,
    agent_id: state.agentId,
    tid: state.tenantId,
    sid: task?.id ?? state.agentId,
    ep: state.tokenEpoch,
    act: 'agent',
    ...(input.dpopJkt ? { cnf: { jkt: input.dpopJkt } } : {}),
    ...(task ? { task } : {}),
  };
  const { token, expiresIn } = await deps.accessTokens.issue(claims, { ttlSeconds: AGENT_TOKEN_TTL_SECONDS });
  return {
    access_token: token,
    token_type: tokenType,
    expires_in: expiresIn,
    agent_id: state.agentId,
    ...(task ? { task: { ...task, permissions: [...task.permissions] } } : {}),
  };
}

/**
 * The task block's concrete codes; a scope beyond the agent's authority (or naming nothing known) is its 403, and
 * is recorded: an event, and the task-scope detection of the agent (Part B 6.3, "out-of-scope task-token request").
 */
async function scopeOrRecordRefusal(
  deps: AgentTokenDeps,
  state: { tenantId: string; agentId: string; authority: ReadonlySet<string> },
  task: TaskRequest,
): Promise<string[]> {
  try {
    return taskScope(task, state.authority);
  } catch (error) {
    if (!(error instanceof HttpError) || error.status !== 403) throw error;
    const data = { agent_id: state.agentId, task: task.task, permissions: task.permissions, detail: error.detail };
    await deps.transactions.tenant(state.tenantId, async (tx) => {
      await deps.events.emit(tx, {
        tenantId: state.tenantId,
        actor: { id: state.agentId, type: 'agent' },
        category: 'agent',
        action: 'agent.task_token_refused',
        severity: 'warn',
        outcome: 'denied',
        data,
      });
      await deps.events.detect(tx, {
        tenantId: state.tenantId,
        ruleId: TASK_SCOPE_DETECTION,
        groupKey: `agent:${state.agentId}:task-request`,
        severity: 'high',
        data,
      });
    });
    throw error;
  }
}

function mintedEvent(
  tenantId: string,
  actor: { id: string; type: 'agent' },
  via: 'credential' | 'federated',
  tokenType: string,
  task: AgentTask | undefined,
) {
  return {
    tenantId,
    actor,
    category: 'agent',
    action: 'agent.token_minted',
    // Never the token; the task's text and scope are what an approver and an investigator need.
    data: {
      agent_id: actor.id,
      via,
      token_type: tokenType,
      task_id: task?.id ?? null,
      ...(task ? { task: task.task, permissions: task.permissions, budget: task.budget } : {}),
    },
  };
}

/**
 * `POST /agents/token` (Part B 4.1, 5.1): the credential is the authentication. Unknown, malformed, rotated-away
 * credentials and suspended or retired agents all get the same 401 (the kernel's generic one), and each such
 * failure moves the credential's brake; the source address is throttled first, whatever is presented.
 */
export function createCredentialExchange(deps: AgentTokenDeps & { logger: { warn(obj: object, msg: string): void } }) {
  const throttles = createMintThrottles(deps.limiter);
  const noteIfStale = createStaleCredentialCheck(deps);
  return async function exchange(input: {
    credential: string;
    task?: TaskRequest | undefined;
    dpopJkt?: string | undefined;
    ip: string;
  }): Promise<AgentTokenResponse> {
    // Malformed ones too: every presented string has its own brake, so all refusals look alike. The address's
    // budget is spent whatever the brake says; both go to the store together (one round trip, pipelined).
    const credentialHash = hashAgentCredential(input.credential);
    const [address, brake] = await Promise.allSettled([
      throttles.admitAddress(input.ip),
      throttles.checkCredentialBrake(credentialHash),
    ]);
    if (address.status === 'rejected') throw address.reason;
    if (brake.status === 'rejected') throw brake.reason;
    const holder = looksLikeAgentCredential(input.credential) ? await deps.states.holder(credentialHash) : undefined;
    try {
      if (!holder) throw unauthorized();
      const response = await mintAgentToken(deps, {
        tenantId: holder.tenantId,
        agentId: holder.agentId,
        task: input.task,
        dpopJkt: input.dpopJkt,
        via: 'credential',
      });
      await noteIfStale(holder);
      return response;
    } catch (error) {
      if (error instanceof HttpError && error.status === 401) await throttles.recordCredentialFailure(credentialHash);
      throw error;
    }
  };
}

export type CredentialExchange = ReturnType<typeof createCredentialExchange>;
