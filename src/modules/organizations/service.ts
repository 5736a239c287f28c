import type { Clock } from '../../kernel/clock.js';
import type { Queryable, Tx } from '../../kernel/db/index.js';
import { conflict } from '../../kernel/http/index.js';
import { newId } from '../../kernel/ids.js';
import type { RevocationCascade } from '../../kernel/revocation.js';
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

export function createOrganizationService(deps: {
  clock: Clock;
  /** Told when a membership stops being active (src/kernel/revocation.ts). */
  revocation: RevocationCascade;
}) {
  const { clock } = deps;

  /** Sets a membership's status; an active one that stops being active ends through the revocation cascade. */
  async function setStatus(tx: Tx, tenantId: string, membershipId: string, set: store.MembershipStatusChange) {
    const changed = await store.changeMembershipStatus(tx, tenantId, membershipId, set);
    if (changed?.previousStatus === 'active' && set.status !== 'active') {
      await deps.revocation.membershipEnded(tx, { tenantId, userId: changed.userId, at: clock.now() });
    }
  }
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
    platformOperator: (q: Queryable, options?: { lock?: boolean }) => store.platformOperatorTenant(q, options),
    tenant: (tx: Tx, tenantId: string) => store.tenantById(tx, tenantId),
    async planCode(tx: Tx, tenantId: string): Promise<string | undefined> {
      return (await store.tenantById(tx, tenantId))?.plan;
    },

    /**
     * Part A 4.6 enforcement: once required, every sign-in method but SSO answers 403 to non-owner members. The SSO
     * module decides when; answers the previous value (undefined: no such organization).
     */
    setSsoRequired: (tx: Tx, tenantId: string, required: boolean) => store.setSsoRequired(tx, tenantId, required),

    /** Membership reads and writes for the members module; every one runs in the caller's transaction. */
    memberships: {
      /** Locked for update: the caller is about to decide on it. */
      byId: (tx: Tx, tenantId: string, membershipId: string) => store.membershipById(tx, tenantId, membershipId),
      ofUser: (tx: Tx, tenantId: string, userId: string) => store.membershipOfUser(tx, tenantId, userId),
      otherActiveOwners: (tx: Tx, tenantId: string, exceptId: string) =>
        store.otherActiveOwners(tx, tenantId, exceptId),
      seated: (tx: Tx, tenantId: string) => store.seatedMembers(tx, tenantId),
      /** Every active membership of a person across organizations: a system read (separation of duties). */
      activeOfUser: (q: Queryable, userId: string) => store.activeMembershipsOfUser(q, userId),
      setRole: (tx: Tx, tenantId: string, membershipId: string, role: string) =>
        store.updateMembership(tx, tenantId, membershipId, { role }),
      markRemoved: (tx: Tx, tenantId: string, membershipId: string) =>
        setStatus(tx, tenantId, membershipId, { status: 'removed' }),
      /** Managed by an identity provider (SCIM): active, or suspended while the provider says inactive. */
      setProvisioned: (tx: Tx, tenantId: string, membershipId: string, status: 'active' | 'suspended') =>
        setStatus(tx, tenantId, membershipId, { scimManaged: true, status }),
      /** No longer provider-managed: the members API may change it again. */
      release: (tx: Tx, tenantId: string, membershipId: string) =>
        store.updateMembership(tx, tenantId, membershipId, { scimManaged: false }),
      /**
       * Makes a person a member with `role` (workforce unless said otherwise): a new membership, or a removed
       * one brought back. 409 when they are already a member (active or suspended).
       */
      async add(
        tx: Tx,
        input: { tenantId: string; userId: string; role: string; population?: 'workforce' | 'customer' },
      ): Promise<string> {
        const population = input.population ?? 'workforce';
        const existing = await store.membershipOfUser(tx, input.tenantId, input.userId);
        if (existing && existing.status !== 'removed') throw conflict('Already a member of this organization');
        if (existing) {
          await store.updateMembership(tx, input.tenantId, existing.id, {
            role: input.role,
            status: 'active',
            population,
          });
          return existing.id;
        }
        const id = newId();
        await store.insertMembership(tx, {
          id,
          tenantId: input.tenantId,
          userId: input.userId,
          role: input.role,
          population,
          status: 'active',
          createdAt: clock.now(),
        });
        return id;
      },
    },
  };
}

export type OrganizationService = ReturnType<typeof createOrganizationService>;
