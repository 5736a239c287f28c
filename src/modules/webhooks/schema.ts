import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { tenants } from '../organizations/schema.js';

/** Registered endpoints (Part A 2.6). Secrets are sealed (AES-256-GCM): signing needs them in the clear. */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    description: text('description').notNull(),
    eventTypes: jsonb('event_types').notNull().$type<string[]>(),
    enabled: boolean('enabled').notNull(),
    disabledReason: text('disabled_reason'),
    secretSealed: text('secret_sealed').notNull(),
    /** The secret before the last rotation: still signed with until the next one. */
    previousSecretSealed: text('previous_secret_sealed'),
    /** Failed attempts in a row, across deliveries; 20 disable the endpoint. */
    consecutiveFailures: integer('consecutive_failures').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('webhook_endpoints_tenant').on(t.tenantId, t.createdAt)],
);

/**
 * One delivery of one event to one endpoint, with its attempts. The worker claims due rows with
 * `FOR UPDATE SKIP LOCKED`, counts the attempt and takes a lease in the same statement, so each attempt is
 * sent by exactly one worker; `body` is frozen at fan-out, so every attempt and replay sends the same bytes.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    eventId: uuid('event_id').notNull(),
    eventType: text('event_type').notNull(),
    body: text('body').notNull(),
    status: text('status', { enum: ['pending', 'retrying', 'delivered', 'dead_letter'] }).notNull(),
    attempts: integer('attempts').notNull(),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    /** Until when the worker that claimed the current attempt owns it. */
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    replayOf: uuid('replay_of'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('webhook_deliveries_endpoint').on(t.tenantId, t.endpointId, t.createdAt),
    index('webhook_deliveries_due').on(t.nextAttemptAt).where(sql`status in ('pending', 'retrying')`),
  ],
);
