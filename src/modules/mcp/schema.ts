import { boolean, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { tenants } from '../organizations/schema.js';

/** An organization's upstream MCP server behind the tool gateway (Part B 4.4); `name` is immutable. */
export const mcpServers = pgTable(
  'mcp_servers',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    upstreamUrl: text('upstream_url').notNull(),
    description: text('description'),
    enabled: boolean('enabled').notNull().default(true),
    maxCallsPerMinute: integer('max_calls_per_minute').notNull().default(30),
    maxCallsPerDay: integer('max_calls_per_day').notNull().default(500),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('mcp_servers_tenant_name').on(t.tenantId, t.name)],
);

/** One tool of a server's allow-list: `allowed` and its risk score (0-100), judged against the agent's ceiling. */
export const mcpServerTools = pgTable(
  'mcp_server_tools',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    serverId: uuid('server_id')
      .notNull()
      .references(() => mcpServers.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    allowed: boolean('allowed').notNull(),
    risk: integer('risk').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.serverId, t.name] })],
);
