import { bigint, index, integer, jsonb, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { users } from '../accounts/schema.js';
import { tenants } from '../organizations/schema.js';

/**
 * An account's TOTP factor (RFC 6238). Accounts are global, so the factor is too: it guards every
 * organization the person signs in to. The secret is sealed (AES-256-GCM) under MFA_ENCRYPTION_KEY.
 */
export const mfaTotp = pgTable('mfa_totp', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secretSealed: text('secret_sealed').notNull(),
  /** Null while the enrollment awaits its first correct code. */
  enabledAt: timestamp('enabled_at', { withTimezone: true }),
  /** The last accepted 30-second step: a code of this step or an earlier one is never accepted again. */
  lastUsedStep: bigint('last_used_step', { mode: 'number' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});

/** Single-use recovery codes, stored as SHA-256; 8 at a time, shown once. */
export const mfaRecoveryCodes = pgTable(
  'mfa_recovery_codes',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    spentAt: timestamp('spent_at', { withTimezone: true }),
  },
  (t) => [unique('mfa_recovery_codes_user_code').on(t.userId, t.codeHash)],
);

/**
 * A sign-in waiting for its second factor (Part A 4.2): the verified first factor's session-to-be. Single
 * use, 5 code attempts, about 5 minutes; the token is stored as SHA-256.
 */
export const mfaChallenges = pgTable(
  'mfa_challenges',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    population: text('population', { enum: ['workforce', 'customer'] }).notNull(),
    epoch: integer('epoch').notNull(),
    /** The first factor's methods (`pwd`, `mlink`, …); `mfa` is added when the code is accepted. */
    amr: jsonb('amr').notNull().$type<string[]>(),
    userAgent: text('user_agent'),
    /** DPoP key the first factor was proven with, if any. */
    dpopJkt: text('dpop_jkt'),
    attempts: integer('attempts').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    spentAt: timestamp('spent_at', { withTimezone: true }),
  },
  (t) => [index('mfa_challenges_tenant_user').on(t.tenantId, t.userId)],
);
