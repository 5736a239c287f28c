import { Value } from '@sinclair/typebox/value';
import type { Principal } from '../../kernel/auth/index.js';
import { isPlanCode, PLANS, type PlanCaps, type PlanCode, planOf } from '../../kernel/authz/plans.js';
import type { Clock } from '../../kernel/clock.js';
import type { Transactions, Tx } from '../../kernel/db/index.js';
import { unprocessable } from '../../kernel/http/index.js';
import type { OrganizationService } from '../organizations/index.js';
import { type PlanContent, type PricingContent, PricingContentSchema, type PricingDocument } from './schemas.js';
import * as store from './store.js';

export type { PlanContent, PricingContent, PricingDocument };

export interface Entitlements {
  plan_code: PlanCode;
  name: string;
  features: string[];
  caps: PlanCaps;
}

const entitlementsOf = (code: string): Entitlements => {
  const plan = planOf(code);
  return { plan_code: plan.code, name: plan.name, features: [...plan.features], caps: { ...plan.caps } };
};

export function createPricingService(deps: {
  transactions: Transactions;
  organizations: OrganizationService;
  clock: Clock;
}) {
  const { transactions, organizations, clock } = deps;
  return {
    /**
     * `GET /pricing`: the stored content of each published plan, with features and caps taken from the plan
     * catalogue (the one source of entitlements). Plans the catalogue no longer has are left out.
     */
    async document(): Promise<PricingDocument> {
      // Pricing content is global (not tenant data): a system read.
      const row = await transactions.systemRead((q) => store.currentContent(q));
      const plans = ((row?.plans ?? []) as PlanContent[]).filter(
        (plan) => plan.published && isPlanCode(plan.plan_code),
      );
      return {
        currency: row?.currency ?? 'USD',
        note: row?.note ?? '',
        plans: plans.map((plan) => ({ ...plan, ...entitlementsOf(plan.plan_code), name: plan.name })),
      };
    },

    /**
     * For the operator plane: replaces the editorial content. 422 naming the first field that does not fit
     * Part A 2.16 (a plan code the catalogue lacks, a missing field) or a plan code given twice, so a bad
     * replacement never breaks the public document.
     */
    async replace(
      content: PricingContent,
      updatedBy: string,
      /** Runs in the same transaction after the write (the operator plane's audit event). */
      alsoInTransaction?: (tx: Tx) => Promise<void>,
    ): Promise<void> {
      const [issue] = Value.Errors(PricingContentSchema, content);
      if (issue)
        throw unprocessable(`${issue.path.replace(/^\//, '').replaceAll('/', '.') || 'content'}: ${issue.message}`);
      const codes = content.plans.map((plan) => plan.plan_code);
      const repeated = codes.find((code, i) => codes.indexOf(code) !== i);
      if (repeated) throw unprocessable(`plans: plan_code ${repeated} appears twice`);
      await transactions.system(async (tx) => {
        await store.replaceContent(tx, {
          currency: content.currency,
          note: content.note,
          plans: content.plans,
          updatedAt: clock.now(),
          updatedBy,
        });
        await alsoInTransaction?.(tx);
      });
    },

    /** For the operator plane: the whole editorial content, unpublished plans included (read from the database). */
    async content(): Promise<PricingContent> {
      const row = await transactions.systemRead((q) => store.currentContent(q));
      return { currency: row?.currency ?? 'USD', note: row?.note ?? '', plans: (row?.plans ?? []) as PlanContent[] };
    },

    /** `GET /entitlements`: the features and caps of the caller's organization's plan. */
    async entitlements(principal: Principal): Promise<Entitlements> {
      const plan = await transactions.tenant(principal.tenantId, (tx) =>
        organizations.planCode(tx, principal.tenantId),
      );
      return entitlementsOf(plan ?? 'free');
    },

    catalogue: () => Object.values(PLANS).map((plan) => entitlementsOf(plan.code)),
  };
}

export type PricingService = ReturnType<typeof createPricingService>;
