import type { Principal } from '../../kernel/auth/index.js';
import type { Tx } from '../../kernel/db/index.js';
import { newId } from '../../kernel/ids.js';
import { type AccountService, accountKeptElsewhere } from '../accounts/index.js';
import { isUniqueViolation, type Projection, type ScimDeps, scimBaseUrl, scimErrorOf, uniqueness } from './common.js';
import { applyPatch, type Doc } from './patch.js';
import { USER_FILTER_MAP } from './query.js';
import { USER_RESOURCE, USER_SCHEMA } from './resource-schemas.js';
import { metaOf, patchOperationsOf, resourceReads } from './resource-service.js';
import * as store from './store.js';
import { changes, docOf, fieldsOf, profileOf, signInAddress, type UserFields, writtenDoc } from './user-fields.js';

type GroupRef = { memberId: string; groupId: string; displayName: string };

/**
 * The refusal of an address the organization may not provision. One wording whether or not an account has the
 * address, so an identity provider cannot learn who has an account on the service from it.
 */
const NOT_AVAILABLE = 'userName is not available in this organization';

/** Users (RFC 7644 section 3 over RFC 7643 section 4.1): an account and its SCIM-managed membership. */
export function createUserService(deps: ScimDeps) {
  const { transactions, organizations, sessions, events, clock, accounts } = deps;
  const base = scimBaseUrl(deps.config.baseUrl);

  /** `groups` is undefined when the projection leaves them out; the resource then lists none. */
  function resourceOf(row: store.ScimUserRow, groups: GroupRef[] = []): Record<string, unknown> {
    const { name } = docOf(row);
    return {
      schemas: [USER_SCHEMA],
      id: row.id,
      ...(row.externalId !== null ? { externalId: row.externalId } : {}),
      userName: row.userName,
      ...(name ? { name } : {}),
      ...(row.displayName !== null ? { displayName: row.displayName } : {}),
      active: row.active,
      emails: row.emails,
      groups: groups
        .filter((group) => group.memberId === row.id)
        .map((group) => ({
          value: group.groupId,
          display: group.displayName,
          $ref: `${base}/Groups/${group.groupId}`,
          type: 'direct',
        })),
      meta: metaOf('User', `${base}/Users/${row.id}`, row),
    };
  }

  const { single, lockedAt, list, get } = resourceReads(transactions, {
    name: 'User',
    schema: USER_SCHEMA,
    filterMap: USER_FILTER_MAP,
    joined: 'groups',
    row: store.scimUser,
    page: store.listScimUsers,
    joinedOf: store.groupsOfUsers,
    resourceOf,
  });

  const emit = (
    tx: Tx,
    principal: Principal,
    action: string,
    row: { id: string; userId: string },
    data: Record<string, unknown> = {},
  ) =>
    events.emit(tx, {
      tenantId: principal.tenantId,
      actor: principal.actor,
      category: 'admin',
      action,
      subjectUserId: row.userId,
      data: { scim_id: row.id, user_id: row.userId, ...data },
    });

  /** Part A 3: an identity provider's deactivation revokes the person's sessions in the organization at once. */
  async function endSessions(tx: Tx, principal: Principal, userId: string, reason: string): Promise<void> {
    const ended = await sessions.revokeAllOfUser(tx, principal.tenantId, userId, reason);
    const data = { user_id: userId, reason };
    await events.emit(tx, {
      tenantId: principal.tenantId,
      actor: principal.actor,
      category: 'session',
      action: 'user.sessions_revoked',
      severity: 'warn',
      subjectUserId: userId,
      data: { ...data, sessions: ended },
      webhook: { type: 'user.sessions_revoked', data },
    });
  }

  /**
   * Whether an existing account may become this SCIM User. Accounts are global and the person never agreed to
   * this organization: only one already a member here is adopted, and one whose address is on a domain the
   * organization verified is linked (the organization answers for that domain's mailboxes). Anyone else's
   * account is not the identity provider's to enroll; once SSO sign-in exists it could sign in as them.
   */
  async function mayLink(tx: Tx, tenantId: string, userId: string, address: string): Promise<boolean> {
    const membership = await organizations.memberships.ofUser(tx, tenantId, userId);
    if (membership && membership.status !== 'removed') return true;
    return deps.members.domains.isVerifiedFor(tx, tenantId, address);
  }

  /** The membership a new SCIM User takes: an existing workforce one is adopted, else one is added as `member`. */
  async function provisionMembership(tx: Tx, tenantId: string, userId: string): Promise<string> {
    const membership = await organizations.memberships.ofUser(tx, tenantId, userId);
    if (membership && membership.status !== 'removed') {
      // The owner stays out of reach of the identity provider: a deactivation must never lock the organization out.
      if (membership.role === 'owner') throw uniqueness('This address belongs to an owner, who is not provisioned');
      if (membership.population !== 'workforce')
        throw uniqueness('This address belongs to a customer of the organization');
      return membership.id;
    }
    await deps.members.assertSeatAvailable(tx, tenantId);
    return organizations.memberships.add(tx, { tenantId, userId, role: 'member' });
  }

  /** Stores checked attributes over `row`, with every effect: account mirror, suspension, sessions, events. */
  async function commit(tx: Tx, principal: Principal, row: store.ScimUserRow, fields: UserFields) {
    const changed = changes(row, fields);
    if (changed.length === 0) return row;
    const { tenantId } = principal;
    const now = clock.now();
    const userNameKey = fields.userName.toLowerCase();
    if (userNameKey !== row.userNameKey) {
      const other = await store.scimUserByUserName(tx, tenantId, userNameKey);
      if (other && other.id !== row.id) throw uniqueness(`userName ${JSON.stringify(fields.userName)} is taken`);
    }
    const address = signInAddress(fields);
    // The account is global. Once it belongs to another organization too, its address and names are no longer
    // this identity provider's to write: a changed address would let it take the account (a password reset to
    // a mailbox it controls) in the other organization. The SCIM copy below still takes every change.
    if (row.ownsAccount && !(await accountKeptElsewhere(tx, row.userId, tenantId))) {
      const account = await accounts.provisioning.accountById(tx, row.userId);
      const set: Parameters<AccountService['provisioning']['updateAccount']>[2] = {};
      const emailKey = address.toLowerCase();
      if (account && emailKey !== account.emailKey) {
        const holder = await accounts.provisioning.accountByEmailKey(tx, emailKey);
        if (holder && holder.id !== row.userId) throw uniqueness(NOT_AVAILABLE);
        Object.assign(set, { email: address, emailKey });
        // Owned only on a domain the organization verified, as at creation (docs/decisions.md "SSO trust model").
        if (account.ownerTenantId && !(await deps.members.domains.isVerifiedFor(tx, tenantId, address))) {
          Object.assign(set, { ownerTenantId: null });
        }
      }
      if (changed.includes('name') || changed.includes('displayName')) Object.assign(set, profileOf(fields));
      if (Object.keys(set).length > 0) await accounts.provisioning.updateAccount(tx, row.userId, set, now);
    }
    if (changed.includes('active')) {
      const membership = await organizations.memberships.ofUser(tx, tenantId, row.userId);
      if (membership && membership.status !== 'removed') {
        await organizations.memberships.setProvisioned(
          tx,
          tenantId,
          membership.id,
          fields.active ? 'active' : 'suspended',
        );
      }
      if (fields.active) {
        await emit(tx, principal, 'scim.user_reactivated', row);
      } else {
        await emit(tx, principal, 'scim.user_deactivated', row);
        await endSessions(tx, principal, row.userId, 'scim_deactivated');
      }
    }
    const others = changed.filter((field) => field !== 'active');
    if (others.length > 0) await emit(tx, principal, 'scim.user_updated', row, { fields: others });
    const next = { ...row, ...fields, userNameKey, version: row.version + 1, updatedAt: now };
    await store.updateScimUser(tx, tenantId, row.id, {
      ...fields,
      userNameKey,
      version: next.version,
      updatedAt: now,
    });
    return next;
  }

  /** Unique violations of a concurrent write answer like the checks before it would have. */
  async function guarded<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error)) throw uniqueness('userName or address taken by a concurrent request');
      throw error;
    }
  }

  return {
    list,
    get,

    /**
     * `POST /Users`: an account with a membership (role `member`, workforce) in the organization, SCIM-managed. A
     * workforce member who is not the owner is adopted as is; another existing account is linked (its profile
     * stays its own) only when its address is on a domain the organization verified. 409 `uniqueness` when the
     * userName is taken in the organization, or the address has an account the organization may not link.
     */
    async create(principal: Principal, body: unknown, projection: Projection) {
      const id = newId();
      const fields = fieldsOf(writtenDoc(body, id), true);
      const address = signInAddress(fields);
      const { tenantId } = principal;
      return guarded(() =>
        transactions.tenant(tenantId, async (tx) => {
          if (await store.scimUserByUserName(tx, tenantId, fields.userName.toLowerCase())) {
            throw uniqueness(`userName ${JSON.stringify(fields.userName)} is taken`);
          }
          const now = clock.now();
          const emailKey = address.toLowerCase();
          const existing = await accounts.provisioning.accountByEmailKey(tx, emailKey);
          if (existing && !(await mayLink(tx, tenantId, existing.id, address))) throw uniqueness(NOT_AVAILABLE);
          if (existing && (await store.scimUserOfAccount(tx, tenantId, existing.id))) {
            throw uniqueness('The account with this address is provisioned already, under another userName');
          }
          const userId = existing?.id ?? newId();
          if (!existing)
            await accounts.provisioning.insertAccount(tx, {
              id: userId,
              email: address,
              emailKey,
              now,
              ...profileOf(fields),
              emailVerified: false,
              profileSource: 'scim',
              // Created by the organization's provider: owned by it (docs/decisions.md "SSO trust model"), but
              // only on a domain it verified; an address elsewhere is its mailbox holder's, and owning it would
              // shut out the provider of the organization that does answer for that domain.
              ownerTenantId: (await deps.members.domains.isVerifiedFor(tx, tenantId, address)) ? tenantId : null,
            });
          const membershipId = await provisionMembership(tx, tenantId, userId);
          await organizations.memberships.setProvisioned(
            tx,
            tenantId,
            membershipId,
            fields.active ? 'active' : 'suspended',
          );
          const row: store.ScimUserRow = {
            tenantId,
            id,
            userId,
            ...fields,
            userNameKey: fields.userName.toLowerCase(),
            ownsAccount: !existing,
            version: 1,
            createdAt: now,
            updatedAt: now,
          };
          await store.insertScimUser(tx, row);
          // Whether an account existed is left out: the organization's admins read these events, and it would
          // tell them who has an account on the service.
          await emit(tx, principal, 'scim.user_created', row, { membership_id: membershipId, active: fields.active });
          // A linked account may be signed in already: provisioned inactive, it is signed out like a deactivation.
          if (!fields.active && existing) await endSessions(tx, principal, userId, 'scim_deactivated');
          return single(tx, row, projection);
        }),
      );
    },

    /** `PUT /Users/{id}`: replaces every writable attribute; `active` left out keeps its value. */
    async replace(principal: Principal, id: string, body: unknown, projection: Projection, ifMatch?: string) {
      const doc = writtenDoc(body, id);
      return guarded(() =>
        transactions.tenant(principal.tenantId, async (tx) => {
          const row = await lockedAt(tx, principal.tenantId, id, ifMatch);
          const next = await commit(tx, principal, row, fieldsOf(doc, row.active));
          return single(tx, next, projection);
        }),
      );
    },

    /** `PATCH /Users/{id}` (RFC 7644 section 3.5.2): all operations apply, or none. */
    async patch(principal: Principal, id: string, body: unknown, projection: Projection, ifMatch?: string) {
      const operations = patchOperationsOf(body);
      return guarded(() =>
        transactions.tenant(principal.tenantId, async (tx) => {
          const row = await lockedAt(tx, principal.tenantId, id, ifMatch);
          let doc: Doc;
          try {
            doc = applyPatch(docOf(row), operations, { resource: USER_RESOURCE, id: row.id });
          } catch (error) {
            throw scimErrorOf(error);
          }
          const next = await commit(tx, principal, row, fieldsOf(doc, row.active));
          return single(tx, next, projection);
        }),
      );
    },

    /**
     * `DELETE /Users/{id}`: the membership is removed and the person's sessions in the organization end, in one
     * transaction; the account itself stays (it may belong to other organizations).
     */
    async remove(principal: Principal, id: string, ifMatch?: string): Promise<void> {
      const { tenantId } = principal;
      await transactions.tenant(tenantId, async (tx) => {
        const row = await lockedAt(tx, tenantId, id, ifMatch);
        await store.deleteScimUser(tx, tenantId, row.id);
        const membership = await organizations.memberships.ofUser(tx, tenantId, row.userId);
        if (membership) {
          if (membership.status !== 'removed') await organizations.memberships.markRemoved(tx, tenantId, membership.id);
          await organizations.memberships.release(tx, tenantId, membership.id);
        }
        // No identity provider manages the account's profile any more: its owner may edit it again.
        if (row.ownsAccount)
          await accounts.provisioning.updateAccount(tx, row.userId, { profileSource: 'local' }, clock.now());
        await emit(tx, principal, 'scim.user_deleted', row, { membership_id: membership?.id ?? null });
        await endSessions(tx, principal, row.userId, 'scim_deleted');
      });
    },
  };
}

export type UserService = ReturnType<typeof createUserService>;
