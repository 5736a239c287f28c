import { sql } from 'drizzle-orm';
import { check, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { tenants } from '../organizations/schema.js';

/**
 * An organization's custom roles (Part A 5.9; interface decided in ARCHITECTURE.md): a lowercase code that is
 * never a system role's, a name, and exact permission codes. A membership or an invitation holds one by its
 * code in its `role` column, like a system role; permissions are read from here on every request.
 */
export const customRoles = pgTable(
  'custom_roles',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    name: text('name').notNull(),
    description: text('description'),
    /** Exact permission codes, sorted, no wildcards. */
    permissions: jsonb('permissions').notNull().$type<string[]>(),
    /** Written with the service clock; the column default only serves callers that name no instant. */
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.code] }),
    check('custom_roles_code_syntax', sql`${t.code} ~ '^[a-z][a-z0-9_-]{1,63}$'`),
  ],
);
