import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Principal } from '../../kernel/auth/index.js';
import type { Queryable, Tx } from '../../kernel/db/index.js';
import { conflict, notFound, unprocessable } from '../../kernel/http/index.js';
import { isUuid, newId } from '../../kernel/ids.js';
import { assertOutboundUrl } from '../../kernel/net/index.js';
import type { McpDeps } from './deps.js';
import { mcpServers, mcpServerTools } from './schema.js';

// The gateway's registry (Part B 4.4): an organization's upstream MCP servers and their tool allow-lists. Every
// change is one transaction with its audited event; `name` never changes; `upstream_url` follows the kernel's rule
// for URLs a tenant registers (https, port 443, a public host name), and where it resolves is checked by the
// egress client on every call.

export type ServerRow = typeof mcpServers.$inferSelect;
export type ToolRow = typeof mcpServerTools.$inferSelect;

export const DEFAULT_CALLS_PER_MINUTE = 30;
export const DEFAULT_CALLS_PER_DAY = 500;

export interface ServerInput {
  name?: string | undefined;
  upstream_url?: string | undefined;
  description?: string | null | undefined;
  enabled?: boolean | undefined;
  max_calls_per_minute?: number | undefined;
  max_calls_per_day?: number | undefined;
}

export const serverView = (row: ServerRow, tools: ToolRow[]) => ({
  id: row.id,
  name: row.name,
  upstream_url: row.upstreamUrl,
  description: row.description,
  enabled: row.enabled,
  max_calls_per_minute: row.maxCallsPerMinute,
  max_calls_per_day: row.maxCallsPerDay,
  tools: tools.map((tool) => ({ name: tool.name, allowed: tool.allowed, risk: tool.risk })),
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});

export async function serverNamed(q: Queryable, tenantId: string, name: string): Promise<ServerRow | undefined> {
  const [row] = await q
    .select()
    .from(mcpServers)
    .where(and(eq(mcpServers.tenantId, tenantId), eq(mcpServers.name, name)));
  return row;
}

export function toolsOf(q: Queryable, tenantId: string, serverIds: string[]): Promise<ToolRow[]> {
  if (serverIds.length === 0) return Promise.resolve([]);
  return q
    .select()
    .from(mcpServerTools)
    .where(and(eq(mcpServerTools.tenantId, tenantId), inArray(mcpServerTools.serverId, serverIds)))
    .orderBy(asc(mcpServerTools.name));
}

