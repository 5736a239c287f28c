import { boolean, index, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from '../accounts/schema.js';
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
  /**
   * Null only on a connection an IAM manifest scaffolded (Part B 2.4: a manifest never carries a secret): it stays
   * disabled until an admin supplies the secret with `PUT /tenants/sso/oidc` (a check constraint keeps it so).
   */
  clientSecretSealed: text('client_secret_sealed'),
  /** A manifest's `sso.display_name` (null when configured through the admin API). */
  displayName: text('display_name'),
  /**
   * A manifest's `sso.default_role`: the role of a person this connection makes a member (provisioned just in
   * time); null: `member`. Never `owner` or `customer`.
   */
  defaultRole: text('default_role'),
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

/**
 * One browser round trip to the organization's OIDC identity provider (Part A 4.6): started by
 * `POST /auth/sso/start`, its `state` spent once by the callback, which must come from the browser that started it
 * (`browser_hash`: SHA-256 of the secret in that browser's cookie; the PKCE verifier and nonce are derived from the
 * same secret, so this table alone cannot finish a flow). About 10 minutes.
 */
export const ssoOidcFlows = pgTable(
  'sso_oidc_flows',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull(),
    stateHash: text('state_hash').notNull().unique(),
    browserHash: text('browser_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    spentAt: timestamp('spent_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), index('sso_oidc_flows_expires').on(t.expiresAt)],
);

/**
 * The identity provider's account of a person (OIDC `iss` + `sub`), linked to an account of the organization by
 * the first SSO sign-in. Later sign-ins find the person by it, not by the address the provider sends.
 */
export const ssoIdentities = pgTable(
  'sso_identities',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    protocol: text('protocol', { enum: ['oidc', 'saml'] }).notNull(),
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The address the provider asserted at the last sign-in. */
    email: text('email').notNull(),
    /**
     * How the link came to be (docs/decisions.md "SSO trust model"): `provisioning`, the organization's SSO created
     * the account or found one it owns; `account_holder`, the person proved control of the account (the mailed
     * link). Only an `account_holder` link signs in an organization's owner.
     */
    linkedBy: text('linked_by', { enum: ['provisioning', 'account_holder'] })
      .notNull()
      .default('provisioning'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.protocol, t.issuer, t.subject] }),
    index('sso_identities_tenant_user').on(t.tenantId, t.userId),
  ],
);

/**
 * A federated sign-in waiting to be completed (Part A 4.6 `POST /auth/sso/complete`), whatever the protocol: the
 * person it signs in and a one-time code (SHA-256, about 60 seconds). Kept after use with the provider's session id
 * (OIDC `sid`), so a back-channel logout naming that session finds the person; removed with the session lifetime.
 */
export const ssoSignIns = pgTable(
  'sso_sign_ins',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull(),
    protocol: text('protocol', { enum: ['oidc', 'saml'] }).notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    /** The provider's session (OIDC `sid` claim), when it sent one. */
    providerSessionId: text('provider_session_id'),
    codeHash: text('code_hash').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    codeExpiresAt: timestamp('code_expires_at', { withTimezone: true }).notNull(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('sso_sign_ins_tenant_user').on(t.tenantId, t.userId),
    index('sso_sign_ins_tenant_sid').on(t.tenantId, t.issuer, t.providerSessionId),
    index('sso_sign_ins_created').on(t.createdAt),
  ],
);

/**
 * An identity provider asserted the address of an existing account the organization does not own: the account is
 * linked only when its holder opens the link mailed to the account's address (docs/decisions.md "SSO trust
 * model"). Token stored as SHA-256, single use, about 30 minutes.
 */
export const ssoLinkRequests = pgTable(
  'sso_link_requests',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull(),
    protocol: text('protocol', { enum: ['oidc', 'saml'] }).notNull(),
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The address asserted (the account's, when the request was made); a changed account address voids it. */
    email: text('email').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    spentAt: timestamp('spent_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), index('sso_link_requests_expires').on(t.expiresAt)],
);
