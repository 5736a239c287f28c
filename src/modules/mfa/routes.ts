import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { type DpopVerifier, principalOf } from '../../kernel/auth/index.js';
import { errors } from '../../kernel/http/index.js';
import { deliverPair, dpopProofHeaders, noStore, signInContext, TokenPairSchema, UseCookie } from '../sign-in/index.js';
import type { MfaService } from './service.js';

const Code = Type.String({
  minLength: 1,
  maxLength: 64,
  description: 'A 6-digit TOTP code, or (where accepted) one of the single-use recovery codes',
});
const CodeBody = Type.Object({ code: Code });
const ChallengeBody = Type.Object({
  mfa_token: Type.String({ minLength: 1, maxLength: 512, description: 'From the sign-in that answered mfa_required' }),
  code: Code,
  use_cookie: UseCookie,
});
// The challenge's route description says which key the proof must use, so its header keeps the shorter text.
const ChallengeHeaders = dpopProofHeaders('RFC 9449 proof');
/** Part A 2.16, plus `enrollment_pending`. */
const MfaStatusSchema = Type.Object(
  {
    mfa_enabled: Type.Boolean({ description: 'TOTP guards every sign-in' }),
    mfa_verified: Type.Boolean({ description: 'The enrollment was confirmed with a code (enables it)' }),
    mfa_verified_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    recovery_codes_remaining: Type.Integer(),
    enrollment_pending: Type.Boolean({ description: 'Set up but not yet verified with a code' }),
  },
  { $id: 'MfaStatus' },
);
const RecoveryCodes = Type.Array(Type.String(), { description: '8 single-use codes, shown this once' });
const SetupSchema = Type.Object({
  secret: Type.String({ description: 'Base32 TOTP secret (RFC 6238: SHA-1, 6 digits, 30 s)' }),
  provisioning_uri: Type.String({ description: '`otpauth://totp/…` for an authenticator app (QR code)' }),
  recovery_codes: RecoveryCodes,
});

const unavailable = 'Every MFA route answers 503 while MFA_ENCRYPTION_KEY is not provisioned.';
const selfRoute = (route: { summary: string; description: string; body?: object; response: object }) => ({
  config: { auth: 'user' as const },
  schema: {
    tags: ['mfa'],
    summary: route.summary,
    description: `${route.description} ${unavailable}`,
    security: [{ bearer: [] }],
    ...(route.body ? { body: route.body } : {}),
    response: route.response,
  },
});

/** Part A 4.2: TOTP second factor. */
export function registerMfaRoutes(app: FastifyInstance, deps: { mfa: MfaService; dpop: DpopVerifier }): void {
  const { mfa, dpop } = deps;
  app.addSchema(MfaStatusSchema);

  app.get(
    '/api/v1/mfa/status',
    selfRoute({
      summary: 'Whether TOTP is enabled',
      description: 'Also tells a pending enrollment and how many recovery codes are left.',
      response: { 200: Type.Ref(MfaStatusSchema), ...errors(401, 503) },
    }),
    async (request) => mfa.status(principalOf(request)),
  );

  app.post(
    '/api/v1/mfa/setup',
    selfRoute({
      summary: 'Start TOTP enrollment',
      description:
        'Answers the secret, its provisioning URI and 8 recovery codes, shown once. The factor is enabled only ' +
        'by `POST /mfa/setup/verify`; calling setup again replaces a pending enrollment. 409 when enabled. 403 ' +
        'for a session through an organization’s SSO, here and on verify, disable and regenerate: the factor is ' +
        'the account’s, so it changes only after a sign-in with one of the account’s own methods.',
      response: { 200: SetupSchema, ...errors(401, 403, 409, 503) },
    }),
    async (request, reply) => noStore(reply).send(await mfa.setup(principalOf(request))),
  );

  app.post<{ Body: Static<typeof CodeBody> }>(
    '/api/v1/mfa/setup/verify',
    selfRoute({
      summary: 'Enable TOTP with a first code',
      description:
        'A correct code from the authenticator app enables the pending factor. 400 wrong code; 409 when no ' +
        'enrollment is pending or MFA is already enabled; 429 after repeated wrong codes.',
      body: CodeBody,
      response: { 200: Type.Ref(MfaStatusSchema), ...errors(400, 401, 403, 409, 422, 429, 503) },
    }),
    async (request) => mfa.verifySetup(principalOf(request), request.body.code),
  );

  app.post<{ Body: Static<typeof CodeBody> }>(
    '/api/v1/mfa/disable',
    selfRoute({
      summary: 'Turn TOTP off',
      description:
        'Needs a correct TOTP code or an unspent recovery code. 400 wrong code; 409 when MFA is not enabled; ' +
        '429 after repeated wrong codes.',
      body: CodeBody,
      response: { 204: Type.Null(), ...errors(400, 401, 403, 409, 422, 429, 503) },
    }),
    async (request, reply) => {
      await mfa.disable(principalOf(request), request.body.code);
      return reply.code(204).send();
    },
  );

  app.post<{ Body: Static<typeof CodeBody> }>(
    '/api/v1/mfa/recovery-codes/regenerate',
    selfRoute({
      summary: 'Replace the recovery codes',
      description:
        'Needs a correct TOTP code or an unspent recovery code. Answers 8 new codes, shown once; every earlier ' +
        'code stops working. 400 wrong code; 409 when MFA is not enabled; 429 after repeated wrong codes.',
      body: CodeBody,
      response: { 200: Type.Object({ recovery_codes: RecoveryCodes }), ...errors(400, 401, 403, 409, 422, 429, 503) },
    }),
    async (request, reply) =>
      noStore(reply).send(await mfa.regenerateRecoveryCodes(principalOf(request), request.body.code)),
  );

  app.post<{ Body: Static<typeof ChallengeBody> }>(
    '/api/v1/mfa/challenge',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['mfa'],
        summary: 'Complete a sign-in with its second factor',
        description:
          'Send the `mfa_token` a sign-in answered with a TOTP code or a single-use recovery code. The challenge ' +
          'is single use, lives about 5 minutes and takes 5 codes: 400 for a wrong code, 401 for an invalid, ' +
          'expired, exhausted or already used challenge. A DPoP proof binds the tokens (a sign-in proven with ' +
          `a DPoP key must use the same key here). ${unavailable}`,
        headers: ChallengeHeaders,
        body: ChallengeBody,
        response: { 200: Type.Ref(TokenPairSchema), ...errors(400, 401, 422, 429, 503) },
      },
    },
    async (request, reply) => {
      const { mfa_token, code, use_cookie } = request.body;
      const tokens = await mfa.completeChallenge({ mfaToken: mfa_token, code }, await signInContext(request, dpop));
      return deliverPair(reply, tokens, use_cookie);
    },
  );
}
