import { bigint, boolean, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from '../accounts/schema.js';

/** WebAuthn credentials (passkeys) of an account. Accounts are global, so passkeys are too. */
export const webauthnCredentials = pgTable(
  'webauthn_credentials',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The authenticator's credential id, base64url. */
    credentialId: text('credential_id').notNull().unique(),
    /** COSE public key, base64url. */
    publicKey: text('public_key').notNull(),
    /** Signature counter last seen; one that goes backwards is a suspected clone. */
    counter: bigint('counter', { mode: 'number' }).notNull(),
    transports: jsonb('transports').notNull().$type<string[]>(),
    deviceType: text('device_type').notNull(),
    backedUp: boolean('backed_up').notNull(),
    aaguid: text('aaguid'),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [index('webauthn_credentials_user').on(t.userId)],
);

/** WebAuthn ceremony challenges: single use and short-lived. `user_id` is set for registration only. */
export const webauthnChallenges = pgTable('webauthn_challenges', {
  id: uuid('id').primaryKey(),
  challenge: text('challenge').notNull().unique(),
  purpose: text('purpose', { enum: ['registration', 'authentication'] }).notNull(),
  userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  spentAt: timestamp('spent_at', { withTimezone: true }),
});
