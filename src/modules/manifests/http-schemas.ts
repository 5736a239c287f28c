import { Type } from '@sinclair/typebox';

// TypeBox schemas of the manifest routes (Part B 2.4, 4.6). The envelope's document is checked by the service's
// own parser (document.ts), so every refusal names its field and unknown keys are refused by name; the schema below
// documents it.

const Permission = Type.String({ description: 'An exact permission code; no wildcards' });

export const ManifestDocument = Type.Object(
  {
    manifest_version: Type.Literal(1),
    roles: Type.Optional(
      Type.Array(
        Type.Object(
          {
            code: Type.String({ description: 'A custom role code: lowercase, never a system role' }),
            name: Type.String(),
            permissions: Type.Array(Permission, {
              description: "Catalogue codes, or codes a bound or this manifest's resources declare",
            }),
          },
          { additionalProperties: false },
        ),
      ),
    ),
    resources: Type.Optional(
      Type.Array(
        Type.Object(
          {
            oauth_resource_identifier: Type.String({ description: 'An existing OAuth resource of the organization' }),
            namespace: Type.String({ description: 'Declared codes are `namespace:action`' }),
            permissions: Type.Array(
              Type.Object(
                { action: Type.String(), risk: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })) },
                { additionalProperties: false },
              ),
            ),
          },
          { additionalProperties: false },
        ),
      ),
    ),
    invites: Type.Optional(
      Type.Array(
        Type.Object(
          {
            email: Type.String({ format: 'email' }),
            role: Type.String({ description: 'Never owner or customer' }),
          },
          { additionalProperties: false },
        ),
      ),
    ),
    sso: Type.Optional(
      Type.Object(
        {
          display_name: Type.String(),
          issuer: Type.String({ description: 'https URL of the OpenID Connect issuer' }),
          client_id: Type.String(),
          default_role: Type.Optional(Type.String({ description: 'Never owner or customer' })),
        },
        { additionalProperties: false, description: 'Scaffolded disabled; no secret field' },
      ),
    ),
  },
  { additionalProperties: false },
);

/**
 * The body of every manifest route. Validated by the service (document.ts) rather than here, so that a document
 * posted at the top level and each schema failure get a 422 naming the field; `ManifestDocument` says what it takes.
 */
export const ManifestEnvelope = Type.Object(
  {
    manifest: Type.Optional(
      Type.Unsafe<unknown>({
        ...ManifestDocument,
        description: 'The manifest document (Part B 2.4, manifest_version 1); required',
      }),
    ),
  },
  { additionalProperties: true, description: 'The envelope {"manifest": {...}}; a top-level document is 422' },
);

const Step = Type.Object({
  index: Type.Integer(),
  kind: Type.Union([Type.Literal('resource'), Type.Literal('role'), Type.Literal('invite'), Type.Literal('sso')]),
  target: Type.String(),
  would: Type.Union([Type.Literal('create'), Type.Literal('noop'), Type.Literal('conflict'), Type.Literal('invalid')]),
  detail: Type.Object(
    {},
    { additionalProperties: true, description: 'What the step creates; `reason` when it cannot' },
  ),
});

export const PlanAnswer = Type.Object({
  manifest_hash: Type.String({ description: 'SHA-256 of the RFC 8785 canonical JSON of the document' }),
  plan_hash: Type.String({ description: 'What an approval binds to besides the content and the catalogue version' }),
  catalogue_version: Type.String(),
  appliable: Type.Boolean({ description: 'No conflict and no invalid step' }),
  steps: Type.Array(Step),
  summary: Type.Object({
    steps: Type.Integer(),
    create: Type.Integer(),
    noop: Type.Integer(),
    conflict: Type.Integer(),
    invalid: Type.Integer(),
  }),
  grants: Type.Array(Type.String(), {
    description: 'The exact permission codes the plan would mint into roles or invites',
  }),
});

export const RequestApprovalAnswer = Type.Object({
  manifest_hash: Type.String(),
  approval_id: Type.String({ format: 'uuid' }),
  approval_status: Type.Union([
    Type.Literal('pending'),
    Type.Literal('approved'),
    Type.Literal('denied'),
    Type.Literal('expired'),
    Type.Literal('consumed'),
  ]),
  created: Type.Boolean({ description: 'false: your identical live ask, answered again' }),
  appliable: Type.Boolean(),
});

export const ApplyAnswer = Type.Object({
  manifest_hash: Type.String(),
  approval_id: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
  approved_by: Type.Union([Type.String(), Type.Null()], { description: 'The person whose decision settled the ask' }),
  resumed: Type.Boolean({ description: 'An earlier apply of this manifest had started (or finished)' }),
  applied: Type.Integer({ description: 'Steps applied by this call' }),
  skipped: Type.Integer({ description: 'Steps not run by this call: no-ops and steps finished before' }),
});

const Blocker = Type.Object({
  index: Type.Union([Type.Integer(), Type.Null()]),
  kind: Type.String(),
  target: Type.String(),
  would: Type.String(),
  reason: Type.String(),
});

export const ApplyConflict = Type.Object({
  detail: Type.String(),
  blockers: Type.Array(Blocker, { description: 'Conflicting or invalid steps, or the apply already running' }),
});

export const ApplyRefused = Type.Object({
  detail: Type.String(),
  approval_state: Type.Optional(
    Type.Union([Type.Literal('no-approval'), Type.Literal('plan-changed'), Type.Literal('approver-authority')]),
  ),
  approval_id: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  approval_status: Type.Optional(Type.String()),
  missing: Type.Optional(Type.Array(Type.String())),
});

export const StepFailed = Type.Object({
  detail: Type.String(),
  manifest_hash: Type.String(),
  approval_id: Type.Union([Type.String(), Type.Null()]),
  failed_step: Type.Integer(),
  applied: Type.Integer(),
});

export const SchemaFailure = Type.Object({
  detail: Type.String({ description: 'Every failure, each naming its field' }),
  errors: Type.Optional(Type.Array(Type.String())),
});
