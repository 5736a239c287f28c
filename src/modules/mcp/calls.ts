import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyRequest } from 'fastify';
import type { Principal } from '../../kernel/auth/index.js';
import { describeValidation, HttpError } from '../../kernel/http/index.js';
import type { AgentState, AgentTask } from '../agents/index.js';
import { parseManifest } from '../manifests/index.js';
import type { McpDeps } from './deps.js';
import { createTools, type Tool, toolRisk } from './tools.js';

// `tools/call` (Part B 4.4), in this order: the tool is known and within the agent's reach (authority, task scope,
// risk ceiling), `dry_run` is where it belongs, the arguments satisfy the advertised schema (nothing runs or is
// parked before), then the same governance as the REST route (kill switch, ..., budget, breaker) with the per-call
// park of tools needing approval, then the service. Refusals are tool errors (`isError`) naming the rule; a stopped
// agent (kill switch, lifecycle) and throttling stay HTTP answers (403, 429), as on every REST route.

export const DENIED = 'denied: not authorized for this tool';
export const NO_DRY_RUN = 'this tool has no dry-run';
export const DRY_RUN_IN_ARGUMENTS = 'dry_run is a call-level flag, not a tool argument';
export const PENDING = 'pending human approval';
export const APPROVALS_OFF = 'denied: approvals are not enabled on this deployment, so write tools are refused';

/** Governance refusals of a tool call that mean "not for this agent": authority, risk ceiling, task scope. */
const NOT_AUTHORIZED = new Set(['authority', 'risk_ceiling', 'task_scope']);
/** Refusals that stay HTTP answers: the agent is stopped, or throttled. */
const HTTP_REFUSALS = new Set(['kill_switch', 'suspended', 'retired', 'rate_limit']);

export interface CallParams {
  name: string;
  arguments?: Record<string, unknown> | undefined;
  dry_run?: boolean | undefined;
}

const toolError = (message: string, extra: Record<string, unknown> = {}): CallToolResult => ({
  content: [{ type: 'text', text: message }],
  structuredContent: { error: message, ...extra },
  isError: true,
});

const toolResult = (value: Record<string, unknown>): CallToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(value) }],
  structuredContent: value,
});

/** Whether the agent may reach the tool at all: its authority, its task token's scope, its risk ceiling. */
export function reaches(principal: Principal, tool: Tool): boolean {
  const agent = principal.attributes.agent as AgentState;
  const task = principal.attributes.task as AgentTask | undefined;
  if (toolRisk(tool) > agent.riskCeiling) return false;
  if (!tool.permission) return true;
  return principal.permissions.has(tool.permission) && (!task || task.permissions.includes(tool.permission));
}

/** Whether the tool is listed to the agent: its usable permissions (authority within scope and ceiling) reach it. */
export function listed(principal: Principal, tool: Tool): boolean {
  const task = principal.attributes.task as AgentTask | undefined;
  if (!tool.permission) return true;
  return principal.permissions.has(tool.permission) && (!task || task.permissions.includes(tool.permission));
}

/**
 * The request governance judges for one tool call: the MCP request, seen as the tool's action (so events, parks
 * and approvals name `tools/call` and the tool, and bind to its arguments: ARCHITECTURE.md "One action fingerprint").
 * A plain object with what governance reads of a request: deriving it from the Fastify request (as its prototype)
 * turns every request object into a prototype, which V8 then keeps in a slower shape for all of Fastify's code.
 */
function toolAction(request: FastifyRequest, tool: Tool, args: Record<string, unknown>): FastifyRequest {
  const url = `mcp:${tool.name}`;
  return {
    id: request.id,
    method: 'tools/call',
    url,
    routeOptions: { url, config: request.routeOptions.config },
    params: {},
    query: {},
    body: args,
    headers: request.headers,
    get ip() {
      return request.ip;
    },
    log: request.log,
    principal: request.principal,
  } as unknown as FastifyRequest;
}

/** A per-call approval is oversight for that call: governance parks it exactly as it parks a supervised agent. */
function underPerCallApproval(principal: Principal): Principal {
  const agent = principal.attributes.agent as AgentState;
  return { ...principal, attributes: { ...principal.attributes, agent: { ...agent, oversightMode: 'supervised' } } };
}

