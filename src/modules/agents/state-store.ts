import { and, eq, gt, isNull, or } from 'drizzle-orm';
import { permissionsOfRole } from '../../kernel/authz/catalog.js';
import { isPlanCode, PLANS, type PlanCode } from '../../kernel/authz/plans.js';
import type { Queryable } from '../../kernel/db/index.js';
import { operatorSettings } from '../operator-settings/index.js';
import { membershipStanding, tenantStanding } from '../organizations/index.js';
import { customRoleStanding } from '../roles/index.js';
import type { AgentState } from './model.js';
import { agentDelegations, agents, agentTasks } from './schema.js';

// The reads principal resolution and the token mint make of the agents module's tables, and the mint's one write
// (a task token's task). Memberships and the
// organization come through the organizations module's standing sub-selects (docs/decisions.md "Module
// boundaries"): still one statement each.

/** The operator setting read at mint (Part B 4.2): older credentials raise a detection, never a refusal. */
export const MAX_CREDENTIAL_AGE_SETTING = 'security.agent_max_credential_age_days' as const;

/**
 * What governance reads about an agent, plus when its authority next changes by itself (the earliest expiry of
 * a live delegation): a cached state is used only before that instant, so a time-boxed delegation ends on time.
 */
export interface LoadedAgentState extends AgentState {
  authorityChangesAt: Date | null;
  /** The organization awaits approval (Part B onboarding): the principal's `quarantined`. */
  quarantined: boolean;
}

/**
 * The agent's state and authority in one statement (Part B 4.1, 4.2): the union of its live delegations, each
 * bounded by its delegator's current permissions. An owner delegator keeps everything delegated; an active
 * member the part their role still holds; a suspended, removed or departed delegator nothing.
 */
export async function loadAgentState(
  q: Queryable,
  tenantId: string,
  agentId: string,
  now: Date,
): Promise<LoadedAgentState | undefined> {
  const organization = tenantStanding(q);
  const membership = membershipStanding(q);
  const customRole = customRoleStanding(q);
  const rows = await q
    .select({
      agentId: agents.id,
      tenantId: agents.tenantId,
      name: agents.name,
      status: agents.status,
      oversightMode: agents.oversightMode,
      riskCeiling: agents.riskCeiling,
      confidenceFloor: agents.confidenceFloor,
      writeBudgetPerHour: agents.writeBudgetPerHour,
      killSwitchEngaged: agents.killSwitchEngaged,
      killSwitchReason: agents.killSwitchReason,
      tokenEpoch: agents.tokenEpoch,
      credentialIssuedAt: agents.credentialIssuedAt,
      plan: organization.plan,
      quarantined: organization.quarantined,
      delegated: agentDelegations.permissions,
      delegationExpiresAt: agentDelegations.expiresAt,
      delegatorRole: membership.role,
      delegatorStatus: membership.status,
      delegatorCustomPermissions: customRole.permissions,
    })
    .from(agents)
    .innerJoin(organization, eq(organization.tenantId, agents.tenantId))
    .leftJoin(
      agentDelegations,
      and(
        eq(agentDelegations.tenantId, agents.tenantId),
        eq(agentDelegations.agentId, agents.id),
        isNull(agentDelegations.revokedAt),
        or(isNull(agentDelegations.expiresAt), gt(agentDelegations.expiresAt, now)),
      ),
    )
    .leftJoin(
      membership,
      and(eq(membership.tenantId, agentDelegations.tenantId), eq(membership.userId, agentDelegations.delegatorUserId)),
    )
    // A delegator holding a custom role is bounded by that role's current permissions (Part A 5.9).
    .leftJoin(customRole, and(eq(customRole.tenantId, membership.tenantId), eq(customRole.code, membership.role)))
    .where(and(eq(agents.tenantId, tenantId), eq(agents.id, agentId)));
  const [first] = rows;
  if (!first) return undefined;
  const authority = new Set<string>();
  let authorityChangesAt: Date | null = null;
  for (const row of rows) {
    if (!row.delegated || row.delegatorStatus !== 'active' || !row.delegatorRole) continue;
    const held = permissionsOfRole(row.delegatorRole, row.delegatorCustomPermissions);
    const isOwner = row.delegatorRole === 'owner';
    for (const code of row.delegated) if (isOwner || held.has(code)) authority.add(code);
    if (row.delegationExpiresAt && (!authorityChangesAt || row.delegationExpiresAt < authorityChangesAt)) {
      authorityChangesAt = row.delegationExpiresAt;
    }
  }
  const plan: PlanCode = isPlanCode(first.plan) ? first.plan : 'free';
  return {
    agentId: first.agentId,
    tenantId: first.tenantId,
    name: first.name,
    status: first.status,
    oversightMode: first.oversightMode,
    riskCeiling: first.riskCeiling,
    confidenceFloor: first.confidenceFloor,
    writeBudgetPerHour: first.writeBudgetPerHour ?? PLANS[plan].caps.agent_writes_per_hour,
    plan,
    quarantined: first.quarantined,
    killSwitchEngaged: first.killSwitchEngaged,
    killSwitchReason: first.killSwitchReason,
    tokenEpoch: first.tokenEpoch,
    credentialIssuedAt: first.credentialIssuedAt,
    authority,
    authorityChangesAt,
  };
}

/** Whose credential a hash is, with what the mint needs before the agent's state: one statement. */
export interface CredentialHolder {
  tenantId: string;
  agentId: string;
  credentialHash: string;
  credentialIssuedAt: Date;
  /** The stored operator setting, unvalidated (undefined: no row, the shipped default). */
  maxCredentialAgeDays: unknown;
}

export async function credentialHolder(q: Queryable, credentialHash: string): Promise<CredentialHolder | undefined> {
  const [row] = await q
    .select({
      tenantId: agents.tenantId,
      agentId: agents.id,
      credentialHash: agents.credentialHash,
      credentialIssuedAt: agents.credentialIssuedAt,
      maxCredentialAgeDays: operatorSettings.value,
    })
    .from(agents)
    .leftJoin(
      operatorSettings,
      and(eq(operatorSettings.tenantId, agents.tenantId), eq(operatorSettings.key, MAX_CREDENTIAL_AGE_SETTING)),
    )
    .where(eq(agents.credentialHash, credentialHash));
  if (!row) return undefined;
  return { ...row, maxCredentialAgeDays: row.maxCredentialAgeDays ?? undefined };
}

/** A task token's task (Part B 4.1): its scope and budget; governance spends `remaining` one unit at a time. */
export async function insertAgentTask(q: Queryable, row: typeof agentTasks.$inferInsert): Promise<void> {
  await q.insert(agentTasks).values(row);
}
