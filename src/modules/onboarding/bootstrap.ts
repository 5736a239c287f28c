import { addMs, hours, seconds } from '../../kernel/clock.js';
import { randomSecret } from '../../kernel/crypto/index.js';
import { HttpError, unprocessable } from '../../kernel/http/index.js';
import { newId } from '../../kernel/ids.js';
import { type LimitDecision, rateLimitHeaders, throttled } from '../../kernel/limits/index.js';
import { emailKeyOf } from '../accounts/index.js';
import { assertMailableEmail } from '../early-access/index.js';
import {
  BOOTSTRAP_GLOBAL,
  BOOTSTRAP_PER_IP,
  BOOTSTRAP_PER_NETWORK,
  networkOf,
  POLL_AND_POW_PER_IP,
  POW_BITS,
  POW_TTL_SECONDS,
  solvesPow,
} from './abuse.js';
import { hashCode, newDeviceCode, newUserCode } from './codes.js';
import { type OnboardingDeps, ownerPrincipal } from './deps.js';
import type { BootstrapInput } from './http-schemas.js';
import { type InviteCodes, inviteRefused } from './invite-codes.js';
import { parseManifest } from './manifests-port.js';
import type { AttemptRow } from './schema.js';
import * as store from './store.js';

// The agent's side of onboarding (Part B 4.5): bootstrap, poll, proof of work. The attempt lives about an hour
// (its codes); a repeat bootstrap for the same address after that rotates fresh codes on the same attempt, so a
// confirmed email (48-hour link) is not lost. What the person does is verification.ts's.

export const ATTEMPT_LIFETIME_MS = hours(1);
export const POLL_INTERVAL_SECONDS = 5;
/** Part B 8: a manifest parked with a bootstrap is at most 64 KiB (its JSON text). */
export const MANIFEST_MAX_BYTES = 64 * 1024;
export const DEFAULT_AGENT_NAME = 'Onboarding agent';

const powRefused = (detail: string) => new HttpError(403, detail, {}, { pow_required: true });

/** Half a budget spent: from then on a bootstrap from there carries a proof of work. */
const halfSpent = (decision: LimitDecision) => decision.remaining * 2 < decision.limit;

