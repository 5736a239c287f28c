import type { Principal } from '../../kernel/auth/index.js';
import { isPlanCode, PLANS } from '../../kernel/authz/plans.js';
import type { Tx } from '../../kernel/db/index.js';
import { badRequest, decodeCursor, forbidden, notFound, pageOf, unprocessable } from '../../kernel/http/index.js';
import {
  isOperatorSettingKey,
  OPERATOR_SETTINGS,
  type OperatorSettingKey,
  operatorSettingValue,
  storedOperatorSettings,
  writeOperatorSetting,
} from '../operator-settings/index.js';
import { listTenants, setTenantPlan, type TenantListRow, tenantListRowById } from '../organizations/index.js';
import type { PricingContent } from '../pricing/index.js';
import { SETTINGS } from '../settings/index.js';
import type { OperatorDeps } from './deps.js';

const TIERS = Object.keys(PLANS).join(', ');

/** 422 naming the field when a plan code is not one of the entitlement tiers (Part B 4.10, 7). */
export function assertPlanCode(code: string, field: string): void {
  if (!isPlanCode(code))
    throw unprocessable(`${field}: unknown plan_code "${code}"; the entitlement tiers are ${TIERS}`);
}

const tenantView = (row: TenantListRow) => ({
  id: row.id,
  slug: row.slug,
  name: row.name,
  plan_code: row.plan,
  created_at: row.createdAt.toISOString(),
  quarantined: row.quarantined,
});

/**
 * The platform operator's view of the installation's organizations (ARCHITECTURE.md "Operator tenant
 * administration"): reads across organizations are explicit here, and each change is audited in the
 * organization it changes, by the operator who made it.
 */
export function createTenantAdministration(deps: OperatorDeps) {
  const { transactions, events, clock, settings, pricing } = deps;

  /** Runs `work` held to an existing organization; 404 for an unknown one. */
  async function inTenant<T>(
    tenantId: string,
    work: (tx: Tx, tenant: TenantListRow) => Promise<T>,
    options: { lock: boolean } = { lock: true },
  ) {
    return transactions.system(async (tx) => {
      const tenant = await tenantListRowById(tx, tenantId, options.lock);
      if (!tenant) throw notFound('No such organization');
      await transactions.enterTenant(tx, tenantId);
      return work(tx, tenant);
    });
  }

  return {
    async list(query: { q?: string | undefined; limit?: number | undefined; cursor?: string | undefined }) {
      const limit = query.limit ?? 50;
      const after = decodeCursor(query.cursor, ['string']);
      const found = await transactions.systemRead((q) =>
        listTenants(q, { q: query.q, limit, afterSlug: after?.[0] as string | undefined }),
      );
      const page = pageOf(found, limit, (row) => [row.slug]);
      return { tenants: page.rows.map(tenantView), next_cursor: page.next };
    },

    /**
     * `PUT /operator/tenants/{id}/plan`: seats and features follow at once, because every plan rule reads the
     * organization's plan when it is applied. A downgrade removes nothing: what the organization already has stays
     * readable, removable and switchable off, and each rule refuses what the new plan lacks with 403 naming it.
     */
    async setPlan(principal: Principal, tenantId: string, planCode: string) {
      assertPlanCode(planCode, 'plan_code');
      return inTenant(tenantId, async (tx, tenant) => {
        if (tenant.plan !== planCode) {
          await setTenantPlan(tx, tenantId, planCode);
          await events.emit(tx, {
            tenantId,
            actor: principal.actor,
            category: 'admin',
            action: 'tenant.plan_changed',
            severity: 'warn',
            data: { old_plan: tenant.plan, new_plan: planCode, operator_tenant_id: principal.tenantId },
          });
        }
        return tenantView({ ...tenant, plan: planCode });
      });
    },

    /**
     * `GET /operator/tenants/{id}/config`: the operator settings (editable here) and the organization's own
     * settings (its administrators change those; shown read-only so the operator sees the whole posture).
     */
    async config(tenantId: string) {
      return inTenant(
        tenantId,
        async (tx) => {
          const stored = await storedOperatorSettings(tx, tenantId);
          const own = await settings.readAll(tx, tenantId);
          return {
            tenant_id: tenantId,
            settings: [
              ...(Object.keys(OPERATOR_SETTINGS) as OperatorSettingKey[]).map((key) =>
                operatorRecord(key, stored.get(key)),
              ),
              ...own.map(({ definition, value }) => ({
                key: definition.key,
                summary: definition.summary,
                type: definition.type,
                default: definition.default,
                value,
                overridden: value !== definition.default,
                risk: definition.risk,
                editable: false,
                ...(definition.bounds ? { bounds: definition.bounds } : {}),
                ...(definition.allowed ? { allowed: [...definition.allowed] } : {}),
              })),
            ],
          };
        },
        { lock: false },
      );
    },

    /** `PATCH /operator/tenants/{id}/config/{key}`: one operator setting, within its bounds (400 stating them). */
    async setConfig(principal: Principal, tenantId: string, key: string, value: unknown) {
      if (!isOperatorSettingKey(key)) {
        if (SETTINGS.some((definition) => definition.key === key)) {
          throw forbidden(`${key} is the organization's own setting: its administrators change it, not the operator`);
        }
        throw notFound('Unknown setting');
      }
      const { min, max } = OPERATOR_SETTINGS[key];
      if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
        throw badRequest(`value: ${key} takes an integer from ${min} to ${max}`);
      }
      return inTenant(tenantId, async (tx) => {
        const previousStored = await writeOperatorSetting(tx, tenantId, key, value, clock.now());
        const previous = previousStored === undefined ? OPERATOR_SETTINGS[key].default : previousStored;
        if (previous !== value) {
          await events.emit(tx, {
            tenantId,
            actor: principal.actor,
            category: 'admin',
            action: 'operator_setting.changed',
            severity: OPERATOR_SETTINGS[key].risk === 'low' ? 'info' : 'warn',
            data: { key, old_value: previous, new_value: value, operator_tenant_id: principal.tenantId },
          });
        }
        return operatorRecord(key, value === OPERATOR_SETTINGS[key].default ? undefined : value);
      });
    },

    pricing: () => pricing.content(),

    /** `PUT /operator/pricing`: live at once, on every node (the public document is read from the database). */
    async replacePricing(principal: Principal, content: PricingContent) {
      content.plans.forEach((plan, i) => {
        assertPlanCode(plan.plan_code, `plans.${i}.plan_code`);
      });
      await pricing.replace(content, principal.actor.id, (tx) =>
        events
          .emit(tx, {
            tenantId: principal.tenantId,
            actor: principal.actor,
            category: 'admin',
            action: 'pricing.updated',
            data: { plans: content.plans.map((plan) => ({ plan_code: plan.plan_code, published: plan.published })) },
          })
          .then(() => undefined),
      );
      return pricing.content();
    },
  };
}

/**
 * An operator setting as listed. A malformed stored value (what depends on it answers 503) lists as its default,
 * `overridden`, so the operator sees that it needs setting again.
 */
function operatorRecord(key: OperatorSettingKey, stored: unknown) {
  const definition = OPERATOR_SETTINGS[key];
  let value: number;
  try {
    value = operatorSettingValue(key, stored);
  } catch {
    value = definition.default;
  }
  return {
    key,
    summary: definition.summary,
    type: 'integer' as const,
    default: definition.default,
    value,
    overridden: stored !== undefined,
    risk: definition.risk,
    editable: true,
    bounds: { min: definition.min, max: definition.max },
  };
}
