import type { Config } from '../../config.js';
import type { Clock } from '../../kernel/clock.js';
import type { Transactions } from '../../kernel/db/index.js';
import type { Events } from '../../kernel/events/index.js';
import { ScimError } from '../../kernel/http/index.js';
import type { AccountService } from '../accounts/index.js';
import type { DomainService, MembersService } from '../members/index.js';
import type { OrganizationService } from '../organizations/index.js';
import type { SessionService } from '../sign-in/index.js';
import { type Filter, FilterError, parseFilter } from './filter.js';
import { PatchError } from './patch.js';
import { DEFAULT_PAGE_SIZE, LIST_RESPONSE, MAX_PAGE_SIZE } from './resource-schemas.js';

export interface ScimDeps {
  config: Pick<Config, 'baseUrl'>;
  transactions: Transactions;
  organizations: OrganizationService;
  sessions: SessionService;
  /** Provisioned accounts (`accounts.provisioning`). */
  accounts: Pick<AccountService, 'provisioning'>;
  /**
   * The plan's seat cap (`members.assertSeatAvailable`), and the organization's verified domains: an existing
   * account is linked only when its address is on one of them (`members.domains.isVerifiedFor`).
   */
  members: Pick<MembersService, 'assertSeatAvailable'> & { domains: Pick<DomainService, 'isVerifiedFor'> };
  events: Events;
  clock: Clock;
}

/** The SCIM base URL an identity provider is configured with (Part A 4.6 `base_url`). */
export const scimBaseUrl = (baseUrl: string) => `${baseUrl}/api/v1/scim/v2`;

/** RFC 7644 sections 3.4.2 and 3.9: the query parameters of a list or of a single resource. */
export interface ListQuery {
  filter?: string | undefined;
  startIndex?: number | undefined;
  count?: number | undefined;
  attributes?: string | undefined;
  excludedAttributes?: string | undefined;
}

export type Projection = Pick<ListQuery, 'attributes' | 'excludedAttributes'>;

/**
 * RFC 7644 section 3.4.2.4: `startIndex` is 1-based (below 1 means 1), `count` defaults to 100 and is capped at
 * 200 (below 0 means 0: the answer then carries only `totalResults`).
 */
export function paging(query: ListQuery): { offset: number; limit: number; startIndex: number } {
  const startIndex = Math.max(1, Math.floor(query.startIndex ?? 1));
  const limit = Math.min(MAX_PAGE_SIZE, Math.max(0, Math.floor(query.count ?? DEFAULT_PAGE_SIZE)));
  return { offset: startIndex - 1, limit, startIndex };
}

export function listResponse(resources: Record<string, unknown>[], total: number, startIndex: number) {
  return {
    schemas: [LIST_RESPONSE],
    totalResults: total,
    startIndex,
    itemsPerPage: resources.length,
    Resources: resources,
  };
}

/** A filter parameter as a syntax tree; 400 `invalidFilter` when it cannot be parsed (RFC 7644 section 3.12). */
export function filterOf(text: string | undefined): Filter | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  try {
    return parseFilter(text);
  } catch (error) {
    throw scimErrorOf(error);
  }
}

/** Parser and PATCH failures as RFC 7644 error documents; anything else unchanged. */
export function scimErrorOf(error: unknown): unknown {
  if (error instanceof FilterError) return new ScimError(400, error.message, 'invalidFilter');
  if (error instanceof PatchError) return new ScimError(400, error.message, error.scimType);
  return error;
}

export const notFound = (resource: 'User' | 'Group', id: string) =>
  new ScimError(404, `${resource} ${JSON.stringify(id.slice(0, 64))} not found`);

export const invalidValue = (detail: string) => new ScimError(400, detail, 'invalidValue');

/** The weak entity tag of a version (RFC 7644 section 3.14), as `meta.version` and the ETag header carry it. */
export const etagOf = (version: number) => `W/"${version}"`;

/** RFC 7232 If-Match on PUT, PATCH and DELETE: 412 when the resource changed since the client read it. */
export function checkIfMatch(ifMatch: string | undefined, version: number): void {
  if (!ifMatch || ifMatch.trim() === '*') return;
  const tags = ifMatch.split(',').map((tag) => tag.trim().replace(/^W\//, ''));
  if (!tags.includes(`"${version}"`)) {
    throw new ScimError(412, 'The resource changed since it was read (If-Match does not match its version)');
  }
}

/** Whether a projection keeps `attribute` (so an attribute read from another table is read only when needed). */
export function wants(projection: Projection, attribute: string): boolean {
  const paths = (list: string | undefined) =>
    (list ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase())
      .filter(Boolean)
      .map((name) => name.slice(name.lastIndexOf(':') + 1));
  const wanted = attribute.toLowerCase();
  const included = paths(projection.attributes);
  if (included.length > 0) return included.some((path) => path.split('.')[0] === wanted);
  return !paths(projection.excludedAttributes).includes(wanted);
}

export const MAX_TEXT = 1024;
/** C0 and C1 controls and the bidirectional overrides that can disguise a name (as accounts refuse them). */
const CONTROL = /[\p{Cc}\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

/** A stored string attribute: at most MAX_TEXT characters, no control characters; empty counts as absent. */
export function text(name: string, value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw invalidValue(`${name}: must be a string`);
  const trimmed = value.trim();
  if ([...trimmed].length > MAX_TEXT) throw invalidValue(`${name}: must be at most ${MAX_TEXT} characters`);
  if (CONTROL.test(trimmed)) throw invalidValue(`${name}: must not contain control characters`);
  return trimmed === '' ? null : trimmed;
}

const sqlState = (error: unknown) =>
  (error as { code?: string })?.code ?? (error as { cause?: { code?: string } })?.cause?.code;

/** Unique-constraint violations from a concurrent insert: the loser answers like the check would have. */
export const isUniqueViolation = (error: unknown) => sqlState(error) === '23505';

export const isForeignKeyViolation = (error: unknown) => sqlState(error) === '23503';

export const uniqueness = (detail: string) => new ScimError(409, detail, 'uniqueness');