export function createBootstrap(deps: OnboardingDeps & { inviteCodes: InviteCodes }) {
  const { config, transactions, events, clock, limiter } = deps;

  async function spendPow(pow: BootstrapInput['pow']): Promise<void> {
    if (!pow) throw powRefused('A proof of work is required: get a challenge from POST /api/v1/onboard/pow');
    const spent = await transactions.systemWrite((q) => store.spendPowChallenge(q, pow.challenge, clock.now()));
    if (!spent || !solvesPow(pow.challenge, pow.nonce, spent.bits)) {
      throw powRefused('The proof of work is unknown, expired, already used or wrong: get a new challenge');
    }
  }

  function manifestOf(document: BootstrapInput['manifest']) {
    if (document === undefined) return undefined;
    if (Buffer.byteLength(JSON.stringify(document)) > MANIFEST_MAX_BYTES) {
      throw unprocessable('manifest: larger than 64 KiB');
    }
    const parsed = parseManifest(document);
    if (!parsed.ok) {
      throw new HttpError(422, `manifest: ${parsed.errors.join('; ')}`, {}, { errors: parsed.errors });
    }
    return parsed.manifest as unknown as Record<string, unknown>;
  }

  return {
    /** `POST /onboard/bootstrap`: 201 with the codes, the device code once. */
    async bootstrap(input: BootstrapInput, context: { ip: string }) {
      // Every budget is spent first, so refusals count too; any refused (or unanswerable) budget is a 429.
      const [byIp, byNetwork, overall] = await Promise.all([
        limiter.consume(BOOTSTRAP_PER_IP, context.ip),
        limiter.consume(BOOTSTRAP_PER_NETWORK, networkOf(context.ip)),
        limiter.consume(BOOTSTRAP_GLOBAL, 'all'),
      ]);
      for (const decision of [byIp, byNetwork, overall]) if (!decision.allowed) throw throttled(decision);
      // Spent before this one: whether half of the caller's budget was gone before it.
      const before = (d: LimitDecision) => ({ ...d, remaining: d.remaining + 1 });
      if (halfSpent(before(byIp)) || halfSpent(before(byNetwork))) await spendPow(input.pow);

      const email = input.human_email.trim();
      const emailKey = emailKeyOf(email);
      // While sign-up is closed: a live code, or the code the address's open attempt consumed when its person
      // confirmed (a repeat after the attempt's hour rotates that attempt's codes, Part B 3).
      const invite = config.flags.publicSignupEnabled
        ? null
        : await transactions.system(async (tx) => {
            const open = await store.openAttemptOfEmail(tx, emailKey);
            return deps.inviteCodes.check(tx, {
              code: input.invite_code,
              email,
              door: 'onboard',
              rotating: open?.organizationId ?? null,
            });
          });
      const inviteCodeId = invite?.id ?? null;
      await assertMailableEmail(deps.dns, email);
      const manifest = manifestOf(input.manifest);

      const deviceCode = newDeviceCode();
      const userCode = newUserCode();
      const now = clock.now();
      const codes = {
        deviceCodeHash: hashCode(deviceCode),
        userCodeHash: hashCode(userCode),
        codesExpireAt: addMs(now, ATTEMPT_LIFETIME_MS),
        lastPolledAt: null,
      };
      try {
        await transactions.system(async (tx) => {
          const open = await store.openAttemptOfEmail(tx, emailKey);
          // A consumed code opens no new attempt: only the one that consumed it, if still open, rotates with it.
          if (invite?.consumedAt && open?.organizationId !== invite.consumedOrganizationId) throw inviteRefused();
          if (open && open.codesExpireAt > now) {
            throw new HttpError(409, 'An onboarding for this address is already waiting for its person');
          }
          let attemptId: string;
          if (open) {
            // Part B 3: a repeat after expiry rotates fresh codes on the same attempt.
            attemptId = open.id;
            await store.updateAttempt(tx, open.id, {
              ...codes,
              inviteCodeId: inviteCodeId ?? open.inviteCodeId,
              clientInfo: input.client_info ?? open.clientInfo,
              // What the person has not confirmed yet follows the newest request.
              ...(open.organizationId ? {} : { organizationName: input.organization_name.trim() }),
              ...(open.status === 'pending' && manifest ? { manifest } : {}),
            });
          } else {
            attemptId = newId();
            const row: AttemptRow = {
              id: attemptId,
              email,
              emailKey,
              organizationName: input.organization_name.trim(),
              clientInfo: input.client_info ?? null,
              manifest: manifest ?? null,
              inviteCodeId,
              status: 'pending',
              ...codes,
              pollIntervalSeconds: POLL_INTERVAL_SECONDS,
              linkTokenHash: null,
              linkExpiresAt: null,
              emailConfirmedAt: null,
              browserHash: null,
              organizationId: null,
              ownerUserId: null,
              ownerCreated: false,
              ownerSessionId: null,
              agentId: null,
              approvedAt: null,
              deniedAt: null,
              releasedAt: null,
              createdAt: now,
            };
            await store.insertAttempt(tx, row);
          }
          await events.emit(tx, {
            tenantId: open?.organizationId ?? null,
            actor: { id: 'onboarding', type: 'system' },
            category: 'onboarding',
            action: 'onboarding.started',
            data: {
              attempt_id: attemptId,
              rotated: open !== undefined,
              client: input.client_info ?? null,
              manifest_parked: manifest !== undefined,
              invite_code_id: inviteCodeId,
            },
          });
        });
      } catch (error) {
        if (isUniqueViolation(error)) {
          throw new HttpError(409, 'An onboarding for this address is already waiting for its person');
        }
        throw error;
      }
      return {
        device_code: deviceCode,
        user_code: userCode,
        verification_uri: `${config.baseUrl}/onboard/verify`,
        expires_in: ATTEMPT_LIFETIME_MS / 1000,
        interval: POLL_INTERVAL_SECONDS,
        pow_required: halfSpent(byIp) || halfSpent(byNetwork),
      };
    },

    /** `POST /onboard/pow`: a single-use challenge. */
    async pow(context: { ip: string }) {
      const budget = await limiter.consume(POLL_AND_POW_PER_IP, context.ip);
      if (!budget.allowed) throw throttled(budget);
      const challenge = randomSecret(16);
      await transactions.systemWrite((q) =>
        store.insertPowChallenge(q, {
          challenge,
          bits: POW_BITS,
          expiresAt: addMs(clock.now(), seconds(POW_TTL_SECONDS)),
        }),
      );
      return { challenge, difficulty: POW_BITS, expires_in: POW_TTL_SECONDS };
    },

    /**
     * `POST /onboard/poll`. The approved attempt is spent (approved -> consumed) in one statement before the
     * credential is made, so of two concurrent polls exactly one receives it; every later poll answers `consumed`.
     */
    async poll(deviceCode: string, context: { ip: string }) {
      const budget = await limiter.consume(POLL_AND_POW_PER_IP, context.ip);
      if (!budget.allowed) throw throttled(budget);
      const hash = hashCode(deviceCode);
      const now = clock.now();
      const attempt = await transactions.systemWrite((q) => store.recordPoll(q, hash, now));
      if (!attempt) {
        const known = await transactions.systemRead((q) => store.attemptByDeviceCode(q, hash));
        if (!known) throw new HttpError(404, 'Unknown device code');
        throw new HttpError(
          429,
          `Polled faster than every ${known.pollIntervalSeconds} seconds: slow down`,
          { 'Retry-After': String(known.pollIntervalSeconds), ...rateLimitHeaders(budget) },
          { status: 'slow_down' },
        );
      }
      if (attempt.status === 'consumed') return { status: 'consumed' as const };
      if (attempt.status === 'denied') return { status: 'denied' as const };
      if (attempt.codesExpireAt <= now) {
        throw new HttpError(
          410,
          'The onboarding attempt expired: bootstrap again for the same address to get fresh codes',
          {},
          { status: 'expired' },
        );
      }
      // Approved, but the agent is released only once it exists with its delegations (verification.ts).
      if (attempt.status !== 'approved' || !attempt.agentId || !attempt.organizationId || !attempt.ownerUserId) {
        return { status: 'authorization_pending' as const };
      }
      const released = await transactions.systemWrite((q) =>
        store.transition(q, attempt.id, 'approved', { status: 'consumed', releasedAt: now }),
      );
      if (!released) return { status: 'consumed' as const };
      const owner = ownerPrincipal(attempt.organizationId, attempt.ownerUserId);
      // A fresh credential: the one made at registration was never shown to anyone.
      const rotated = await deps.agentAdmin.rotateCredential(owner, attempt.agentId);
      const agent = await deps.agentAdmin.get(owner, attempt.agentId);
      await transactions.tenant(attempt.organizationId, (tx) =>
        events.emit(tx, {
          tenantId: attempt.organizationId,
          actor: owner.actor,
          category: 'onboarding',
          action: 'onboarding.released',
          data: { attempt_id: attempt.id, agent_id: attempt.agentId },
        }),
      );
      return {
        status: 'approved' as const,
        agent: { agent_id: attempt.agentId, name: agent.name, credential: rotated.credential },
      };
    },
  };
}

const isUniqueViolation = (error: unknown): boolean => {
  const code = (error as { code?: string })?.code ?? (error as { cause?: { code?: string } })?.cause?.code;
  return code === '23505';
};

export type Bootstrap = ReturnType<typeof createBootstrap>;
