import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { tenants } from '../organizations/schema.js';

// The Command Center's own table (Part B 2.7): incidents. Events, the audit chain and detections are the kernel's
// (no second log). Row-level security is added by the migrator (the table has a `tenant_id`).

/** An incident an operator opened, with the detections it gathers and its response record. */
export const incidents = pgTable(
  'incidents',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    severity: text('severity', { enum: ['info', 'low', 'warn', 'high', 'critical'] }).notNull(),
    description: text('description'),
    /** Ids of the organization's detections this incident gathers (at most 100), in the order given. */
    detectionIds: jsonb('detection_ids').notNull().$type<string[]>(),
    /** A person of the organization (a user id, checked against the active workforce memberships), or none. */
    assigneeId: uuid('assignee_id'),
    status: text('status', { enum: ['open', 'investigating', 'contained', 'resolved', 'closed'] }).notNull(),
    containment: text('containment'),
    remediation: text('remediation'),
    rootCause: text('root_cause'),
    /** Who opened it: an actor reference (`actor.id`, `actor.type`), like the audit log's actors. */
    openedById: text('opened_by_id').notNull(),
    openedByType: text('opened_by_type').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    closedAt: timestamp('closed_at', { withTimezone: true }),
  },
  (t) => [
    index('incidents_tenant_created').on(t.tenantId, t.createdAt, t.id),
    index('incidents_tenant_unresolved')
      .on(t.tenantId, t.createdAt)
      .where(sql`status in ('open', 'investigating', 'contained')`),
  ],
);
