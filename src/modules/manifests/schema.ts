import { integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { tenants } from '../organizations/schema.js';

/**
 * A manifest's `resources[]` entry once applied (Part B 2.4): an existing OAuth resource (RFC 8707, oidc module)
 * bound to a namespace whose `namespace:action` codes the organization's custom roles may then grant. One binding
 * per resource and per namespace; never updated in place (a different binding is a manifest conflict).
 */
export const manifestResourceBindings = pgTable(
  'manifest_resource_bindings',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    /** The OAuth resource's id (`oauth_resources.id`); the binding goes with it (foreign key in migration 0028). */
    resourceId: uuid('resource_id').notNull(),
    identifier: text('identifier').notNull(),
    namespace: text('namespace').notNull(),
    /** `[{action, risk?}]` exactly as the manifest declared them. */
    permissions: jsonb('permissions').notNull().$type<Array<{ action: string; risk?: number }>>(),
    manifestHash: text('manifest_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.resourceId] }),
    uniqueIndex('manifest_resource_bindings_namespace').on(t.tenantId, t.namespace),
  ],
);

/**
 * One manifest's apply in an organization (Part B 3 "Manifest apply"): the lock row two concurrent applies meet
 * (`lock_token`), the approval it spent, and whether it finished (`applied`) or stopped at a failed step
 * (`partial`, resumable).
 */
export const manifestApplies = pgTable(
  'manifest_applies',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    manifestHash: text('manifest_hash').notNull(),
    /** `new` (claimed, approval not yet spent), `partial` (approval spent, steps left), `applied`. */
    status: text('status', { enum: ['new', 'partial', 'applied'] }).notNull(),
    approvalId: uuid('approval_id'),
    approvedBy: text('approved_by'),
    /** Held by the apply running now; null when none runs. */
    lockToken: uuid('lock_token'),
    lockedAt: timestamp('locked_at', { withTimezone: true }),
    stepsTotal: integer('steps_total').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.manifestHash] })],
);

/** Each finished step of a manifest's apply: a re-apply skips them. */
export const manifestApplySteps = pgTable(
  'manifest_apply_steps',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    manifestHash: text('manifest_hash').notNull(),
    stepIndex: integer('step_index').notNull(),
    kind: text('kind').notNull(),
    target: text('target').notNull(),
    appliedAt: timestamp('applied_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.manifestHash, t.stepIndex] })],
);