export function createGatewayRegistry(deps: McpDeps) {
  const { transactions, events, clock } = deps;

  async function serverOf(tx: Tx, tenantId: string, id: string): Promise<ServerRow> {
    if (!isUuid(id)) throw notFound('MCP server not found');
    const [row] = await tx
      .select()
      .from(mcpServers)
      .where(and(eq(mcpServers.tenantId, tenantId), eq(mcpServers.id, id)))
      .for('update');
    if (!row) throw notFound('MCP server not found');
    return row;
  }

  const viewOf = async (tx: Tx, row: ServerRow) => serverView(row, await toolsOf(tx, row.tenantId, [row.id]));

  const emit = (tx: Tx, principal: Principal, action: string, data: Record<string, unknown>) =>
    events.emit(tx, { tenantId: principal.tenantId, actor: principal.actor, category: 'mcp', action, data });

  return {
    async list(principal: Principal) {
      return transactions.tenantRead(principal.tenantId, async (tx) => {
        const servers = await tx
          .select()
          .from(mcpServers)
          .where(eq(mcpServers.tenantId, principal.tenantId))
          .orderBy(asc(mcpServers.name));
        const tools = await toolsOf(
          tx,
          principal.tenantId,
          servers.map((s) => s.id),
        );
        return {
          servers: servers.map((s) =>
            serverView(
              s,
              tools.filter((t) => t.serverId === s.id),
            ),
          ),
        };
      });
    },

    async read(principal: Principal, id: string) {
      return transactions.tenant(principal.tenantId, async (tx) =>
        viewOf(tx, await serverOf(tx, principal.tenantId, id)),
      );
    },

    async register(principal: Principal, input: Required<Pick<ServerInput, 'name' | 'upstream_url'>> & ServerInput) {
      const upstreamUrl = assertOutboundUrl(input.upstream_url, 'upstream_url');
      return transactions.tenant(principal.tenantId, async (tx) => {
        const now = clock.now();
        const [row] = await tx
          .insert(mcpServers)
          .values({
            id: newId(),
            tenantId: principal.tenantId,
            name: input.name,
            upstreamUrl,
            description: input.description ?? null,
            enabled: true,
            maxCallsPerMinute: input.max_calls_per_minute ?? DEFAULT_CALLS_PER_MINUTE,
            maxCallsPerDay: input.max_calls_per_day ?? DEFAULT_CALLS_PER_DAY,
            createdAt: now,
            updatedAt: now,
          })
          .onConflictDoNothing()
          .returning();
        if (!row) throw conflict(`name: an MCP server named ${input.name} is registered already`);
        await emit(tx, principal, 'mcp.server_registered', {
          server_id: row.id,
          name: row.name,
          upstream_url: row.upstreamUrl,
        });
        return viewOf(tx, row);
      });
    },

    async update(principal: Principal, id: string, input: ServerInput) {
      if (input.name !== undefined) throw unprocessable('name: is immutable');
      const upstreamUrl =
        input.upstream_url === undefined ? undefined : assertOutboundUrl(input.upstream_url, 'upstream_url');
      return transactions.tenant(principal.tenantId, async (tx) => {
        const current = await serverOf(tx, principal.tenantId, id);
        const [row] = await tx
          .update(mcpServers)
          .set({
            ...(upstreamUrl === undefined ? {} : { upstreamUrl }),
            ...(input.description === undefined ? {} : { description: input.description }),
            ...(input.enabled === undefined ? {} : { enabled: input.enabled }),
            ...(input.max_calls_per_minute === undefined ? {} : { maxCallsPerMinute: input.max_calls_per_minute }),
            ...(input.max_calls_per_day === undefined ? {} : { maxCallsPerDay: input.max_calls_per_day }),
            updatedAt: clock.now(),
          })
          .where(and(eq(mcpServers.tenantId, principal.tenantId), eq(mcpServers.id, current.id)))
          .returning();
        await emit(tx, principal, 'mcp.server_updated', {
          server_id: current.id,
          name: current.name,
          changed: Object.keys(input).sort(),
        });
        return viewOf(tx, row!);
      });
    },

    async remove(principal: Principal, id: string) {
      await transactions.tenant(principal.tenantId, async (tx) => {
        const current = await serverOf(tx, principal.tenantId, id);
        await tx.delete(mcpServers).where(and(eq(mcpServers.tenantId, principal.tenantId), eq(mcpServers.id, id)));
        await emit(tx, principal, 'mcp.server_deleted', { server_id: current.id, name: current.name });
      });
    },

    /** Replaces the server's allow-list with `tools` (each named once). */
    async setTools(principal: Principal, id: string, tools: Array<{ name: string; allowed: boolean; risk: number }>) {
      const names = new Set<string>();
      for (const [index, tool] of tools.entries()) {
        if (names.has(tool.name)) throw unprocessable(`tools.${index}.name: ${tool.name} is listed twice`);
        names.add(tool.name);
      }
      return transactions.tenant(principal.tenantId, async (tx) => {
        const server = await serverOf(tx, principal.tenantId, id);
        const now = clock.now();
        await tx
          .delete(mcpServerTools)
          .where(and(eq(mcpServerTools.tenantId, principal.tenantId), eq(mcpServerTools.serverId, server.id)));
        if (tools.length > 0) {
          await tx.insert(mcpServerTools).values(
            tools.map((tool) => ({
              tenantId: principal.tenantId,
              serverId: server.id,
              name: tool.name,
              allowed: tool.allowed,
              risk: tool.risk,
              updatedAt: now,
            })),
          );
        }
        await emit(tx, principal, 'mcp.tools_updated', { server_id: server.id, name: server.name, tools });
        return viewOf(tx, server);
      });
    },

    async removeTool(principal: Principal, id: string, toolName: string) {
      await transactions.tenant(principal.tenantId, async (tx) => {
        const server = await serverOf(tx, principal.tenantId, id);
        const removed = await tx
          .delete(mcpServerTools)
          .where(
            and(
              eq(mcpServerTools.tenantId, principal.tenantId),
              eq(mcpServerTools.serverId, server.id),
              eq(mcpServerTools.name, toolName),
            ),
          )
          .returning();
        if (removed.length === 0) throw notFound('Tool not on this server’s allow-list');
        await emit(tx, principal, 'mcp.tool_removed', { server_id: server.id, name: server.name, tool: toolName });
      });
    },
  };
}

export type GatewayRegistry = ReturnType<typeof createGatewayRegistry>;
