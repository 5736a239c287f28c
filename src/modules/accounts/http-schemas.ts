import { Type } from '@sinclair/typebox';

export const TokenPairSchema = Type.Object(
  {
    access_token: Type.String(),
    refresh_token: Type.Union([Type.String(), Type.Null()], { description: 'null in cookie mode' }),
    token_type: Type.Union([Type.Literal('bearer'), Type.Literal('DPoP')]),
    expires_in: Type.Integer({ description: 'Access-token lifetime in seconds' }),
  },
  { $id: 'TokenPair' },
);

export const MfaRequiredSchema = Type.Object(
  {
    mfa_required: Type.Literal(true),
    mfa_token: Type.String({
      description: 'Single use, about 5 minutes, 5 code attempts: send to POST /mfa/challenge',
    }),
  },
  { $id: 'MfaRequired' },
);

/** A sign-in's answer: the token pair, or the MFA challenge when the account has TOTP enrolled. */
export const SignInResultSchema = Type.Union([Type.Ref(TokenPairSchema), Type.Ref(MfaRequiredSchema)]);
