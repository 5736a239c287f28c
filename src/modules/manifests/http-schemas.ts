import { Type } from '@sinclair/typebox';

// TypeBox schemas of the manifest routes (Part B 2.4, 4.6). The envelope's document is checked by the service's
// own parser (document.ts), so every refusal names its field and unknown keys are refused by name.

const EXAMPLE = {
  manifest_version: 1,
  resources: [
    {
      oauth_resource_identifier: 'https://billing.example.com/api',
      namespace: 'billing',
      permissions: [
        { action: 'invoices.read', risk: 10 },
        { action: 'invoices.write', risk: 50 },
      ],
    },
  ],
  roles: [{ code: 'billing-clerk', name: 'Billing clerk', permissions: ['billing:invoices.read', 'command:read'] }],
  invites: [{ email: 'clerk@example.com', role: 'billing-clerk' }],
  sso: { display_name: 'Corporate IdP', issuer: 'https://idp.example.com', client_id: 'svc-prod' },
};

/**
 * The body of every manifest route. Validated by the service (document.ts) rather than here, so that a document
 * posted at the top level and each schema failure get a 422 naming the field.
 */
export const ManifestEnvelope = Type.Object(
  {
    manifest: Type.Optional(
      Type.Unknown({
        description:
          'Required: the manifest document (Part B 2.4): `manifest_version` (1); optional `resources[]` `{oauth_resource_identifier, namespace, permissions[{action, risk?}]}`, `roles[]` `{code, name, permissions[]}` (exact codes), `invites[]` `{email, role}` (never owner or customer), `sso` `{display_name, issuer, client_id, default_role?}` (no secret). Unknown keys are refused by name.',
        examples: [EXAMPLE],
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
