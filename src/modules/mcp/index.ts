import type { FastifyInstance } from 'fastify';
import type { McpDeps } from './deps.js';
import { registerMcpServerRoute } from './routes.js';

// MCP (Part B 1.4, 4.4, 9.2): the first-party server for agents (server.ts, calls.ts, tools.ts) and the tool
// gateway to customers' MCP servers (gateway-*), with the MCP throttles (throttles.ts).

export type { McpDeps } from './deps.js';

export function registerMcpRoutes(app: FastifyInstance, deps: McpDeps): void {
  registerMcpServerRoute(app, deps);
}
