import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from '../accounts/schema.js';
import { tenants } from '../organizations/schema.js';

/**
 * Emailed sign-in links (Part A 4.4), stored as SHA-256: single use, about 15 minutes; a new request for
 * the same person and organization supersedes the outstanding one.
 */
export const magicLinks = pgTable(
  'magic_links',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** Set when the link is used or superseded; `spent_reason` says which. */
    spentAt: timestamp('spent_at', { withTimezone: true }),
    spentReason: text('spent_reason', { enum: ['used', 'superseded'] }),
  },
  (t) => [index('magic_links_tenant_user').on(t.tenantId, t.userId)],
);
