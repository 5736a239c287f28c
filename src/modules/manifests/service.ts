import type { Principal } from '../../kernel/auth/index.js';
import { CATALOGUE_VERSION, isSystemRole, permissionsOfRole } from '../../kernel/authz/catalog.js';
import { minutes } from '../../kernel/clock.js';
import type { Queryable, Tx } from '../../kernel/db/index.js';
import { canonicalJson } from '../../kernel/events/canonical-json.js';
import { HttpError, unprocessable } from '../../kernel/http/index.js';
import { newId } from '../../kernel/ids.js';
import { approvalStatus, askById, consumeApproved, decisionsOn, newestManifestAsk } from '../approvals/index.js';
import { findCustomRole } from '../roles/index.js';
import { askCovers, coveringLiveAsk, insertManifestAsk, manifestFingerprint, resourceOfAsk } from './asks.js';
import type { ManifestsDeps } from './deps.js';
import { type Manifest, manifestHashOf, parseManifest } from './document.js';
import { blockersOf, createManifestPlanner, type ManifestPlan, type PlanStep } from './planner.js';
import { createStepRunner } from './steps.js';
import * as store from './store.js';

// Manifests over HTTP (Part B 4.6): plan, request-approval, apply. The rules of the document are document.ts's,
// those of the plan planner.ts's, the asks' asks.ts's; here is the order apply checks things in (409 before
// anything is spent, 403 without spending) and the run of its steps.

/** An apply that stopped answering holds its manifest's lock at most this long. */
export const APPLY_LOCK_STALE_MS = minutes(5);

/** How a 403 of apply tells its causes apart (Part B 4.6, 7). */
export type ApprovalRefusal = 'no-approval' | 'plan-changed' | 'approver-authority';

const refuse = (state: ApprovalRefusal, detail: string, extra: Record<string, unknown> = {}) =>
  new HttpError(403, detail, {}, { approval_state: state, ...extra });

/** The envelope `{"manifest": {...}}` and the document in it, or 422 naming what is wrong. */
export function manifestOfEnvelope(body: unknown): Manifest {
  const envelope = (body ?? {}) as Record<string, unknown>;
  if (!('manifest' in envelope)) {
    const keys = Object.keys(envelope);
    throw unprocessable(
      keys.length > 0
        ? `manifest: is required: post the document inside the envelope {"manifest": {...}}; a document at the top level is refused (found ${keys.join(', ')})`
        : 'manifest: is required: the body is the envelope {"manifest": {...}}',
    );
  }
  const extra = Object.keys(envelope).filter((key) => key !== 'manifest');
  if (extra.length > 0) {
    throw unprocessable(`${extra[0]}: unknown key: the body is the envelope {"manifest": {...}} and nothing else`);
  }
  const parsed = parseManifest(envelope.manifest);
  if (!parsed.ok) throw new HttpError(422, parsed.errors.join('; '), {}, { errors: parsed.errors });
  return parsed.manifest;
}

/** The task text of an agent's task token: shown to approvers as the justification. */
const taskTextOf = (principal: Principal): string | null => {
  const task = principal.attributes.task as { task?: unknown } | undefined;
  return typeof task?.task === 'string' ? task.task : null;
};

const planView = (plan: ManifestPlan) => ({
  manifest_hash: plan.manifest_hash,
  plan_hash: plan.plan_hash,
  catalogue_version: plan.catalogue_version,
  appliable: plan.appliable,
  steps: plan.steps,
  summary: plan.summary,
  grants: plan.grants,
});

