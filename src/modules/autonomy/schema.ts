import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { tenants } from '../organizations/schema.js';

/**
 * The autonomy ledger (Part B 2.8): one decision per detection group occurrence (`detection_id`, unique per
 * organization, so feeding the same detection twice records one row). `mode` is the row's state (Part B 3); a
 * row in `executing` is work for the autonomy worker, claimed with `FOR UPDATE SKIP LOCKED`.
 */
export const autonomyDecisions = pgTable(
  'autonomy_decisions',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    detectionId: uuid('detection_id').notNull(),
    ruleId: text('rule_id').notNull(),
    actionId: text('action_id').notNull(),
    blastClass: text('blast_class').notNull(),
    targetId: text('target_id').notNull(),
    effect: text('effect').notNull(),
    mode: text('mode', {
      enum: ['dry_run', 'shadow', 'proposed', 'denied', 'expired', 'executing', 'executed', 'reversed'],
    }).notNull(),
    /** The class level that applied (after the attacker-trippable cap). */
    level: text('level').notNull(),
    /** `pending`, `approved`, `denied`, `automatic` (unattended) or `none` (dry run, shadow). */
    adjudication: text('adjudication').notNull(),
    /** An actor reference (`<id>`), `system` for the engine itself; null while nobody decided. */
    decidedBy: text('decided_by'),
    decidedByType: text('decided_by_type'),
    decisionReason: text('decision_reason'),
    /** SHA-256 of the world the effect was planned against; approving checks it is unchanged. */
    worldFingerprint: text('world_fingerprint').notNull(),
    /** What execution did, for the revert: e.g. the kill switch instant it set. */
    result: jsonb('result').notNull().$type<Record<string, unknown>>().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    executedAt: timestamp('executed_at', { withTimezone: true }),
    revertedAt: timestamp('reverted_at', { withTimezone: true }),
    revertedBy: text('reverted_by'),
    revertReason: text('revert_reason'),
  },
  (t) => [
    uniqueIndex('autonomy_decisions_detection').on(t.tenantId, t.detectionId),
    index('autonomy_decisions_tenant_time').on(t.tenantId, t.createdAt, t.id),
    index('autonomy_decisions_class_time').on(t.tenantId, t.blastClass, t.executedAt),
    index('autonomy_decisions_executing').on(t.createdAt).where(sql`mode = 'executing'`),
  ],
);

/**
 * Who last set the kill switch through `POST /autonomy/kill-switch` and why. The switch itself is one state, the
 * setting `autonomy.disabled_until` (ARCHITECTURE.md); this note is shown only while `until` still matches it.
 */
export const autonomyKillSwitchNotes = pgTable('autonomy_kill_switch_notes', {
  tenantId: uuid('tenant_id')
    .primaryKey()
    .references(() => tenants.id, { onDelete: 'cascade' }),
  until: text('until').notNull(),
  reason: text('reason'),
  changedBy: text('changed_by').notNull(),
  changedAt: timestamp('changed_at', { withTimezone: true }).notNull(),
});
