import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestParamsSchema,
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  isJSONRPCRequest,
  JSONRPCMessageSchema,
  type JSONRPCRequest,
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import * as z from 'zod/v4';
import { type Principal, readCredential } from '../../kernel/auth/index.js';
import { forbidden, HttpError, unauthorized } from '../../kernel/http/index.js';
import type { AgentState } from '../agents/index.js';
import { type CallParams, createToolCalls } from './calls.js';
import type { McpDeps } from './deps.js';
import { RequestExchange } from './exchange.js';
import { createMcpThrottles } from './throttles.js';

// The first-party MCP server (Part B 4.4, 9.2): the official SDK's `Server` answering stateless Streamable HTTP,
// JSON answers only (no SSE stream to keep). One SDK server per process, connected to an in-process transport
// (exchange.ts) that carries each HTTP request's one JSON-RPC request to it under an id of its own. Before the SDK
// sees a frame: the throttles (per source host, per organization, per agent; every JSON-RPC message counted), the
// caller (agents only: 401 without a credential, 403 for people, API keys and service tokens), the kill switch (403,
// first of the agent's checks), then the HTTP rules of Streamable HTTP the SDK's own transport would apply (protocol
// version header, one JSON-RPC message per POST, notifications answered 202). Governance of each call: calls.ts.

export const PROTOCOL_VERSION = '2025-06-18';
export const BATCH_REFUSED = 'Invalid Request: JSON-RPC batches are not part of protocol 2025-06-18';
const SERVER_INFO = { name: 'svc', version: '1.0.0' };
const CAPABILITIES = { tools: {} };

/**
 * `tools/call` params keep the call-level `dry_run` (the SDK's own schema would drop the unknown key). `arguments`
 * is left to the SDK's own check of tools/call requests, which runs next and answers arguments that are no object
 * with -32602 Invalid params; refused here, they were a schema failure answered as -32603 Internal error.
 */
const CallWithDryRun = CallToolRequestSchema.extend({
  params: CallToolRequestParamsSchema.extend({ arguments: z.unknown().optional(), dry_run: z.boolean().optional() }),
});

/** What a handler of the shared SDK server needs of the HTTP request it answers. */
interface CallContext {
  request: FastifyRequest;
  principal: Principal;
  /** A refusal that must be the HTTP answer (a stopped or throttled agent), not a JSON-RPC reply. */
  http?: unknown;
}

const REQUEST_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);

/**
 * Whether a body is a JSON-RPC request by the SDK's own schema. The common shape (the four keys, an integer or string
 * id, plain params without `_meta`) is recognised directly, a strictly narrower test than the schema's; anything
 * else is judged by the schema itself.
 */
function isRequest(body: unknown): body is JSONRPCRequest {
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
    const message = body as Record<string, unknown>;
    const { id, params } = message;
    const plain =
      message.jsonrpc === '2.0' &&
      typeof message.method === 'string' &&
      (typeof id === 'string' || Number.isSafeInteger(id)) &&
      (params === undefined ||
        (typeof params === 'object' && params !== null && !Array.isArray(params) && !('_meta' in params))) &&
      Object.keys(message).every((key) => REQUEST_KEYS.has(key));
    if (plain) return true;
  }
  return isJSONRPCRequest(body);
}

/** A JSON-RPC error answered before any request reaches the SDK server, as the SDK's transport words it. */
const rpcError = (reply: FastifyReply, status: number, code: number, message: string) =>
  reply.code(status).send({ jsonrpc: '2.0', error: { code, message }, id: null });

