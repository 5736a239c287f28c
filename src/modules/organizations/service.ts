import type { Clock } from '../../kernel/clock.js';
import type { Tx } from '../../kernel/db/index.js';
import { conflict } from '../../kernel/http/index.js';
import { newId } from '../../kernel/ids.js';
import * as store from './store.js';

/** Part A 1.1: the slug is the name lowercased with its words joined by hyphens. */
export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 63)
    .replace(/-+$/, '');
}

const nameKeyOf = (name: string) => name.trim().replace(/\s+/g, ' ').toLowerCase();

export interface NewOrganization {
  name: string;
  ownerUserId: string;
  platformOperator?: boolean;
}

export function createOrganizationService(deps: { clock: Clock }) {
  const { clock } = deps;
  return {
    /**
     * Creates an organization with its owner's membership. Runs in the caller's system transaction (the
     * tenant does not exist before it). 409 when the name, or the slug it yields, is taken.
     */
    async create(tx: Tx, input: NewOrganization): Promise<store.TenantRow> {
      const name = input.name.trim();
      const slug = slugify(name) || `org-${newId().slice(-12)}`;
      if (await store.tenantNameOrSlugTaken(tx, nameKeyOf(name), slug)) throw conflict('Organization name taken');
      const now = clock.now();
      const tenant: store.TenantRow = {
        id: newId(),
        name,
        nameKey: nameKeyOf(name),
        slug,
        isolation: 'pooled',
        plan: 'free',
        isPlatformOperator: input.platformOperator ?? false,
        quarantined: false,
        ssoRequired: false,
        createdAt: now,
      };
      await store.insertTenant(tx, tenant);
      await store.insertMembership(tx, {
        id: newId(),
        tenantId: tenant.id,
        userId: input.ownerUserId,
        role: 'owner',
        population: 'workforce',
        status: 'active',
        createdAt: now,
      });
      return tenant;
    },
    platformOperator: (tx: Tx) => store.platformOperatorTenant(tx),
  };
}

export type OrganizationService = ReturnType<typeof createOrganizationService>;
