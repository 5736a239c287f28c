import { boolean, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { tenants } from '../organizations/schema.js';

/**
 * An organization's OpenID Connect identity provider (Part A 4.6, "OIDC federation"): one connection per
 * organization. While there is none, every SSO surface of the organization is dormant (404). The client secret is
 * sealed with AES-256-GCM (`v1.` format of kernel/crypto), bound to the organization, and never answered.
 */
export const ssoOidcConnections = pgTable('sso_oidc_connections', {
  tenantId: uuid('tenant_id')
    .primaryKey()
    .references(() => tenants.id, { onDelete: 'cascade' }),
  /** Exactly as the admin wrote it: OIDC Discovery 4.3 compares the discovered `issuer` with it character for character. */
  issuer: text('issuer').notNull(),
  clientId: text('client_id').notNull(),
  clientSecretSealed: text('client_secret_sealed').notNull(),
  scopes: jsonb('scopes').notNull().$type<string[]>(),
  /** Lowercased email domains whose people may sign in through this connection; empty: any. */
  allowedDomains: jsonb('allowed_domains').notNull().$type<string[]>(),
  enabled: boolean('enabled').notNull(),
  /** The last `POST /tenants/sso/oidc/test` of the current configuration (cleared when it changes). */
  lastTestedAt: timestamp('last_tested_at', { withTimezone: true }),
  lastTestOk: boolean('last_test_ok'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});
