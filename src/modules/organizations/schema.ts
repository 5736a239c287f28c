import { boolean, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from '../accounts/schema.js';

/** Organizations. The registry itself is not tenant-scoped: sign-in finds an organization by its slug. */
export const tenants = pgTable('tenants', {
  id: uuid('id').primaryKey(),
  name: text('name').notNull(),
  /** Case- and space-folded name: two organizations cannot share a name. */
  nameKey: text('name_key').notNull().unique(),
  slug: text('slug').notNull().unique(),
  isolation: text('isolation').notNull().default('pooled'),
  plan: text('plan').notNull().default('free'),
  isPlatformOperator: boolean('is_platform_operator').notNull().default(false),
  quarantined: boolean('quarantined').notNull().default(false),
  ssoRequired: boolean('sso_required').notNull().default(false),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});

export const memberships = pgTable(
  'memberships',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').notNull(),
    population: text('population', { enum: ['workforce', 'customer'] }).notNull(),
    status: text('status', { enum: ['active', 'suspended', 'removed'] }).notNull(),
    scimManaged: boolean('scim_managed').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('memberships_tenant_user').on(t.tenantId, t.userId)],
);
