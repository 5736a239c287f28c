import { index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

/**
 * Reversals of agent-authored content (Part B 4.3, 6.2): a person recorded that content published under an
 * approval had to be pulled. One row per ask (repeating the record answers the first one); the reviewing person
 * is the actor of the `content.reversal_recorded` event, not a column here (no second log). The foreign keys
 * (tenant, ask, agent; all cascading) are in migrations/0024_content_approvals.sql: a module file other than
 * `schema.ts` may not import another module's tables, even for `.references()`.
 */
export const contentReversals = pgTable(
  'content_reversals',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id').notNull(),
    /** The content ask (`approval_requests`, `resource_type` content) whose bytes were pulled. */
    approvalId: uuid('approval_id').notNull(),
    /** The agent that wrote the content: the one whose track record the reversal counts against. */
    agentId: uuid('agent_id').notNull(),
    /** SHA-256 of the exact bytes, 64 lowercase hex digits. */
    contentHash: text('content_hash').notNull(),
    reason: text('reason').notNull(),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('content_reversals_approval').on(t.tenantId, t.approvalId),
    index('content_reversals_agent').on(t.tenantId, t.agentId, t.recordedAt),
  ],
);
