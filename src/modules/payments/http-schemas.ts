import { type Static, Type } from '@sinclair/typebox';
import { AssertionFields, AssertionValue } from '../passkeys/index.js';
import { SUPPORTED_CURRENCIES } from './currencies.js';

// TypeBox schemas of payment step-up (Part B 2.5, 2.6, 4.7): the answers list every field, so nothing else leaks.

const Uuid = Type.String({ format: 'uuid' });
const Timestamp = Type.String({ format: 'date-time' });
const NullableTimestamp = Type.Union([Timestamp, Type.Null()]);

export const ACTION_PATTERN = '^[a-z0-9_.:-]+$';
const Action = Type.String({
  minLength: 1,
  maxLength: 128,
  pattern: ACTION_PATTERN,
  description: 'The operation, e.g. `payout.create` (`[a-z0-9_.:-]+`)',
});
const Context = Type.Object(
  {},
  {
    additionalProperties: true,
    description:
      'What the operation is about, bound exactly (canonical JSON). Numbers are integers (amounts in minor units): a number written with a fraction or an exponent, `1.0` included, is refused with 400',
  },
);

const Category = Type.Union([Type.Literal('knowledge'), Type.Literal('possession'), Type.Literal('inherence')]);
const Method = Type.Union([Type.Literal('totp'), Type.Literal('webauthn')]);

export const StepUpBody = Type.Object(
  { action: Action, context: Type.Optional(Context) },
  { additionalProperties: false },
);
export type StepUpInput = Static<typeof StepUpBody>;

export const ScaBody = Type.Object(
  {
    amount_minor: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'In minor units (cents)' }),
    currency: Type.String({
      minLength: 1,
      maxLength: 16,
      description: `ISO 4217 code, one of ${SUPPORTED_CURRENCIES.join(', ')} (400 listing them otherwise)`,
    }),
    payee: Type.String({ minLength: 1, maxLength: 128, description: 'The payee account or merchant identifier' }),
    payee_name: Type.String({ minLength: 1, maxLength: 140, description: 'The payee as the payer knows it' }),
  },
  { additionalProperties: false },
);
export type ScaInput = Static<typeof ScaBody>;

export const ElevationParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64, description: 'The elevation id' }),
});

const Status = Type.Union(
  [
    Type.Literal('opened'),
    Type.Literal('satisfied'),
    Type.Literal('spent'),
    Type.Literal('expired'),
    Type.Literal('dead'),
  ],
  {
    description: 'At the time of the answer: `dead` once the attempts are spent; unspent past `expires_at` is expired',
  },
);

export const ElevationView = Type.Object({
  elevation_id: Uuid,
  kind: Type.Union([Type.Literal('step_up'), Type.Literal('sca')]),
  status: Status,
  user_id: Uuid,
  sid: Type.String({ description: 'The session the elevation is bound to' }),
  action: Type.String(),
  context: Type.Union([Context, Type.Null()], { description: 'Exactly as bound (null when none was given)' }),
  fingerprint: Type.String({ description: 'The action fingerprint of the one consume request that can spend it' }),
  methods: Type.Array(Method, { description: 'The factors the person has enrolled and can verify with' }),
  categories_required: Type.Integer({ description: '1 for a step-up; 2 different categories for SCA' }),
  categories_proven: Type.Array(Category),
  attempts_left: Type.Integer(),
  display: Type.Optional(Type.String({ description: 'SCA: the sentence to show the payer, verbatim' })),
  created_at: Timestamp,
  expires_at: Timestamp,
  verified_at: NullableTimestamp,
  consumed_at: NullableTimestamp,
});
export type ElevationViewType = Static<typeof ElevationView>;

const CredentialDescriptor = Type.Object({
  id: Type.String(),
  type: Type.Literal('public-key'),
  transports: Type.Optional(Type.Array(Type.String())),
});

