import type { Principal } from '../../kernel/auth/index.js';
import type { Tx } from '../../kernel/db/index.js';
import { ScimError } from '../../kernel/http/index.js';
import { isUuid, newId } from '../../kernel/ids.js';
import {
  invalidValue,
  isForeignKeyViolation,
  isUniqueViolation,
  type Projection,
  type ScimDeps,
  scimBaseUrl,
  scimErrorOf,
  text,
  uniqueness,
} from './common.js';
import { applyPatch, type Doc, MemberPlan, membersIntercept, type PatchOperation } from './patch.js';
import { GROUP_FILTER_MAP } from './query.js';
import { GROUP_RESOURCE, GROUP_SCHEMA } from './resource-schemas.js';
import { metaOf, patchOperationsOf, resourceReads } from './resource-service.js';
import * as store from './store.js';

interface GroupFields {
  displayName: string;
  externalId: string | null;
}

type MemberRef = Awaited<ReturnType<typeof store.membersOfGroups>>[number];

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function fieldsOf(doc: Doc): GroupFields {
  const displayName = text('displayName', doc.displayName);
  if (!displayName) throw invalidValue('displayName: is required');
  return { displayName, externalId: text('externalId', doc.externalId) };
}

/** Applies operations (or a written body as one `replace`) to the group document, gathering member changes. */
function patched(doc: Doc, operations: PatchOperation[], id: string) {
  const plan = new MemberPlan();
  try {
    const next = applyPatch(doc, operations, { resource: GROUP_RESOURCE, id, intercept: membersIntercept(plan) });
    return { fields: fieldsOf(next), plan };
  } catch (error) {
    throw scimErrorOf(error);
  }
}

function writtenBody(body: unknown): PatchOperation[] {
  if (!isObject(body)) throw new ScimError(400, 'A Group must be a JSON object', 'invalidSyntax');
  const value = Object.fromEntries(
    Object.entries(body).filter(([key]) => !['id', 'meta', 'schemas'].includes(key.toLowerCase())),
  );
  return [{ op: 'replace', value }];
}

/**
 * Groups (RFC 7643 section 4.2): per-organization groups of SCIM Users. Membership is kept for identity providers
 * and for reading; no role or permission follows from it (docs/scim.md).
 */
