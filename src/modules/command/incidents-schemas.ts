import { Type } from '@sinclair/typebox';
import { SeverityValue, TenantFilter, Timestamp } from './detections-schemas.js';

// TypeBox schemas of the incidents routes (Part B 2.7, 4.8).

const Uuid = Type.String({ format: 'uuid' });
const StatusValue = Type.Union(
  [
    Type.Literal('open'),
    Type.Literal('investigating'),
    Type.Literal('contained'),
    Type.Literal('resolved'),
    Type.Literal('closed'),
  ],
  {
    description:
      'open -> investigating | contained | resolved | closed; investigating -> contained | resolved | closed; ' +
      'contained -> investigating | resolved | closed; resolved -> investigating | closed; closed is final',
  },
);
const Text = (description: string) =>
  Type.Union([Type.String({ minLength: 1, maxLength: 10_000 }), Type.Null()], { description });
const Assignee = Type.Union([Uuid, Type.Null()], {
  description: 'The user id of an active workforce member of your organization (else 422); null: nobody',
});

export const IncidentParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

export const OpenIncidentBody = Type.Object(
  {
    title: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
    severity: SeverityValue,
    description: Type.Optional(Text('What happened, as known when opening it')),
    detection_ids: Type.Optional(
      Type.Array(Type.String({ maxLength: 100 }), {
        maxItems: 100,
        description:
          "Your organization's detections this incident gathers (at most 100); a malformed, unknown or another " +
          "organization's id is 422 naming it",
      }),
    ),
    assignee: Type.Optional(Assignee),
  },
  { additionalProperties: false },
);

export const ChangeIncidentBody = Type.Object(
  {
    status: Type.Optional(StatusValue),
    assignee: Type.Optional(Assignee),
    containment: Type.Optional(Text('What was done to stop the incident spreading')),
    remediation: Type.Optional(Text('What was done to remove its cause and recover')),
    root_cause: Type.Optional(Text('Why it happened')),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const IncidentView = Type.Object({
  id: Uuid,
  tenant_id: Uuid,
  title: Type.String(),
  severity: SeverityValue,
  description: Type.Union([Type.String(), Type.Null()]),
  detection_ids: Type.Array(Uuid),
  assignee: Type.Union([Uuid, Type.Null()]),
  status: StatusValue,
  containment: Type.Union([Type.String(), Type.Null()]),
  remediation: Type.Union([Type.String(), Type.Null()]),
  root_cause: Type.Union([Type.String(), Type.Null()]),
  opened_by: Type.Object({ id: Type.String(), type: Type.String() }, { description: 'The actor who opened it' }),
  created_at: Timestamp,
  updated_at: Timestamp,
  resolved_at: Type.Union([Timestamp, Type.Null()], { description: 'When it was last resolved' }),
  closed_at: Type.Union([Timestamp, Type.Null()]),
});

export const IncidentListQuery = Type.Object({
  status: Type.Optional(StatusValue),
  severity: Type.Optional(SeverityValue),
  tenant_id: Type.Optional(TenantFilter),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
});

export const IncidentList = Type.Object({
  incidents: Type.Array(IncidentView, { description: 'Newest first: by `created_at`, then by id' }),
});

export const IncidentSummaryQuery = Type.Object({
  days: Type.Optional(Type.Integer({ minimum: 1, maximum: 365, default: 90 })),
  tenant_id: Type.Optional(TenantFilter),
});

const BySeverity = Type.Array(Type.Object({ severity: SeverityValue, count: Type.Integer() }), {
  description: 'Every severity, critical first',
});

export const IncidentSummary = Type.Object({
  tenant_id: Type.Union([Uuid, Type.Null()], {
    description: 'The organization summarized; null: every organization (platform operator)',
  }),
  days: Type.Integer(),
  since: Timestamp,
  total: Type.Integer({ description: 'Incidents opened in the window' }),
  by_status: Type.Array(Type.Object({ status: StatusValue, count: Type.Integer() }), {
    description: 'Incidents opened in the window, by their status now',
  }),
  by_severity: BySeverity,
  unresolved: Type.Object(
    {
      count: Type.Integer({ description: 'Every incident open, investigating or contained, however old' }),
      by_severity: BySeverity,
      oldest_opened_at: Type.Union([Timestamp, Type.Null()]),
      oldest_age_seconds: Type.Union([Type.Integer(), Type.Null()], {
        description: 'Age of the oldest unresolved incident; null when there is none',
      }),
    },
    { description: 'The whole backlog: ignores the window' },
  ),
});
