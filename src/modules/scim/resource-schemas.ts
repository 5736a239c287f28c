/**
 * The SCIM resource schemas this service keeps (RFC 7643 sections 4.1, 4.2 and 7): the attribute definitions that
 * PATCH, PUT and the projection of answers read, and the discovery documents of `/Schemas`, `/ResourceTypes` and
 * `/ServiceProviderConfig` (RFC 7644 section 4). Attributes outside these definitions (phone numbers, addresses,
 * the enterprise extension…) are not stored: identity needs none of them (data minimisation), and ignoring them
 * lets identity providers send their default mappings unchanged.
 */

export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const LIST_RESPONSE = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
export const SCHEMA_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Schema';
export const RESOURCE_TYPE_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ResourceType';
export const SERVICE_PROVIDER_CONFIG_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig';

/** RFC 7644 section 3.4.2.4: `count` defaults to this and is capped at MAX_PAGE_SIZE. */
export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 200;
/** Operations in one PATCH request: the longest Entra or Okta batch is far below it. */
export const MAX_PATCH_OPERATIONS = 1000;

export type AttributeType = 'string' | 'boolean' | 'complex' | 'dateTime' | 'reference';

/** RFC 7643 section 7 attribute characteristics, the subset this service uses. */
export interface AttributeDef {
  name: string;
  type: AttributeType;
  multiValued: boolean;
  description: string;
  required: boolean;
  caseExact: boolean;
  mutability: 'readOnly' | 'readWrite' | 'immutable' | 'writeOnly';
  returned: 'always' | 'default' | 'never' | 'request';
  uniqueness: 'none' | 'server' | 'global';
  subAttributes?: AttributeDef[];
  canonicalValues?: string[];
  referenceTypes?: string[];
}

const attribute = (
  name: string,
  type: AttributeType,
  description: string,
  more: Partial<AttributeDef> = {},
): AttributeDef => ({
  name,
  type,
  multiValued: false,
  description,
  required: false,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'default',
  uniqueness: 'none',
  ...more,
});

/** `id`, `externalId` and `meta` belong to every resource (RFC 7643 section 3.1); `/Schemas` does not list them. */
export const COMMON_ATTRIBUTES: AttributeDef[] = [
  attribute('id', 'string', 'Identifier assigned by the service; never reassigned', {
    caseExact: true,
    mutability: 'readOnly',
    returned: 'always',
    uniqueness: 'server',
  }),
  attribute('externalId', 'string', 'Identifier of the resource at the identity provider', { caseExact: true }),
  attribute('meta', 'complex', 'Resource metadata', { mutability: 'readOnly' }),
];

export const USER_ATTRIBUTES: AttributeDef[] = [
  attribute(
    'userName',
    'string',
    'Unique in the organization. When it is an email address it is the account’s sign-in address; otherwise the ' +
      'primary (else the first) email is',
    { required: true, uniqueness: 'server' },
  ),
  attribute('name', 'complex', 'The person’s name', {
    subAttributes: [
      attribute('formatted', 'string', 'Full name, formatted for display'),
      attribute('familyName', 'string', 'Family name'),
      attribute('givenName', 'string', 'Given name'),
    ],
  }),
  attribute('displayName', 'string', 'Name shown to others'),
  attribute('active', 'boolean', 'false suspends the membership and ends the person’s sessions in the organization'),
  attribute('emails', 'complex', 'Email addresses; at most one primary', {
    multiValued: true,
    subAttributes: [
      attribute('value', 'string', 'The address'),
      attribute('display', 'string', 'Label for display'),
      attribute('type', 'string', 'Kind of address', { canonicalValues: ['work', 'home', 'other'] }),
      attribute('primary', 'boolean', 'The preferred address'),
    ],
  }),
  attribute('groups', 'complex', 'Groups the user belongs to (change them through the Group resource)', {
    multiValued: true,
    mutability: 'readOnly',
    subAttributes: [
      attribute('value', 'string', 'Group id', { mutability: 'readOnly', caseExact: true }),
      attribute('$ref', 'reference', 'Group URI', { mutability: 'readOnly', referenceTypes: ['Group'] }),
      attribute('display', 'string', 'Group displayName', { mutability: 'readOnly' }),
      attribute('type', 'string', 'Membership kind', { mutability: 'readOnly', canonicalValues: ['direct'] }),
    ],
  }),
];

export const GROUP_ATTRIBUTES: AttributeDef[] = [
  attribute('displayName', 'string', 'Unique in the organization (compared without regard to case)', {
    required: true,
    uniqueness: 'server',
  }),
  attribute('members', 'complex', 'Users of the organization in the group (groups do not nest)', {
    multiValued: true,
    subAttributes: [
      attribute('value', 'string', 'User id', { mutability: 'immutable', caseExact: true }),
      attribute('$ref', 'reference', 'User URI', { mutability: 'immutable', referenceTypes: ['User'] }),
      attribute('display', 'string', 'User displayName or userName', { mutability: 'readOnly' }),
      attribute('type', 'string', 'Always User', { mutability: 'immutable', canonicalValues: ['User'] }),
    ],
  }),
];

