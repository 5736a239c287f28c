import type { Principal } from '../../kernel/auth/index.js';
import type { Tx } from '../../kernel/db/index.js';
import { conflict } from '../../kernel/http/index.js';
import { resourceByIdentifier } from '../oidc/index.js';
import { findCustomRole, insertCustomRole } from '../roles/index.js';
import { scaffoldOidcConnection } from '../sso/index.js';
import type { ManifestsDeps } from './deps.js';
import type { PlanStep } from './planner.js';
import * as store from './store.js';

// What each kind of step does (Part B 2.4). Each runs in its own transaction with its audit event, whose
// `correlation_id` is the manifest hash, and records itself as finished in the same transaction, so a re-apply
// skips it. Invitations are the members module's own (its rules, its transaction), recorded right after.

export interface StepContext {
  tenantId: string;
  manifestHash: string;
  /** Who applies (the audited actor) under the approving person's authority (what the members module checks). */
  principal: Principal;
}

type StepResult = Record<string, unknown>;

export function createStepRunner(deps: ManifestsDeps) {
  const { transactions, events, clock } = deps;

  /** The step's audit event and its finished mark, in `tx`. */
  async function finish(tx: Tx, ctx: StepContext, step: PlanStep, result: StepResult): Promise<void> {
    await store.recordStep(tx, {
      tenantId: ctx.tenantId,
      manifestHash: ctx.manifestHash,
      stepIndex: step.index,
      kind: step.kind,
      target: step.target,
      appliedAt: clock.now(),
    });
    await events.emit(tx, {
      tenantId: ctx.tenantId,
      actor: ctx.principal.actor,
      category: 'admin',
      action: 'manifest.step_applied',
      correlationId: ctx.manifestHash,
      data: {
        manifest_hash: ctx.manifestHash,
        index: step.index,
        kind: step.kind,
        target: step.target,
        detail: step.detail,
        ...result,
      },
    });
  }

  const inTenant = <T>(ctx: StepContext, work: (tx: Tx) => Promise<T>) => transactions.tenant(ctx.tenantId, work);

  const run: Record<PlanStep['kind'], (ctx: StepContext, step: PlanStep) => Promise<void>> = {
    resource: (ctx, step) =>
      inTenant(ctx, async (tx) => {
        const detail = step.detail as {
          oauth_resource_identifier: string;
          namespace: string;
          permissions: Array<{ action: string; risk: number | null }>;
        };
        const found = await resourceByIdentifier(tx, ctx.tenantId, detail.oauth_resource_identifier);
        if (!found) throw conflict(`OAuth resource ${detail.oauth_resource_identifier} no longer exists`);
        const inserted = await store.insertBinding(tx, {
          tenantId: ctx.tenantId,
          resourceId: found.id,
          identifier: found.identifier,
          namespace: detail.namespace,
          permissions: detail.permissions.map((p) => (p.risk === null ? { action: p.action } : p)) as Array<{
            action: string;
            risk?: number;
          }>,
          manifestHash: ctx.manifestHash,
          createdAt: clock.now(),
        });
        if (!inserted) throw conflict(`The resource or namespace ${detail.namespace} was bound meanwhile`);
        await finish(tx, ctx, step, { resource_id: found.id });
      }),

    role: (ctx, step) =>
      inTenant(ctx, async (tx) => {
        const detail = step.detail as { code: string; name: string; permissions: string[] };
        if (await findCustomRole(tx, ctx.tenantId, detail.code, { lock: 'update' })) {
          throw conflict(`A custom role ${detail.code} was created meanwhile`);
        }
        await insertCustomRole(tx, ctx.tenantId, { ...detail, description: null }, clock.now());
        await finish(tx, ctx, step, {});
      }),

    invite: async (ctx, step) => {
      const detail = step.detail as { email: string; role: string };
      const invite = await deps.members.invitations.create(ctx.principal, detail);
      await inTenant(ctx, (tx) => finish(tx, ctx, step, { invite_id: invite.invite_id }));
    },

    sso: (ctx, step) =>
      inTenant(ctx, async (tx) => {
        const detail = step.detail as {
          display_name: string;
          issuer: string;
          client_id: string;
          default_role: string | null;
        };
        // The SSO module's connection, disabled and without a secret, recorded as its changes are (detection,
        // owners' mail); 409 when the organization got a connection meanwhile.
        await scaffoldOidcConnection(tx, deps, ctx.principal, {
          display_name: detail.display_name,
          issuer: detail.issuer,
          client_id: detail.client_id,
          default_role: detail.default_role,
          manifestHash: ctx.manifestHash,
        });
        await finish(tx, ctx, step, { enabled: false });
      }),
  };

  return { run: (ctx: StepContext, step: PlanStep) => run[step.kind](ctx, step) };
}
