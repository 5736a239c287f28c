import { index, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from '../accounts/schema.js';
import { tenants } from '../organizations/schema.js';
import { sessions } from '../sign-in/schema.js';

/**
 * A social provider account linked to a person in one organization (Part A 2.16 "Social identity", 4.5). Keyed
 * by the provider's stable subject (Google `sub`, GitHub's numeric user id), never by the address, which the
 * person can change at the provider. One identity per provider and person in an organization: unlink names the
 * provider only.
 */
export const socialIdentities = pgTable(
  'social_identities',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    subject: text('subject').notNull(),
    /** The provider-verified address seen at the last sign-in (informational, shown in the identities list). */
    email: text('email'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('social_identities_tenant_provider_subject').on(t.tenantId, t.provider, t.subject),
    uniqueIndex('social_identities_tenant_user_provider').on(t.tenantId, t.userId, t.provider),
  ],
);

/**
 * One browser round trip to a provider (Part A 4.5): started by `start` or `link/start`, its `state` spent once
 * by the callback, which must come from the browser that started it (`browser_hash`: SHA-256 of the secret in
 * that browser's cookie; PKCE verifier and nonce are derived from that secret, so the table alone cannot finish a
 * flow). The callback ends a sign-in in a one-time completion code (60 s) redeemed by `POST /auth/social/complete`.
 * Secrets are stored as SHA-256 only.
 */
export const socialFlows = pgTable(
  'social_flows',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull(),
    provider: text('provider').notNull(),
    purpose: text('purpose', { enum: ['sign_in', 'link'] }).notNull(),
    /** `link`: the signed-in person the identity is linked to, and the session that asked. */
    linkUserId: uuid('link_user_id').references(() => users.id, { onDelete: 'cascade' }),
    linkSessionId: uuid('link_session_id').references(() => sessions.id, { onDelete: 'cascade' }),
    stateHash: text('state_hash').notNull().unique(),
    browserHash: text('browser_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    /** The round trip must finish by then (about 10 minutes, Part A 8). */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** Set when the callback spent the state, whatever its outcome. */
    callbackAt: timestamp('callback_at', { withTimezone: true }),
    /** A sign-in's outcome: the person it signs in, and the one-time completion code (SHA-256), 60 s. */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    completionHash: text('completion_hash').unique(),
    completionExpiresAt: timestamp('completion_expires_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('social_flows_tenant_user').on(t.tenantId, t.userId),
    index('social_flows_tenant_link_user').on(t.tenantId, t.linkUserId),
    index('social_flows_expires').on(t.expiresAt),
  ],
);