export interface ResourceDef {
  name: 'User' | 'Group';
  schema: string;
  endpoint: string;
  attributes: AttributeDef[];
}

export const USER_RESOURCE: ResourceDef = {
  name: 'User',
  schema: USER_SCHEMA,
  endpoint: '/Users',
  attributes: [...COMMON_ATTRIBUTES, ...USER_ATTRIBUTES],
};
export const GROUP_RESOURCE: ResourceDef = {
  name: 'Group',
  schema: GROUP_SCHEMA,
  endpoint: '/Groups',
  attributes: [...COMMON_ATTRIBUTES, ...GROUP_ATTRIBUTES],
};

/** An attribute (or sub-attribute) definition by name, compared without regard to case. */
export function findAttribute(list: readonly AttributeDef[] | undefined, name: string): AttributeDef | undefined {
  const wanted = name.toLowerCase();
  return list?.find((a) => a.name.toLowerCase() === wanted);
}

const meta = (baseUrl: string, resourceType: string, path: string) => ({
  resourceType,
  location: `${baseUrl}${path}`,
});

/** RFC 7644 section 5: what this service supports, as identity providers read it before provisioning. */
export function serviceProviderConfig(baseUrl: string) {
  return {
    schemas: [SERVICE_PROVIDER_CONFIG_SCHEMA],
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: MAX_PAGE_SIZE },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: true },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'OAuth Bearer Token',
        description: 'The organization’s SCIM token: Authorization: Bearer scim_…',
        specUri: 'https://www.rfc-editor.org/rfc/rfc6750',
        primary: true,
      },
    ],
    meta: meta(baseUrl, 'ServiceProviderConfig', '/ServiceProviderConfig'),
  };
}

export function resourceTypes(baseUrl: string) {
  return [USER_RESOURCE, GROUP_RESOURCE].map((resource) => ({
    schemas: [RESOURCE_TYPE_SCHEMA],
    id: resource.name,
    name: resource.name,
    endpoint: resource.endpoint,
    description: resource.name === 'User' ? 'A member of the organization' : 'A group of members',
    schema: resource.schema,
    schemaExtensions: [],
    meta: meta(baseUrl, 'ResourceType', `/ResourceTypes/${resource.name}`),
  }));
}

export function schemaDocuments(baseUrl: string) {
  return [
    { id: USER_SCHEMA, name: 'User', description: 'User account', attributes: USER_ATTRIBUTES },
    { id: GROUP_SCHEMA, name: 'Group', description: 'Group', attributes: GROUP_ATTRIBUTES },
  ].map((schema) => ({
    schemas: [SCHEMA_SCHEMA],
    ...schema,
    meta: meta(baseUrl, 'Schema', `/Schemas/${schema.id}`),
  }));
}

/**
 * RFC 7644 section 3.9 `attributes` and `excludedAttributes` (comma-separated, `name.givenName` reaches a
 * sub-attribute): `id` and `schemas` are always returned. Names are compared without regard to case and may carry
 * the resource's schema URI.
 */
export function project(
  resource: Record<string, unknown>,
  schema: string,
  query: { attributes?: string | undefined; excludedAttributes?: string | undefined },
): Record<string, unknown> {
  const parse = (list: string | undefined) =>
    (list ?? '')
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean)
      .map((name) => {
        const prefix = `${schema.toLowerCase()}:`;
        const lower = name.toLowerCase();
        return (lower.startsWith(prefix) ? lower.slice(prefix.length) : lower).split('.');
      });
  const always = new Set(['id', 'schemas']);
  const included = parse(query.attributes);
  const excluded = parse(query.excludedAttributes);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(resource)) {
    const lower = key.toLowerCase();
    if (always.has(lower)) {
      out[key] = value;
      continue;
    }
    if (included.length > 0) {
      const wanted = included.filter((path) => path[0] === lower);
      if (wanted.length === 0) continue;
      const subs = wanted.map((path) => path[1]).filter((sub): sub is string => sub !== undefined);
      out[key] = wanted.some((path) => path.length === 1) ? value : pick(value, subs, true);
      continue;
    }
    const dropped = excluded.filter((path) => path[0] === lower);
    if (dropped.some((path) => path.length === 1)) continue;
    const subs = dropped.map((path) => path[1]).filter((sub): sub is string => sub !== undefined);
    out[key] = subs.length > 0 ? pick(value, subs, false) : value;
  }
  return out;
}

/** Keeps (or drops) the named sub-attributes of a complex value or of each element of a multi-valued one. */
function pick(value: unknown, subs: string[], keep: boolean): unknown {
  const one = (object: unknown) =>
    object && typeof object === 'object'
      ? Object.fromEntries(Object.entries(object).filter(([key]) => subs.includes(key.toLowerCase()) === keep))
      : object;
  return Array.isArray(value) ? value.map(one) : one(value);
}
