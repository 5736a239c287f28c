import { jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** RS256 signing keys. At most one `next`, one `active`, one `previous`; retired keys are kept, unpublished. */
export const signingKeys = pgTable('signing_keys', {
  kid: text('kid').primaryKey(),
  status: text('status', { enum: ['next', 'active', 'previous', 'retired'] }).notNull(),
  publicJwk: jsonb('public_jwk').notNull().$type<Record<string, string>>(),
  /** PKCS#8 PEM sealed with AES-256-GCM under SECRET_KEY. */
  privateKeySealed: text('private_key_sealed').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  activatedAt: timestamp('activated_at', { withTimezone: true }),
  retiredAt: timestamp('retired_at', { withTimezone: true }),
});
