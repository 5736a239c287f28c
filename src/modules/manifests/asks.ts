import { actionFingerprint } from '../../kernel/authz/fingerprint.js';
import type { Clock } from '../../kernel/clock.js';
import type { Tx } from '../../kernel/db/index.js';
import type { Actor, Events } from '../../kernel/events/index.js';
import { newId } from '../../kernel/ids.js';
import {
  APPROVAL_TTL_MS,
  approvalStatus,
  insertAsk,
  insertDecision,
  liveManifestAsks,
  requiredApprovalsFor,
} from '../approvals/index.js';
import { type Manifest, parseManifest } from './document.js';
import { createManifestPlanner, type ManifestPlan } from './planner.js';
import * as store from './store.js';

// Manifest asks (Part B 2.3, 3 "Manifest ask"): approval requests with `resource_type` manifest, bound to the
// manifest's content (the fingerprint of the apply it allows), the resolved plan's hash and the catalogue version.
// They are listed and decided by the approvals module like every other ask; apply spends them.

/** The permission an approver of a manifest ask must hold besides `agents:approvals:decide`. */
export const APPLY_PERMISSION = 'manifest:apply';
export const MANIFEST_RESOURCE_TYPE = 'manifest';
export const APPLY_ROUTE = '/api/v1/manifest/apply';

/**
 * What a manifest ask binds to (ARCHITECTURE.md "One action fingerprint"): the apply of exactly this document,
 * `{method: POST, route: /api/v1/manifest/apply, params: {}, body: {manifest}}`, so key order never matters.
 */
export const manifestFingerprint = (manifest: Manifest) =>
  actionFingerprint({ method: 'POST', route: APPLY_ROUTE, params: {}, body: { manifest } });

/** The `resource` detail of a manifest ask (Part B 2.3). */
export interface ManifestAskResource {
  manifest_hash: string;
  plan_hash: string;
  catalogue_version: string;
  appliable: boolean;
  steps: Array<{ index: number; kind: string; target: string; would: string; detail: Record<string, unknown> }>;
  grants: string[];
}

export const askResourceOf = (plan: ManifestPlan): ManifestAskResource => ({
  manifest_hash: plan.manifest_hash,
  plan_hash: plan.plan_hash,
  catalogue_version: plan.catalogue_version,
  appliable: plan.appliable,
  steps: plan.steps.map((s) => ({ index: s.index, kind: s.kind, target: s.target, would: s.would, detail: s.detail })),
  grants: plan.grants,
});

export const resourceOfAsk = (row: store.AskRow) => (row.resource ?? {}) as unknown as ManifestAskResource;

/** Whether an ask still covers `plan`: same resolved plan, same catalogue (Part B 3, 9.4). */
export const askCovers = (row: store.AskRow, plan: ManifestPlan) => {
  const resource = resourceOfAsk(row);
  return resource.plan_hash === plan.plan_hash && resource.catalogue_version === plan.catalogue_version;
};

export interface NewManifestAsk {
  tenantId: string;
  agentId: string | null;
  requester: Actor;
  plan: ManifestPlan;
  fingerprint: string;
  justification: string | null;
  now: Date;
  /** Set when the ask is recorded already approved by this person (onboarding's pre-approval). */
  approvedBy?: string;
}

