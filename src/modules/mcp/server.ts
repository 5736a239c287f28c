import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  CallToolRequestParamsSchema,
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import * as z from 'zod/v4';
import { type Principal, readCredential } from '../../kernel/auth/index.js';
import { forbidden, HttpError, unauthorized } from '../../kernel/http/index.js';
import type { AgentState } from '../agents/index.js';
import { createToolCalls } from './calls.js';
import type { McpDeps } from './deps.js';
import { createMcpThrottles } from './throttles.js';

// The first-party MCP server (Part B 4.4, 9.2): the official SDK in stateless Streamable HTTP mode, one server and
// one transport per HTTP request, answering JSON (no SSE stream to keep). Before the SDK sees a frame: the
// throttles (per source host, per organization, per agent; every JSON-RPC message counted), the caller (agents
// only: 401 without a credential, 403 for people, API keys and service tokens) and the kill switch (403, first of
// the agent's checks). Governance of each tool call is in calls.ts.

export const PROTOCOL_VERSION = '2025-06-18';
const SERVER_INFO = { name: 'svc', version: '1.0.0' };
const CAPABILITIES = { tools: {} };
/**
 * One JSON Schema validator for every per-request server: the SDK builds a new Ajv instance for each server
 * otherwise, which cost more than the rest of a `tools/call` (docs/benchmarks.md, MCP).
 */
const JSON_SCHEMA_VALIDATOR = new AjvJsonSchemaValidator();

/** `tools/call` params keep the call-level `dry_run` (the SDK's own schema would drop the unknown key). */
const CallWithDryRun = CallToolRequestSchema.extend({
  params: CallToolRequestParamsSchema.extend({ dry_run: z.boolean().optional() }),
});

export function createMcpServer(deps: McpDeps) {
  const calls = createToolCalls(deps);
  const throttles = createMcpThrottles(deps.limiter);

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

  function sdkServer(request: FastifyRequest, principal: Principal, failures: { http?: unknown }) {
    const server = new Server(SERVER_INFO, { capabilities: CAPABILITIES, jsonSchemaValidator: JSON_SCHEMA_VALIDATOR });
    // Protocol 2025-06-18 only: to a client asking for another version the server answers its own (MCP version
    // negotiation), and the client decides whether to go on.
    server.removeRequestHandler('initialize');
    server.setRequestHandler(InitializeRequestSchema, () => ({
      protocolVersion: PROTOCOL_VERSION,
      capabilities: CAPABILITIES,
      serverInfo: SERVER_INFO,
    }));
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: calls.list(principal) }));
    server.setRequestHandler(CallWithDryRun, async (call) => {
      try {
        const result = await calls.call(request, principal, call.params);
        if (!result) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${call.params.name}`);
        return result;
      } catch (error) {
        if (!(error instanceof HttpError)) throw error;
        // A stopped or throttled agent gets the HTTP answer of every REST route, not a JSON-RPC reply.
        failures.http = error;
        throw new McpError(ErrorCode.InternalError, error.detail);
      }
    });
    return server;
  }

  return {
    calls,
    /** What the gateway shares with the server: the caller, the stopped-agent refusal and the throttles. */
    gate: { agentOf, refuseStopped, throttles },
    async handle(request: FastifyRequest, reply: FastifyReply) {
      const frames = Array.isArray(request.body) ? Math.max(1, request.body.length) : 1;
      await throttles.beforeAuthentication(request, reply, frames);
      const principal = await agentOf(request);
      await throttles.ofAgent(principal, reply, frames);
      await refuseStopped(request, principal);
      const version = request.headers['mcp-protocol-version'];
      if (version !== undefined && version !== PROTOCOL_VERSION) {
        return reply.code(400).send({
          jsonrpc: '2.0',
          id: null,
          error: {
            code: ErrorCode.InvalidRequest,
            message: `Unsupported protocol version: ${String(version)} (this server speaks ${PROTOCOL_VERSION})`,
          },
        });
      }

      const failures: { http?: unknown } = {};
      const server = sdkServer(request, principal, failures);
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      try {
        await server.connect(transport);
        const headers = new Headers({
          // Answers are JSON either way: a plain JSON-RPC client need not list the event stream it never gets.
          accept: 'application/json, text/event-stream',
          'content-type': 'application/json',
        });
        if (typeof version === 'string') headers.set('mcp-protocol-version', version);
        const webRequest = new Request(`${deps.config.baseUrl}/api/v1/mcp`, { method: 'POST', headers });
        const response = await transport.handleRequest(webRequest, { parsedBody: request.body });
        if (failures.http) throw failures.http;
        reply.code(response.status);
        const type = response.headers.get('content-type');
        if (type) reply.header('content-type', type);
        const text = await response.text();
        return reply.send(text || undefined);
      } finally {
        await transport.close();
        await server.close();
      }
    },
  };
}
