import { type AnyPgColumn, boolean, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
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

/** A signed-in session in one organization; every token of it dies when it is revoked. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The user's epoch when the session began; a bump ends the session. */
    epoch: integer('epoch').notNull(),
    /** Authentication methods (RFC 8176 values as in ID tokens: pwd, mfa, webauthn…). */
    amr: jsonb('amr').notNull().$type<string[]>(),
    authTime: timestamp('auth_time', { withTimezone: true }).notNull(),
    /** RFC 9449 thumbprint of the DPoP key the session's tokens are bound to. */
    dpopJkt: text('dpop_jkt'),
    userAgent: text('user_agent'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedReason: text('revoked_reason'),
    /**
     * OAuth grant sessions of the OpenID Provider (Part A 4.14): a code exchange starts one for the client, so
     * every revocation of Part A 3 reaches the client's tokens too. `client_id` references the organization's
     * client (composite foreign key in migration 0013, cascading with the client); null for a first-party session.
     */
    clientId: text('client_id'),
    /** Space-separated scopes the grant holds; a refresh may narrow what it asks, never widen this. */
    scope: text('scope'),
    /** RFC 8707 resource identifier the grant's access tokens are bound to, if any. */
    resource: text('resource'),
    /**
     * The browser session at the provider whose sign-in made the grant: its id is the ID token's `sid`, and its
     * end ends the grant (sign-in/revocation.ts, through the revocation cascade).
     */
    parentSessionId: uuid('parent_session_id').references((): AnyPgColumn => sessions.id, { onDelete: 'cascade' }),
  },
  (t) => [index('sessions_tenant_user').on(t.tenantId, t.userId), index('sessions_parent').on(t.parentSessionId)],
);

/** Rotating refresh tokens, stored as SHA-256. A rotated token presented again ends its session. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    rotatedAt: timestamp('rotated_at', { withTimezone: true }),
  },
  (t) => [index('refresh_tokens_session').on(t.tenantId, t.sessionId)],
);

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
