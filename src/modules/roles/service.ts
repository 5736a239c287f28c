import type { Principal } from '../../kernel/auth/index.js';
import { isKnownPermission, isReadOnlyPermission, isSystemRole } from '../../kernel/authz/catalog.js';
import type { Clock } from '../../kernel/clock.js';
import type { Queryable, Transactions, Tx } from '../../kernel/db/index.js';
import type { Events } from '../../kernel/events/index.js';
import { conflict, forbidden, notFound, unprocessable } from '../../kernel/http/index.js';
import { mayGrant } from './grants.js';
import type { CreateRoleInput, PatchRoleInput, RoleViewType } from './http-schemas.js';
import * as store from './store.js';

export interface RolesDeps {
  transactions: Transactions;
  events: Events;
  clock: Clock;
  /**
   * How many pending, unexpired invitations of the organization name the role (the members module's count):
   * a role in use is never deleted.
   */
  invitationsHolding(tx: Tx, tenantId: string, code: string, now: Date): Promise<number>;
  /**
   * The permission codes the organization's bound OAuth resources declare (`namespace:action`): the manifests
   * module's `declaredResourcePermissions`, passed in by the app because manifests imports this module.
   */
  declaredPermissions(q: Queryable, tenantId: string): Promise<ReadonlyArray<{ code: string }>>;
}

const CODE = /^[a-z][a-z0-9_-]{1,63}$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the rule is exactly that control characters are refused
const CONTROL = /[\u0000-\u001f\u007f]/;

const toView = (row: store.CustomRoleRow): RoleViewType => ({
  code: row.code,
  name: row.name,
  description: row.description,
  permissions: [...row.permissions].sort(),
  read_only: row.permissions.every(isReadOnlyPermission),
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});

function assertText(field: string, value: string | null | undefined): void {
  if (value === null || value === undefined) return;
  if (CONTROL.test(value)) throw unprocessable(`${field}: must not contain control characters`);
  if (field === 'name' && value.trim() === '') throw unprocessable('name: must not be blank');
}

/**
 * Exact codes only, each in the catalogue or `declared` by one of the organization's bound OAuth resources (422
 * for a wildcard or any other code, naming them), and none the caller may not grant (403, naming them; `mayGrant`:
 * held, or one's own record, or `tenant:manage` for a declared code), so nobody mints a role holding more than
 * they hold (like API-key scopes, Part A 2.5). `kept` are the role's current permissions: a caller may keep what
 * is there without holding it.
 */
function validPermissions(
  principal: Principal,
  requested: readonly string[],
  declared: ReadonlySet<string>,
  kept: readonly string[] = [],
): string[] {
  const codes = [...new Set(requested)];
  const wildcards = codes.filter((code) => code.includes('*'));
  if (wildcards.length > 0) {
    throw unprocessable(`permissions: exact codes only, no wildcards (${wildcards.join(', ')})`);
  }
  const unknown = codes.filter((code) => !isKnownPermission(code) && !declared.has(code));
  // Unknown: neither in the catalogue nor declared by a bound OAuth resource of the organization.
  if (unknown.length > 0) throw unprocessable(`permissions: unknown permission codes: ${unknown.join(', ')}`);
  const missing = codes.filter((code) => !kept.includes(code) && !mayGrant(principal, code));
  if (missing.length > 0) {
    throw forbidden(`A role cannot grant permissions you do not hold: ${missing.sort().join(', ')}`);
  }
  return codes.sort();
}

/**
 * Custom roles (Part A 5.9; interface in ARCHITECTURE.md): create, read, change and delete an organization's
 * roles. Holders read a role's permissions on every request (sign-in resolver, agent delegators), and every
 * write here notifies their caches on every node (migration 0027), so a change holds from the next request.
 */
