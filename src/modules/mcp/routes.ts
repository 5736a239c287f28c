import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { errors } from '../../kernel/http/index.js';
import type { McpDeps } from './deps.js';
import { registerGatewayRoutes } from './gateway-routes.js';
import { createMcpServer } from './server.js';

// `POST /api/v1/mcp` (Part B 4.4): always mounted. Its policy is `public` for the guard only because the server
// resolves its caller itself (server.ts): it admits agents alone and runs agent governance once per tool call with
// the tool's permission, where the guard would judge the whole frame as one unnamed write.

// The SDK judges the message itself (JSON-RPC errors), after the caller is known: the schema only says its shape.
const JsonRpcMessage = Type.Object(
  {},
  {
    additionalProperties: true,
    description: 'One JSON-RPC 2.0 message (MCP protocol 2025-06-18): `jsonrpc`, `id`, `method`, `params`',
  },
);

const JsonRpcAnswer = Type.Object(
  {
    jsonrpc: Type.Literal('2.0'),
    id: Type.Union([Type.String(), Type.Number(), Type.Null()]),
    result: Type.Optional(Type.Unknown()),
    error: Type.Optional(
      Type.Object({ code: Type.Integer(), message: Type.String(), data: Type.Optional(Type.Unknown()) }),
    ),
  },
  { description: 'The JSON-RPC reply' },
);

export function registerMcpServerRoute(app: FastifyInstance, deps: McpDeps): void {
  const server = createMcpServer(deps);
  app.post(
    '/api/v1/mcp',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['mcp'],
        summary: 'The first-party MCP server (Streamable HTTP, stateless, protocol 2025-06-18; AI agents only)',
        description:
          'Methods `initialize`, `ping`, `tools/list`, `tools/call` (a dry run is `params: {name, arguments, dry_run: true}`). Answers `application/json`. 401 without an agent token; 403 for people, API keys and service tokens, and for an agent whose kill switch is engaged; 429 past the per-agent, per-organization or per-source-host message budgets.',
        security: [{ bearer: [] }],
        body: Type.Union([JsonRpcMessage, Type.Array(Type.Unknown())]),
        response: {
          200: JsonRpcAnswer,
          202: Type.Null({ description: 'Notifications only: accepted, nothing to answer' }),
          // A JSON-RPC error from the server, or the body parser's refusal (malformed JSON, nested too deep), which
          // comes before the route and is answered like on every other route.
          400: Type.Union([JsonRpcAnswer, errors(400)[400]!]),
          ...errors(401, 403, 406, 415, 429),
        },
      },
    },
    (request, reply) => server.handle(request, reply),
  );
  registerGatewayRoutes(app, deps, server.gate);
}
