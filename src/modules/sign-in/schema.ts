import { type AnyPgColumn, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from '../accounts/schema.js';
import { tenants } from '../organizations/schema.js';

// The session model's tables, owned by the sign-in module (docs/decisions.md "Module boundaries"): only its store
// queries them; other modules call its functions.

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
