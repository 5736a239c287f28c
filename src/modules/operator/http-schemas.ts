import { type Static, Type } from '@sinclair/typebox';
import { CapsSchema } from '../pricing/index.js';

/** Request and answer shapes of the operator plane (Part B 2.9, 4.10; ARCHITECTURE.md "Operator tenant administration"). */

const Instant = Type.String({ format: 'date-time' });
const NullableInstant = Type.Union([Instant, Type.Null()]);
const Uuid = Type.String({ format: 'uuid' });

export const IdParams = Type.Object({ id: Uuid });
export const VersionParams = Type.Object({ version: Type.String({ minLength: 1, maxLength: 64 }) });

// Organizations and plans.

export const TenantsQuery = Type.Object({
  q: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Part of the slug or the name' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
  cursor: Type.Optional(
    Type.String({ maxLength: 512, description: 'The `next_cursor` of the previous page: the rows after it' }),
  ),
});
export const TenantView = Type.Object({
  id: Type.String(),
  slug: Type.String(),
  name: Type.String(),
  plan_code: Type.String(),
  created_at: Instant,
  quarantined: Type.Boolean(),
});
export const TenantsPage = Type.Object({
  tenants: Type.Array(TenantView),
  next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as `cursor` for the next page' }),
});
export const PlanBody = Type.Object(
  {
    plan_code: Type.String({ minLength: 1, maxLength: 64, description: 'An entitlement tier: free, pro, enterprise' }),
  },
  { additionalProperties: false },
);

// Tenant operator settings.

const SettingValue = Type.Union([Type.Boolean(), Type.Number(), Type.String()]);
export const OperatorSettingRecord = Type.Object({
  key: Type.String(),
  summary: Type.String(),
  type: Type.Union([Type.Literal('boolean'), Type.Literal('integer'), Type.Literal('string')]),
  default: SettingValue,
  value: SettingValue,
  overridden: Type.Boolean(),
  risk: Type.Union([Type.Literal('low'), Type.Literal('medium'), Type.Literal('high')]),
  editable: Type.Boolean({
    description:
      "true: an operator setting the platform operator sets here; false: the organization's own setting, shown read-only",
  }),
  bounds: Type.Optional(Type.Object({ min: Type.Integer(), max: Type.Integer() })),
  allowed: Type.Optional(Type.Array(Type.String())),
});
export const TenantConfig = Type.Object({ tenant_id: Type.String(), settings: Type.Array(OperatorSettingRecord) });
export const ConfigParams = Type.Object({ id: Uuid, key: Type.String({ minLength: 1, maxLength: 128 }) });
/** Checked against the key's bounds by the service (400 stating the rule), never coerced. */
export const ConfigBody = Type.Object({ value: Type.Unknown() });

// Licences.

const FeatureCode = Type.String({ pattern: '^[a-z][a-z0-9_]{0,63}$' });
export const LicenceBody = Type.Object(
  {
    licensee: Type.String({ minLength: 1, maxLength: 200 }),
    install_id: Type.String({ minLength: 1, maxLength: 200 }),
    plan_code: Type.String({ minLength: 1, maxLength: 64, description: 'An entitlement tier, else 422' }),
    term_days: Type.Integer({ minimum: 1, maximum: 3650 }),
    maintenance_days: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 3650, description: 'Default `term_days`; sets `maintenance_expires_at`' }),
    ),
    features_extra: Type.Optional(Type.Array(FeatureCode, { maxItems: 64, uniqueItems: true })),
    caps: Type.Optional(Type.Partial(CapsSchema, { additionalProperties: false })),
    tenant_id: Type.Optional(Uuid),
  },
  { additionalProperties: false },
);
export type LicenceInput = Static<typeof LicenceBody>;
export const LicenceView = Type.Object({
  id: Type.String({ description: 'The licence’s `licence_pk`' }),
  licensee: Type.String(),
  install_id: Type.String(),
  plan_code: Type.String(),
  term_days: Type.Integer(),
  maintenance_days: Type.Union([Type.Integer(), Type.Null()]),
  features_extra: Type.Array(Type.String()),
  caps: Type.Record(Type.String(), Type.Union([Type.Integer(), Type.Null()])),
  tenant_id: Type.Union([Type.String(), Type.Null()]),
  status: Type.Union([Type.Literal('active'), Type.Literal('expired'), Type.Literal('revoked')]),
  issued_at: Instant,
  expires_at: Instant,
  maintenance_expires_at: Instant,
  revoked_at: NullableInstant,
});
export const IssuedLicence = Type.Composite([
  LicenceView,
  Type.Object({ licence_jwt: Type.String({ description: 'The signed bundle, answered this once' }) }),
]);

// Distribution credentials.

export const CredentialBody = Type.Object(
  {
    licence_pk: Uuid,
    label: Type.String({ minLength: 1, maxLength: 200 }),
    expires_days: Type.Optional(Type.Integer({ minimum: 1, maximum: 1830, default: 365 })),
  },
  { additionalProperties: false },
);
export const CredentialView = Type.Object({
  id: Type.String(),
  licence_pk: Type.String(),
  label: Type.String(),
  public_prefix: Type.String({ description: 'The first characters of the credential, to recognise it' }),
  status: Type.Union([Type.Literal('active'), Type.Literal('expired'), Type.Literal('revoked')]),
  created_at: Instant,
  expires_at: Instant,
  revoked_at: NullableInstant,
  last_used_at: NullableInstant,
});
export const IssuedCredential = Type.Composite([
  CredentialView,
  Type.Object({ credential: Type.String({ description: '`zdc_…`, answered this once; only its SHA-256 is kept' }) }),
]);

// Releases.

export const ReleaseBody = Type.Object(
  {
    version: Type.String({ minLength: 1, maxLength: 64, description: 'Strictly vX.Y.Z, else 422' }),
    object_key: Type.String({ minLength: 1, maxLength: 1024 }),
    checksum_sha256: Type.String({ minLength: 1, maxLength: 128, description: '64 hexadecimal characters, else 422' }),
    size_bytes: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
    published_at: Type.String({ format: 'date-time', description: 'The commercial date the maintenance term covers' }),
  },
  { additionalProperties: false },
);
export type ReleaseInput = Static<typeof ReleaseBody>;
export const ReleaseView = Type.Object({
  version: Type.String(),
  object_key: Type.String(),
  checksum_sha256: Type.String(),
  size_bytes: Type.Integer(),
  published_at: Instant,
  status: Type.Union([Type.Literal('published'), Type.Literal('yanked')]),
  created_at: Instant,
  yanked_at: NullableInstant,
});

// Downloads.

export const ObjectQuery = Type.Object({
  expires: Type.String({ maxLength: 16 }),
  sha256: Type.String({ maxLength: 64 }),
  size: Type.String({ maxLength: 20 }),
  signature: Type.String({ maxLength: 64 }),
});
