import { boolean, index, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { tenants } from '../organizations/schema.js';

/**
 * An organization's SAML 2.0 identity provider (Part A 4.6): one connection per organization. While there is none,
 * every SAML surface of the organization is dormant (404). Nothing here is secret: the identity provider's
 * certificates are public keys, and this service signs nothing (its AuthnRequests and LogoutResponses are unsigned).
 */
export const samlConnections = pgTable('saml_connections', {
  tenantId: uuid('tenant_id')
    .primaryKey()
    .references(() => tenants.id, { onDelete: 'cascade' }),
  /** The identity provider's entity id: the `Issuer` its assertions and logout requests must carry. */
  idpEntityId: text('idp_entity_id').notNull(),
  /** Its SingleSignOnService (HTTP-Redirect binding): where the browser takes the AuthnRequest. */
  ssoUrl: text('sso_url').notNull(),
  /** Its SingleLogoutService (HTTP-Redirect binding): where logout responses go; null: no single logout. */
  sloUrl: text('slo_url'),
  /** Signing certificates (base64 DER, 1 to 5): an assertion must be signed by one of them. */
  idpCertificates: jsonb('idp_certificates').notNull().$type<string[]>(),
  /** Lowercased email domains whose people may sign in through this connection; empty: any. */
  allowedDomains: jsonb('allowed_domains').notNull().$type<string[]>(),
  enabled: boolean('enabled').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

/**
 * An AuthnRequest this service issued (`POST /auth/sso/saml/start`): its `ID` is what the response's
 * `InResponseTo` must name. Spent once by the ACS, only from the browser that started it (`browser_hash`: SHA-256
 * of the secret in that browser's cookie). About 10 minutes.
 */
export const samlRequests = pgTable(
  'saml_requests',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    /** The AuthnRequest `ID` (public: it travels in the browser's URL). */
    id: text('id').notNull(),
    browserHash: text('browser_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    spentAt: timestamp('spent_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), index('saml_requests_expires').on(t.expiresAt)],
);

/**
 * Message ids of the identity provider already accepted (an assertion's `ID`, a LogoutRequest's `ID`), kept until
 * the message could no longer be accepted anyway: a second use of one is a replay (SAML 2.0 profiles 4.1.4.5).
 */
export const samlSeenMessages = pgTable(
  'saml_seen_messages',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['assertion', 'logout_request'] }).notNull(),
    messageId: text('message_id').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.kind, t.messageId] }),
    index('saml_seen_messages_expires').on(t.expiresAt),
  ],
);
