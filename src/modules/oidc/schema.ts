import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { tenants } from '../organizations/schema.js';

/**
 * OAuth clients an organization registered (Part A 2.8): each belongs to exactly one organization. The client id
 * is unique across the installation, because the token endpoint receives it without naming an organization;
 * the organization leads the primary key, so grants of the OpenID Provider can reference (tenant_id, client_id)
 * and never cross organizations. Only the SHA-256 of a confidential client's secret is kept (shown once).
 */
export const oauthClients = pgTable(
  'oauth_clients',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    clientId: text('client_id').notNull().unique(),
    name: text('name').notNull(),
    clientType: text('client_type', { enum: ['confidential', 'public'] }).notNull(),
    secretHash: text('secret_hash'),
    /** Exact strings: the authorize endpoint compares them character for character (Part A 4.14). */
    redirectUris: jsonb('redirect_uris').notNull().$type<string[]>(),
    grantTypes: jsonb('grant_types').notNull().$type<string[]>(),
    scopes: jsonb('scopes').notNull().$type<string[]>(),
    postLogoutRedirectUris: jsonb('post_logout_redirect_uris').notNull().$type<string[]>(),
    backchannelLogoutUri: text('backchannel_logout_uri'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.clientId] }),
    index('oauth_clients_tenant_created').on(t.tenantId, t.createdAt),
    // A confidential client always holds a secret, a public one never does (Part A 2.8).
    check('oauth_clients_secret_by_type', sql`(${t.clientType} = 'confidential') = (${t.secretHash} is not null)`),
  ],
);

/**
 * Protected resources (APIs) of an organization, named by RFC 8707 resource identifiers: a token minted for one
 * carries it as `aud` (Part A 2.11, 4.14). An identifier is unique within its organization.
 */
export const oauthResources = pgTable(
  'oauth_resources',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull(),
    identifier: text('identifier').notNull(),
    name: text('name').notNull(),
    enabled: boolean('enabled').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('oauth_resources_tenant_identifier').on(t.tenantId, t.identifier),
  ],
);
