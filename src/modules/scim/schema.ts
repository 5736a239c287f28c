import {
  boolean,
  foreignKey,
  index,
  integer,
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

/** One address of a SCIM User (RFC 7643 section 4.1.2 `emails`), kept as the identity provider sent it. */
export interface ScimEmail {
  value: string;
  type?: string;
  primary?: boolean;
  display?: string;
}

/**
 * SCIM provisioning of an organization (Part A 4.6). The row exists while the organization has a token (it is
 * "configured"); `enabled: false` pauses provisioning without losing the token. The token is kept as SHA-256 (shown
 * once); minting again replaces the hash in place, so the previous token stops at once.
 */
export const scimConfigs = pgTable('scim_configs', {
  tenantId: uuid('tenant_id')
    .primaryKey()
    .references(() => tenants.id, { onDelete: 'cascade' }),
  enabled: boolean('enabled').notNull(),
  /** Names the current token in events: the actor of the provisioning changes it makes. */
  tokenId: uuid('token_id').notNull(),
  tokenHash: text('token_hash').notNull().unique(),
  /** Prefix and the secret's first four characters: lets an admin tell tokens apart. */
  tokenHint: text('token_hint').notNull(),
  tokenCreatedAt: timestamp('token_created_at', { withTimezone: true }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

/**
 * A SCIM User (RFC 7643 section 4.1): the organization's copy of what its identity provider sent, for one account
 * and its membership. `id` is the SCIM id, never reassigned (RFC 7643 section 3.1) and distinct from the account
 * id, so identity providers of two organizations cannot correlate a person. `owns_account`: this organization's
 * provisioning created the account and manages its profile (names and address are mirrored onto it).
 */
export const scimUsers = pgTable(
  'scim_users',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    userName: text('user_name').notNull(),
    /** Lowercased: userName is unique per organization without regard to case (RFC 7643 section 4.1.1). */
    userNameKey: text('user_name_key').notNull(),
    externalId: text('external_id'),
    displayName: text('display_name'),
    givenName: text('given_name'),
    familyName: text('family_name'),
    formattedName: text('formatted_name'),
    emails: jsonb('emails').notNull().$type<ScimEmail[]>(),
    active: boolean('active').notNull(),
    ownsAccount: boolean('owns_account').notNull(),
    /** Bumped on every change: the weak ETag and `meta.version` (RFC 7644 section 3.14). */
    version: integer('version').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('scim_users_tenant_user_name').on(t.tenantId, t.userNameKey),
    uniqueIndex('scim_users_tenant_user').on(t.tenantId, t.userId),
    index('scim_users_tenant_external').on(t.tenantId, t.externalId),
    index('scim_users_tenant_created').on(t.tenantId, t.createdAt, t.id),
  ],
);

/** A SCIM Group (RFC 7643 section 4.2) of an organization; no role follows from it. */
export const scimGroups = pgTable(
  'scim_groups',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull(),
    displayName: text('display_name').notNull(),
    /** Lowercased: identity providers find groups by displayName, so it is unique per organization. */
    displayNameKey: text('display_name_key').notNull(),
    externalId: text('external_id'),
    version: integer('version').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('scim_groups_tenant_display_name').on(t.tenantId, t.displayNameKey),
    index('scim_groups_tenant_external').on(t.tenantId, t.externalId),
    index('scim_groups_tenant_created').on(t.tenantId, t.createdAt, t.id),
  ],
);

/** Members of a SCIM Group: SCIM Users of the same organization (no nested groups). */
export const scimGroupMembers = pgTable(
  'scim_group_members',
  {
    tenantId: uuid('tenant_id').notNull(),
    groupId: uuid('group_id').notNull(),
    memberId: uuid('member_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.groupId, t.memberId] }),
    foreignKey({ columns: [t.tenantId, t.groupId], foreignColumns: [scimGroups.tenantId, scimGroups.id] }).onDelete(
      'cascade',
    ),
    foreignKey({ columns: [t.tenantId, t.memberId], foreignColumns: [scimUsers.tenantId, scimUsers.id] }).onDelete(
      'cascade',
    ),
    index('scim_group_members_member').on(t.tenantId, t.memberId),
  ],
);