/** `PublicKeyCredentialRequestOptionsJSON`: give to `navigator.credentials.get()` (via `parseRequestOptionsFromJSON`). */
export const RequestOptions = Type.Object({
  challenge: Type.String({
    description:
      'base64url of 16 random bytes followed by the SHA-256 of the elevation binding (its id and fingerprint): the transaction is in the challenge',
  }),
  timeout: Type.Optional(Type.Integer()),
  rpId: Type.Optional(Type.String()),
  allowCredentials: Type.Optional(Type.Array(CredentialDescriptor)),
  userVerification: Type.Optional(Type.String()),
  hints: Type.Optional(Type.Array(Type.String())),
});

/** The passkey module's assertion: bounded only, so a malformed one is a bad factor (401, an attempt burned). */
const Assertion = Type.Object({
  ...AssertionFields,
  clientExtensionResults: Type.Optional(Type.Object({}, { additionalProperties: true })),
});

export const VerifyBody = Type.Union([
  Type.Object(
    { method: Type.Literal('totp'), code: Type.String({ minLength: 1, maxLength: 16 }) },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      method: Type.Literal('webauthn'),
      credential: Assertion,
      credential_raw_id: AssertionValue(1364),
    },
    { additionalProperties: false },
  ),
]);
export type VerifyInput = Static<typeof VerifyBody>;

export const ConsumeBody = Type.Object(
  {
    elevation_id: Type.String({ minLength: 1, maxLength: 64 }),
    user_id: Type.String({ minLength: 1, maxLength: 64 }),
    sid: Type.String({ minLength: 1, maxLength: 64 }),
    action: Type.String({ minLength: 1, maxLength: 128 }),
    context: Type.Optional(Context),
  },
  { additionalProperties: false },
);
export type ConsumeInput = Static<typeof ConsumeBody>;

const Transaction = Type.Object({
  amount_minor: Type.Integer(),
  currency: Type.String(),
  payee: Type.String(),
  payee_name: Type.String(),
});

export const Attestation = Type.Object({
  attestation: Type.String({
    description:
      'A JWS (RS256, `typ` `payment-attestation+jwt`) signed with the service keys published at /.well-known/jwks.json; its claims repeat the fields below',
  }),
  elevation_id: Uuid,
  kind: Type.Union([Type.Literal('step_up'), Type.Literal('sca')]),
  user_id: Uuid,
  sid: Type.String(),
  action: Type.String(),
  context: Type.Union([Context, Type.Null()]),
  fingerprint: Type.String(),
  factor_categories: Type.Array(Category),
  methods: Type.Array(Type.String()),
  transaction: Type.Optional(Transaction),
  display: Type.Optional(Type.String()),
  verified_at: Timestamp,
  consumed_at: Timestamp,
});
export type AttestationType = Static<typeof Attestation>;

export const RiskQuery = Type.Object(
  {
    user_id: Type.String({ minLength: 1, maxLength: 64 }),
    sid: Type.String({ minLength: 1, maxLength: 64 }),
  },
  { additionalProperties: false },
);
export type RiskQueryType = Static<typeof RiskQuery>;

const RiskFactor = Type.Object({
  name: Type.String({
    description: '`account_age`, `session_age`, `factor_strength`, `open_detections_user`, `open_detections_ip`',
  }),
  points: Type.Integer({ description: 'What the factor adds to the score' }),
  max_points: Type.Integer(),
  value: Type.Union([Type.String(), Type.Number(), Type.Null()], { description: 'What was read (null when degraded)' }),
  detail: Type.String(),
  degraded: Type.Boolean({ description: 'Its input could not be read: scored worst-case' }),
});

export const RiskContext = Type.Object({
  user_id: Uuid,
  sid: Type.String(),
  score: Type.Integer({
    minimum: 0,
    maximum: 100,
    description: 'Higher is riskier; a floor when anything is degraded',
  }),
  band: Type.Union([Type.Literal('low'), Type.Literal('medium'), Type.Literal('high')]),
  factors: Type.Array(RiskFactor),
  unavailable: Type.Array(Type.String(), { description: 'Factors not computed (no input to compute them from)' }),
  degraded: Type.Array(Type.String(), { description: 'Factors whose input was unreadable, scored worst-case' }),
  computed_at: Timestamp,
});
export type RiskContextType = Static<typeof RiskContext>;
