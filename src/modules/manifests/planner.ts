import { CATALOGUE_VERSION, isKnownPermission, isSystemRole, permissionsOfRole } from '../../kernel/authz/catalog.js';
import { planIncludes } from '../../kernel/authz/plans.js';
import type { Clock } from '../../kernel/clock.js';
import { sha256Hex } from '../../kernel/crypto/secrets.js';
import type { Queryable } from '../../kernel/db/index.js';
import { canonicalJson } from '../../kernel/events/canonical-json.js';
import { emailKeyOf } from '../accounts/index.js';
import { resourceByIdentifier } from '../oidc/index.js';
import { findCustomRole } from '../roles/index.js';
import { isScaffoldOf, oidcConnectionSummary, oidcScaffoldProblem } from '../sso/index.js';
import { declaredCodesOf, type Manifest, manifestHashOf } from './document.js';
import * as store from './store.js';

// The plan of a manifest (Part B 2.4, 4.6): what applying it would do to the organization as it is now, step by
// step, read-only. Version 1 never updates anything in place: an object that exists and differs is a conflict,
// one that exists identically is a no-op. The same plan is what an approval binds to (`plan_hash`) and what apply
// re-computes before it spends the approval.

export type StepKind = 'resource' | 'role' | 'invite' | 'sso';
export type Would = 'create' | 'noop' | 'conflict' | 'invalid';

export interface PlanStep {
  index: number;
  kind: StepKind;
  target: string;
  would: Would;
  /** What the step creates (or would have), plus `reason` when it cannot (`conflict`, `invalid`). */
  detail: Record<string, unknown>;
}

export interface ManifestPlan {
  manifest_hash: string;
  /** SHA-256 of the canonical JSON of `{manifest_hash, catalogue_version, steps}`. */
  plan_hash: string;
  catalogue_version: string;
  appliable: boolean;
  steps: PlanStep[];
  summary: { steps: number; create: number; noop: number; conflict: number; invalid: number };
  /** The exact permission codes the plan would mint into roles or invites (sorted). */
  grants: string[];
}

export interface PlannerDeps {
  clock: Clock;
  /** The permission catalogue's version; tests may replace it to see asks invalidated by a catalogue change. */
  catalogueVersion?: () => string;
}

/** Never counted as a grant: power over one's own record only (the members module's rule, `assertGrantable`). */
const isSelfOnly = (code: string) => code.startsWith('identity:self:');