/** The process's SDK server and the transport it answers on. */
function sdkServer(calls: ReturnType<typeof createToolCalls>) {
  const exchange = new RequestExchange<CallContext>();
  // One JSON Schema validator: the SDK would otherwise build an Ajv instance per server (it compiles nothing here:
  // the tools declare no output schema).
  const server = new Server(SERVER_INFO, {
    capabilities: CAPABILITIES,
    jsonSchemaValidator: new AjvJsonSchemaValidator(),
  });
  // Protocol 2025-06-18 only: to a client asking for another version the server answers its own (MCP version
  // negotiation), and the client decides whether to go on. Nothing of the client is kept (stateless).
  server.removeRequestHandler('initialize');
  server.setRequestHandler(InitializeRequestSchema, () => ({
    protocolVersion: PROTOCOL_VERSION,
    capabilities: CAPABILITIES,
    serverInfo: SERVER_INFO,
  }));
  server.setRequestHandler(ListToolsRequestSchema, (_list, extra) => ({
    tools: calls.list(exchange.contextOf(extra.requestId).principal),
  }));
  server.setRequestHandler(CallWithDryRun, async (call, extra) => {
    const context = exchange.contextOf(extra.requestId);
    try {
      // The SDK's check of tools/call requests has refused arguments that are no object (see CallWithDryRun).
      const result = await calls.call(context.request, context.principal, call.params as CallParams);
      if (!result) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${call.params.name}`);
      return result;
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      // A stopped or throttled agent gets the HTTP answer of every REST route, not a JSON-RPC reply.
      context.http = error;
      throw new McpError(ErrorCode.InternalError, error.detail);
    }
  });
  return { server, exchange };
}

export function createMcpServer(deps: McpDeps) {
  const calls = createToolCalls(deps);
  const throttles = createMcpThrottles(deps.limiter);
  const sdk = sdkServer(calls);
  // Connecting an in-process transport completes at once; the route is registered after this returns.
  void sdk.server.connect(sdk.exchange);

  /** The caller, resolved by the app's resolvers like the guard does; agents only. */
  async function agentOf(request: FastifyRequest): Promise<Principal> {
    const credential = readCredential(request);
    if (!credential) throw unauthorized();
    let principal: Principal | null = null;
    for (const resolve of deps.resolvers) {
      principal = await resolve(request, credential);
      if (principal) break;
    }
    if (!principal) throw unauthorized();
    if (principal.kind !== 'agent') throw forbidden('The MCP server is open to AI agents only');
    request.principal = principal;
    return principal;
  }

  /**
   * A stopped agent (kill switch, suspended, retired) is refused before anything else, by governance itself (its
   * first checks, with their event): the agent's state says so already, so nothing is spent.
   */
  async function refuseStopped(request: FastifyRequest, principal: Principal): Promise<void> {
    const agent = principal.attributes.agent as AgentState;
    if (!agent.killSwitchEngaged && agent.status === 'active') return;
    await deps.governance.forAgents({ request, principal, permission: undefined, readOnly: true });
    throw forbidden('This agent may not act');
  }

  /**
   * Who may send these `frames`: the source host's budget (before the caller is known), the caller (agents only),
   * then the organization's and the agent's budgets and the stopped-agent refusal. Every frame is counted against
   * every budget, a stopped agent's too; the kill switch's 403 is answered before a throttle's 429 (checked first).
   */
  async function admit(request: FastifyRequest, reply: FastifyReply, frames: number): Promise<Principal> {
    await throttles.beforeAuthentication(request, reply, frames);
    const principal = await agentOf(request);
    const throttled = await throttles.ofAgent(principal, reply, frames).then(
      () => undefined,
      (error: unknown) => ({ error }),
    );
    await refuseStopped(request, principal);
    if (throttled) throw throttled.error;
    return principal;
  }

  return {
    calls,
    /** What the gateway shares with the server: who may send a frame. */
    gate: { admit },
    async handle(request: FastifyRequest, reply: FastifyReply) {
      const frames = Array.isArray(request.body) ? Math.max(1, request.body.length) : 1;
      const principal = await admit(request, reply, frames);
      const version = request.headers['mcp-protocol-version'];
      if (version !== undefined && version !== PROTOCOL_VERSION) {
        return rpcError(
          reply,
          400,
          ErrorCode.InvalidRequest,
          `Unsupported protocol version: ${String(version)} (this server speaks ${PROTOCOL_VERSION})`,
        );
      }

      // Protocol 2025-06-18 has no JSON-RPC batches (2025-03-26 had them); their messages were counted above.
      if (Array.isArray(request.body)) {
        return rpcError(reply, 400, ErrorCode.InvalidRequest, BATCH_REFUSED);
      }
      if (!isRequest(request.body)) {
        // A notification or a response: nothing to answer, and nothing a stateless server can act on.
        if (JSONRPCMessageSchema.safeParse(request.body).success) return reply.code(202).send();
        return rpcError(reply, 400, ErrorCode.ParseError, 'Parse error: Invalid JSON-RPC message');
      }
      const context: CallContext = { request, principal };
      const answer = await sdk.exchange.exchange(request.body, context);
      if (context.http) throw context.http;
      // Already JSON: Fastify sends a string with a JSON content type as it is.
      return reply.code(200).type('application/json').send(JSON.stringify(answer));
    },
  };
}