export function createRolesService(deps: RolesDeps) {
  const { transactions, events, clock } = deps;

  /** The codes the organization's bound OAuth resources declare, read in the writing transaction. */
  const declaredIn = async (tx: Queryable, tenantId: string) =>
    new Set((await deps.declaredPermissions(tx, tenantId)).map((p) => p.code));

  async function existing(tx: Queryable, tenantId: string, code: string, lock?: 'update') {
    const row = CODE.test(code) ? await store.findCustomRoleRow(tx, tenantId, code, lock) : null;
    if (!row) throw notFound();
    return row;
  }

  return {
    /** 201; 422 bad code syntax or permissions; 409 a system role's code or one the organization has; 403. */
    async create(principal: Principal, input: CreateRoleInput): Promise<RoleViewType> {
      if (!CODE.test(input.code)) throw unprocessable('code: lowercase letter, then 1 to 63 of a-z, 0-9, _ or -');
      if (isSystemRole(input.code)) throw conflict(`code: ${input.code} is a system role`);
      assertText('name', input.name);
      assertText('description', input.description);
      const { tenantId } = principal;
      return transactions.tenant(tenantId, async (tx) => {
        const permissions = validPermissions(principal, input.permissions, await declaredIn(tx, tenantId));
        const now = clock.now();
        const role = { code: input.code, name: input.name, description: input.description ?? null, permissions };
        if (!(await store.insertCustomRoleRow(tx, tenantId, role, now))) {
          throw conflict(`A role with code ${input.code} already exists`);
        }
        await events.emit(tx, {
          tenantId,
          actor: principal.actor,
          category: 'admin',
          action: 'custom_role.created',
          data: { code: role.code, name: role.name, permissions },
        });
        return toView({ ...role, tenantId, createdAt: now, updatedAt: now });
      });
    },

    async list(principal: Principal): Promise<RoleViewType[]> {
      return transactions.tenant(principal.tenantId, async (tx) =>
        (await store.listCustomRoles(tx, principal.tenantId)).map(toView),
      );
    },

    async get(principal: Principal, code: string): Promise<RoleViewType> {
      return transactions.tenant(principal.tenantId, async (tx) =>
        toView(await existing(tx, principal.tenantId, code)),
      );
    },

    /** Name, description or permissions; holders get the new permissions on their next request. */
    async update(principal: Principal, code: string, input: PatchRoleInput): Promise<RoleViewType> {
      assertText('name', input.name);
      assertText('description', input.description);
      const { tenantId } = principal;
      return transactions.tenant(tenantId, async (tx) => {
        const row = await existing(tx, tenantId, code, 'update');
        const permissions =
          input.permissions === undefined
            ? row.permissions
            : validPermissions(principal, input.permissions, await declaredIn(tx, tenantId), row.permissions);
        const now = clock.now();
        const next = {
          ...row,
          name: input.name ?? row.name,
          description: input.description === undefined ? row.description : input.description,
          permissions,
          updatedAt: now,
        };
        await store.updateCustomRole(tx, tenantId, code, {
          name: next.name,
          description: next.description,
          permissions,
          updatedAt: now,
        });
        const added = permissions.filter((p) => !row.permissions.includes(p));
        const removed = row.permissions.filter((p) => !permissions.includes(p));
        await events.emit(tx, {
          tenantId,
          actor: principal.actor,
          category: 'admin',
          action: 'custom_role.updated',
          data: { code, name: next.name, old_name: row.name, permissions, added, removed },
        });
        return toView(next);
      });
    },

    /** 204; 409 while a member or a pending invitation holds it. */
    async remove(principal: Principal, code: string): Promise<void> {
      const { tenantId } = principal;
      await transactions.tenant(tenantId, async (tx) => {
        // Held FOR UPDATE: an assignment in flight holds the role FOR SHARE, so it finishes first and is counted,
        // or waits and then finds no role.
        const row = await existing(tx, tenantId, code, 'update');
        // Invitations first: an acceptance commits its redeemed invitation and its membership together, so
        // counted in this order (each statement its own snapshot) it is seen at least once.
        const invitations = await deps.invitationsHolding(tx, tenantId, code, clock.now());
        const members = await store.membersHolding(tx, tenantId, code);
        if (members > 0 || invitations > 0) {
          throw conflict(
            `Role ${code} is in use (${members} member(s), ${invitations} pending invitation(s)); ` +
              'give them another role or revoke the invitations first',
          );
        }
        await store.deleteCustomRole(tx, tenantId, code);
        await events.emit(tx, {
          tenantId,
          actor: principal.actor,
          category: 'admin',
          action: 'custom_role.deleted',
          data: { code, name: row.name, permissions: row.permissions },
        });
      });
    },
  };
}

export type RolesService = ReturnType<typeof createRolesService>;
