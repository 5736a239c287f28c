import { boolean, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { tenants } from '../organizations/schema.js';

/** People. An account is global; it joins organizations through memberships. */
export const users = pgTable('users', {
  id: uuid('id').primaryKey(),
  email: text('email').notNull(),
  /** Lowercased, trimmed: the key an address is unique by. */
  emailKey: text('email_key').notNull().unique(),
  emailVerified: boolean('email_verified').notNull().default(false),
  passwordHash: text('password_hash'),
  status: text('status', { enum: ['active', 'disabled'] })
    .notNull()
    .default('active'),
  /** Revocation epoch: bumped by sign-out-everywhere and password changes; older tokens stop working. */
  tokenEpoch: integer('token_epoch').notNull().default(0),
  name: text('name'),
  givenName: text('given_name'),
  familyName: text('family_name'),
  picture: text('picture'),
  /** Who manages the profile: `local`, or an identity provider (`scim`, `sso`). */
  profileSource: text('profile_source').notNull().default('local'),
  /**
   * The organization whose SSO or SCIM created the account (docs/decisions.md "SSO trust model"): its identity
   * provider may sign the account in, another organization's may not. Null for accounts people created.
   */
  ownerTenantId: uuid('owner_tenant_id').references(() => tenants.id, { onDelete: 'set null' }),
  passwordChangedAt: timestamp('password_changed_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

/**
 * Single-use emailed links of an account (email verification, password reset), stored as SHA-256. Accounts are
 * global, so these are not tenant-scoped; `tenant_id` only says which organization the event is recorded in.
 */
export const accountTokens = pgTable(
  'account_tokens',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['verify_email', 'reset_password'] }).notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    /** For verification: the address the link was sent to (a changed address makes the link useless). */
    email: text('email').notNull(),
    /** Organization the event is recorded in (the one the request came through), when known. */
    eventTenantId: uuid('event_tenant_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    spentAt: timestamp('spent_at', { withTimezone: true }),
  },
  (t) => [index('account_tokens_user').on(t.userId, t.purpose)],
);
