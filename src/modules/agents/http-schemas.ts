import { type Static, Type } from '@sinclair/typebox';

// TypeBox schemas of agent administration and delegations (ARCHITECTURE.md "Interfaces the specification leaves
// out", Agents): the route bodies, and the answers, which list every field so nothing else can leak.

const Uuid = Type.String({ format: 'uuid' });
const Timestamp = Type.String({ format: 'date-time' });
const NullableTimestamp = Type.Union([Timestamp, Type.Null()]);
const NullableString = Type.Union([Type.String(), Type.Null()]);

const OversightMode = Type.Union([Type.Literal('autonomous'), Type.Literal('supervised')], {
  description: "'supervised': every state-changing action is parked for a person's approval",
});
const RiskCeiling = Type.Integer({
  minimum: 0,
  maximum: 100,
  description: "An action whose permission's risk (GET /authz/catalog) is above it is refused",
});
const ConfidenceFloor = Type.Number({
  minimum: 0,
  maximum: 1,
  description: 'An action stated with a lower `Agent-Confidence` header (or none, while above 0) is refused',
});
const Name = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' });
const Description = Type.Union([Type.String({ maxLength: 2000 }), Type.Null()]);
const WriteBudget = Type.Union([Type.Integer({ minimum: 1, maximum: 10_000_000 }), Type.Null()], {
  description: "Writes per rolling hour before the blast-radius breaker engages; null: the plan's figure",
});
const PermissionCode = Type.String({ minLength: 1, maxLength: 100 });

export const RegisterAgentBody = Type.Object(
  {
    name: Name,
    description: Type.Optional(Description),
    oversight_mode: Type.Optional(OversightMode),
    risk_ceiling: Type.Optional(RiskCeiling),
    confidence_floor: Type.Optional(ConfidenceFloor),
  },
  { additionalProperties: false },
);
export type RegisterAgentInput = Static<typeof RegisterAgentBody>;

export const UpdateAgentBody = Type.Object(
  {
    name: Type.Optional(Name),
    description: Type.Optional(Description),
    oversight_mode: Type.Optional(OversightMode),
    risk_ceiling: Type.Optional(RiskCeiling),
    confidence_floor: Type.Optional(ConfidenceFloor),
    write_budget_per_hour: Type.Optional(WriteBudget),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateAgentInput = Static<typeof UpdateAgentBody>;

export const KillSwitchBody = Type.Object(
  {
    engaged: Type.Boolean({
      description: 'true engages (agents:manage, reason required); false releases (agents:kill)',
    }),
    reason: Type.Optional(Type.String({ minLength: 1, maxLength: 1000, pattern: '\\S' })),
  },
  { additionalProperties: false },
);
export type KillSwitchInput = Static<typeof KillSwitchBody>;

export const DelegateBody = Type.Object(
  {
    permissions: Type.Array(PermissionCode, {
      minItems: 1,
      maxItems: 100,
      description: 'Exact permission codes of the catalogue, each held by the caller',
    }),
    expires_in_days: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 3650, description: 'Time box; absent: until revoked' }),
    ),
  },
  { additionalProperties: false },
);
export type DelegateInput = Static<typeof DelegateBody>;

export const AgentParams = Type.Object({ agent_id: Type.String({ minLength: 1, maxLength: 64 }) });
export const DelegationParams = Type.Object({ delegation_id: Type.String({ minLength: 1, maxLength: 64 }) });
export const AgentListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100 })),
  cursor: Type.Optional(
    Type.String({ maxLength: 512, description: 'The `next_cursor` of the previous page: the rows after it' }),
  ),
});

export const AgentView = Type.Object({
  agent_id: Uuid,
  name: Type.String(),
  description: NullableString,
  status: Type.Union([Type.Literal('active'), Type.Literal('suspended'), Type.Literal('retired')]),
  oversight_mode: OversightMode,
  risk_ceiling: Type.Integer(),
  confidence_floor: Type.Number(),
  write_budget_per_hour: WriteBudget,
  kill_switch: Type.Object({
    engaged: Type.Boolean(),
    reason: NullableString,
    engaged_by: Type.Union([Type.Object({ id: Type.String(), type: Type.String() }), Type.Null()], {
      description: 'The person who engaged it; null when the blast-radius breaker or autonomy did, or released',
    }),
    changed_at: NullableTimestamp,
  }),
  credential_prefix: Type.String({ description: 'The first characters of the current credential (never the rest)' }),
  credential_issued_at: Timestamp,
  created_by_user_id: Type.Union([Uuid, Type.Null()]),
  created_at: Timestamp,
  updated_at: Timestamp,
  suspended_at: NullableTimestamp,
  retired_at: NullableTimestamp,
});
export type AgentViewType = Static<typeof AgentView>;

export const AgentDelegationView = Type.Object({
  delegation_id: Uuid,
  delegator_user_id: Uuid,
  permissions: Type.Array(Type.String()),
  expires_at: NullableTimestamp,
  created_at: Timestamp,
});

export const AgentDetail = Type.Intersect([
  AgentView,
  Type.Object({ delegations: Type.Array(AgentDelegationView, { description: 'Live delegations' }) }),
]);

export const RegisteredAgent = Type.Intersect([
  AgentView,
  Type.Object({ credential: Type.String({ description: 'The agt_ credential: shown once, store it now' }) }),
]);

export const RotatedCredential = Type.Object({
  agent_id: Uuid,
  credential: Type.String({ description: 'The new agt_ credential: shown once; the previous one stopped working' }),
  credential_prefix: Type.String(),
  credential_issued_at: Timestamp,
});

export const AgentList = Type.Object({
  agents: Type.Array(AgentView),
  next_cursor: Type.Union([Type.String(), Type.Null()], {
    description: 'Pass as `cursor` for the next page; null on the last one',
  }),
});

export const GrantedDelegation = Type.Object({
  delegation_id: Uuid,
  agent_id: Uuid,
  permissions: Type.Array(Type.String()),
  expires_at: NullableTimestamp,
  created_at: Timestamp,
});

export const MyDelegation = Type.Object({
  delegation_id: Uuid,
  agent_id: Uuid,
  agent_name: Type.String(),
  agent_status: Type.String(),
  permissions: Type.Array(Type.String()),
  expires_at: NullableTimestamp,
  created_at: Timestamp,
});
export const MyDelegations = Type.Object({ delegations: Type.Array(MyDelegation) });
