import {
  boolean,
  doublePrecision,
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
import { users } from '../accounts/schema.js';
import { tenants } from '../organizations/schema.js';

// The agent principal's tables (Part B 2.1, 2.2), owned by the agents module: only its stores query them.
// Row-level security is added by the migrator (every table with a `tenant_id`). Changes to `agents` and
// `agent_delegations` notify the auth-state channel (migration 0022), so per-node caches of an agent's
// governance state and authority are dropped on every node before a change is answered.

/** An AI agent: its credential (`agt_…`, only the SHA-256 stored), lifecycle and governance fields. */
export const agents = pgTable(
  'agents',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    /** SHA-256 (hex) of the current credential; the plaintext is shown once, at registration or rotation. */
    credentialHash: text('credential_hash').notNull().unique(),
    /** The credential's first characters (`agt_` and a few more), to recognise it in a list. */
    credentialPrefix: text('credential_prefix').notNull(),
    credentialIssuedAt: timestamp('credential_issued_at', { withTimezone: true }).notNull(),
    status: text('status', { enum: ['active', 'suspended', 'retired'] }).notNull(),
    oversightMode: text('oversight_mode', { enum: ['autonomous', 'supervised'] }).notNull(),
    /** 0-100: an action whose permission's risk is above it is refused. */
    riskCeiling: integer('risk_ceiling').notNull(),
    /** 0-1: an action stated with a lower `Agent-Confidence` (or none, while above 0) is refused. */
    confidenceFloor: doublePrecision('confidence_floor').notNull(),
    /** Writes per rolling hour before the blast-radius breaker engages; null: the plan's figure. */
    writeBudgetPerHour: integer('write_budget_per_hour'),
    killSwitchEngaged: boolean('kill_switch_engaged').notNull().default(false),
    killSwitchReason: text('kill_switch_reason'),
    /** Who engaged it: a person's id, or null when the blast-radius breaker or autonomy did. */
    killSwitchById: text('kill_switch_by_id'),
    killSwitchByType: text('kill_switch_by_type'),
    killSwitchAt: timestamp('kill_switch_at', { withTimezone: true }),
    /** Bumped by rotation and retirement: tokens minted under an older epoch are refused. */
    tokenEpoch: integer('token_epoch').notNull().default(0),
    createdByUserId: uuid('created_by_user_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
    suspendedAt: timestamp('suspended_at', { withTimezone: true }),
    retiredAt: timestamp('retired_at', { withTimezone: true }),
  },
  (t) => [index('agents_tenant').on(t.tenantId, t.createdAt)],
);

/** A person's grant of some of their own permissions to an agent, optionally time-boxed. */
export const agentDelegations = pgTable(
  'agent_delegations',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    agentId: uuid('agent_id')
      .notNull()
      .references(() => agents.id, { onDelete: 'cascade' }),
    delegatorUserId: uuid('delegator_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    permissions: jsonb('permissions').notNull().$type<string[]>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedReason: text('revoked_reason'),
  },
  (t) => [
    index('agent_delegations_agent').on(t.tenantId, t.agentId),
    index('agent_delegations_delegator').on(t.tenantId, t.delegatorUserId),
  ],
);

/**
 * A task token's scope and budget (Part B 4.1): the token names the task by id; each authorized request
 * spends one unit of `remaining` in one statement (`UPDATE … WHERE remaining > 0 RETURNING`).
 */
export const agentTasks = pgTable(
  'agent_tasks',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    agentId: uuid('agent_id')
      .notNull()
      .references(() => agents.id, { onDelete: 'cascade' }),
    task: text('task').notNull(),
    /** The concrete codes enforced (patterns expanded at mint). */
    permissions: jsonb('permissions').notNull().$type<string[]>(),
    budget: integer('budget').notNull(),
    remaining: integer('remaining').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('agent_tasks_agent').on(t.tenantId, t.agentId)],
);

/** A workload identity issuer an organization trusts for `POST /agents/token/federated` (Part B 2.2). */
export const agentIssuers = pgTable(
  'agent_issuers',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    /** Exact `iss` of the attestations. */
    issuer: text('issuer').notNull(),
    jwksUri: text('jwks_uri').notNull(),
    profile: text('profile', { enum: ['generic', 'github-actions', 'gitlab-ci', 'kubernetes'] }).notNull(),
    name: text('name'),
    enabled: boolean('enabled').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('agent_issuers_tenant_issuer').on(t.tenantId, t.issuer)],
);

/** Which attestations of an issuer stand for which agent: exact claim values, `sub` always among them. */
export const agentIssuerBindings = pgTable(
  'agent_issuer_bindings',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    issuerId: uuid('issuer_id')
      .notNull()
      .references(() => agentIssuers.id, { onDelete: 'cascade' }),
    agentId: uuid('agent_id')
      .notNull()
      .references(() => agents.id, { onDelete: 'cascade' }),
    claims: jsonb('claims').notNull().$type<Record<string, string>>(),
    /** Canonical JSON of `claims`: a duplicate claim set is refused (409). */
    claimsKey: text('claims_key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('agent_issuer_bindings_claims').on(t.issuerId, t.claimsKey)],
);

/** Attestation ids already exchanged (each `jti` once, across nodes); kept until the attestation expires. */
export const agentIssuerJtis = pgTable(
  'agent_issuer_jtis',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    issuerId: uuid('issuer_id')
      .notNull()
      .references(() => agentIssuers.id, { onDelete: 'cascade' }),
    jti: text('jti').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.issuerId, t.jti] })],
);
