import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { principalOf } from '../../kernel/auth/index.js';
import { errors } from '../../kernel/http/index.js';
import type { McpDeps } from './deps.js';
import { createGatewayProxy, GATEWAY_MAX_ANSWER_BYTES, GATEWAY_TIMEOUT_MS } from './gateway-proxy.js';
import { createGatewayRegistry, DEFAULT_CALLS_PER_DAY, DEFAULT_CALLS_PER_MINUTE } from './gateway-service.js';
import type { createMcpServer } from './server.js';

// The MCP tool gateway (Part B 4.4): 404 on every route while MCP_GATEWAY_ENABLED is off (the guard's `flag`,
// before the body is read and before authentication). The registry needs `mcp:servers:read` / `mcp:servers:manage`;
// the proxied call is for agents only and resolves its caller like the first-party server.

const BASE = '/api/v1/mcp/servers';
const flag = 'mcpGatewayEnabled' as const;
const read = { auth: 'any', permission: 'mcp:servers:read', flag } as const;
const manage = { auth: 'any', permission: 'mcp:servers:manage', flag } as const;
const common = { tags: ['mcp'], security: [{ bearer: [] }] };

const ServerName = Type.String({
  pattern: '^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$',
  description: 'A lowercase slug (a-z, 0-9, inner hyphens; up to 64); immutable',
});
const UpstreamUrl = Type.String({
  maxLength: 2048,
  description: 'https, port 443, a public host name; where it resolves is checked on every call',
});
const Description = Type.Union([Type.String({ maxLength: 500 }), Type.Null()]);
const PerMinute = Type.Integer({ minimum: 1, maximum: 10_000, description: `Default ${DEFAULT_CALLS_PER_MINUTE}` });
const PerDay = Type.Integer({ minimum: 1, maximum: 1_000_000, description: `Default ${DEFAULT_CALLS_PER_DAY}` });
const ToolEntry = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 128 }),
    allowed: Type.Boolean(),
    risk: Type.Integer({ minimum: 0, maximum: 100, description: "Judged against the calling agent's risk ceiling" }),
  },
  { additionalProperties: false },
);

const RegisterBody = Type.Object(
  {
    name: ServerName,
    upstream_url: UpstreamUrl,
    description: Type.Optional(Description),
    max_calls_per_minute: Type.Optional(PerMinute),
    max_calls_per_day: Type.Optional(PerDay),
  },
  { additionalProperties: false },
);
const PatchBody = Type.Object(
  {
    name: Type.Optional(Type.String({ description: 'Refused: the name is immutable' })),
    upstream_url: Type.Optional(UpstreamUrl),
    description: Type.Optional(Description),
    enabled: Type.Optional(Type.Boolean()),
    max_calls_per_minute: Type.Optional(PerMinute),
    max_calls_per_day: Type.Optional(PerDay),
  },
  { additionalProperties: false },
);
const ToolsBody = Type.Object({ tools: Type.Array(ToolEntry, { maxItems: 500 }) }, { additionalProperties: false });
const ServerParams = Type.Object({ server_id: Type.String({ maxLength: 64 }) });
const ToolParams = Type.Object({
  server_id: Type.String({ maxLength: 64 }),
  tool_name: Type.String({ maxLength: 128 }),
});
const CallParams = Type.Object({ server_name: Type.String({ maxLength: 64 }) });

const ServerView = Type.Object({
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  upstream_url: Type.String(),
  description: Description,
  enabled: Type.Boolean(),
  max_calls_per_minute: Type.Integer(),
  max_calls_per_day: Type.Integer(),
  tools: Type.Array(ToolEntry, {
    description: 'The allow-list: tools/list through the gateway shows the allowed ones',
  }),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});

const JsonRpc = Type.Object({}, { additionalProperties: true, description: 'One JSON-RPC 2.0 message' });

