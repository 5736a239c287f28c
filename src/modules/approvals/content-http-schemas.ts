import { type Static, Type } from '@sinclair/typebox';

// TypeBox schemas of content approvals (Part B 4.3; ARCHITECTURE.md "Content approvals"): the route bodies, and
// the answers, which list every field so nothing else can leak.

const Uuid = Type.String({ format: 'uuid' });
const Timestamp = Type.String({ format: 'date-time' });

export const ContentHash = Type.String({
  pattern: '^[0-9a-f]{64}$',
  description: 'SHA-256 of the exact bytes of the content: 64 lowercase hexadecimal digits',
});

export const ContentState = Type.Union(
  [
    Type.Literal('pending'),
    Type.Literal('approved'),
    Type.Literal('denied'),
    Type.Literal('consumed'),
    Type.Literal('expired'),
  ],
  {
    description:
      'pending: no person decided yet; approved: may be published once; denied: a person refused it; consumed: the approval was spent; expired: nobody decided within 24 hours',
  },
);
export type ContentStateType = Static<typeof ContentState>;

export const ContentRequestBody = Type.Object(
  {
    content_hash: ContentHash,
    title: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Shown to reviewers' })),
    summary: Type.Optional(Type.String({ maxLength: 2000, description: 'Shown to reviewers' })),
  },
  { additionalProperties: false },
);
export type ContentRequestInput = Static<typeof ContentRequestBody>;

export const ContentAsk = Type.Object({
  approval_id: Type.String({
    format: 'uuid',
    description: 'The approval request a person decides through POST /approvals/{id}/decide',
  }),
  content_hash: ContentHash,
  status: ContentState,
});

export const ContentHashBody = Type.Object({ content_hash: ContentHash }, { additionalProperties: false });

export const ContentFeedback = Type.Object({
  approval_id: Uuid,
  content_hash: ContentHash,
  state: ContentState,
  reason: Type.Union([Type.String(), Type.Null()], {
    description: "The decider's reason (always shown on a denial when one was given); null while undecided",
  }),
  decided_at: Type.Union([Timestamp, Type.Null()]),
  expires_at: Type.String({ format: 'date-time', description: 'An undecided ask expires then' }),
});

export const ContentConsumed = Type.Object({
  approval_id: Uuid,
  content_hash: ContentHash,
  agent_id: Uuid,
  state: Type.Literal('consumed'),
  consumed_at: Timestamp,
});

export const ContentNotReady = Type.Object(
  {
    detail: Type.String(),
    state: Type.Union([
      Type.Literal('pending'),
      Type.Literal('denied'),
      Type.Literal('expired'),
      Type.Literal('consumed'),
    ]),
    message: Type.String(),
  },
  { description: 'The approval cannot be spent: not decided yet, denied, expired, or already consumed' },
);

export const ReversalBody = Type.Object(
  {
    content_hash: ContentHash,
    reason: Type.String({ minLength: 1, maxLength: 2000, pattern: '\\S', description: 'Why it had to be pulled' }),
  },
  { additionalProperties: false },
);
export type ReversalInput = Static<typeof ReversalBody>;

export const Reversal = Type.Object({
  reversal_id: Uuid,
  approval_id: Type.String({ format: 'uuid', description: 'The ask that let the content out' }),
  content_hash: ContentHash,
  agent_id: Type.String({ format: 'uuid', description: 'The agent that wrote the content' }),
  reason: Type.String(),
  recorded_at: Timestamp,
});

export const TrackRecordParams = Type.Object({ agent_id: Type.String({ minLength: 1, maxLength: 64 }) });

const Criterion = Type.Union([Type.Literal('min_decided'), Type.Literal('lower_bound'), Type.Literal('reversals_30d')]);

export const TrackRecordView = Type.Object({
  agent_id: Uuid,
  decided: Type.Integer({ description: 'Content asks a person approved or denied' }),
  approvals: Type.Integer(),
  denials: Type.Integer(),
  approval_rate: Type.Union([Type.Number(), Type.Null()], { description: 'approvals / decided; null with none' }),
  lower_bound: Type.Number({
    description: 'Wilson score lower bound of the approval rate at 95 % confidence (z = 1.96); 0 with no decisions',
  }),
  bar: Type.Number({ description: 'The lower bound must reach this' }),
  min_decided: Type.Integer({ description: 'Decided asks needed before the record counts' }),
  confidence: Type.Number(),
  reversals_30d: Type.Integer({ description: 'Published content of this agent pulled in the last 30 days' }),
  eligible: Type.Boolean({ description: 'Every criterion is met (unmet is empty)' }),
  unmet: Type.Array(Type.Object({ criterion: Criterion, detail: Type.String() })),
});
