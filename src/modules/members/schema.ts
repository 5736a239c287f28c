import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { tenants } from '../organizations/schema.js';

/**
 * Invitations (Part A 4.7). The link's token is stored as SHA-256 only. One pending invitation per address
 * and organization: inviting the address again re-issues it (new token, expiry restarted, role updated).
 */
export const invitations = pgTable(
  'invitations',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    id: uuid('id').primaryKey(),
    email: text('email').notNull(),
    /** Lowercased, trimmed: the key an address is matched by. */
    emailKey: text('email_key').notNull(),
    role: text('role').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    status: text('status', { enum: ['pending', 'redeemed', 'revoked'] }).notNull(),
    invitedBy: text('invited_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull(),
    /** Re-issued at least once (a new link replaced the first one). */
    reissued: boolean('reissued').notNull().default(false),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    redeemedAt: timestamp('redeemed_at', { withTimezone: true }),
    redeemedBy: uuid('redeemed_by'),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('invitations_pending_email').on(t.tenantId, t.emailKey).where(sql`status = 'pending'`),
    index('invitations_tenant_status').on(t.tenantId, t.status),
  ],
);

/**
 * Claimed email domains (Part A 4.7). Proof is a TXT record `svc-verify=<value>` at the domain name itself;
 * a domain is verified by at most one organization at a time (the partial unique index holds it across
 * organizations, row-level security notwithstanding).
 */
export const memberDomains = pgTable(
  'member_domains',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    id: uuid('id').primaryKey(),
    domain: text('domain').notNull(),
    verificationValue: text('verification_value').notNull(),
    verified: boolean('verified').notNull().default(false),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    lastCheckedAt: timestamp('last_checked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('member_domains_tenant_domain').on(t.tenantId, t.domain),
    uniqueIndex('member_domains_verified_domain').on(t.domain).where(sql`verified`),
  ],
);
