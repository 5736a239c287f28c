import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { agents } from '../agents/schema.js';
import { tenants } from '../organizations/schema.js';

/**
 * Approval requests (Part B 2.3). The agents issue creates the pending record of a supervised agent's parked
 * action; the approvals issue builds the queue that decides it. Bound to the action's fingerprint (SHA-256 of
 * the JCS of `{method, route, params, body}`, src/kernel/authz/fingerprint.ts); content asks bind to the
 * content hash instead. Whatever the `resource_type`, one queue lists them and one decision route decides them.
 */
export const approvalRequests = pgTable(
  'approval_requests',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    agentId: uuid('agent_id').references(() => agents.id, { onDelete: 'cascade' }),
    /** As stored; what an ask says now is `approvalStatus(row, now)` (a live ask past `expires_at` is expired). */
    status: text('status', { enum: ['pending', 'approved', 'denied', 'expired', 'consumed'] }).notNull(),
    /** `action` for a parked route call; `content`, `manifest`… for the other kinds of ask. */
    resourceType: text('resource_type').notNull(),
    fingerprint: text('fingerprint').notNull(),
    /** What is decided: method, route template, path parameters and body of a parked action. */
    resource: jsonb('resource').$type<Record<string, unknown>>(),
    /** The permission the parked action needs: its approver must hold it and `agents:approvals:decide`. */
    requiredPermission: text('required_permission'),
    requiredApprovals: integer('required_approvals').notNull().default(1),
    approvalsRecorded: integer('approvals_recorded').notNull().default(0),
    /** The task text of the agent's token, shown to approvers. */
    justification: text('justification'),
    /**
     * Who asked: an actor id (the agent for a parked action, never the person who delegated to it). Null on asks
     * recorded before it existed: the requester is then the agent. Nobody decides an ask they requested.
     */
    requestedBy: text('requested_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    /** The person whose decision settled the ask: an actor reference, like the audit log's. */
    decidedBy: text('decided_by'),
    reason: text('reason'),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (t) => [
    index('approval_requests_tenant').on(t.tenantId, t.status, t.createdAt),
    index('approval_requests_fingerprint').on(t.tenantId, t.agentId, t.fingerprint),
    index('approval_requests_queue').on(t.tenantId, t.createdAt, t.id),
  ],
);

/**
 * Each person's decision on an ask (Part B 4.3): one per person and ask (the unique index makes "nobody approves
 * twice" hold under concurrency), counted until the ask's `required_approvals`.
 */
export const approvalDecisions = pgTable(
  'approval_decisions',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    approvalRequestId: uuid('approval_request_id')
      .notNull()
      .references(() => approvalRequests.id, { onDelete: 'cascade' }),
    /** The deciding person: an actor reference (their user id), like the audit log's. */
    decidedBy: text('decided_by').notNull(),
    approve: boolean('approve').notNull(),
    reason: text('reason'),
    breakGlass: boolean('break_glass').notNull().default(false),
    decidedAt: timestamp('decided_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('approval_decisions_once').on(t.tenantId, t.approvalRequestId, t.decidedBy)],
);
