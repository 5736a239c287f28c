import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '../../kernel/auth/index.js';
import { badRequest, forbidden, HttpError, notFound } from '../../kernel/http/index.js';
import { type LimitPolicy, rateLimitHeaders } from '../../kernel/limits/index.js';
import { EgressError } from '../../kernel/net/index.js';
import type { AgentState } from '../agents/index.js';
import type { McpDeps } from './deps.js';
import { serverNamed, type ToolRow, toolsOf } from './gateway-service.js';
import { PROTOCOL_VERSION } from './server.js';

// `POST /mcp/call/{server_name}` (Part B 4.4): one JSON-RPC request of an agent, proxied to the organization's
// registered upstream. In order: the server (404 unknown or disabled), the allow-list and the tool's risk against
// the agent's ceiling (403 naming the reason), the server's per-minute and per-day caps (429), agent governance
// (a proxied tools/call is a change: budget, breaker, oversight), then the upstream through the egress client
// (its address policy on every call, no redirect followed, the answer bounded in time and size): 502 when it fails.

/** The whole exchange with an upstream, connection to last byte. */
export const GATEWAY_TIMEOUT_MS = 5_000;
/** The largest upstream answer relayed. */
export const GATEWAY_MAX_ANSWER_BYTES = 1024 * 1024;

const capPolicy = (kind: 'minute' | 'day', points: number): LimitPolicy => ({
  name: `mcp-gateway-${kind}-${points}`,
  points,
  durationSeconds: kind === 'minute' ? 60 : 86_400,
});

interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: string | number;
  method: string;
  params?: Record<string, unknown>;
}

/**
 * The methods proxied: the ones the gateway governs. Anything else is refused before the upstream sees it, since the
 * allow-list judges `tools/call` alone: an upstream that also answered `Tools/Call`, `tools/call ` or a method of
 * its own that runs tools would otherwise run any tool, unlisted and judged as a read.
 */
const PROXIED_METHODS = new Set(['initialize', 'ping', 'tools/list', 'tools/call']);

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function jsonRpcRequestOf(body: unknown): JsonRpcRequest {
  if (!isPlainObject(body)) throw badRequest('The body is one JSON-RPC 2.0 request');
  const message = body as Partial<JsonRpcRequest>;
  if (message.jsonrpc !== '2.0') throw badRequest('jsonrpc: must be "2.0"');
  if (typeof message.method !== 'string' || message.method === '') throw badRequest('method: is required');
  if (typeof message.id !== 'string' && typeof message.id !== 'number') {
    throw badRequest('id: a request needs an id (notifications are not proxied)');
  }
  if (message.params !== undefined && !isPlainObject(message.params)) throw badRequest('params: must be an object');
  if (!PROXIED_METHODS.has(message.method)) {
    throw forbidden(`Method ${message.method} is not proxied by the MCP gateway (${[...PROXIED_METHODS].join(', ')})`);
  }
  return message as JsonRpcRequest;
}

const upstreamFailed = (reason: string) => new HttpError(502, `The upstream MCP server failed: ${reason}`);

/** The JSON-RPC reply to `id` in an upstream answer: a JSON body, or an event stream carrying it. */
function replyOf(body: string, contentType: string, id: string | number): Record<string, unknown> {
  const candidates: string[] = contentType.includes('text/event-stream')
    ? body
        .split(/\r?\n\r?\n/)
        .map((event) =>
          event
            .split(/\r?\n/)
            .filter((line) => line.startsWith('data:'))
            .map((line) => line.slice(5).trimStart())
            .join('\n'),
        )
        .filter(Boolean)
    : [body];
  for (const candidate of candidates) {
    let message: unknown;
    try {
      message = JSON.parse(candidate);
    } catch {
      continue;
    }
    // A response only: a server-to-client request (sampling, elicitation) may carry the same id and is no reply.
    if (!isPlainObject(message) || message.jsonrpc !== '2.0' || message.id !== id || 'method' in message) continue;
    if (isPlainObject(message.result) || isPlainObject(message.error)) return message;
  }
  throw upstreamFailed('no JSON-RPC reply to the request');
}

