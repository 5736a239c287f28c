import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from '../accounts/schema.js';
import { tenants } from '../organizations/schema.js';
import { sessions } from '../sign-in/schema.js';

/**
 * Payment step-up elevations (Part B 2.5, 3, 4.7): one person's proof, in one session, that they approved one exact
 * operation (`action` and `context`; an SCA elevation's context is the transaction). `fingerprint` is the kernel's
 * action fingerprint of the one consume request that may spend it. Spent once (`spent_at`, the kernel's
 * `spendOnce`); what it says now is `elevationStatus(row, now)` (an unspent elevation past `expires_at` is expired).
 */
export const paymentElevations = pgTable(
  'payment_elevations',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['step_up', 'sca'] }).notNull(),
    action: text('action').notNull(),
    /** As given (SCA: `{amount_minor, currency, payee, payee_name}`); null when none was given. */
    context: jsonb('context').$type<Record<string, unknown>>(),
    fingerprint: text('fingerprint').notNull(),
    /** SCA: the sentence the payer was shown, verbatim. */
    display: text('display'),
    /** As stored: `opened`, `satisfied` or `dead` (attempts spent); spent and expired are read from the times. */
    status: text('status', { enum: ['opened', 'satisfied', 'dead'] }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    /** Factor categories proven so far (`knowledge`, `possession`, `inherence`). */
    categories: jsonb('categories').notNull().$type<string[]>(),
    /** Methods that verified (`totp`, `webauthn`, `password` for a recent password sign-in). */
    methodsUsed: jsonb('methods_used').notNull().$type<string[]>(),
    /** The outstanding passkey challenge of this ask (bound to it; spent by the next webauthn verify). */
    webauthnChallenge: text('webauthn_challenge'),
    /** Where the person opened it from (the risk context's source address). */
    sourceIp: text('source_ip'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    satisfiedAt: timestamp('satisfied_at', { withTimezone: true }),
    spentAt: timestamp('spent_at', { withTimezone: true }),
    /** The principal that spent it (an actor id: the API key or service). */
    spentBy: text('spent_by'),
  },
  (t) => [
    index('payment_elevations_session').on(t.tenantId, t.sessionId, t.createdAt),
    index('payment_elevations_user').on(t.tenantId, t.userId),
  ],
);
