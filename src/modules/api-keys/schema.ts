import { bigint, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { tenants } from '../organizations/schema.js';

/** API keys (Part A 2.5): only the SHA-256 of the key is stored; the plaintext is shown once. */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    label: text('label').notNull(),
    keyHash: text('key_hash').notNull().unique(),
    /** `svc_live_` or `svc_test_`: the environment the key was issued in. */
    environment: text('environment', { enum: ['live', 'test'] }).notNull(),
    displayHandle: text('display_handle').notNull(),
    scopes: jsonb('scopes').notNull().$type<string[]>(),
    /** Lifetime asked for at creation (null: non-expiring); a rotation's successor inherits it. */
    lifetimeDays: integer('lifetime_days'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /** The person who created the key; null when a key created it, or after the person's erasure. */
    createdByUserId: uuid('created_by_user_id'),
    createdById: text('created_by_id').notNull(),
    createdByType: text('created_by_type').notNull(),
    /** The key this one succeeded by rotation. */
    rotatedFromId: uuid('rotated_from_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedReason: text('revoked_reason'),
  },
  (t) => [index('api_keys_tenant').on(t.tenantId, t.createdAt)],
);

/** Calls per key per calendar month (UTC, `YYYY-MM`); counted per node and added here in batches. */
export const apiKeyUsage = pgTable(
  'api_key_usage',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    period: text('period').notNull(),
    apiKeyId: uuid('api_key_id').notNull(),
    calls: bigint('calls', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.period, t.apiKeyId] })],
);

/** One row per organization and month whose quota was spent: `apikey.quota_exceeded` fires once per period. */
export const apiQuotaNotices = pgTable(
  'api_quota_notices',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    period: text('period').notNull(),
    notifiedAt: timestamp('notified_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.period] })],
);