export function createGatewayProxy(
  deps: McpDeps,
  gate: {
    /** The MCP throttles, the caller (agents only) and the stopped-agent refusal, as on the first-party server. */
    admit(request: FastifyRequest, reply: FastifyReply, frames: number): Promise<Principal>;
  },
) {
  const { transactions, limiter, egress, events, governance } = deps;

  async function spendCaps(server: { id: string; maxCallsPerMinute: number; maxCallsPerDay: number }) {
    for (const [kind, points] of [
      ['minute', server.maxCallsPerMinute],
      ['day', server.maxCallsPerDay],
    ] as const) {
      const decision = await limiter.consume(capPolicy(kind, points), server.id);
      if (!decision.allowed) {
        throw new HttpError(
          429,
          `This MCP server's call cap is spent (${points} per ${kind})`,
          rateLimitHeaders(decision),
        );
      }
    }
  }

  /** The request governance judges: the proxied call, named by server and tool (events, parks, approvals). */
  const governed = (request: FastifyRequest, serverName: string, message: JsonRpcRequest) =>
    Object.create(request, {
      method: { value: message.method },
      routeOptions: { value: { url: `mcp-gateway:${serverName}`, config: request.routeOptions.config } },
      params: { value: {} },
      body: { value: { name: message.params?.name ?? null, arguments: message.params?.arguments ?? null } },
    }) as FastifyRequest;

  async function forward(url: string, message: JsonRpcRequest): Promise<Record<string, unknown>> {
    let answer: Awaited<ReturnType<typeof egress.request>>;
    try {
      answer = await egress.request(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': PROTOCOL_VERSION,
        },
        body: JSON.stringify(message),
        timeoutMs: GATEWAY_TIMEOUT_MS,
        maxBodyBytes: GATEWAY_MAX_ANSWER_BYTES,
      });
    } catch (error) {
      if (error instanceof EgressError) throw upstreamFailed(error.reason);
      throw error;
    }
    if (answer.status >= 300 && answer.status < 400) throw upstreamFailed(`redirect ${answer.status} not followed`);
    if (answer.status !== 200) throw upstreamFailed(`status ${answer.status}`);
    if (answer.truncated) throw upstreamFailed(`answer larger than ${GATEWAY_MAX_ANSWER_BYTES} bytes`);
    const type = [answer.headers['content-type'] ?? ''].flat().join(',');
    return replyOf(answer.body.toString('utf8'), type, message.id);
  }

  return async function call(request: FastifyRequest<{ Params: { server_name: string } }>, reply: FastifyReply) {
    const principal = await gate.admit(request, reply, 1);
    const agent = principal.attributes.agent as AgentState;
    const serverName = request.params.server_name;
    const found = await transactions.tenantRead(principal.tenantId, async (tx) => {
      const server = await serverNamed(tx, principal.tenantId, serverName);
      return server ? { server, tools: await toolsOf(tx, principal.tenantId, [server.id]) } : undefined;
    });
    if (!found?.server.enabled) throw notFound('MCP server not found');
    const { server, tools } = found;
    const message = jsonRpcRequestOf(request.body);
    const allowed = new Map<string, ToolRow>(tools.filter((tool) => tool.allowed).map((tool) => [tool.name, tool]));

    const isCall = message.method === 'tools/call';
    const toolName = isCall ? message.params?.name : undefined;
    if (isCall) {
      if (typeof toolName !== 'string') throw badRequest('params.name: is required');
      const tool = allowed.get(toolName);
      if (!tool) throw forbidden(`Tool ${toolName} is not on the allow-list of MCP server ${server.name}`);
      if (tool.risk > agent.riskCeiling) {
        throw forbidden(
          `Tool ${toolName} has risk ${tool.risk}, above this agent's risk ceiling of ${agent.riskCeiling}`,
        );
      }
    }
    await spendCaps(server);
    const action = governed(request, server.name, message);
    await governance.forAgents({ request: action, principal, permission: undefined, readOnly: !isCall });
    await governance.afterValidation(action);

    let answer: Record<string, unknown>;
    try {
      answer = await forward(server.upstreamUrl, message);
    } catch (error) {
      if (isCall) {
        await transactions.tenant(principal.tenantId, (tx) =>
          events.emit(tx, {
            tenantId: principal.tenantId,
            actor: principal.actor,
            category: 'mcp',
            action: 'mcp.tool_called',
            outcome: 'failure',
            data: { server_id: server.id, server: server.name, tool: toolName, error: (error as Error).message },
          }),
        );
      }
      throw error;
    }
    if (message.method === 'tools/list' && isPlainObject(answer.result)) {
      // Only allowed entries pass, whatever else the upstream put in the list; a list of another shape is no
      // tools/list result, and relaying it would relay it unfiltered.
      const { tools: listed } = answer.result;
      if (!Array.isArray(listed)) throw upstreamFailed('a tools/list result without a list of tools');
      const tools = listed.filter(
        (tool) => isPlainObject(tool) && typeof tool.name === 'string' && allowed.has(tool.name),
      );
      answer = { ...answer, result: { ...answer.result, tools } };
    }
    if (isCall) {
      await transactions.tenant(principal.tenantId, (tx) =>
        events.emit(tx, {
          tenantId: principal.tenantId,
          actor: principal.actor,
          category: 'mcp',
          action: 'mcp.tool_called',
          data: { server_id: server.id, server: server.name, tool: toolName, is_error: 'error' in answer },
        }),
      );
    }
    return reply.code(200).send(answer);
  };
}
