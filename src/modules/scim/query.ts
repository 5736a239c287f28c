import { type SQL, sql } from 'drizzle-orm';
import { filterOf, scimErrorOf } from './common.js';
import { type AttrPath, type CompareOp, type CompValue, type Filter, FilterError } from './filter.js';
import { GROUP_SCHEMA, USER_SCHEMA } from './resource-schemas.js';
import { scimGroups, scimUsers } from './schema.js';

/**
 * SCIM filters compiled to SQL over this module's tables, so a list query filters in the database (Entra and Okta
 * look every user up by `userName eq`, which an index answers). Every comparison is wrapped so that it is true or
 * false, never null: `not (…)` then means what it says (RFC 7644 section 3.4.2.2). Strings compare without
 * regard to case unless the attribute is case-exact (RFC 7643: `id`, `externalId`, member references).
 */

type ScalarType = 'string' | 'boolean' | 'dateTime';

interface Scalar {
  kind: 'scalar';
  type: ScalarType;
  caseExact: boolean;
  expr: SQL;
}

/** A multi-valued attribute: a condition on its elements becomes `exists (… where condition)`. */
interface Multi {
  kind: 'multi';
  /** The sub-attribute a bare name compares (`emails eq "a@b"` compares `emails.value`). */
  defaultSub: string;
  subs: Record<string, Scalar>;
  exists(condition: SQL): SQL;
}

/** A single complex attribute (`name`): only `pr` applies to it as a whole. */
interface Complex {
  kind: 'complex';
  subs: Scalar[];
}

export interface AttributeMap {
  schema: string;
  attributes: Record<string, Scalar | Multi | Complex>;
}

const scalar = (type: ScalarType, expr: SQL, caseExact = false): Scalar => ({ kind: 'scalar', type, caseExact, expr });

const givenName = scalar('string', sql`${scimUsers.givenName}`);
const familyName = scalar('string', sql`${scimUsers.familyName}`);
const formattedName = scalar('string', sql`${scimUsers.formattedName}`);

/** The User attributes a filter may name (lowercased; sub-attributes of `name` and `meta` by their dotted path). */
export const USER_FILTER_MAP: AttributeMap = {
  schema: USER_SCHEMA,
  attributes: {
    id: scalar('string', sql`${scimUsers.id}::text`, true),
    externalid: scalar('string', sql`${scimUsers.externalId}`, true),
    username: scalar('string', sql`${scimUsers.userName}`),
    displayname: scalar('string', sql`${scimUsers.displayName}`),
    active: scalar('boolean', sql`${scimUsers.active}`),
    name: { kind: 'complex', subs: [givenName, familyName, formattedName] },
    'name.givenname': givenName,
    'name.familyname': familyName,
    'name.formatted': formattedName,
    emails: {
      kind: 'multi',
      defaultSub: 'value',
      subs: {
        value: scalar('string', sql`(scim_email.item->>'value')`),
        type: scalar('string', sql`(scim_email.item->>'type')`),
        display: scalar('string', sql`(scim_email.item->>'display')`),
        primary: scalar('boolean', sql`(scim_email.item->>'primary')::boolean`),
      },
      exists: (condition) =>
        sql`exists (select 1 from jsonb_array_elements(${scimUsers.emails}) as scim_email(item) where ${condition})`,
    },
    groups: {
      kind: 'multi',
      defaultSub: 'value',
      subs: { value: scalar('string', sql`scim_gm.group_id::text`, true) },
      exists: (condition) =>
        sql`exists (select 1 from scim_group_members scim_gm where scim_gm.tenant_id = ${scimUsers.tenantId}
                    and scim_gm.member_id = ${scimUsers.id} and ${condition})`,
    },
    'meta.created': scalar('dateTime', sql`${scimUsers.createdAt}`),
    'meta.lastmodified': scalar('dateTime', sql`${scimUsers.updatedAt}`),
  },
};

export const GROUP_FILTER_MAP: AttributeMap = {
  schema: GROUP_SCHEMA,
  attributes: {
    id: scalar('string', sql`${scimGroups.id}::text`, true),
    externalid: scalar('string', sql`${scimGroups.externalId}`, true),
    displayname: scalar('string', sql`${scimGroups.displayName}`),
    members: {
      kind: 'multi',
      defaultSub: 'value',
      subs: { value: scalar('string', sql`scim_gm.member_id::text`, true) },
      exists: (condition) =>
        sql`exists (select 1 from scim_group_members scim_gm where scim_gm.tenant_id = ${scimGroups.tenantId}
                    and scim_gm.group_id = ${scimGroups.id} and ${condition})`,
    },
    'meta.created': scalar('dateTime', sql`${scimGroups.createdAt}`),
    'meta.lastmodified': scalar('dateTime', sql`${scimGroups.updatedAt}`),
  },
};

const display = (path: AttrPath) =>
  [path.uri, [path.attr, path.sub].filter(Boolean).join('.')].filter(Boolean).join(':');

