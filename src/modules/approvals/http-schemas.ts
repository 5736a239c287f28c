import { type Static, Type } from '@sinclair/typebox';

// TypeBox schemas of the approval queue and its decision route (Part B 2.3, 4.3): the answers list every field,
// so nothing else can leak.

const Uuid = Type.String({ format: 'uuid' });
const Timestamp = Type.String({ format: 'date-time' });
const NullableTimestamp = Type.Union([Timestamp, Type.Null()]);
const NullableString = Type.Union([Type.String(), Type.Null()]);

const Status = Type.Union(
  [
    Type.Literal('pending'),
    Type.Literal('approved'),
    Type.Literal('denied'),
    Type.Literal('expired'),
    Type.Literal('consumed'),
  ],
  { description: 'At the time of the answer: a pending or approved ask past `expires_at` is expired' },
);

export const ApprovalParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64, description: 'The approval request id' }),
});

export const ApprovalQueueQuery = Type.Object({
  status: Type.Optional(Status),
  agent_id: Type.Optional(Type.String({ format: 'uuid', description: 'Only the asks of this agent' })),
  resource_type: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 64,
      pattern: '^[a-z][a-z0-9_]*$',
      description: '`action` (a parked route call), `content`, `manifest`…',
    }),
  ),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100 })),
  cursor: Type.Optional(
    Type.String({ maxLength: 512, description: 'The `next_cursor` of the previous page: the rows after it' }),
  ),
});
export type ApprovalQueueQueryType = Static<typeof ApprovalQueueQuery>;

export const DecideBody = Type.Object(
  {
    approve: Type.Boolean({ description: 'true approves, false denies (one denial settles the ask)' }),
    reason: Type.Optional(Type.String({ maxLength: 2000, description: 'Why; audited with the decision' })),
    break_glass: Type.Optional(
      Type.Boolean({
        default: false,
        description:
          'Owners only: settles the ask on this one decision even where more approvers are required; audited as critical',
      }),
    ),
  },
  { additionalProperties: false },
);
export type DecideInput = Static<typeof DecideBody>;

export const ApprovalView = Type.Object({
  id: Uuid,
  approval_id: Type.String({ format: 'uuid', description: 'The same as `id`' }),
  status: Status,
  agent_id: Type.Union([Uuid, Type.Null()], { description: 'The requesting agent' }),
  resource_type: Type.String({ description: '`action` for a parked route call; `content`, `manifest`…' }),
  resource: Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()], {
    description: 'What is decided: for an action `{method, route, params, body}`; null when no detail was recorded',
  }),
  fingerprint: Type.String({
    description: 'What the approval binds to: the action fingerprint (SHA-256 of its JCS) or the content hash',
  }),
  required_permission: Type.Union([Type.String(), Type.Null()], {
    description: 'The permission the asked action needs: an approver must hold it besides agents:approvals:decide',
  }),
  required_approvals: Type.Integer({ description: 'Distinct people who must approve' }),
  approvals_recorded: Type.Integer({ description: 'Distinct people who approved so far' }),
  justification: Type.Union([Type.String(), Type.Null()], { description: "The agent's task text" }),
  requested_by: Type.Union([Type.String(), Type.Null()], {
    description: 'Who asked (an actor id: the agent, never the person who delegated to it)',
  }),
  created_at: Timestamp,
  expires_at: Timestamp,
  decided_at: NullableTimestamp,
  decided_by: Type.Union([Type.String(), Type.Null()], { description: 'The person whose decision settled the ask' }),
  reason: Type.Union([Type.String(), Type.Null()], { description: 'The settling decision’s reason' }),
  consumed_at: NullableTimestamp,
});
export type ApprovalViewType = Static<typeof ApprovalView>;

export const DecisionView = Type.Object({
  decided_by: Type.String({ description: 'The deciding person (an actor id)' }),
  approve: Type.Boolean(),
  reason: NullableString,
  break_glass: Type.Boolean(),
  decided_at: Timestamp,
});

export const ApprovalDetail = Type.Intersect([
  ApprovalView,
  Type.Object({ decisions: Type.Array(DecisionView, { description: "Each person's decision, oldest first" }) }),
]);
export type ApprovalDetailType = Static<typeof ApprovalDetail>;

export const ApprovalQueue = Type.Object({
  approvals: Type.Array(ApprovalView),
  next_cursor: Type.Union([Type.String(), Type.Null()], {
    description: 'Pass as `cursor` for the next page; null on the last one',
  }),
});
