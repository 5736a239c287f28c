import { Type } from '@sinclair/typebox';

// The request pieces every sign-in route declares alike: password, passkey, magic link, the second factor and the
// SSO and social completions. One declaration keeps their API document and their validation the same.

/**
 * A sign-in's headers: an optional DPoP proof (RFC 9449; Part A 5.4), whose key the issued tokens are bound to.
 * `description` is the proof's text in the API document, for a route that words it differently.
 */
export const dpopProofHeaders = (description = 'RFC 9449 proof: binds the issued tokens to its key') =>
  Type.Object({ dpop: Type.Optional(Type.String({ description })) });

/** The headers of most sign-ins: the DPoP proof with its usual description. */
export const SignInHeaders = dpopProofHeaders();

/** A sign-in's `use_cookie` body field: the refresh token goes to the cookie instead (Part A 4.1 cookie mode). */
export const UseCookie = Type.Optional(
  Type.Boolean({ description: 'Set the refresh token as an httpOnly cookie; the body then carries null' }),
);

// The answers of a sign-in: the token pair, or the second factor's challenge (registered once, by accounts).
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
