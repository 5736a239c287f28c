import { type TSchema, Type } from '@sinclair/typebox';

/**
 * Route schemas of the SCIM surface. Answers list their members, so nothing else can leak; every member is optional
 * because `attributes` and `excludedAttributes` (RFC 7644 section 3.9) may leave any of them out. Request bodies
 * are checked by the services (PATCH semantics, Entra's string booleans), so their schemas only say "an object".
 */

export const ScimErrorSchema = Type.Object(
  {
    schemas: Type.Array(Type.String(), { description: '["urn:ietf:params:scim:api:messages:2.0:Error"]' }),
    status: Type.String({ description: 'The HTTP status, as a string' }),
    scimType: Type.Optional(
      Type.String({
        description: 'invalidFilter, invalidSyntax, invalidPath, noTarget, invalidValue, mutability, uniqueness',
      }),
    ),
    detail: Type.String(),
  },
  { $id: 'ScimError', description: 'RFC 7644 section 3.12 error document' },
);

export const scimErrors = (...codes: number[]) =>
  Object.fromEntries(codes.map((code) => [code, Type.Ref(ScimErrorSchema)]));

const Str = () => Type.Optional(Type.String());

const Meta = Type.Object({
  resourceType: Str(),
  created: Type.Optional(Type.String({ format: 'date-time' })),
  lastModified: Type.Optional(Type.String({ format: 'date-time' })),
  location: Str(),
  version: Type.Optional(Type.String({ description: 'Weak entity tag, also sent as the ETag header' })),
});

/** A reference to another resource: `value` (its id), `display`, `type`, and `$ref` (its URI). */
const Reference = Type.Object(
  { value: Str(), display: Str(), type: Str() },
  { additionalProperties: true, description: '`value`, `display`, `type` and `$ref` (the URI)' },
);

export const UserSchema = Type.Object({
  schemas: Type.Array(Type.String()),
  id: Type.String(),
  externalId: Str(),
  userName: Str(),
  name: Type.Optional(Type.Object({ formatted: Str(), familyName: Str(), givenName: Str() })),
  displayName: Str(),
  active: Type.Optional(Type.Boolean()),
  emails: Type.Optional(
    Type.Array(Type.Object({ value: Str(), type: Str(), primary: Type.Optional(Type.Boolean()), display: Str() })),
  ),
  groups: Type.Optional(Type.Array(Reference, { description: 'Read-only: change it through the Groups' })),
  meta: Type.Optional(Meta),
});

export const GroupSchema = Type.Object({
  schemas: Type.Array(Type.String()),
  id: Type.String(),
  externalId: Str(),
  displayName: Str(),
  members: Type.Optional(Type.Array(Reference)),
  meta: Type.Optional(Meta),
});

export const listOf = (resource: TSchema) =>
  Type.Object({
    schemas: Type.Array(Type.String()),
    totalResults: Type.Integer(),
    startIndex: Type.Integer(),
    itemsPerPage: Type.Integer(),
    Resources: Type.Array(resource),
  });

/** Discovery documents are fixed text of this service: their members are listed in RFC 7643 sections 5 to 7. */
export const DiscoveryDocument = Type.Object({}, { additionalProperties: true });

export const ResourceBody = (what: string) =>
  Type.Object({}, { additionalProperties: true, description: `${what}; see docs/scim.md` });

const Attributes = {
  attributes: Type.Optional(
    Type.String({ maxLength: 2000, description: 'Comma-separated attributes to return (RFC 7644 section 3.9)' }),
  ),
  excludedAttributes: Type.Optional(
    Type.String({ maxLength: 2000, description: 'Comma-separated attributes to leave out, e.g. `members`' }),
  ),
};

export const ProjectionQuery = Type.Object(Attributes);

export const ListQuery = Type.Object({
  filter: Type.Optional(
    Type.String({ description: 'RFC 7644 section 3.4.2.2: eq ne co sw ew gt ge lt le pr, and or not, ( ), attr[…]' }),
  ),
  startIndex: Type.Optional(Type.Integer({ description: '1-based; below 1 counts as 1' })),
  count: Type.Optional(Type.Integer({ description: 'Default 100, at most 200; 0 answers only totalResults' })),
  sortBy: Type.Optional(Type.String({ description: 'Ignored: sorting is not supported (oldest first)' })),
  sortOrder: Type.Optional(Type.String({ description: 'Ignored' })),
  ...Attributes,
});

export const IdParams = Type.Object({ id: Type.String({ maxLength: 256 }) });