export function createManifestPlanner(deps: PlannerDeps) {
  const catalogueVersion = () => deps.catalogueVersion?.() ?? CATALOGUE_VERSION;

  return {
    /** The plan of `manifest` (already parsed) against the organization's live state; reads only. */
    async plan(tx: Queryable, tenantId: string, manifest: Manifest): Promise<ManifestPlan> {
      const now = deps.clock.now();
      const steps: PlanStep[] = [];
      const add = (kind: StepKind, target: string, would: Would, detail: Record<string, unknown>, reason?: string) =>
        steps.push({ index: steps.length, kind, target, would, detail: reason ? { ...detail, reason } : detail });

      // Resources first: the codes they declare are grantable by the manifest's roles.
      const declared = new Set<string>();
      for (const binding of await store.bindings(tx, tenantId)) {
        for (const p of binding.permissions) declared.add(`${binding.namespace}:${p.action}`);
      }
      for (const resource of manifest.resources ?? []) {
        const codes = declaredCodesOf(resource);
        for (const code of codes) declared.add(code);
        const permissions = resource.permissions.map((p) => ({ action: p.action, risk: p.risk ?? null }));
        const detail = {
          oauth_resource_identifier: resource.oauth_resource_identifier,
          namespace: resource.namespace,
          permissions,
          codes,
        };
        const target = resource.oauth_resource_identifier;
        const found = await resourceByIdentifier(tx, tenantId, target);
        if (!found) {
          add(
            'resource',
            target,
            'invalid',
            detail,
            'no OAuth resource of the organization has this identifier: a manifest binds existing resources only (register it with POST /api/v1/oauth/resources)',
          );
          continue;
        }
        const bound = await store.bindingOfResource(tx, tenantId, found.id);
        const sameSpec = (row: store.BindingRow) =>
          row.namespace === resource.namespace &&
          canonicalJson(row.permissions.map((p) => ({ action: p.action, risk: p.risk ?? null }))) ===
            canonicalJson(permissions);
        if (bound) {
          if (sameSpec(bound)) add('resource', target, 'noop', detail);
          else
            add(
              'resource',
              target,
              'conflict',
              detail,
              `the resource is bound already, to namespace ${bound.namespace} with other permissions; manifests never update in place`,
            );
          continue;
        }
        const other = await store.bindingOfNamespace(tx, tenantId, resource.namespace);
        if (other) {
          add(
            'resource',
            target,
            'conflict',
            detail,
            `namespace ${resource.namespace} is bound already to ${other.identifier}`,
          );
          continue;
        }
        add('resource', target, 'create', detail);
      }

      // Roles: custom roles, created whole or not at all.
      const manifestRoles = new Map<string, string[]>();
      for (const role of manifest.roles ?? []) {
        const permissions = [...role.permissions].sort();
        manifestRoles.set(role.code, permissions);
        const detail = { code: role.code, name: role.name, permissions };
        const unknown = permissions.filter((code) => !isKnownPermission(code) && !declared.has(code));
        if (unknown.length > 0) {
          add(
            'role',
            role.code,
            'invalid',
            detail,
            `unknown permission codes: ${unknown.join(', ')} (neither in the catalogue nor declared by a bound or manifest resource)`,
          );
          continue;
        }
        const existing = await findCustomRole(tx, tenantId, role.code);
        if (existing) {
          const same =
            existing.name === role.name &&
            canonicalJson([...existing.permissions].sort()) === canonicalJson(permissions);
          if (same) add('role', role.code, 'noop', detail);
          else
            add(
              'role',
              role.code,
              'conflict',
              detail,
              `the organization has a custom role ${role.code} with another name or other permissions; manifests never update in place`,
            );
          continue;
        }
        add('role', role.code, 'create', detail);
      }

      /** The permissions of a role an invite or the SSO default names, or null when no such role exists. */
      const roleGrants = async (code: string): Promise<string[] | null> => {
        if (isSystemRole(code)) return [...permissionsOfRole(code)].filter((c) => !isSelfOnly(c)).sort();
        const fromManifest = manifestRoles.get(code);
        if (fromManifest) return fromManifest.filter((c) => !isSelfOnly(c));
        const existing = await findCustomRole(tx, tenantId, code);
        return existing ? [...existing.permissions].filter((c) => !isSelfOnly(c)).sort() : null;
      };
      const unknownRole = (code: string) =>
        `role ${code} is neither a system role nor a custom role of the organization or of this manifest`;

      const grants = new Set<string>();
      for (const step of steps) {
        if (step.kind === 'role' && step.would === 'create') {
          for (const code of step.detail.permissions as string[]) if (!isSelfOnly(code)) grants.add(code);
        }
      }

      for (const invite of manifest.invites ?? []) {
        const emailKey = emailKeyOf(invite.email);
        const detail = { email: invite.email, role: invite.role };
        const rolePermissions = await roleGrants(invite.role);
        if (!rolePermissions) {
          add('invite', invite.email, 'invalid', detail, unknownRole(invite.role));
          continue;
        }
        const member = await store.membershipByEmailKey(tx, tenantId, emailKey);
        if (member && member.status !== 'removed') {
          if (member.role === invite.role) add('invite', invite.email, 'noop', detail);
          else
            add('invite', invite.email, 'conflict', detail, `already a member of the organization, as ${member.role}`);
          continue;
        }
        const pending = await store.liveInvitation(tx, tenantId, emailKey, now);
        if (pending) {
          if (pending.role === invite.role) add('invite', invite.email, 'noop', detail);
          else
            add(
              'invite',
              invite.email,
              'conflict',
              detail,
              `a pending invitation of this address names role ${pending.role}; manifests never update in place`,
            );
          continue;
        }
        add('invite', invite.email, 'create', detail);
        for (const code of rolePermissions) grants.add(code);
      }

      if (manifest.sso) {
        const sso = manifest.sso;
        const wanted = {
          display_name: sso.display_name,
          issuer: sso.issuer,
          client_id: sso.client_id,
          default_role: sso.default_role ?? null,
        };
        const detail = { ...wanted, enabled: false };
        const defaultGrants = sso.default_role ? await roleGrants(sso.default_role) : [];
        // The SSO module's own rules (the issuer rule of PUT /tenants/sso/oidc, client id syntax).
        const problem = oidcScaffoldProblem(wanted);
        const connection = await oidcConnectionSummary(tx, tenantId);
        if (!defaultGrants) add('sso', sso.issuer, 'invalid', detail, unknownRole(sso.default_role ?? ''));
        else if (problem) add('sso', sso.issuer, 'invalid', detail, problem);
        else if (!planIncludes(await store.planCodeOf(tx, tenantId), 'enterprise_sso')) {
          add('sso', sso.issuer, 'invalid', detail, "Enterprise SSO is not included in the organization's plan");
        } else if (connection) {
          // The same four fields: the same connection (whether an admin gave it its secret since or not).
          if (isScaffoldOf(connection, wanted)) add('sso', sso.issuer, 'noop', detail);
          else
            add(
              'sso',
              sso.issuer,
              'conflict',
              detail,
              `the organization has another SSO connection already (${connection.issuer}, client ${connection.client_id}); manifests never update in place`,
            );
        } else {
          add('sso', sso.issuer, 'create', detail);
          for (const code of defaultGrants) grants.add(code);
        }
      }

      const manifestHash = manifestHashOf(manifest);
      const version = catalogueVersion();
      const count = (would: Would) => steps.filter((s) => s.would === would).length;
      const summary = {
        steps: steps.length,
        create: count('create'),
        noop: count('noop'),
        conflict: count('conflict'),
        invalid: count('invalid'),
      };
      return {
        manifest_hash: manifestHash,
        plan_hash: sha256Hex(canonicalJson({ manifest_hash: manifestHash, catalogue_version: version, steps })),
        catalogue_version: version,
        appliable: summary.conflict === 0 && summary.invalid === 0,
        steps,
        summary,
        grants: [...grants].sort(),
      };
    },
  };
}

export type ManifestPlanner = ReturnType<typeof createManifestPlanner>;

/** The steps that stop an apply (409 `blockers`): conflicts and invalid steps. */
export const blockersOf = (plan: Pick<ManifestPlan, 'steps'>) =>
  plan.steps
    .filter((s) => s.would === 'conflict' || s.would === 'invalid')
    .map((s) => ({
      index: s.index,
      kind: s.kind,
      target: s.target,
      would: s.would,
      reason: String(s.detail.reason ?? ''),
    }));
