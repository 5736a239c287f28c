import type { SQL } from 'drizzle-orm';
import type { Principal } from '../../kernel/auth/index.js';
import type { Transactions, Tx } from '../../kernel/db/index.js';
import { isUuid } from '../../kernel/ids.js';
import {
  checkIfMatch,
  etagOf,
  type ListQuery,
  listResponse,
  notFound,
  type Projection,
  paging,
  scimErrorOf,
  wants,
} from './common.js';
import { type PatchOperation, parsePatchRequest } from './patch.js';
import { type AttributeMap, whereOfFilter } from './query.js';
import { project } from './resource-schemas.js';

interface StoredResource {
  tenantId: string;
  id: string;
  version: number;
}

interface PageOf<Row> {
  total: number;
  page: Row[];
}

/** What the User and Group resources differ in when they are read: their table, schema and joined attribute. */
export interface ResourceKind<Row extends StoredResource, Related> {
  name: 'User' | 'Group';
  schema: string;
  filterMap: AttributeMap;
  /** The attribute read from another table, and only when the projection keeps it. */
  joined: 'groups' | 'members';
  row(tx: Tx, tenantId: string, id: string, forUpdate: boolean): Promise<Row | undefined>;
  page(tx: Tx, tenantId: string, where: SQL | undefined, offset: number, limit: number): Promise<PageOf<Row>>;
  joinedOf(tx: Tx, tenantId: string, ids: string[]): Promise<Related[]>;
  /** The full resource; `joined` is undefined when the projection leaves the joined attribute out. */
  resourceOf(row: Row, joined: Related[] | undefined): Record<string, unknown>;
}

/** RFC 7643 section 3.1: the `meta` of a stored resource, whose version is also its ETag. */
export function metaOf(
  resourceType: 'User' | 'Group',
  location: string,
  row: { createdAt: Date; updatedAt: Date; version: number },
) {
  return {
    resourceType,
    created: row.createdAt.toISOString(),
    lastModified: row.updatedAt.toISOString(),
    location,
    version: etagOf(row.version),
  };
}

/** The operations of a PatchOp body (RFC 7644 section 3.5.2); a malformed one as an RFC 7644 error. */
export function patchOperationsOf(body: unknown): PatchOperation[] {
  try {
    return parsePatchRequest(body);
  } catch (error) {
    throw scimErrorOf(error);
  }
}

/** Listing, reading and locking a resource, the same for Users and Groups. */
export function resourceReads<Row extends StoredResource, Related>(
  transactions: Transactions,
  kind: ResourceKind<Row, Related>,
) {
  const joinedOf = (tx: Tx, tenantId: string, ids: string[], projection: Projection) =>
    wants(projection, kind.joined) ? kind.joinedOf(tx, tenantId, ids) : undefined;

  const resourceOf = (row: Row, joined: Related[] | undefined, projection: Projection) =>
    project(kind.resourceOf(row, joined), kind.schema, projection);

  /** The row of a resource of the organization; 404 for unknown and malformed ids alike. */
  async function found(tx: Tx, tenantId: string, id: string, forUpdate: boolean): Promise<Row> {
    const row = isUuid(id) ? await kind.row(tx, tenantId, id, forUpdate) : undefined;
    if (!row) throw notFound(kind.name, id);
    return row;
  }

  /** The answer for one resource: the projected resource and its version (the ETag). */
  async function single(tx: Tx, row: Row, projection: Projection) {
    const joined = await joinedOf(tx, row.tenantId, [row.id], projection);
    return { resource: resourceOf(row, joined, projection), version: row.version };
  }

  return {
    single,

    /** The locked row a write changes: 404 when there is none, then 412 when If-Match names another version. */
    async lockedAt(tx: Tx, tenantId: string, id: string, ifMatch: string | undefined): Promise<Row> {
      const row = await found(tx, tenantId, id, true);
      checkIfMatch(ifMatch, row.version);
      return row;
    },

    /** RFC 7644 section 3.4.2: a filtered page, with the joined attribute read for the whole page at once. */
    async list(principal: Principal, query: ListQuery) {
      const where = whereOfFilter(query.filter, kind.filterMap);
      const { offset, limit, startIndex } = paging(query);
      return transactions.tenant(principal.tenantId, async (tx) => {
        const { total, page } = await kind.page(tx, principal.tenantId, where, offset, limit);
        const ids = page.map((row) => row.id);
        const joined = await joinedOf(tx, principal.tenantId, ids, query);
        const resources = page.map((row) => resourceOf(row, joined, query));
        return listResponse(resources, total, startIndex);
      });
    },

    async get(principal: Principal, id: string, projection: Projection) {
      return transactions.tenant(principal.tenantId, async (tx) =>
        single(tx, await found(tx, principal.tenantId, id, false), projection),
      );
    },
  };
}