/** Inserts a manifest ask and its events in the caller's transaction; answers its id. */
export async function insertManifestAsk(tx: Tx, events: Events, ask: NewManifestAsk): Promise<string> {
  const id = newId();
  const { tenantId, plan, now, approvedBy } = ask;
  const requiredApprovals = requiredApprovalsFor(APPLY_PERMISSION);
  await insertAsk(tx, {
    id,
    tenantId,
    agentId: ask.agentId,
    status: approvedBy ? 'approved' : 'pending',
    resourceType: MANIFEST_RESOURCE_TYPE,
    fingerprint: ask.fingerprint,
    resource: askResourceOf(plan) as unknown as Record<string, unknown>,
    requiredPermission: APPLY_PERMISSION,
    requiredApprovals,
    approvalsRecorded: approvedBy ? requiredApprovals : 0,
    justification: ask.justification,
    requestedBy: ask.requester.id,
    createdAt: now,
    expiresAt: new Date(now.getTime() + APPROVAL_TTL_MS),
    ...(approvedBy ? { decidedAt: now, decidedBy: approvedBy } : {}),
  });
  const data = {
    approval_request_id: id,
    agent_id: ask.agentId,
    resource_type: MANIFEST_RESOURCE_TYPE,
    manifest_hash: plan.manifest_hash,
    plan_hash: plan.plan_hash,
    catalogue_version: plan.catalogue_version,
    required_permission: APPLY_PERMISSION,
    required_approvals: requiredApprovals,
    fingerprint: ask.fingerprint,
  };
  await events.emit(tx, {
    tenantId,
    actor: ask.requester,
    category: 'agent',
    action: 'approval.requested',
    correlationId: plan.manifest_hash,
    data,
  });
  if (approvedBy) {
    await insertDecision(tx, {
      id: newId(),
      tenantId,
      approvalRequestId: id,
      decidedBy: approvedBy,
      approve: true,
      reason: 'Approved with the plan shown at onboarding',
      breakGlass: false,
      decidedAt: now,
    });
    await events.emit(tx, {
      tenantId,
      actor: { id: approvedBy, type: 'human' },
      category: 'agent',
      action: 'approval.approved',
      correlationId: plan.manifest_hash,
      data: { ...data, approver: approvedBy, approve: true, status: 'approved', approvals_recorded: requiredApprovals },
    });
  }
  return id;
}

/**
 * The live ask of `requester` that covers `plan` (pending or approved, unexpired, same plan and catalogue), if any:
 * an identical repeat of request-approval answers it instead of adding another.
 */
export async function coveringLiveAsk(
  tx: Tx,
  tenantId: string,
  fingerprint: string,
  requester: string,
  plan: ManifestPlan,
  now: Date,
): Promise<store.AskRow | undefined> {
  const live = await liveManifestAsks(tx, tenantId, fingerprint, requester, now);
  return live.find((row) => askCovers(row, plan) && approvalStatus(row, now) !== 'expired');
}

type AskDeps = { events: Events; clock: Clock; catalogueVersion?: () => string };
let appAskDeps: AskDeps | undefined;

/** The app's events and clock, for callers of `recordApprovedManifestAsk` that pass none (set when the app is built). */
export function useAppAskDeps(deps: AskDeps): void {
  appAskDeps = deps;
}

/**
 * Onboarding's pre-approval (ARCHITECTURE.md interfaces): the person who approved the onboarding, having seen the
 * plan whose hash is `planHash`, approves the agent's manifest in the same transaction. The ask is bound exactly as
 * request-approval binds it (content, resolved plan, catalogue version) and already approved by that person; null
 * when the document is not a valid manifest or the plan moved (the agent then asks through the ordinary queue).
 */
export async function recordApprovedManifestAsk(
  tx: Tx,
  input: { tenantId: string; agentId: string; approverUserId: string; manifest: unknown; planHash: string },
  given?: AskDeps,
): Promise<string | null> {
  const deps = given ?? appAskDeps;
  if (!deps) throw new Error('recordApprovedManifestAsk: no app built yet (pass its events and clock)');
  const parsed = parseManifest(input.manifest);
  if (!parsed.ok) return null;
  const plan = await createManifestPlanner(deps).plan(tx, input.tenantId, parsed.manifest);
  if (plan.plan_hash !== input.planHash) return null;
  const fingerprint = manifestFingerprint(parsed.manifest);
  await store.lockAsks(tx, input.tenantId, fingerprint);
  return insertManifestAsk(tx, deps.events, {
    tenantId: input.tenantId,
    agentId: input.agentId,
    requester: { id: input.agentId, type: 'agent' },
    plan,
    fingerprint,
    justification: 'Manifest reviewed and approved during onboarding',
    now: deps.clock.now(),
    approvedBy: input.approverUserId,
  });
}
