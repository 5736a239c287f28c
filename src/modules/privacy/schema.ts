import {
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from '../accounts/schema.js';
import { tenants } from '../organizations/schema.js';

export const REQUEST_TYPES = ['access', 'export', 'erasure', 'rectification'] as const;
export type RequestType = (typeof REQUEST_TYPES)[number];
/** `pending` (Part A 2.15), then `verified`, and one resolved state: `completed`, `rejected` or `cancelled`. */
export const REQUEST_STATUSES = ['pending', 'verified', 'completed', 'rejected', 'cancelled'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];
export const OPEN_STATUSES: readonly RequestStatus[] = ['pending', 'verified'];

/** Data-subject requests (GDPR Art. 15-17, 20): one row per request, kept as evidence once resolved. */
export const dataSubjectRequests = pgTable(
  'data_subject_requests',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    requestType: text('request_type', { enum: REQUEST_TYPES }).notNull(),
    description: text('description'),
    status: text('status', { enum: REQUEST_STATUSES }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    /** The statutory clock: 30 days from receipt (Part A 8). */
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    verifiedBy: text('verified_by'),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    resolvedBy: text('resolved_by'),
    rejectionReason: text('rejection_reason'),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('data_subject_requests_user').on(t.tenantId, t.userId, t.createdAt),
    index('data_subject_requests_status').on(t.tenantId, t.status, t.createdAt),
  ],
);

/** The current consent state per person and purpose; the ledger below is its history. */
export const consents = pgTable(
  'consents',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    consentType: text('consent_type').notNull(),
    granted: boolean('granted').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.userId, t.consentType] })],
);

/** Append-only consent ledger: one row per change of state; never updated, only purged by retention. */
export const consentEvents = pgTable(
  'consent_events',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull(),
    /** Orders changes made within the same instant. */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    consentType: text('consent_type').notNull(),
    action: text('action', { enum: ['granted', 'withdrawn'] }).notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('consent_events_user').on(t.tenantId, t.userId, t.occurredAt),
    index('consent_events_time').on(t.tenantId, t.occurredAt),
  ],
);

export const DATA_CLASSES = ['events', 'dsr', 'consent_events'] as const;
export type DataClass = (typeof DATA_CLASSES)[number];

/** Retention policy per organization and data class; a class without a row reads as its default. */
export const retentionPolicies = pgTable(
  'retention_policies',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    dataClass: text('data_class', { enum: DATA_CLASSES }).notNull(),
    retentionDays: integer('retention_days').notNull(),
    enabled: boolean('enabled').notNull(),
    archiveBeforeDelete: boolean('archive_before_delete').notNull(),
    legalHoldExempt: boolean('legal_hold_exempt').notNull(),
    notes: text('notes'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
    updatedBy: text('updated_by').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.dataClass] })],
);

/** Records removed by a retention policy with `archive_before_delete`, kept as they were (docs/privacy.md). */
export const retentionArchive = pgTable(
  'retention_archive',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull(),
    dataClass: text('data_class', { enum: DATA_CLASSES }).notNull(),
    recordId: uuid('record_id').notNull(),
    /** The person the record is about, so erasure reaches archived copies too. */
    userId: uuid('user_id'),
    record: jsonb('record').notNull().$type<Record<string, unknown>>(),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull(),
    archivedAt: timestamp('archived_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('retention_archive_user').on(t.tenantId, t.userId),
    index('retention_archive_class').on(t.tenantId, t.dataClass, t.archivedAt),
  ],
);
