import { Type } from '@sinclair/typebox';
import { SeverityValue, TenantFilter, Timestamp } from './detections-schemas.js';

// TypeBox schemas of the compliance routes (Part B 4.8). `framework` is a plain string here: the service answers
// 422 listing the known set (soc2, iso27001, gdpr) for a missing or unknown one.

const Uuid = Type.String({ format: 'uuid' });
const FrameworkParam = Type.String({
  minLength: 1,
  maxLength: 40,
  description: 'soc2, iso27001 or gdpr; a missing or unknown one is 422 listing them',
});
const SettingValue = Type.Union([Type.Boolean(), Type.Number(), Type.String()]);
const NullableSettingValue = Type.Union([SettingValue, Type.Null()]);

export const ControlsQuery = Type.Object({ framework: Type.Optional(FrameworkParam) });

const ControlEntry = Type.Object({
  id: Type.String({ description: "The control's id in its framework (CC6.1, A.8.5, Art.30)" }),
  tag: Type.String({ description: 'The compliance tag audit entries carry for it (`soc2:CC6.1`)' }),
  title: Type.String(),
  evidence: Type.Object({
    tag: Type.String({ description: 'Audit entries carrying this tag evidence the control' }),
    actions: Type.Array(Type.String(), { description: 'So do audit entries of these event actions' }),
    settings: Type.Array(Type.Object({ key: Type.String(), expected: SettingValue, why: Type.String() }), {
      description: 'Settings that must hold these values for the control to be satisfied',
    }),
  }),
});

export const ControlCatalogue = Type.Object({
  frameworks: Type.Array(
    Type.Object({ framework: Type.String(), name: Type.String(), controls: Type.Array(ControlEntry) }),
  ),
});

const Window = {
  framework: Type.Optional(FrameworkParam),
  days: Type.Optional(Type.Integer({ minimum: 1, maximum: 3650, default: 90 })),
  tenant_id: Type.Optional(TenantFilter),
};

export const EvidenceQuery = Type.Object({
  ...Window,
  export: Type.Optional(
    Type.Boolean({ default: false, description: 'true: every evidencing entry per control, not only the newest 3' }),
  ),
});

export const ReportQuery = Type.Object(Window);

const Gap = Type.Object({
  control: Type.String(),
  tag: Type.String(),
  title: Type.String(),
  reasons: Type.Array(Type.String(), { description: 'Why the control is not satisfied' }),
});

const Head = {
  framework: Type.String(),
  framework_name: Type.String(),
  tenant_id: Uuid,
  days: Type.Integer(),
  since: Timestamp,
  generated_at: Timestamp,
  controls_total: Type.Integer(),
  readiness_pct: Type.Number({ description: 'Satisfied controls over all controls, in percent (one decimal)' }),
};

const Sample = Type.Object({
  seq: Type.Integer({ description: "The audit entry's sequence number in the chain" }),
  entry_hash: Type.String({ description: "The audit entry's hash (GET /command/audit shows the same)" }),
  event_id: Uuid,
  action: Type.String(),
  occurred_at: Timestamp,
  actor: Type.Object({ id: Type.String(), type: Type.String() }),
  outcome: Type.String(),
  compliance_tags: Type.Array(Type.String()),
});

export const Evidence = Type.Object({
  ...Head,
  export: Type.Boolean(),
  satisfied: Type.Integer({ description: 'How many controls are satisfied' }),
  gaps: Type.Array(Gap),
  controls: Type.Array(
    Type.Object({
      id: Type.String(),
      tag: Type.String(),
      title: Type.String(),
      satisfied: Type.Boolean(),
      evidence_count: Type.Integer({ description: 'Audit entries in the window evidencing it' }),
      samples: Type.Array(Sample, { description: 'Newest first: 3 at most, every one with export=true' }),
      settings: Type.Array(
        Type.Object({
          key: Type.String(),
          expected: SettingValue,
          value: NullableSettingValue,
          holds: Type.Boolean(),
          why: Type.String(),
          last_change: Type.Union(
            [Type.Object({ seq: Type.Integer(), entry_hash: Type.String(), occurred_at: Timestamp }), Type.Null()],
            { description: 'The audit entry of its latest change; null: never changed (the default)' },
          ),
        }),
      ),
      gaps: Type.Array(Type.String()),
    }),
  ),
});

export const Report = Type.Object({
  ...Head,
  satisfied_count: Type.Integer(),
  gap_count: Type.Integer(),
  satisfied: Type.Array(Type.String(), { description: 'Ids of the satisfied controls' }),
  gaps: Type.Array(Gap),
  open_incidents: Type.Object(
    {
      count: Type.Integer({ description: 'Unresolved incidents (open, investigating, contained), however old' }),
      by_severity: Type.Array(Type.Object({ severity: SeverityValue, count: Type.Integer() })),
      oldest_opened_at: Type.Union([Timestamp, Type.Null()]),
      oldest_age_seconds: Type.Union([Type.Integer(), Type.Null()]),
    },
    { description: "The organization's unresolved incidents" },
  ),
  posture: Type.Union([Type.Literal('strong'), Type.Literal('needs_attention'), Type.Literal('at_risk')], {
    description:
      'at_risk: readiness below 50% or an unresolved critical incident; needs_attention: readiness below 90% or ' +
      'an unresolved high incident; strong otherwise',
  }),
});