export function registerGatewayRoutes(
  app: FastifyInstance,
  deps: McpDeps,
  gate: ReturnType<typeof createMcpServer>['gate'],
): void {
  const registry = createGatewayRegistry(deps);
  const proxy = createGatewayProxy(deps, gate);

  app.get(
    BASE,
    {
      config: read,
      schema: {
        ...common,
        summary: "The organization's upstream MCP servers",
        response: { 200: Type.Object({ servers: Type.Array(ServerView) }), ...errors(401, 403, 404) },
      },
    },
    async (request) => registry.list(principalOf(request)),
  );

  app.post<{ Body: Static<typeof RegisterBody> }>(
    BASE,
    {
      config: manage,
      schema: {
        ...common,
        summary: 'Register an upstream MCP server',
        body: RegisterBody,
        response: { 201: ServerView, ...errors(401, 403, 404, 409, 422) },
      },
    },
    async (request, reply) => reply.code(201).send(await registry.register(principalOf(request), request.body)),
  );

  app.get<{ Params: Static<typeof ServerParams> }>(
    `${BASE}/:server_id`,
    {
      config: read,
      schema: {
        ...common,
        summary: 'One upstream MCP server',
        params: ServerParams,
        response: { 200: ServerView, ...errors(401, 403, 404) },
      },
    },
    async (request) => registry.read(principalOf(request), request.params.server_id),
  );

  app.patch<{ Params: Static<typeof ServerParams>; Body: Static<typeof PatchBody> }>(
    `${BASE}/:server_id`,
    {
      config: manage,
      schema: {
        ...common,
        summary: 'Change an upstream MCP server (`enabled: false` stops every call to it); the name is immutable',
        params: ServerParams,
        body: PatchBody,
        response: { 200: ServerView, ...errors(401, 403, 404, 422) },
      },
    },
    async (request) => registry.update(principalOf(request), request.params.server_id, request.body),
  );

  app.delete<{ Params: Static<typeof ServerParams> }>(
    `${BASE}/:server_id`,
    {
      config: manage,
      schema: {
        ...common,
        summary: 'Remove an upstream MCP server and its allow-list',
        params: ServerParams,
        response: { 204: Type.Null(), ...errors(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await registry.remove(principalOf(request), request.params.server_id);
      return reply.code(204).send();
    },
  );

  app.put<{ Params: Static<typeof ServerParams>; Body: Static<typeof ToolsBody> }>(
    `${BASE}/:server_id/tools`,
    {
      config: manage,
      schema: {
        ...common,
        summary: "Replace the server's tool allow-list, each tool with `allowed` and its `risk` (0-100)",
        params: ServerParams,
        body: ToolsBody,
        response: { 200: ServerView, ...errors(401, 403, 404, 422) },
      },
    },
    async (request) => registry.setTools(principalOf(request), request.params.server_id, request.body.tools),
  );

  app.delete<{ Params: Static<typeof ToolParams> }>(
    `${BASE}/:server_id/tools/:tool_name`,
    {
      config: manage,
      schema: {
        ...common,
        summary: "Remove one tool from the server's allow-list",
        params: ToolParams,
        response: { 204: Type.Null(), ...errors(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await registry.removeTool(principalOf(request), request.params.server_id, request.params.tool_name);
      return reply.code(204).send();
    },
  );

  app.post<{ Params: Static<typeof CallParams> }>(
    '/api/v1/mcp/call/:server_name',
    {
      // `public` for the guard only: the proxy resolves its caller itself, agents alone (gateway-proxy.ts).
      config: { auth: 'public', flag },
      schema: {
        ...common,
        summary: 'Proxy one JSON-RPC request to an upstream MCP server (AI agents only)',
        description: `Methods initialize, ping, tools/list and tools/call; tools/list is filtered to the allow-list. 403 naming the reason: not an agent, another method, a tool not allowed, a tool above the agent's risk ceiling. 404 unknown or disabled server. 429 past the server's caps or the MCP throttles. 502 when the upstream fails, redirects, answers more than ${GATEWAY_MAX_ANSWER_BYTES} bytes or takes longer than ${GATEWAY_TIMEOUT_MS} ms.`,
        params: CallParams,
        body: JsonRpc,
        response: { 200: JsonRpc, ...errors(400, 401, 403, 404, 429, 502) },
      },
    },
    proxy,
  );
}
