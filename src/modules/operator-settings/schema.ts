import { jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { tenants } from '../organizations/schema.js';

/**
 * Settings a platform operator imposes on one organization (Part B operator plane), distinct from the
 * organization's own settings registry: the organization cannot change them. A key without a row reads as
 * its shipped default.
 */
export const operatorSettings = pgTable(
  'operator_settings',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    value: jsonb('value').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.key] })],
);
