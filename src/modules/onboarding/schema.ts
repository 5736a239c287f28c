import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

// Agent onboarding (Part B 1.2, 4.5). Nothing here is tenant-scoped: each row exists before the organization it
// may create, so the created organization is `organization_id` (no row-level security) and every statement runs
// in a system transaction.

/** Invite codes (ARCHITECTURE.md "Onboarding invite codes"): only the SHA-256 of the code is kept. */
export const onboardingInviteCodes = pgTable(
  'onboarding_invite_codes',
  {
    id: uuid('id').primaryKey(),
    codeHash: text('code_hash').notNull(),
    codePrefix: text('code_prefix').notNull(),
    email: text('email').notNull(),
    emailKey: text('email_key').notNull(),
    door: text('door', { enum: ['onboard', 'signup'] }).notNull(),
    /** Actor reference of the platform operator who issued it. */
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    consumedOrganizationId: uuid('consumed_organization_id'),
  },
  (t) => [
    uniqueIndex('onboarding_invite_codes_hash').on(t.codeHash),
    index('onboarding_invite_codes_listing').on(t.createdAt, t.id),
  ],
);

export type AttemptStatus = 'pending' | 'approved' | 'denied' | 'consumed';

/**
 * A bootstrap attempt (Part B 3): `pending` until the person approves or denies; `approved` until the agent's next
 * poll takes the credential (`consumed`). The device and user codes expire after about an hour and are rotated by
 * a repeat bootstrap; the email link lives 48 hours; `browser_hash` binds the browser that clicked the link.
 */
export const onboardingAttempts = pgTable(
  'onboarding_attempts',
  {
    id: uuid('id').primaryKey(),
    email: text('email').notNull(),
    emailKey: text('email_key').notNull(),
    organizationName: text('organization_name').notNull(),
    clientInfo: jsonb('client_info').$type<{ name?: string; platform?: string; model?: string }>(),
    manifest: jsonb('manifest').$type<Record<string, unknown>>(),
    inviteCodeId: uuid('invite_code_id'),
    status: text('status', { enum: ['pending', 'approved', 'denied', 'consumed'] }).notNull(),
    deviceCodeHash: text('device_code_hash').notNull(),
    userCodeHash: text('user_code_hash'),
    codesExpireAt: timestamp('codes_expire_at', { withTimezone: true }).notNull(),
    pollIntervalSeconds: integer('poll_interval_seconds').notNull(),
    lastPolledAt: timestamp('last_polled_at', { withTimezone: true }),
    linkTokenHash: text('link_token_hash'),
    linkExpiresAt: timestamp('link_expires_at', { withTimezone: true }),
    emailConfirmedAt: timestamp('email_confirmed_at', { withTimezone: true }),
    browserHash: text('browser_hash'),
    organizationId: uuid('organization_id'),
    ownerUserId: uuid('owner_user_id'),
    /** The owner account was made by this attempt (a denial removes it); false for an address already registered. */
    ownerCreated: boolean('owner_created').notNull().default(false),
    /** A session of the new owner, never handed out: the hosted passkey step registers through it. */
    ownerSessionId: uuid('owner_session_id'),
    agentId: uuid('agent_id'),
    approvedAt: timestamp('approved_at', { withTimezone: true }),
    deniedAt: timestamp('denied_at', { withTimezone: true }),
    releasedAt: timestamp('released_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('onboarding_attempts_device_code').on(t.deviceCodeHash),
    uniqueIndex('onboarding_attempts_user_code').on(t.userCodeHash),
    uniqueIndex('onboarding_attempts_link').on(t.linkTokenHash),
    uniqueIndex('onboarding_attempts_browser').on(t.browserHash),
    uniqueIndex('onboarding_attempts_one_open_per_email')
      .on(t.emailKey)
      .where(sql`${t.status} IN ('pending', 'approved')`),
  ],
);

/** Proof-of-work challenges (Part B 4.5 `POST /onboard/pow`): single use, spent by the bootstrap that solves one. */
export const onboardingPowChallenges = pgTable('onboarding_pow_challenges', {
  challenge: text('challenge').primaryKey(),
  bits: integer('bits').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  spentAt: timestamp('spent_at', { withTimezone: true }),
});

export type AttemptRow = typeof onboardingAttempts.$inferSelect;
export type InviteCodeRow = typeof onboardingInviteCodes.$inferSelect;
