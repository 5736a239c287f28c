import { type Static, Type } from '@sinclair/typebox';
import { LEVELS, RESPONSE_CLASSES } from './catalogue.js';

// TypeBox schemas of /api/v1/autonomy (Part B 2.8, 4.9): answers list every field, so nothing else can leak.

const Timestamp = Type.String({ format: 'date-time' });
const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);
const literals = (values: readonly string[]) => Type.Union(values.map((value) => Type.Literal(value)));

export const Mode = Type.Union([
  Type.Literal('dry_run'),
  Type.Literal('shadow'),
  Type.Literal('proposed'),
  Type.Literal('denied'),
  Type.Literal('expired'),
  Type.Literal('executing'),
  Type.Literal('executed'),
  Type.Literal('reversed'),
]);
export const BlastClass = literals(RESPONSE_CLASSES);

export const Decision = Type.Object({
  id: Type.String({ format: 'uuid' }),
  tenant_id: Type.String({ format: 'uuid' }),
  detection_id: Type.String({ format: 'uuid', description: 'The detection group occurrence that fed it' }),
  effect: Type.String({ description: 'One-sentence plan' }),
  rule_id: Type.String(),
  action_id: Type.String(),
  blast_class: BlastClass,
  target_id: Type.String(),
  mode: Mode,
  level: literals(LEVELS),
  adjudication: literals(['none', 'pending', 'approved', 'denied', 'automatic']),
  decided_by: Nullable(Type.String({ description: 'Actor id of the person, `system` when unattended' })),
  decision_reason: Nullable(Type.String()),
  actionable: Type.Boolean({ description: 'A proposal a person with the permissions can approve' }),
  revertible: Type.Boolean({ description: 'Executed and undoable' }),
  unattended: Type.Boolean({ description: 'Run by the engine without a person' }),
  created_at: Timestamp,
  decided_at: Nullable(Timestamp),
  executed_at: Nullable(Timestamp),
  reverted_at: Nullable(Timestamp),
  revert_reason: Nullable(Type.String()),
});

export const DecisionsQuery = Type.Object({
  mode: Type.Optional(Mode),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
});
export const DecisionsList = Type.Object({
  decisions: Type.Array(Decision),
  viewer_scope: literals(['tenant', 'platform']),
});
export const DecisionParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

export const AdjudicateBody = Type.Object({
  approve: Type.Boolean(),
  reason: Type.Optional(Type.String({ maxLength: 1000 })),
});
export const Adjudicated = Type.Object({
  decision: Decision,
  executed: Type.Boolean(),
  outcome: Mode,
  reason: Nullable(Type.String()),
});

export const RevertBody = Type.Object({ reason: Type.String({ minLength: 1, maxLength: 1000 }) });
export const Reverted = Type.Object({ decision: Decision, reverted: Type.Boolean(), detail: Type.String() });

export const KillSwitchState = Type.Object({
  engaged: Type.Boolean(),
  scope: literals(['global', 'tenant']),
  until: Nullable(Timestamp),
  indefinite: Type.Boolean(),
  reason: Nullable(Type.String()),
  offered_hours: Type.Array(Type.Integer()),
});
export const KillSwitchBody = Type.Object({
  enable: Type.Boolean({ description: 'true engages the kill switch (autonomy stops), false releases it' }),
  hours: Type.Optional(Type.Integer({ description: '1, 8 or 24; omitted: indefinite, which needs a reason' })),
  reason: Type.Optional(Type.String({ maxLength: 1000 })),
});

const ClassUse = Type.Object({
  rate_used: Type.Integer(),
  rate_cap: Type.Integer(),
  spread_used: Type.Integer(),
  spread_cap: Type.Integer(),
});
export const Metrics = Type.Object({
  by_mode: Type.Record(Type.String(), Type.Integer()),
  execution_latency_seconds: Type.Object({
    mean: Type.Union([Type.Number(), Type.Null()]),
    p95: Type.Union([Type.Number(), Type.Null()]),
    executed_30d: Type.Integer(),
  }),
  unattended_30d: Type.Integer(),
  classes: Type.Record(Type.String(), ClassUse),
  pending: Type.Object({
    count: Type.Integer(),
    actionable: Type.Integer(),
    oldest_age_seconds: Type.Union([Type.Integer(), Type.Null()]),
  }),
});

const ClassGraduation = Type.Object({
  eligible: Type.Boolean(),
  bar: Type.Number(),
  lower_bound: Type.Number(),
  approvals: Type.Integer(),
  total: Type.Integer(),
  span_days: Type.Integer(),
  min_days: Type.Integer(),
  reversals_recent: Type.Integer(),
  catalogue: Type.Array(Type.String(), { description: 'Detection rules that feed the class' }),
  unmet: Type.Array(Type.String()),
  approvals_needed: Type.Union([Type.Integer(), Type.Null()]),
});
export const GraduationReport = Type.Object({
  window_days: Type.Integer(),
  classes: Type.Record(Type.String(), ClassGraduation),
});

const Outcome = literals(['dry_run', 'proposed', 'executed']);
const Soak = Type.Object({
  detections: Type.Integer(),
  executed: Type.Integer({ description: 'Would have run (unattended) within every guard' }),
  proposed: Type.Integer({ description: "Would have waited for a person's verdict (held ones included)" }),
  dry_run: Type.Integer(),
  held_by: Type.Object(
    {
      kill_switch: Type.Integer(),
      rate_cap: Type.Integer(),
      spread_cap: Type.Integer(),
      reversal_breaker: Type.Integer(),
    },
    { description: 'Of the proposed, those a guard held back from running unattended, by guard' },
  ),
});
export const DrillReport = Type.Object({
  mode: Type.Literal('shadow'),
  execution_enabled: Type.Boolean(),
  ran_at: Timestamp,
  tenant_id: Type.String({ format: 'uuid', description: 'The organization whose live guards applied' }),
  kill_switch: Type.Object({ engaged: Type.Boolean(), until: Nullable(Timestamp) }),
  detections_per_soak: Type.Integer(),
  classes: Type.Array(
    Type.Object({
      blast_class: BlastClass,
      levels: Type.Array(literals(LEVELS), { description: 'The levels the class accepts (up to its ceiling)' }),
      graduated: Type.Boolean(),
      rate_cap: Type.Integer(),
      spread_cap: Type.Integer(),
      triggers: Type.Array(
        Type.Object({
          rule_id: Type.String(),
          action_id: Type.String(),
          attacker_trippable: Type.Boolean(),
          effect: Type.String(),
          would: Type.Record(Type.String(), Outcome, { description: 'Per level: what one detection would do now' }),
        }),
      ),
      soak: Type.Record(Type.String(), Soak, { description: 'Per level' }),
    }),
  ),
});

export type DecisionsQueryType = Static<typeof DecisionsQuery>;
