import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

/** Command Center events (Part B 2.7). `tenant_id` is null for platform-level events. */
export const events = pgTable(
  'events',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id'),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
    actorId: text('actor_id').notNull(),
    actorType: text('actor_type', { enum: ['human', 'agent', 'service', 'system'] }).notNull(),
    /** The person the event is about, for their own activity feed. */
    subjectUserId: uuid('subject_user_id'),
    category: text('category').notNull(),
    action: text('action').notNull(),
    severity: text('severity', { enum: ['info', 'low', 'warn', 'high', 'critical'] }).notNull(),
    outcome: text('outcome', { enum: ['success', 'failure', 'denied'] }).notNull(),
    correlationId: text('correlation_id'),
    data: jsonb('data').notNull().$type<Record<string, unknown>>(),
  },
  (t) => [
    index('events_tenant_time').on(t.tenantId, t.occurredAt),
    index('events_subject_time').on(t.tenantId, t.subjectUserId, t.occurredAt),
  ],
);

/** Hash-chained audit log: `entry_hash` = SHA-256(previous hash + canonical entry). Never purged. */
export const auditLog = pgTable(
  'audit_log',
  {
    seq: bigint('seq', { mode: 'number' }).primaryKey(),
    tenantId: uuid('tenant_id'),
    eventId: uuid('event_id').notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
    actorId: text('actor_id').notNull(),
    actorType: text('actor_type').notNull(),
    action: text('action').notNull(),
    outcome: text('outcome').notNull(),
    correlationId: text('correlation_id'),
    complianceTags: jsonb('compliance_tags').notNull().$type<string[]>(),
    data: jsonb('data').notNull().$type<Record<string, unknown>>(),
    prevHash: text('prev_hash').notNull(),
    entryHash: text('entry_hash').notNull(),
  },
  (t) => [index('audit_tenant_seq').on(t.tenantId, t.seq)],
);

/** The tip of the audit chain: one row, locked by each append so the chain stays a single line. */
export const auditChainHead = pgTable('audit_chain_head', {
  id: integer('id').primaryKey(),
  seq: bigint('seq', { mode: 'number' }).notNull(),
  hash: text('hash').notNull(),
});

/** Detections, deduplicated by (tenant, rule, group key) while open. */
export const detections = pgTable(
  'detections',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id'),
    /** `tenant_id`, or `platform` for platform-level detections: the non-null half of the dedup key. */
    scope: text('scope').notNull(),
    ruleId: text('rule_id').notNull(),
    groupKey: text('group_key').notNull(),
    severity: text('severity', { enum: ['info', 'low', 'warn', 'high', 'critical'] }).notNull(),
    status: text('status', { enum: ['open', 'acknowledged', 'resolved'] }).notNull(),
    count: integer('count').notNull(),
    firstSeen: timestamp('first_seen', { withTimezone: true }).notNull(),
    lastSeen: timestamp('last_seen', { withTimezone: true }).notNull(),
    data: jsonb('data').notNull().$type<Record<string, unknown>>(),
    note: text('note'),
  },
  (t) => [uniqueIndex('detections_open_group').on(t.scope, t.ruleId, t.groupKey).where(sql`status = 'open'`)],
);

/** Webhook outbox: one row per tenant event published to webhooks; the delivery worker fans it out. */
export const webhookOutbox = pgTable(
  'webhook_outbox',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id').notNull(),
    eventId: uuid('event_id').notNull(),
    eventType: text('event_type').notNull(),
    payload: jsonb('payload').notNull().$type<Record<string, unknown>>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    dispatchedAt: timestamp('dispatched_at', { withTimezone: true }),
  },
  (t) => [index('webhook_outbox_pending').on(t.createdAt).where(sql`dispatched_at is null`)],
);
