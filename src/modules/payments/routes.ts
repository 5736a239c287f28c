import type { Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest, preValidationHookHandler } from 'fastify';
import { principalOf } from '../../kernel/auth/index.js';
import { errors, HttpError, parseJsonBody } from '../../kernel/http/index.js';
import type { PaymentsDeps } from './deps.js';
import {
  Attestation,
  ConsumeBody,
  ElevationParams,
  ElevationView,
  RequestOptions,
  RiskContext,
  RiskQuery,
  ScaBody,
  StepUpBody,
  VerifyBody,
} from './http-schemas.js';
import { inexactNumberAt } from './json-numbers.js';
import { createRiskContext } from './risk.js';
import { createPaymentService } from './service.js';

// Payment step-up (Part B 4.7). Every route is behind PAYMENTS_STEPUP_ENABLED: while it is off the guard answers 404
// in `onRequest`, before the body is read and before authentication, exactly like an unknown path.

const BASE = '/api/v1/payments';
const flag = 'paymentsStepupEnabled' as const;
const common = { tags: ['payments'], security: [{ bearer: [] }] };
export const VERIFY_PERMISSION = 'payments:verify';
/** The payment back end's routes: an API key or a service (OAuth client), never a person's session or an agent. */
const BACK_END = {
  auth: 'any',
  permission: VERIFY_PERMISSION,
  kinds: ['api_key', 'oauth_client'],
  kindRefusal: 'This route is the payment back end’s: call it with an API key or a service credential',
  flag,
} as const;

type ElevationRequest = { Params: Static<typeof ElevationParams> };

export function registerPaymentRoutes(app: FastifyInstance, deps: PaymentsDeps): void {
  const payments = createPaymentService(deps);
  const risk = createRiskContext(deps);

  // The JSON text of each body, as sent: JSON numbers carry no type, so whether `1.0` was written is only in the text.
  const rawBodies = new WeakMap<FastifyRequest, string>();
  /** 400 for a number with a fraction or an exponent (or beyond exact integers), after authentication, before validation. */
  const refuseInexactNumbers: preValidationHookHandler = async (request) => {
    const raw = rawBodies.get(request);
    const at = raw === undefined ? undefined : inexactNumberAt(raw);
    if (at !== undefined) {
      throw new HttpError(
        400,
        `${at}: numbers must be integers (amounts in minor units); a fraction or an exponent, 1.0 included, is refused`,
        {},
        { error: 'float_refused' },
      );
    }
  };

  app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      try {
        const parsed = parseJsonBody(body as string);
        rawBodies.set(request, body as string);
        done(null, parsed);
      } catch (error) {
        done(error as Error, undefined);
      }
    });

    scope.post<{ Body: Static<typeof StepUpBody> }>(
      `${BASE}/step-up`,
      {
        config: { auth: 'user', flag },
        preValidation: refuseInexactNumbers,
        schema: {
          ...common,
          summary: 'Open an elevation bound to one exact operation (payment step-up)',
          description:
            'The person proves a factor against it (`/verify`), then the payment back end spends it once (`/payments/elevations/consume`) with exactly the same `action` and `context`. 400 `no_factor` when no factor is enrolled; 400 `float_refused` for a number with a fraction or exponent anywhere in the body (`1.0` included: amounts are integers in minor units).',
          body: StepUpBody,
          response: { 201: ElevationView, ...errors(400, 401, 403, 404, 422, 429) },
        },
      },
      async (request, reply) =>
        reply.code(201).send(await payments.stepUp(principalOf(request), request.body, request.ip)),
    );

    scope.post<{ Body: Static<typeof ScaBody> }>(
      `${BASE}/sca/challenge`,
      {
        config: { auth: 'user', flag },
        preValidation: refuseInexactNumbers,
        schema: {
          ...common,
          summary: 'Open a strong-customer-authentication elevation bound to one transaction',
          description:
            'Bound to `action` `payment.sca` and `context` `{amount_minor, currency, payee, payee_name}`. `display` is the sentence to show the payer verbatim. Needs two different factor categories. 400 `unsupported_currency` listing the supported set, 400 `no_factor`, 400 `float_refused`.',
          body: ScaBody,
          response: { 201: ElevationView, ...errors(400, 401, 403, 404, 422, 429) },
        },
      },
      async (request, reply) =>
        reply.code(201).send(await payments.scaChallenge(principalOf(request), request.body, request.ip)),
    );

    scope.post<ElevationRequest>(
      `${BASE}/step-up/:id/webauthn-options`,
      {
        config: { auth: 'user', flag },
        schema: {
          ...common,
          summary: 'A passkey challenge bound to this elevation (its transaction is in the challenge)',
          description:
            'Request options for `navigator.credentials.get()`, limited to the person’s passkeys; user verification is required for SCA. A new call replaces the outstanding challenge. 404 for another person’s or session’s elevation; 409 `not_open` once it is satisfied, spent, expired or dead.',
          params: ElevationParams,
          response: { 200: RequestOptions, ...errors(400, 401, 403, 404, 409, 429) },
        },
      },
      async (request) => payments.webauthnOptions(principalOf(request), request.params.id),
    );

    scope.post<ElevationRequest & { Body: Static<typeof VerifyBody> }>(
      `${BASE}/step-up/:id/verify`,
      {
        config: { auth: 'user', flag },
        schema: {
          ...common,
          summary: 'Prove one factor against an elevation',
          description:
            '`{method: "totp", code}` or `{method: "webauthn", credential, credential_raw_id}`. 401 `bad_factor` burns an attempt (5; the fifth kills the ask); a TOTP step is accepted once across step-ups and sign-ins. SCA: 403 `insufficient_factors` while fewer than two different categories are proven (the factor is kept; verify another kind). 409 `not_open`.',
          params: ElevationParams,
          body: VerifyBody,
          response: { 200: ElevationView, ...errors(400, 401, 403, 404, 409, 422, 429, 503) },
        },
      },
      async (request) => payments.verify(principalOf(request), request.params.id, request.body),
    );

    scope.post<{ Body: Static<typeof ConsumeBody> }>(
      `${BASE}/elevations/consume`,
      {
        config: BACK_END,
        preValidation: refuseInexactNumbers,
        schema: {
          ...common,
          summary: 'Spend a satisfied elevation once and receive its signed attestation (payment back end)',
          description:
            'Needs `payments:verify` (an API key or a service). `user_id`, `sid`, `action` and `context` must be exactly as bound. 409 `fingerprint_mismatch`, `not_spendable` (unsatisfied, spent, expired or dead), `session_gone`. Of concurrent consumes exactly one gets the attestation.',
          body: ConsumeBody,
          response: { 200: Attestation, ...errors(400, 401, 403, 404, 409, 422, 429) },
        },
      },
      async (request) => payments.consume(principalOf(request), request.body),
    );

    scope.get<{ Querystring: Static<typeof RiskQuery> }>(
      `${BASE}/risk/context`,
      {
        config: BACK_END,
        schema: {
          ...common,
          summary: 'The risk context of a person’s session (payment back end)',
          description:
            'Needs `payments:verify`. `score` (0-100, higher is riskier), `band`, every contributing factor, `unavailable` (not computed) and `degraded` (unreadable, scored worst-case: the score is then a floor). Never an exemption verdict.',
          querystring: RiskQuery,
          response: { 200: RiskContext, ...errors(401, 403, 404, 422, 429) },
        },
      },
      async (request) => risk.context(principalOf(request), request.query),
    );
  });
}
