import { randomBytes } from 'node:crypto';
import type { AuthenticationResponseJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import { generateAuthenticationOptions } from '@simplewebauthn/server';
import type { Principal } from '../../kernel/auth/index.js';
import { actionFingerprint } from '../../kernel/authz/fingerprint.js';
import { addMs } from '../../kernel/clock.js';
import { secretsEqual } from '../../kernel/crypto/index.js';
import type { Tx } from '../../kernel/db/index.js';
import { canonicalJson } from '../../kernel/events/canonical-json.js';
import { badRequest, HttpError, notFound, unauthorized, unprocessable } from '../../kernel/http/index.js';
import { isUuid, newId } from '../../kernel/ids.js';
import { liveSessionsOfUser, mayUseAccount, signInSubject } from '../sign-in/index.js';
import { isSupportedCurrency, payerSentence, SUPPORTED_CURRENCIES } from './currencies.js';
import type { PaymentsDeps } from './deps.js';
import type {
  AttestationType,
  ConsumeInput,
  ElevationViewType,
  ScaInput,
  StepUpInput,
  VerifyInput,
} from './http-schemas.js';
import {
  categoriesRequired,
  ELEVATION_ATTEMPTS,
  ELEVATION_TTL_MS,
  elevationStatus,
  PASSWORD_KNOWLEDGE_WINDOW_MS,
  SCA_ACTION,
} from './status.js';
import * as store from './store.js';

// Payment step-up (Part B 2.5, 3, 4.7; ARCHITECTURE.md "Payment step-up factors", "One action fingerprint",
// "Spend once"). A person opens an elevation for one exact operation in their session, proves factors against it,
// and the payment back end spends it once for a signed attestation.

/** The consume route: an elevation binds to the fingerprint of the one consume request that may spend it. */
export const CONSUME_ROUTE = '/api/v1/payments/elevations/consume';
/** JOSE `typ` of the attestation the payment back end keeps as evidence. */
export const ATTESTATION_TYP = 'payment-attestation+jwt';

/** What an elevation binds is one operation's details, not a document: its canonical JSON is bounded. */
export const CONTEXT_MAX_BYTES = 4096;

const NOT_FOUND = 'Elevation not found';
const BAD_FACTOR = 'The factor did not verify';
const CATEGORY_ORDER = ['knowledge', 'possession', 'inherence'];

/**
 * What could disguise a payee in the payer's sentence: C0 and C1 controls, line and paragraph separators (they
 * break the sentence), and the invisible format characters (bidirectional marks, overrides and isolates, U+061C,
 * zero-width space, word joiner, BOM, soft hyphen, tag characters), with which two different payees read the same.
 */
const DISGUISE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
/** The zero-width non-joiner and joiner are letters' business in some scripts' names (Persian, Indic): kept there. */
const NAME_JOINERS = /[\u200c\u200d]/gu;

/** A refusal carrying its reason code (`error`) beside the sentence (`detail`). */
const refusal = (status: number, error: string, detail: string, extra: Record<string, unknown> = {}) =>
  new HttpError(status, detail, {}, { error, ...extra });

/**
 * The one action an elevation lets happen: the consume request naming it with exactly these details, fingerprinted
 * like every other bound action (SHA-256 of the JCS of `{method, route, params, body}`; an absent context is null).
 */
export function bindingFingerprint(binding: {
  elevationId: string;
  userId: string;
  sid: string;
  action: string;
  context: Record<string, unknown> | null | undefined;
}): string {
  return actionFingerprint({
    method: 'POST',
    route: CONSUME_ROUTE,
    params: {},
    body: {
      elevation_id: binding.elevationId,
      user_id: binding.userId,
      sid: binding.sid,
      action: binding.action,
      context: binding.context ?? null,
    },
  });
}

/** The binding a passkey challenge commits to: the elevation and its fingerprint (the transaction included). */
const challengeBinding = (row: store.ElevationRow) =>
  new Uint8Array(
    Buffer.from(
      actionFingerprint({ method: 'POST', route: 'elevation', params: { id: row.id }, body: row.fingerprint }),
      'hex',
    ),
  );

const sortCategories = (categories: Iterable<string>) =>
  [...new Set(categories)].sort((a, b) => CATEGORY_ORDER.indexOf(a) - CATEGORY_ORDER.indexOf(b));

type Session = { tenantId: string; userId: string; sessionId: string };

function sessionOf(principal: Principal): Session {
  if (principal.kind !== 'user' || !principal.userId || !principal.sessionId) throw unauthorized();
  return { tenantId: principal.tenantId, userId: principal.userId, sessionId: principal.sessionId };
}

type VerifyOutcome =
  | { kind: 'satisfied'; view: ElevationViewType }
  | { kind: 'bad'; attemptsLeft: number }
  | { kind: 'insufficient'; categories: string[]; view: ElevationViewType };

export function createPaymentService(deps: PaymentsDeps) {
  const { transactions, events, clock, keyring, mfa, passkeys } = deps;

  /** The factors the person has enrolled (read before the caller's transaction: each module reads its own). */
  async function methodsOf(userId: string): Promise<Array<'totp' | 'webauthn'>> {
    const [totp, passkeyIds] = await Promise.all([
      mfa.isEnabled(userId),
      transactions.systemRead((q) => passkeys.credentialIdsOf(q, userId)),
    ]);
    return [...(totp ? (['totp'] as const) : []), ...(passkeyIds.length > 0 ? (['webauthn'] as const) : [])];
  }

  function view(row: store.ElevationRow, methods: Array<'totp' | 'webauthn'>, now: Date): ElevationViewType {
    return {
      elevation_id: row.id,
      kind: row.kind,
      status: elevationStatus(row, now),
      user_id: row.userId,
      sid: row.sessionId,
      action: row.action,
      context: row.context ?? null,
      fingerprint: row.fingerprint,
      methods,
      categories_required: categoriesRequired(row),
      categories_proven: sortCategories(row.categories) as ElevationViewType['categories_proven'],
      attempts_left: Math.max(0, ELEVATION_ATTEMPTS - row.attempts),
      ...(row.display !== null ? { display: row.display } : {}),
      created_at: row.createdAt.toISOString(),
      expires_at: row.expiresAt.toISOString(),
      verified_at: row.satisfiedAt?.toISOString() ?? null,
      consumed_at: row.spentAt?.toISOString() ?? null,
    };
  }

  /** Data of every elevation event: never the context (an amount, a payee) nor the sentence. */
  const eventData = (row: store.ElevationRow, extra: Record<string, unknown> = {}) => ({
    elevation_id: row.id,
    kind: row.kind,
    action: row.action,
    user_id: row.userId,
    session_id: row.sessionId,
    fingerprint: row.fingerprint,
    ...extra,
  });

  async function open(
    me: Session,
    input: { kind: 'step_up' | 'sca'; action: string; context: Record<string, unknown> | null; display: string | null },
    ip: string,
  ): Promise<ElevationViewType> {
    const methods = await methodsOf(me.userId);
    return transactions.tenant(me.tenantId, async (tx) => {
      if (methods.length === 0) {
        throw refusal(
          400,
          'no_factor',
          'No factor is enrolled: set up TOTP (POST /mfa/setup) or register a passkey before a payment step-up',
        );
      }
      const now = clock.now();
      const id = newId();
      const row: store.ElevationRow = {
        id,
        tenantId: me.tenantId,
        userId: me.userId,
        sessionId: me.sessionId,
        kind: input.kind,
        action: input.action,
        context: input.context,
        fingerprint: bindingFingerprint({
          elevationId: id,
          userId: me.userId,
          sid: me.sessionId,
          action: input.action,
          context: input.context,
        }),
        display: input.display,
        status: 'opened',
        attempts: 0,
        categories: [],
        methodsUsed: [],
        webauthnChallenge: null,
        sourceIp: ip,
        createdAt: now,
        expiresAt: addMs(now, ELEVATION_TTL_MS),
        satisfiedAt: null,
        spentAt: null,
        spentBy: null,
      };
      await store.insertElevation(tx, row);
      await events.emit(tx, {
        tenantId: me.tenantId,
        actor: { id: me.userId, type: 'human' },
        category: 'security',
        action: 'elevation.opened',
        subjectUserId: me.userId,
        data: eventData(row, { methods }),
      });
      return view(row, methods, now);
    });
  }

  /** The caller's own elevation (their account and this very session); anyone else's is the same 404 as none. */
  async function ownElevation(tx: Tx, me: Session, id: string): Promise<store.ElevationRow> {
    if (!isUuid(id)) throw notFound(NOT_FOUND);
    const row = await store.elevationForVerify(tx, me.tenantId, id.toLowerCase());
    if (!row || row.userId !== me.userId || row.sessionId !== me.sessionId) throw notFound(NOT_FOUND);
    return row;
  }

  function assertOpen(row: store.ElevationRow, now: Date): void {
    const status = elevationStatus(row, now);
    if (status !== 'opened') {
      throw refusal(409, 'not_open', `This elevation is ${status}: it takes no more factors`, { status });
    }
  }

  /** Whether the session signed in with its password within the knowledge window (ARCHITECTURE.md). */
  async function recentPassword(tx: Tx, me: Session, now: Date): Promise<boolean> {
    const signedIn = await deps.sessions.authentication(tx, me.tenantId, me.sessionId);
    return Boolean(
      signedIn?.amr.includes('pwd') && now.getTime() - signedIn.authTime.getTime() <= PASSWORD_KNOWLEDGE_WINDOW_MS,
    );
  }

  /** Checks one factor against the elevation; the categories it proves, or undefined for a bad one. */
  async function checkFactor(
    tx: Tx,
    me: Session,
    row: store.ElevationRow,
    input: VerifyInput,
  ): Promise<{ method: 'totp' | 'webauthn'; categories: string[] } | undefined> {
    if (input.method === 'totp') {
      return (await mfa.acceptStepUpCode(tx, me.userId, input.code))
        ? { method: 'totp', categories: ['possession'] }
        : undefined;
    }
    // The ask's passkey challenge answers once, right or wrong: a new attempt needs new options.
    const challenge = row.webauthnChallenge;
    if (challenge) await store.updateElevation(tx, row.id, { webauthnChallenge: null });
    const { credential } = input;
    if (!challenge || input.credential_raw_id !== credential.rawId || credential.id !== credential.rawId)
      return undefined;
    // The challenge carries the binding: one issued for another ask (or another transaction) never matches.
    const bound = Buffer.from(challenge, 'base64url').subarray(16);
    if (!secretsEqual(bound, Buffer.from(challengeBinding(row)))) return undefined;
    const verified = await passkeys.verifyOwnAssertion(tx, {
      tenantId: me.tenantId,
      userId: me.userId,
      response: { clientExtensionResults: {}, ...credential } as AuthenticationResponseJSON,
      challenge,
    });
    if (!verified) return undefined;
    return { method: 'webauthn', categories: verified.userVerified ? ['possession', 'inherence'] : ['possession'] };
  }

  return {
    /** `POST /payments/step-up`: an elevation for `action` and its optional `context`. */
    async stepUp(principal: Principal, input: StepUpInput, ip: string): Promise<ElevationViewType> {
      const me = sessionOf(principal);
      if (input.action === SCA_ACTION) {
        throw badRequest(`action: "${SCA_ACTION}" is opened with POST /payments/sca/challenge only`);
      }
      if (input.context && Buffer.byteLength(canonicalJson(input.context)) > CONTEXT_MAX_BYTES) {
        throw unprocessable(`context: at most ${CONTEXT_MAX_BYTES} bytes of canonical JSON`);
      }
      return open(me, { kind: 'step_up', action: input.action, context: input.context ?? null, display: null }, ip);
    },

    /** `POST /payments/sca/challenge`: an SCA elevation bound to the transaction, with the payer's sentence. */
    async scaChallenge(principal: Principal, input: ScaInput, ip: string): Promise<ElevationViewType> {
      const me = sessionOf(principal);
      if (!isSupportedCurrency(input.currency)) {
        throw refusal(400, 'unsupported_currency', `currency: must be one of ${SUPPORTED_CURRENCIES.join(', ')}`, {
          supported_currencies: SUPPORTED_CURRENCIES,
        });
      }
      for (const field of ['payee', 'payee_name'] as const) {
        const value = input[field];
        const checked = field === 'payee_name' ? value.replace(NAME_JOINERS, '') : value;
        if (value.trim() !== value || DISGUISE.test(checked)) {
          throw unprocessable(
            `${field}: must not contain control, invisible or line-breaking characters, nor surrounding spaces`,
          );
        }
      }
      const context = {
        amount_minor: input.amount_minor,
        currency: input.currency,
        payee: input.payee,
        payee_name: input.payee_name,
      };
      return open(me, { kind: 'sca', action: SCA_ACTION, context, display: payerSentence(context) }, ip);
    },

    /** `POST /payments/step-up/{id}/webauthn-options`: a passkey challenge bound to this ask. */
    async webauthnOptions(principal: Principal, id: string): Promise<PublicKeyCredentialRequestOptionsJSON> {
      const me = sessionOf(principal);
      return transactions.tenant(me.tenantId, async (tx) => {
        const row = await ownElevation(tx, me, id);
        const now = clock.now();
        assertOpen(row, now);
        const credentialIds = await passkeys.credentialIdsOf(tx, me.userId);
        if (credentialIds.length === 0) {
          throw refusal(400, 'no_factor', 'No passkey is registered: verify with TOTP instead');
        }
        const challenge = new Uint8Array(Buffer.concat([randomBytes(16), challengeBinding(row)]));
        const options = await generateAuthenticationOptions({
          rpID: passkeys.relyingParty.id,
          allowCredentials: credentialIds.map((credentialId) => ({ id: credentialId })),
          userVerification: row.kind === 'sca' ? 'required' : 'preferred',
          timeout: Math.max(1000, row.expiresAt.getTime() - now.getTime()),
          challenge,
        });
        await store.updateElevation(tx, row.id, { webauthnChallenge: options.challenge });
        return options;
      });
    },

    /**
     * `POST /payments/step-up/{id}/verify`: one factor. A bad one burns an attempt (401; the one reaching the cap
     * kills the ask); a good one adds its categories: a step-up is satisfied by one, SCA by two different
     * categories (403 `insufficient_factors` until then, the factor kept).
     */
    async verify(principal: Principal, id: string, input: VerifyInput): Promise<ElevationViewType> {
      const me = sessionOf(principal);
      const methods = await methodsOf(me.userId);
      const outcome = await transactions.tenant(me.tenantId, async (tx): Promise<VerifyOutcome> => {
        const row = await ownElevation(tx, me, id);
        const now = clock.now();
        assertOpen(row, now);
        const factor = await checkFactor(tx, me, row, input);
        if (!factor) {
          const attempts = row.attempts + 1;
          const dead = attempts >= ELEVATION_ATTEMPTS;
          await store.updateElevation(tx, row.id, { attempts, ...(dead ? { status: 'dead' } : {}) });
          await events.emit(tx, {
            tenantId: me.tenantId,
            actor: { id: me.userId, type: 'human' },
            category: 'security',
            action: 'elevation.failed',
            severity: dead ? 'warn' : 'info',
            outcome: 'failure',
            subjectUserId: me.userId,
            data: eventData(row, { method: input.method, attempt: attempts, dead }),
          });
          return { kind: 'bad', attemptsLeft: ELEVATION_ATTEMPTS - attempts };
        }
        const categories = new Set([...row.categories, ...factor.categories]);
        const methodsUsed = new Set([...row.methodsUsed, factor.method]);
        if (row.kind === 'sca' && (await recentPassword(tx, me, now))) {
          categories.add('knowledge');
          methodsUsed.add('password');
        }
        const satisfied = categories.size >= categoriesRequired(row);
        const updated: store.ElevationRow = {
          ...row,
          categories: sortCategories(categories),
          methodsUsed: [...methodsUsed],
          webauthnChallenge: null,
          ...(satisfied ? { status: 'satisfied' as const, satisfiedAt: now } : {}),
        };
        await store.updateElevation(tx, row.id, {
          categories: updated.categories,
          methodsUsed: updated.methodsUsed,
          ...(satisfied ? { status: 'satisfied', satisfiedAt: now } : {}),
        });
        await events.emit(tx, {
          tenantId: me.tenantId,
          actor: { id: me.userId, type: 'human' },
          category: 'security',
          action: satisfied ? 'elevation.verified' : 'elevation.factor_accepted',
          subjectUserId: me.userId,
          data: eventData(row, { method: factor.method, categories: updated.categories }),
        });
        return satisfied
          ? { kind: 'satisfied', view: view(updated, methods, now) }
          : { kind: 'insufficient', categories: updated.categories, view: view(updated, methods, now) };
      });
      switch (outcome.kind) {
        case 'satisfied':
          return outcome.view;
        case 'bad':
          throw refusal(401, 'bad_factor', BAD_FACTOR, { attempts_left: outcome.attemptsLeft });
        case 'insufficient':
          throw refusal(
            403,
            'insufficient_factors',
            'Strong customer authentication needs two different factor categories: verify another kind of factor',
            { categories_proven: outcome.categories },
          );
      }
    },

    /**
     * `POST /payments/elevations/consume` (`payments:verify`): the details must be exactly the bound ones (409
     * `fingerprint_mismatch`), the elevation satisfied, unspent and unexpired (409 `not_spendable`) and its session
     * alive (409 `session_gone`). Spent in one statement: of concurrent consumes exactly one gets the attestation.
     */
    async consume(principal: Principal, input: ConsumeInput): Promise<AttestationType> {
      if (!isUuid(input.elevation_id)) throw notFound(NOT_FOUND);
      const elevationId = input.elevation_id.toLowerCase();
      return transactions.tenant(principal.tenantId, async (tx) => {
        const row = await store.elevationById(tx, principal.tenantId, elevationId);
        if (!row) throw notFound(NOT_FOUND);
        const now = clock.now();
        const presented = bindingFingerprint({
          elevationId,
          userId: input.user_id,
          sid: input.sid,
          action: input.action,
          context: input.context,
        });
        if (!secretsEqual(presented, row.fingerprint)) {
          throw refusal(
            409,
            'fingerprint_mismatch',
            'The details differ from the ones the elevation is bound to (user_id, sid, action and context must be exactly as bound)',
          );
        }
        const status = elevationStatus(row, now);
        if (status !== 'satisfied') {
          throw refusal(409, 'not_spendable', `This elevation is ${status}: it cannot be spent`, { status });
        }
        const live = await liveSessionsOfUser(tx, row.tenantId, row.userId, now);
        const subject = await signInSubject(tx, { tenantId: row.tenantId, userId: row.userId });
        if (!mayUseAccount(subject) || !live.some((session) => session.id === row.sessionId)) {
          throw refusal(409, 'session_gone', 'The session the elevation was made in has ended');
        }
        const spent = await store.spendElevation(tx, {
          tenantId: row.tenantId,
          id: row.id,
          fingerprint: row.fingerprint,
          now,
        });
        if (!spent)
          throw refusal(409, 'not_spendable', 'This elevation is spent: it cannot be spent', { status: 'spent' });
        await store.recordSpender(tx, row.id, principal.actor.id);
        await events.emit(tx, {
          tenantId: row.tenantId,
          actor: principal.actor,
          category: 'security',
          action: 'elevation.consumed',
          subjectUserId: row.userId,
          data: eventData(row, { categories: row.categories }),
        });
        const body: AttestationType = {
          attestation: '',
          elevation_id: row.id,
          kind: row.kind,
          user_id: row.userId,
          sid: row.sessionId,
          action: row.action,
          context: row.context ?? null,
          fingerprint: row.fingerprint,
          factor_categories: sortCategories(row.categories) as AttestationType['factor_categories'],
          methods: row.methodsUsed,
          ...(row.kind === 'sca' && row.context
            ? { transaction: row.context as NonNullable<AttestationType['transaction']>, display: row.display ?? '' }
            : {}),
          verified_at: (row.satisfiedAt ?? now).toISOString(),
          consumed_at: now.toISOString(),
        };
        const { attestation: _, ...claims } = body;
        body.attestation = await keyring.sign(
          {
            ...claims,
            iss: deps.config.oidcIssuer,
            sub: row.userId,
            aud: principal.actor.id,
            tid: row.tenantId,
            jti: row.id,
            iat: Math.floor(now.getTime() / 1000),
          },
          { typ: ATTESTATION_TYP },
        );
        return body;
      });
    },
  };
}

export type PaymentService = ReturnType<typeof createPaymentService>;