function resolve(path: AttrPath, map: AttributeMap): Scalar | Multi | Complex {
  if (path.uri && path.uri.toLowerCase() !== map.schema.toLowerCase()) {
    throw new FilterError(`Unsupported attribute "${display(path)}"`);
  }
  const attr = path.attr.toLowerCase();
  const whole = map.attributes[attr];
  if (whole?.kind === 'multi' || path.sub === undefined) {
    if (!whole) throw new FilterError(`Unsupported attribute "${display(path)}"`);
    return whole;
  }
  const sub = map.attributes[`${attr}.${path.sub.toLowerCase()}`];
  if (!sub) throw new FilterError(`Unsupported attribute "${display(path)}"`);
  return sub;
}

function comparison(target: Scalar, op: CompareOp | 'pr', value: CompValue, name: string): SQL {
  const { expr } = target;
  if (op === 'pr') return target.type === 'string' ? sql`coalesce(${expr} <> '', false)` : sql`(${expr} is not null)`;
  if (value === null) {
    if (op === 'eq') return sql`(${expr} is null)`;
    if (op === 'ne') return sql`(${expr} is not null)`;
    throw new FilterError(`${name}: only eq and ne compare with null`);
  }
  if (target.type === 'boolean') {
    if (typeof value !== 'boolean') throw new FilterError(`${name}: compares with true or false`);
    if (op === 'eq') return sql`coalesce(${expr} = ${value}, false)`;
    if (op === 'ne') return sql`(${expr} is distinct from ${value})`;
    throw new FilterError(`${name}: a boolean supports eq and ne only`);
  }
  if (typeof value !== 'string') throw new FilterError(`${name}: compares with a string`);
  if (target.type === 'dateTime') {
    if (Number.isNaN(Date.parse(value))) throw new FilterError(`${name}: "${value}" is not a date-time`);
    const at = sql`${new Date(value).toISOString()}::timestamptz`;
    const ordered: Partial<Record<CompareOp, SQL>> = {
      eq: sql`coalesce(${expr} = ${at}, false)`,
      ne: sql`(${expr} is distinct from ${at})`,
      gt: sql`coalesce(${expr} > ${at}, false)`,
      ge: sql`coalesce(${expr} >= ${at}, false)`,
      lt: sql`coalesce(${expr} < ${at}, false)`,
      le: sql`coalesce(${expr} <= ${at}, false)`,
    };
    const condition = ordered[op];
    if (!condition) throw new FilterError(`${name}: a date-time supports eq, ne, gt, ge, lt and le`);
    return condition;
  }
  const left = target.caseExact ? expr : sql`lower(${expr})`;
  const right = sql`${target.caseExact ? value : value.toLowerCase()}::text`;
  switch (op) {
    case 'eq':
      return sql`coalesce(${left} = ${right}, false)`;
    case 'ne':
      return sql`(${left} is distinct from ${right})`;
    case 'co':
      return sql`coalesce(strpos(${left}, ${right}) > 0, false)`;
    case 'sw':
      return sql`coalesce(starts_with(${left}, ${right}), false)`;
    case 'ew':
      return sql`coalesce(right(${left}, char_length(${right})) = ${right}, false)`;
    case 'gt':
      return sql`coalesce(${left} > ${right}, false)`;
    case 'ge':
      return sql`coalesce(${left} >= ${right}, false)`;
    case 'lt':
      return sql`coalesce(${left} < ${right}, false)`;
    case 'le':
      return sql`coalesce(${left} <= ${right}, false)`;
  }
}

/** The SQL condition of a parsed filter over `map`; FilterError (400 invalidFilter) for what it cannot express. */
export function compileFilter(filter: Filter, map: AttributeMap): SQL {
  switch (filter.op) {
    case 'and':
      return sql`(${compileFilter(filter.left, map)} and ${compileFilter(filter.right, map)})`;
    case 'or':
      return sql`(${compileFilter(filter.left, map)} or ${compileFilter(filter.right, map)})`;
    case 'not':
      return sql`(not ${compileFilter(filter.filter, map)})`;
    case 'valuePath': {
      const target = resolve(filter.path, map);
      if (target.kind !== 'multi') throw new FilterError(`${display(filter.path)}: is not multi-valued`);
      const elements: AttributeMap = { schema: map.schema, attributes: target.subs };
      return target.exists(compileFilter(filter.filter, elements));
    }
    default: {
      const target = resolve(filter.path, map);
      const value = filter.op === 'pr' ? null : filter.value;
      const name = display(filter.path);
      if (target.kind === 'scalar') return comparison(target, filter.op, value, name);
      if (target.kind === 'complex') {
        if (filter.op !== 'pr') throw new FilterError(`${name}: name a sub-attribute to compare`);
        return sql`(${sql.join(
          target.subs.map((sub) => comparison(sub, 'pr', null, name)),
          sql` or `,
        )})`;
      }
      if (filter.op === 'pr' && filter.path.sub === undefined) return target.exists(sql`true`);
      const subName = (filter.path.sub ?? target.defaultSub).toLowerCase();
      const sub = target.subs[subName];
      if (!sub) throw new FilterError(`Unsupported attribute "${name}"`);
      return target.exists(comparison(sub, filter.op, value, name));
    }
  }
}

/** The SQL condition of a request's `filter` parameter (none when absent); 400 `invalidFilter` when it is not one. */
export function whereOfFilter(text: string | undefined, map: AttributeMap): SQL | undefined {
  const filter = filterOf(text);
  try {
    return filter && compileFilter(filter, map);
  } catch (error) {
    throw scimErrorOf(error);
  }
}