export function createManifestService(deps: ManifestsDeps) {
  const { transactions, events, clock } = deps;
  const testing = deps.config.env === 'test';
  const hooks = () => (testing ? deps.testHooks : {});
  const catalogueVersion = () => hooks().catalogueVersion?.() ?? CATALOGUE_VERSION;
  const planner = createManifestPlanner({ clock, catalogueVersion });
  const steps = createStepRunner(deps);

  /** A person's permissions in the organization now (owner: every one), or null when not an active member. */
  async function authorityOf(q: Queryable, tenantId: string, userId: string) {
    const role = await store.activeRoleOf(q, tenantId, userId);
    if (!role) return null;
    if (role === 'owner') return { isOwner: true, permissions: new Set<string>() };
    if (isSystemRole(role)) return { isOwner: false, permissions: new Set(permissionsOfRole(role)) };
    const custom = await findCustomRole(q, tenantId, role);
    return { isOwner: false, permissions: new Set([...permissionsOfRole('member'), ...(custom?.permissions ?? [])]) };
  }

  /** The permissions of `grants` some approving person of the ask does not hold now, by person. */
  async function missingAuthority(tx: Tx, tenantId: string, askId: string, grants: string[]) {
    const approvers = (await decisionsOn(tx, tenantId, askId)).filter((d) => d.approve).map((d) => d.decidedBy);
    for (const userId of approvers) {
      const authority = await authorityOf(tx, tenantId, userId);
      const missing = authority?.isOwner ? [] : grants.filter((code) => !authority?.permissions.has(code));
      if (missing.length > 0) return { userId, missing };
    }
    return null;
  }

  /** The approving person's authority as a principal, acting as the applier (what the invitation service checks). */
  async function applyingPrincipal(tx: Tx, principal: Principal, approvedBy: string): Promise<Principal> {
    const authority = await authorityOf(tx, principal.tenantId, approvedBy);
    return {
      kind: 'user',
      tenantId: principal.tenantId,
      userId: approvedBy,
      permissions: authority?.permissions ?? new Set(),
      isOwner: authority?.isOwner ?? false,
      population: 'workforce',
      quarantined: false,
      actor: principal.actor,
      attributes: {},
    };
  }

  const answer = (row: store.ApplyRow, resumed: boolean, applied: number, skipped: number) => ({
    manifest_hash: row.manifestHash,
    approval_id: row.approvalId,
    approved_by: row.approvedBy,
    resumed,
    applied,
    skipped,
  });

  return {
    planner,
    catalogueVersion,

    /** `POST /manifest/plan`: read-only. */
    async plan(principal: Principal, body: unknown) {
      const manifest = manifestOfEnvelope(body);
      return planView(
        await transactions.tenantRead(principal.tenantId, (tx) => planner.plan(tx, principal.tenantId, manifest)),
      );
    },

    /**
     * `POST /manifest/request-approval`: a pending ask bound to the content, the resolved plan and the catalogue
     * version; the caller's identical live ask is answered again (`created` false).
     */
    async requestApproval(principal: Principal, body: unknown) {
      const manifest = manifestOfEnvelope(body);
      const { tenantId } = principal;
      const fingerprint = manifestFingerprint(manifest);
      return transactions.tenant(tenantId, async (tx) => {
        await store.lockAsks(tx, tenantId, fingerprint);
        const now = clock.now();
        const plan = await planner.plan(tx, tenantId, manifest);
        const live = await coveringLiveAsk(tx, tenantId, fingerprint, principal.actor.id, plan, now);
        const approvalId =
          live?.id ??
          (await insertManifestAsk(tx, events, {
            tenantId,
            agentId: principal.kind === 'agent' ? (principal.agentId ?? null) : null,
            requester: principal.actor,
            plan,
            fingerprint,
            justification: taskTextOf(principal),
            now,
          }));
        return {
          manifest_hash: plan.manifest_hash,
          approval_id: approvalId,
          approval_status: live ? approvalStatus(live, now) : ('pending' as const),
          created: !live,
          appliable: plan.appliable,
        };
      });
    },

    /**
     * `POST /manifest/apply`. In order: an applied manifest answers `resumed: true, applied: 0`; another apply of it
     * running is 409; conflicts or invalid steps are 409 `blockers`; then 403 without spending: no approved ask of
     * the caller, nor a stopped apply the caller started (`no-approval`), an ask bound to another plan or catalogue
     * (`plan-changed`), an approver lacking a permission the manifest mints (`approver-authority`). Then the approval is spent and each step runs in its own
     * audited transaction; a failing step answers 502 and the next apply resumes after the finished ones.
     */
    async apply(principal: Principal, body: unknown) {
      const manifest = manifestOfEnvelope(body);
      const { tenantId } = principal;
      const fingerprint = manifestFingerprint(manifest);
      const manifestHash = manifestHashOf(manifest);
      const done = await transactions.tenant(tenantId, (tx) => store.applyOf(tx, tenantId, manifestHash));
      if (done?.status === 'applied') return answer(done, true, 0, done.stepsTotal);

      const token = newId();
      const claimed = await transactions.tenant(tenantId, (tx) => {
        const now = clock.now();
        return store.claimApply(tx, {
          tenantId,
          manifestHash,
          token,
          now,
          staleBefore: new Date(now.getTime() - APPLY_LOCK_STALE_MS),
        });
      });
      if (!claimed) {
        throw new HttpError(
          409,
          'Another apply of this manifest is running: try again once it has finished',
          {},
          {
            blockers: [
              { index: null, kind: 'apply', target: manifestHash, would: 'conflict', reason: 'concurrent apply' },
            ],
          },
        );
      }
      const release = (set: Parameters<typeof store.releaseApply>[4] = {}) =>
        transactions.tenant(tenantId, (tx) => store.releaseApply(tx, tenantId, manifestHash, token, set));
      try {
        if (claimed.status === 'applied') {
          await release();
          return answer(claimed, true, 0, claimed.stepsTotal);
        }
        const resumed = claimed.status === 'partial';
        // The checks and the spend, in one transaction: nothing is spent unless every check passed.
        const start = await transactions.tenant(tenantId, async (tx) => {
          const now = clock.now();
          const plan = await planner.plan(tx, tenantId, manifest);
          const finished = await store.finishedSteps(tx, tenantId, manifestHash);
          const blockers = blockersOf({ steps: plan.steps.filter((s) => !finished.has(s.index)) });
          if (blockers.length > 0) {
            throw new HttpError(
              409,
              `The manifest cannot be applied: ${blockers.map((b) => `step ${b.index} (${b.kind} ${b.target}): ${b.reason}`).join('; ')}`,
              {},
              { blockers },
            );
          }
          if (resumed) {
            const ask = await askById(tx, tenantId, claimed.approvalId!);
            const approved = ask ? resourceOfAsk(ask) : undefined;
            if (!ask || !approved) throw refuse('no-approval', 'The approval this apply spent is gone');
            // The spent ask is its requester's, like an unspent one: nobody else finishes an apply they never asked
            // for (another agent of the organization would run the remaining steps as itself).
            if ((ask.requestedBy ?? ask.agentId) !== principal.actor.id) {
              throw refuse(
                'no-approval',
                'No approval of yours covers this manifest: its apply was started under another requester’s approval',
                { approval_id: null, approval_status: 'none' },
              );
            }
            if (
              approved.catalogue_version !== plan.catalogue_version ||
              !stillTheApprovedPlan(approved.steps, plan.steps, finished)
            ) {
              throw refuse(
                'plan-changed',
                'The manifest would now do something else than what was approved: ask for approval again',
                { approval_id: ask.id },
              );
            }
            const short = await missingAuthority(tx, tenantId, ask.id, approved.grants);
            if (short) throw authorityRefusal(short, ask.id);
            return { plan, finished, approvalId: ask.id, approvedBy: claimed.approvedBy! };
          }
          const ask = await newestManifestAsk(tx, tenantId, fingerprint, principal.actor.id);
          const status = ask ? approvalStatus(ask, now) : null;
          if (!ask || status !== 'approved') {
            throw refuse(
              'no-approval',
              ask
                ? `No approval covers this manifest: your ask ${ask.id} is ${status}`
                : 'No approval covers this manifest: ask for one with POST /api/v1/manifest/request-approval',
              { approval_id: ask?.id ?? null, approval_status: status ?? 'none' },
            );
          }
          if (!askCovers(ask, plan)) {
            throw refuse(
              'plan-changed',
              'The manifest would now do something else than what was approved (the organization or the permission catalogue changed): ask for approval again',
              { approval_id: ask.id },
            );
          }
          const short = await missingAuthority(tx, tenantId, ask.id, resourceOfAsk(ask).grants);
          if (short) throw authorityRefusal(short, ask.id);
          if (!(await consumeApproved(tx, tenantId, ask.id, now))) {
            throw refuse('no-approval', 'The approval was spent or withdrawn meanwhile', { approval_id: ask.id });
          }
          const approvedBy = ask.decidedBy ?? '';
          await events.emit(tx, {
            tenantId,
            actor: principal.actor,
            category: 'agent',
            action: 'approval.consumed',
            correlationId: manifestHash,
            data: { approval_request_id: ask.id, agent_id: ask.agentId, fingerprint, manifest_hash: manifestHash },
          });
          await store.updateApply(tx, tenantId, manifestHash, {
            status: 'partial',
            approvalId: ask.id,
            approvedBy,
            stepsTotal: plan.steps.length,
          });
          return { plan, finished, approvalId: ask.id, approvedBy };
        });

        const actingAs = await transactions.tenant(tenantId, (tx) =>
          applyingPrincipal(tx, principal, start.approvedBy),
        );
        const ctx = { tenantId, manifestHash, principal: actingAs };
        let applied = 0;
        let skipped = 0;
        for (const step of start.plan.steps) {
          if (start.finished.has(step.index) || step.would !== 'create') {
            skipped += 1;
            continue;
          }
          try {
            await hooks().beforeStep?.(step);
            await steps.run(ctx, step);
          } catch (error) {
            const reason = error instanceof HttpError ? error.detail : 'internal error';
            await transactions.tenant(tenantId, (tx) =>
              events.emit(tx, {
                tenantId,
                actor: principal.actor,
                category: 'admin',
                action: 'manifest.step_failed',
                severity: 'warn',
                outcome: 'failure',
                correlationId: manifestHash,
                data: { manifest_hash: manifestHash, index: step.index, kind: step.kind, target: step.target, reason },
              }),
            );
            await release();
            throw new HttpError(
              502,
              `Step ${step.index} (${step.kind} ${step.target}) failed: ${reason}. ${applied} step(s) applied; apply again to resume after the finished steps`,
              {},
              { manifest_hash: manifestHash, approval_id: start.approvalId, failed_step: step.index, applied },
            );
          }
          applied += 1;
        }
        const finishedAt = clock.now();
        await transactions.tenant(tenantId, async (tx) => {
          await store.releaseApply(tx, tenantId, manifestHash, token, { status: 'applied', finishedAt });
          await events.emit(tx, {
            tenantId,
            actor: principal.actor,
            category: 'admin',
            action: 'manifest.applied',
            correlationId: manifestHash,
            data: {
              manifest_hash: manifestHash,
              approval_id: start.approvalId,
              approved_by: start.approvedBy,
              resumed,
              applied,
              skipped,
            },
          });
        });
        return {
          manifest_hash: manifestHash,
          approval_id: start.approvalId,
          approved_by: start.approvedBy,
          resumed,
          applied,
          skipped,
        };
      } catch (error) {
        if (!(error instanceof HttpError && error.status === 502)) await release();
        throw error;
      }
    },
  };
}

/** 403 `approver-authority`, naming the person and the permissions they lack. */
function authorityRefusal(short: { userId: string; missing: string[] }, approvalId: string) {
  return refuse(
    'approver-authority',
    `The approving person (${short.userId}) does not hold ${short.missing.join(', ')}, which the manifest would grant: ask someone who holds them to approve`,
    { approval_id: approvalId, missing: short.missing },
  );
}

/**
 * On resume: whether every step the approval allowed to create and not finished yet still resolves as approved
 * (a step our own earlier run finished before it could record itself now reads `noop`, and is skipped).
 */
function stillTheApprovedPlan(
  approved: Array<{ index: number; would: string; detail: Record<string, unknown> }>,
  current: PlanStep[],
  finished: Set<number>,
): boolean {
  if (approved.length !== current.length) return false;
  return approved.every((step) => {
    if (finished.has(step.index) || step.would !== 'create') return true;
    const now = current[step.index];
    return (
      now !== undefined &&
      (now.would === 'create' || now.would === 'noop') &&
      canonicalJson(now.detail) === canonicalJson(step.detail)
    );
  });
}

export type ManifestService = ReturnType<typeof createManifestService>;
