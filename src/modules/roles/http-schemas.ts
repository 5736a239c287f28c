import { type Static, Type } from '@sinclair/typebox';

// TypeBox schemas of the custom roles admin API (Part A 5.9, ARCHITECTURE.md "Custom roles"): the answers list
// every field, so nothing else can leak.

export const ROLE_CODE_PATTERN = '^[a-z][a-z0-9_-]{1,63}$';

const Code = Type.String({
  pattern: ROLE_CODE_PATTERN,
  description: 'Lowercase, 2 to 64 characters: a letter, then letters, digits, `_` or `-`; never a system role',
});
const Name = Type.String({ minLength: 1, maxLength: 100, description: 'Shown in the console and the catalogue' });
const Description = Type.String({ maxLength: 500 });
const Permissions = Type.Array(Type.String({ minLength: 1, maxLength: 128 }), {
  maxItems: 100,
  description:
    'Exact permission codes of the catalogue (no wildcards), each one you hold yourself; every holder also keeps the baseline `identity:self:write`',
});

export const RoleParams = Type.Object({
  code: Type.String({ minLength: 1, maxLength: 64, description: 'The custom role code' }),
});
export type RoleParamsType = Static<typeof RoleParams>;

export const CreateRoleBody = Type.Object(
  { code: Code, name: Name, description: Type.Optional(Description), permissions: Permissions },
  { additionalProperties: false },
);
export type CreateRoleInput = Static<typeof CreateRoleBody>;

export const PatchRoleBody = Type.Object(
  {
    name: Type.Optional(Name),
    description: Type.Optional(Type.Union([Description, Type.Null()])),
    permissions: Type.Optional(Permissions),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type PatchRoleInput = Static<typeof PatchRoleBody>;

export const RoleView = Type.Object({
  code: Type.String(),
  name: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]),
  permissions: Type.Array(Type.String(), { description: 'Exactly what the role grants, sorted' }),
  read_only: Type.Boolean({
    description: 'Every permission of the role is read-only: it opens no state-changing route',
  }),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});
export type RoleViewType = Static<typeof RoleView>;

export const RoleList = Type.Array(RoleView);
