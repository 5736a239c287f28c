import { boolean, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Early-access waitlist requests (Part A 4.12). Not tenant-scoped: the people asking have no organization
 * yet. One row per address (`email_key`); a repeat submission updates the answers and counts itself.
 */
export const earlyAccessRequests = pgTable('early_access_requests', {
  id: uuid('id').primaryKey(),
  email: text('email').notNull(),
  emailKey: text('email_key').notNull().unique(),
  fullName: text('full_name').notNull(),
  role: text('role').notNull(),
  organization: text('organization').notNull(),
  appName: text('app_name'),
  appUrl: text('app_url'),
  appDescription: text('app_description'),
  stage: text('stage').notNull(),
  platforms: jsonb('platforms').notNull().$type<string[]>(),
  integrations: jsonb('integrations').notNull().$type<string[]>(),
  testGoals: text('test_goals').notNull(),
  expectedUsers: text('expected_users').notNull(),
  expectedAgents: text('expected_agents').notNull(),
  timeline: text('timeline').notNull(),
  consent: boolean('consent').notNull(),
  acknowledgement: boolean('acknowledgement').notNull(),
  consentTextVersion: text('consent_text_version').notNull(),
  acknowledgementTextVersion: text('acknowledgement_text_version').notNull(),
  intendedUse: text('intended_use'),
  source: text('source'),
  submissions: integer('submissions').notNull().default(1),
  /** SHA-256 of the current confirmation link's token (double opt-in); null once confirmed. */
  confirmTokenHash: text('confirm_token_hash').unique(),
  confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});
