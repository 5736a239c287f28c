import { Type } from '@sinclair/typebox';

// TypeBox schemas of the detections routes (Part B 4.8): queries, bodies and answers listing every field.

export const SeverityValue = Type.Union(
  [Type.Literal('info'), Type.Literal('low'), Type.Literal('warn'), Type.Literal('high'), Type.Literal('critical')],
  { description: 'Severity, lowest to highest: info, low, warn, high, critical' },
);
export const Timestamp = Type.String({ format: 'date-time' });
export const TenantFilter = Type.String({
  format: 'uuid',
  description:
    "Read one organization: your own, or (platform operator only) another; another organization's gives 403 " +
    'to everyone else. Without it the platform operator reads every organization, anyone else their own',
});
const DetectionStatusValue = Type.Union([Type.Literal('open'), Type.Literal('acknowledged'), Type.Literal('resolved')]);

export const DetectionParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

export const DetectionListQuery = Type.Object({
  severity: Type.Optional(SeverityValue),
  rule_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'A rule id, exactly' })),
  actor_id: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'Groups keyed on this principal: group key `actor:<id>` or `agent:<id>`',
    }),
  ),
  status: Type.Optional(DetectionStatusValue),
  tenant_id: Type.Optional(TenantFilter),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
});

export const DetectionView = Type.Object({
  id: Type.String({ format: 'uuid' }),
  tenant_id: Type.Union([Type.String({ format: 'uuid' }), Type.Null()], {
    description: 'null for a platform-level detection (no organization)',
  }),
  rule_id: Type.String(),
  group_key: Type.String({
    description: 'What makes two hits one detection: `actor:<user id>`, `agent:<agent id>`, `setting:<key>`…',
  }),
  severity: SeverityValue,
  status: DetectionStatusValue,
  count: Type.Integer({ description: 'Hits counted on this group while it was open' }),
  first_seen: Timestamp,
  last_seen: Timestamp,
  data: Type.Record(Type.String(), Type.Unknown(), { description: 'What the rule recorded on its latest hit' }),
  note: Type.Union([Type.String(), Type.Null()], { description: "The operator's note when settling it" }),
});

export const DetectionList = Type.Object({
  detections: Type.Array(DetectionView, { description: 'Newest first: by `last_seen`, then by id' }),
});

export const DetectionSummaryQuery = Type.Object({
  days: Type.Optional(Type.Integer({ minimum: 1, maximum: 90, default: 7 })),
  tenant_id: Type.Optional(TenantFilter),
});

const Rollup = {
  groups: Type.Integer({ description: 'Detections (deduplicated groups) seen in the window' }),
  open: Type.Integer({ description: 'Of those, still open' }),
  occurrences: Type.Integer({ description: 'Hits counted on those groups' }),
};

export const DetectionSummary = Type.Object({
  tenant_id: Type.Union([Type.String({ format: 'uuid' }), Type.Null()], {
    description: 'The organization summarized; null: every organization (platform operator)',
  }),
  days: Type.Integer(),
  since: Timestamp,
  groups: Rollup.groups,
  open: Rollup.open,
  by_severity: Type.Array(Type.Object({ severity: SeverityValue, ...Rollup }), {
    description: 'Every severity, critical first',
  }),
  by_rule: Type.Array(
    Type.Object({
      rule_id: Type.String(),
      severity: SeverityValue,
      ...Rollup,
      last_seen: Timestamp,
    }),
    { description: 'Rules seen in the window: most open first, then most groups, then rule id' },
  ),
});

export const AcknowledgeBody = Type.Object(
  {
    status: Type.Optional(
      Type.Union([Type.Literal('acknowledged'), Type.Literal('resolved')], {
        description: 'acknowledged (default) or resolved',
      }),
    ),
    note: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: false },
);
