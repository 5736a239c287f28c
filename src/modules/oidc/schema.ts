import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  foreignKey,
  index,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from '../accounts/schema.js';
import { tenants } from '../organizations/schema.js';
import { sessions } from '../sign-in/schema.js';

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
    /**
     * The organization's admin console (migration 0034, docs/console.md): created with the organization, its
     * URIs are paths resolved against BASE_URL, it needs no consent, and the client API neither lists nor changes it.
     */
    firstParty: boolean('first_party').notNull().default(false),
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
    // Unique across the installation: a token bound to it names only the identifier (aud), so two organizations
    // holding one identifier would each mint tokens the other's API accepts.
    uniqueIndex('oauth_resources_identifier').on(t.identifier),
  ],
);

/**
 * Authorization codes (RFC 6749 section 4.1, Part A 3): single use, stored as SHA-256, living a minute. The
 * code remembers the browser session that signed in and, once exchanged, the grant session it minted, so a
 * replay can end that grant (Part A 3).
 */
export const oauthAuthorizationCodes = pgTable(
  'oauth_authorization_codes',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    clientId: text('client_id').notNull(),
    codeHash: text('code_hash').notNull().unique(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The browser session at the provider (the ID token's `sid`). */
    sessionId: uuid('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    redirectUri: text('redirect_uri').notNull(),
    scope: text('scope').notNull(),
    nonce: text('nonce'),
    /** PKCE S256 challenge (RFC 7636): base64url SHA-256 of the verifier. */
    codeChallenge: text('code_challenge').notNull(),
    resource: text('resource'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    spentAt: timestamp('spent_at', { withTimezone: true }),
    /** The grant session the exchange started: a replayed code ends it. */
    grantSessionId: uuid('grant_session_id'),
  },
  (t) => [
    foreignKey({
      columns: [t.tenantId, t.clientId],
      foreignColumns: [oauthClients.tenantId, oauthClients.clientId],
      name: 'oauth_authorization_codes_client_fk',
    }).onDelete('cascade'),
    index('oauth_authorization_codes_expiry').on(t.expiresAt),
  ],
);

/**
 * Consents (Part A 4.14, "connected apps"): what a person allowed a client of the organization. A later request
 * for scopes this covers skips the consent page; a broader one asks again. Revoking ends the client's grants.
 */
export const oauthConsents = pgTable(
  'oauth_consents',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    clientId: text('client_id').notNull(),
    scopes: jsonb('scopes').notNull().$type<string[]>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.userId, t.clientId] }),
    foreignKey({
      columns: [t.tenantId, t.clientId],
      foreignColumns: [oauthClients.tenantId, oauthClients.clientId],
      name: 'oauth_consents_client_fk',
    }).onDelete('cascade'),
  ],
);

/**
 * Back-channel logout tokens to send (Part A 4.14): a row per client and provider session whose grant ended,
 * queued by the revocation cascade (src/modules/oidc/revocation.ts) on every way a session ends: every path that
 * ends sessions goes through the sign-in module's SessionService, which tells the cascade. Best effort: the sender takes each row once and never retries.
 */
export const oidcBackchannelLogouts = pgTable(
  'oidc_backchannel_logouts',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    clientId: text('client_id').notNull(),
    /** The logout token's `sub`: no foreign key, so an erased account's logout is still sent. */
    userId: uuid('user_id').notNull(),
    /** The logout token's `sid`: the ID token's. */
    sid: uuid('sid').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('oidc_backchannel_logouts_client_sid').on(t.tenantId, t.clientId, t.sid)],
);
