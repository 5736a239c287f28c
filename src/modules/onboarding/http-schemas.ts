import { type Static, Type } from '@sinclair/typebox';

// Request and response bodies of onboarding (Part B 4.5; ARCHITECTURE.md "Onboarding invite codes").

const Uuid = Type.String({ format: 'uuid' });
const Email = Type.String({ format: 'email', maxLength: 320 });
const Instant = Type.String({ format: 'date-time' });

export const InviteCodeParams = Type.Object({ id: Uuid });

export const IssueInviteCodeBody = Type.Object(
  {
    email: Email,
    door: Type.Union([Type.Literal('onboard'), Type.Literal('signup')], {
      description: '`onboard`: an agent bootstrap (`POST /onboard/bootstrap`); `signup`: the sign-up door',
    }),
    expires_in_days: Type.Optional(Type.Integer({ minimum: 1, maximum: 365, default: 14 })),
  },
  { additionalProperties: false },
);
export type IssueInviteCodeInput = Static<typeof IssueInviteCodeBody>;

export const IssuedInviteCode = Type.Object({
  id: Uuid,
  code: Type.String({ description: 'Shown once; only its SHA-256 is stored' }),
  expires_at: Instant,
});

export const InviteCodeView = Type.Object({
  id: Uuid,
  code_prefix: Type.String(),
  email: Type.String(),
  door: Type.Union([Type.Literal('onboard'), Type.Literal('signup')]),
  status: Type.Union([
    Type.Literal('issued'),
    Type.Literal('consumed'),
    Type.Literal('revoked'),
    Type.Literal('expired'),
  ]),
  created_at: Instant,
  expires_at: Instant,
  revoked_at: Type.Union([Instant, Type.Null()]),
  consumed_at: Type.Union([Instant, Type.Null()]),
  consumed_organization_id: Type.Union([Uuid, Type.Null()]),
});
export const InviteCodeList = Type.Object({ invite_codes: Type.Array(InviteCodeView) });

export const BootstrapBody = Type.Object(
  {
    organization_name: Type.String({ minLength: 1, maxLength: 100 }),
    human_email: Email,
    client_info: Type.Optional(
      Type.Object(
        {
          name: Type.Optional(Type.String({ maxLength: 100 })),
          platform: Type.Optional(Type.String({ maxLength: 100 })),
          model: Type.Optional(Type.String({ maxLength: 100 })),
        },
        { additionalProperties: false },
      ),
    ),
    manifest: Type.Optional(
      Type.Object({}, { additionalProperties: true, description: 'An IAM manifest (Part B 2.4), at most 64 KiB' }),
    ),
    pow: Type.Optional(
      Type.Object(
        { challenge: Type.String({ maxLength: 128 }), nonce: Type.String({ maxLength: 128 }) },
        { additionalProperties: false },
      ),
    ),
    invite_code: Type.Optional(Type.String({ maxLength: 128 })),
  },
  { additionalProperties: false },
);
export type BootstrapInput = Static<typeof BootstrapBody>;

export const BootstrapAnswer = Type.Object({
  device_code: Type.String({ description: 'Shown once: the agent polls with it' }),
  user_code: Type.String({ description: 'The person enters it at `verification_uri`' }),
  verification_uri: Type.String(),
  expires_in: Type.Integer(),
  interval: Type.Integer(),
  pow_required: Type.Boolean({
    description: 'Whether the next bootstrap from this network must carry a proof of work',
  }),
});

export const PollBody = Type.Object(
  { device_code: Type.String({ minLength: 1, maxLength: 128 }) },
  { additionalProperties: false },
);

export const PollAnswer = Type.Object({
  status: Type.Union([
    Type.Literal('authorization_pending'),
    Type.Literal('denied'),
    Type.Literal('approved'),
    Type.Literal('consumed'),
  ]),
  agent: Type.Optional(
    Type.Object({ agent_id: Uuid, name: Type.String(), credential: Type.String({ description: 'Shown once' }) }),
  ),
});

/** 410 and 429 of the poll name their state like the other answers (`expired`, `slow_down`). */
export const PollRefusal = Type.Object({ detail: Type.String(), status: Type.Optional(Type.String()) });

export const PowAnswer = Type.Object({
  challenge: Type.String(),
  difficulty: Type.Integer({ description: 'Leading zero bits SHA-256(challenge + "." + nonce) must have' }),
  expires_in: Type.Integer(),
});

export const BootstrapRefusal = Type.Object({
  detail: Type.String(),
  pow_required: Type.Optional(Type.Boolean()),
  errors: Type.Optional(Type.Array(Type.String())),
});