export function createGroupService(deps: ScimDeps) {
  const { transactions, events, clock } = deps;
  const base = scimBaseUrl(deps.config.baseUrl);

  function resourceOf(row: store.ScimGroupRow, members: MemberRef[] | undefined): Record<string, unknown> {
    return {
      schemas: [GROUP_SCHEMA],
      id: row.id,
      ...(row.externalId !== null ? { externalId: row.externalId } : {}),
      displayName: row.displayName,
      ...(members
        ? {
            members: members
              .filter((member) => member.groupId === row.id)
              .map((member) => ({
                value: member.memberId,
                display: member.displayName ?? member.userName,
                $ref: `${base}/Users/${member.memberId}`,
                type: 'User',
              })),
          }
        : {}),
      meta: metaOf('Group', `${base}/Groups/${row.id}`, row),
    };
  }

  const { single, lockedAt, list, get } = resourceReads(transactions, {
    name: 'Group',
    schema: GROUP_SCHEMA,
    filterMap: GROUP_FILTER_MAP,
    joined: 'members',
    row: store.scimGroup,
    page: store.listScimGroups,
    joinedOf: store.membersOfGroups,
    resourceOf,
  });

  /** Applies a member plan; a member added must be a User of the organization (groups do not nest). */
  async function applyMembers(tx: Tx, tenantId: string, groupId: string, plan: MemberPlan) {
    const added = [...plan.added];
    const malformed = added.find((id) => !isUuid(id));
    if (malformed !== undefined) throw invalidValue(`members: no User ${JSON.stringify(malformed.slice(0, 64))}`);
    const known = await store.existingScimUsers(tx, tenantId, added);
    const unknown = added.find((id) => !known.has(id));
    if (unknown !== undefined) throw invalidValue(`members: no User ${JSON.stringify(unknown)}`);
    let removed = plan.cleared ? await store.clearMembers(tx, tenantId, groupId) : 0;
    removed += await store.removeMembers(tx, tenantId, groupId, [...plan.removed].filter(isUuid));
    const addedCount = await store.addMembers(tx, tenantId, groupId, added, clock.now());
    return { added: addedCount, removed };
  }

  const emit = (tx: Tx, principal: Principal, action: string, data: Record<string, unknown>) =>
    events.emit(tx, { tenantId: principal.tenantId, actor: principal.actor, category: 'admin', action, data });

  async function assertNameFree(tx: Tx, tenantId: string, displayName: string, self?: string) {
    const holder = await store.scimGroupByName(tx, tenantId, displayName.toLowerCase());
    if (holder && holder.id !== self) throw uniqueness(`displayName ${JSON.stringify(displayName)} is taken`);
  }

  /** Stores a changed group: fields, members, version; one `scim.group_updated` naming what changed. */
  async function commit(tx: Tx, principal: Principal, row: store.ScimGroupRow, fields: GroupFields, plan: MemberPlan) {
    const changed = [
      ...(fields.displayName !== row.displayName ? ['displayName'] : []),
      ...(fields.externalId !== row.externalId ? ['externalId'] : []),
    ];
    if (changed.includes('displayName')) await assertNameFree(tx, principal.tenantId, fields.displayName, row.id);
    const members = plan.changed ? await applyMembers(tx, principal.tenantId, row.id, plan) : { added: 0, removed: 0 };
    if (changed.length === 0 && members.added === 0 && members.removed === 0) return row;
    const now = clock.now();
    const next = { ...row, ...fields, displayNameKey: fields.displayName.toLowerCase(), version: row.version + 1 };
    await store.updateScimGroup(tx, principal.tenantId, row.id, {
      displayName: next.displayName,
      displayNameKey: next.displayNameKey,
      externalId: next.externalId,
      version: next.version,
      updatedAt: now,
    });
    await emit(tx, principal, 'scim.group_updated', {
      group_id: row.id,
      fields: changed,
      members_added: members.added,
      members_removed: members.removed,
    });
    return { ...next, updatedAt: now };
  }

  async function guarded<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error)) throw uniqueness('displayName taken by a concurrent request');
      // A member deleted by a concurrent request after the check that it exists.
      if (isForeignKeyViolation(error)) throw invalidValue('members: a User was deleted meanwhile');
      throw error;
    }
  }

  return {
    list,
    get,

    /** `POST /Groups`: 409 `uniqueness` when the organization has a group of that displayName (any case). */
    async create(principal: Principal, body: unknown, projection: Projection) {
      const id = newId();
      const { fields, plan } = patched({}, writtenBody(body), id);
      const { tenantId } = principal;
      return guarded(() =>
        transactions.tenant(tenantId, async (tx) => {
          await assertNameFree(tx, tenantId, fields.displayName);
          const now = clock.now();
          const row: store.ScimGroupRow = {
            tenantId,
            id,
            ...fields,
            displayNameKey: fields.displayName.toLowerCase(),
            version: 1,
            createdAt: now,
            updatedAt: now,
          };
          await store.insertScimGroup(tx, row);
          const members = await applyMembers(tx, tenantId, id, plan);
          await emit(tx, principal, 'scim.group_created', { group_id: id, members: members.added });
          return single(tx, row, projection);
        }),
      );
    },

    /** `PUT /Groups/{id}`: replaces displayName and externalId; `members`, when given, replaces the members. */
    async replace(principal: Principal, id: string, body: unknown, projection: Projection, ifMatch?: string) {
      const operations = writtenBody(body);
      return guarded(() =>
        transactions.tenant(principal.tenantId, async (tx) => {
          const row = await lockedAt(tx, principal.tenantId, id, ifMatch);
          const { fields, plan } = patched({}, operations, row.id);
          return single(tx, await commit(tx, principal, row, fields, plan), projection);
        }),
      );
    },

    /**
     * `PATCH /Groups/{id}`: member changes in Okta's style (`members[value eq "…"]`) and Entra's (`path: members`
     * with a value list) are applied as set changes, without reading the group's members. Answers the resource only
     * when the caller asked for attributes (`attributes` or `excludedAttributes`); otherwise none, and the route
     * answers 204.
     */
    async patch(principal: Principal, id: string, body: unknown, projection: Projection, ifMatch?: string) {
      const operations = patchOperationsOf(body);
      const withResource = projection.attributes !== undefined || projection.excludedAttributes !== undefined;
      return guarded(() =>
        transactions.tenant(principal.tenantId, async (tx) => {
          const row = await lockedAt(tx, principal.tenantId, id, ifMatch);
          const doc: Doc = {
            displayName: row.displayName,
            ...(row.externalId !== null ? { externalId: row.externalId } : {}),
          };
          const { fields, plan } = patched(doc, operations, row.id);
          const next = await commit(tx, principal, row, fields, plan);
          return withResource ? single(tx, next, projection) : { resource: null, version: next.version };
        }),
      );
    },

    async remove(principal: Principal, id: string, ifMatch?: string): Promise<void> {
      await transactions.tenant(principal.tenantId, async (tx) => {
        const row = await lockedAt(tx, principal.tenantId, id, ifMatch);
        await store.deleteScimGroup(tx, principal.tenantId, row.id);
        await emit(tx, principal, 'scim.group_deleted', { group_id: row.id });
      });
    },
  };
}

export type GroupService = ReturnType<typeof createGroupService>;