export function createToolCalls(deps: McpDeps) {
  const tools = createTools(deps);
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const ajv = new Ajv({ allErrors: false, coerceTypes: false, useDefaults: true, strict: false });
  addFormats.default(ajv);
  const validators = new Map<string, ValidateFunction>(tools.map((tool) => [tool.name, ajv.compile(tool.inputSchema)]));
  /** The `tools/list` entries, built once: the tool list is the same for every caller but for what it may reach. */
  const entries = tools.map((tool) => ({
    tool,
    entry: { name: tool.name, description: tool.description, inputSchema: tool.inputSchema },
  }));

  /** Runs governance for the call; answers a tool error for refusals that are the agent's, rethrows the rest. */
  async function govern(
    request: FastifyRequest,
    principal: Principal,
    tool: Tool,
    args: Record<string, unknown>,
    mode: { readOnly: boolean; dryRun?: boolean },
  ): Promise<CallToolResult | null> {
    const action = toolAction(request, tool, args);
    try {
      await deps.governance.forAgents({ request: action, principal, permission: tool.permission, ...mode });
      // The arguments were checked against the tool's schema before: an approval of the call is spent now.
      await deps.governance.afterValidation(action);
      return null;
    } catch (error) {
      const reason = (error as { reason?: unknown }).reason;
      if (!(error instanceof HttpError) || typeof reason !== 'string' || HTTP_REFUSALS.has(reason)) throw error;
      const approvalId = error.extra?.approval_request_id;
      if (reason === 'awaiting_approval') return toolError(PENDING, { approval_id: approvalId });
      if (reason === 'approval_denied') {
        return toolError('denied: a person denied this call', { approval_id: approvalId });
      }
      if (reason === 'oversight_unavailable') return toolError(APPROVALS_OFF);
      if (NOT_AUTHORIZED.has(reason)) return toolError(DENIED);
      return toolError(`denied: ${error.detail}`);
    }
  }

  return {
    tools,
    /** The tools the agent may see in `tools/list`, with their input schemas. */
    list(principal: Principal) {
      return entries.filter(({ tool }) => listed(principal, tool)).map(({ entry }) => entry);
    },

    async call(request: FastifyRequest, principal: Principal, params: CallParams): Promise<CallToolResult | null> {
      const tool = byName.get(params.name);
      if (!tool) return null;
      if (!reaches(principal, tool)) {
        // Governance judges it as it judges the REST route (authority, risk ceiling or task scope refuse, recorded as
        // `agent.action_refused`, counted towards the breaker, a task-scope detection raised); the answer is the one
        // message the specification gives a denied tool, whichever check refused first.
        await govern(request, principal, tool, {}, { readOnly: true });
        return toolError(DENIED);
      }
      // A copy: validation fills in defaults, and the arguments are bound into an approval as they were judged.
      const given = params.arguments;
      const args = given && Object.keys(given).length > 0 ? structuredClone(given) : {};
      if ('dry_run' in args) return toolError(DRY_RUN_IN_ARGUMENTS);
      const dryRun = params.dry_run === true;
      if (dryRun && tool.kind === 'read') return toolError(NO_DRY_RUN);
      const validate = validators.get(tool.name)!;
      if (!validate(args))
        return toolError(`invalid arguments: ${describeValidation(validate.errors ?? [], 'arguments')}`);
      if ('manifest' in args) {
        const parsed = parseManifest(args.manifest);
        if (!parsed.ok) return toolError(`invalid arguments: ${parsed.errors[0]}`);
      }
      if (tool.kind === 'write' && !dryRun && !deps.config.flags.agentApprovalsEnabled) return toolError(APPROVALS_OFF);

      // A dry run spends nothing (Part B 4.4): no approval is asked, and governance judges it as a dry run (a spent
      // task budget refuses it as it would refuse the call, but no unit is spent).
      const governed = tool.perCallApproval && !dryRun ? underPerCallApproval(principal) : principal;
      const refused = await govern(request, governed, tool, args, {
        readOnly: dryRun || tool.kind === 'read',
        dryRun,
      });
      if (refused) return refused;
      try {
        const value = dryRun ? await tool.dryRun!(principal, args) : await tool.run(principal, args);
        return toolResult(dryRun ? { dry_run: true, effect: value } : value);
      } catch (error) {
        if (!(error instanceof HttpError) || error.status >= 500) {
          if (error instanceof HttpError && error.status === 502) return toolError(error.detail, error.extra ?? {});
          throw error;
        }
        if (error.status === 429) throw error;
        if (error.status === 422) return toolError(`invalid arguments: ${error.detail}`);
        return toolError(error.detail, { status: error.status, ...(error.extra ?? {}) });
      }
    },
  };
}

export type ToolCalls = ReturnType<typeof createToolCalls>;
