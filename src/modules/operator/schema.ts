import {
  bigint,
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
import { tenants } from '../organizations/schema.js';

/**
 * The operator plane's records (Part B 2.9), held by the platform-operator organization: `tenant_id` is always
 * its id, so row-level security confines them like any organization's data (migration 0031).
 */
export const licences = pgTable(
  'licences',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull(),
    licensee: text('licensee').notNull(),
    installId: text('install_id').notNull(),
    planCode: text('plan_code').notNull(),
    termDays: integer('term_days').notNull(),
    maintenanceDays: integer('maintenance_days'),
    featuresExtra: jsonb('features_extra').$type<string[]>().notNull(),
    caps: jsonb('caps').$type<Record<string, number | null>>().notNull(),
    /** The licence's optional `tenant_id` (an organization of the licensed installation, opaque here). */
    licensedTenantId: uuid('licensed_tenant_id'),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    maintenanceExpiresAt: timestamp('maintenance_expires_at', { withTimezone: true }).notNull(),
    issuedBy: text('issued_by').notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedBy: text('revoked_by'),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), index('licences_issued').on(t.tenantId, t.issuedAt)],
);

export const distributionCredentials = pgTable(
  'distribution_credentials',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull(),
    licenceId: uuid('licence_id').notNull(),
    label: text('label').notNull(),
    /** SHA-256 (hex) of the `zdc_…` credential; the credential itself is never stored. */
    secretHash: text('secret_hash').notNull(),
    publicPrefix: text('public_prefix').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    createdBy: text('created_by').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedBy: text('revoked_by'),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    foreignKey({
      name: 'distribution_credentials_licence_fk',
      columns: [t.tenantId, t.licenceId],
      foreignColumns: [licences.tenantId, licences.id],
    }).onDelete('cascade'),
    uniqueIndex('distribution_credentials_secret_hash').on(t.secretHash),
    index('distribution_credentials_licence').on(t.tenantId, t.licenceId),
  ],
);

export const releases = pgTable(
  'releases',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    version: text('version').notNull(),
    objectKey: text('object_key').notNull(),
    checksumSha256: text('checksum_sha256').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    publishedAt: timestamp('published_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    createdBy: text('created_by').notNull(),
    yankedAt: timestamp('yanked_at', { withTimezone: true }),
    yankedBy: text('yanked_by'),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.version] })],
);
