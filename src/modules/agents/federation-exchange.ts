import { setTimeout as delay } from 'node:timers/promises';
import { decodeJwt, type JWTPayload } from 'jose';
import type { Config } from '../../config.js';
import type { AfterAnswer } from '../../kernel/after-answer.js';
import { DpopError, type DpopVerifier } from '../../kernel/auth/index.js';
import type { Clock } from '../../kernel/clock.js';
import type { Transactions } from '../../kernel/db/index.js';
import type { Events } from '../../kernel/events/index.js';
import { HttpError } from '../../kernel/http/index.js';
import { type Limiter, type LimitPolicy, throttled } from '../../kernel/limits/index.js';
import type { IssuerKeys } from './federation-keys.js';
import { claimsMatch } from './federation-profiles.js';
import * as store from './federation-store.js';
import type { MintThrottles } from './mint-throttles.js';
import type { AgentTokenResponse } from './model.js';

/** The one answer of every refused exchange (Part B 4.1, 7): the same status, body and headers whatever failed. */
export const EXCHANGE_REFUSED = 'Federated token exchange refused';
const refusal = () => new HttpError(401, EXCHANGE_REFUSED, { 'cache-control': 'no-store', pragma: 'no-cache' });

/**
 * Failed exchanges naming one organization (Part B 8), keyed by the slug as named, so an unknown organization
 * brakes exactly like a known one. Numbers in docs/decisions.md ("Federated exchange").
 */
export const FEDERATED_FAILURES_PER_TENANT: LimitPolicy = {
  name: 'agent-federated-failures-tenant',
  points: 100,
  durationSeconds: 900,
};
/** Failed exchanges naming one organization and one `iss`: one misbehaving issuer brakes before the others. */
export const FEDERATED_FAILURES_PER_ISSUER: LimitPolicy = {
  name: 'agent-federated-failures-issuer',
  points: 30,
  durationSeconds: 900,
};

/**
 * A refused exchange is answered this long after it began (real time, not the service clock), whatever failed: far
 * above any refusal's own work on an ordinary node (about 10 ms), so no cause answers sooner than another.
 */
export const REFUSAL_ANSWERED_AFTER_MS = 100;

/** Longest attestation lifetime, `exp - iat` (Part B 8). */
export const MAX_ATTESTATION_LIFETIME_SECONDS = 3600;
/** Clock difference tolerated between the issuer and this service. */
const CLOCK_TOLERANCE_SECONDS = 30;
const MAX_JTI_LENGTH = 255;
/** Spent ids of expired attestations are deleted at most this often per issuer and node. */
const PURGE_INTERVAL_MS = 60_000;
/** A tenant id that names no organization: the refused paths run the same statements against nothing. */
const NOBODY = '00000000-0000-0000-0000-000000000000';

export type MintFederated = (input: {
  tenantId: string;
  agentId: string;
  dpopJkt?: string | undefined;
  via: 'federated';
}) => Promise<AgentTokenResponse>;

/** The `iss` an attestation claims, unverified (only to key the brakes and find the issuer to verify with). */
function claimedIssuer(token: string): string {
  try {
    const iss = decodeJwt(token).iss;
    return typeof iss === 'string' ? iss.slice(0, 2048) : '';
  } catch {
    return '';
  }
}

const clip = (value: unknown) => (typeof value === 'string' ? value.slice(0, 200) : null);

/**
 * `POST /agents/token/federated` (Part B 4.1): an attestation JWT of a workload identity issuer the named
 * organization trusts, exchanged once for the same agent token as the credential mint. Every rule is checked and
 * every path does the same work (one issuer read, one signature verification, one decision transaction); the
 * first broken rule is kept for the organization's event and the caller gets one generic 401.
 */
export function createFederatedExchange(deps: {
  config: Pick<Config, 'oidcIssuer'>;
  transactions: Transactions;
  events: Events;
  clock: Clock;
  limiter: Limiter;
  throttles: MintThrottles;
  dpop: DpopVerifier;
  keys: IssuerKeys;
  afterAnswer: AfterAnswer;
  logger: { warn(obj: object, msg: string): void };
  mint: MintFederated;
}) {
  const { config, transactions, events, clock, limiter, dpop, keys } = deps;
  const lastPurge = new Map<string, number>();

  /** The claims checks jose leaves to the caller: `aud` exactly ours, the lifetime, `iat`, `jti`. */
  function claimsProblem(payload: JWTPayload): string | undefined {
    const aud = payload.aud;
    const audience = Array.isArray(aud) && aud.length === 1 ? aud[0] : aud;
    if (audience !== config.oidcIssuer) return 'aud is not this deployment';
    const { iat, exp, jti } = payload;
    if (typeof iat !== 'number' || typeof exp !== 'number') return 'iat or exp missing';
    if (exp - iat > MAX_ATTESTATION_LIFETIME_SECONDS) return 'lifetime above one hour';
    if (iat > clock.now().getTime() / 1000 + CLOCK_TOLERANCE_SECONDS) return 'iat in the future';
    if (typeof jti !== 'string' || jti === '' || jti.length > MAX_JTI_LENGTH) return 'jti missing';
    return undefined;
  }

  async function purgeNow(tx: Parameters<typeof store.purgeExpiredJtis>[0], tenantId: string, issuerId: string) {
    const now = clock.now();
    if (now.getTime() - (lastPurge.get(issuerId) ?? 0) < PURGE_INTERVAL_MS) return;
    lastPurge.set(issuerId, now.getTime());
    await store.purgeExpiredJtis(tx, tenantId, issuerId, now);
  }

  return {
    async exchange(
      input: { tenant: string; subjectToken: string },
      context: { ip: string; dpopProof: string | string[] | undefined; method: string; url: string },
    ): Promise<AgentTokenResponse> {
      await deps.throttles.admitAddress(context.ip);
      const started = performance.now();
      const slug = input.tenant.trim().toLowerCase();
      const token = input.subjectToken;
      const iss = claimedIssuer(token);
      const brakes = [
        { policy: FEDERATED_FAILURES_PER_TENANT, key: slug },
        { policy: FEDERATED_FAILURES_PER_ISSUER, key: `${slug}\n${iss}` },
      ];
      for (const decision of await limiter.peekMany(brakes)) if (!decision.allowed) throw throttled(decision);

      let reason: string | undefined;
      const refuse = (why: string) => {
        reason ??= why;
      };

      let dpopJkt: string | undefined;
      if (context.dpopProof !== undefined) {
        try {
          dpopJkt = (await dpop.verify({ proof: context.dpopProof, method: context.method, url: context.url })).jkt;
        } catch (error) {
          if (!(error instanceof DpopError)) throw error;
          refuse('DPoP proof invalid');
        }
      }

      const found = await transactions.systemRead((q) => store.exchangeIssuer(q, slug, iss));
      if (!found) refuse('unknown organization');
      else if (!found.issuerId) refuse('unknown issuer');
      else if (!found.enabled) refuse('issuer disabled');
      const trusted =
        found?.issuerId && found.jwksUri && found.enabled
          ? { issuerId: found.issuerId, jwksUri: found.jwksUri }
          : undefined;
      const verified = await keys.verify(token, trusted, {
        issuer: found?.issuer ?? iss,
        currentDate: clock.now(),
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        requiredClaims: ['iss', 'sub', 'aud', 'exp', 'iat', 'jti'],
      });
      const payload = 'payload' in verified ? verified.payload : undefined;
      if (!payload) refuse('refused' in verified ? verified.refused : 'not verified');
      else {
        const problem = claimsProblem(payload);
        if (problem) refuse(problem);
      }

      /** Moves both brakes, records the reason for a known organization after the answer, answers the 401. */
      const refused = async (why: string): Promise<HttpError> => {
        await Promise.all(brakes.map(({ policy, key }) => limiter.consume(policy, key)));
        // Every path does the same work, but not to the microsecond (a replayed jti's attestation passed every check
        // before its spend was refused): every refusal is answered at the same instant after the request began.
        await delay(Math.max(0, started + REFUSAL_ANSWERED_AFTER_MS - performance.now()));
        if (found) {
          const data = {
            reason: why,
            issuer_id: found.issuerId,
            iss: clip(iss),
            sub: clip(payload?.sub),
            jti: clip(payload?.jti),
          };
          deps.afterAnswer.run(
            () =>
              transactions.tenant(found.tenantId, (tx) =>
                events.emit(tx, {
                  tenantId: found.tenantId,
                  actor: { id: found.issuerId ?? 'unknown-issuer', type: 'service' },
                  category: 'security',
                  action: 'agent_issuer.attestation_refused',
                  severity: 'warn',
                  outcome: 'denied',
                  data,
                }),
              ),
            (error) => deps.logger.warn({ err: error.message }, 'federated exchange refusal not recorded'),
          );
        }
        return refusal();
      };

      const tenantId = found?.tenantId ?? NOBODY;
      const issuerId = found?.issuerId ?? NOBODY;
      const chosen = await transactions.tenant(tenantId, async (tx) => {
        const bindings = await store.bindingsWithAgents(tx, tenantId, issuerId);
        const matching = payload ? bindings.filter((binding) => claimsMatch(binding.claims, payload)) : [];
        if (matching.length === 0) refuse('no binding matches');
        else if (matching.length > 1) refuse('several bindings match');
        const binding = matching[0];
        if (binding && (binding.status !== 'active' || binding.killSwitchEngaged)) refuse('agent not live');
        if (reason !== undefined || !binding || !payload) return undefined;
        await purgeNow(tx, tenantId, issuerId);
        const exp = payload.exp as number;
        const jti = payload.jti as string;
        const expiresAt = new Date((exp + CLOCK_TOLERANCE_SECONDS) * 1000);
        if (!(await store.spendJti(tx, { tenantId, issuerId, jti, expiresAt }))) {
          refuse('jti already exchanged');
          return undefined;
        }
        await events.emit(tx, {
          tenantId,
          actor: { id: binding.agentId, type: 'agent' },
          category: 'agent',
          action: 'agent_issuer.attestation_exchanged',
          data: {
            issuer_id: issuerId,
            binding_id: binding.bindingId,
            agent_id: binding.agentId,
            jti,
            sub: payload.sub,
          },
        });
        return binding;
      });

      if (!chosen) throw await refused(reason ?? 'refused');
      try {
        return await deps.mint({ tenantId, agentId: chosen.agentId, dpopJkt, via: 'federated' });
      } catch (error) {
        // The mint's own refusals (the agent changed meanwhile) are this exchange's generic refusal; its
        // issuance allowance (429) and failures of the service pass as they are.
        if (error instanceof HttpError && error.status < 500 && error.status !== 429) {
          throw await refused(`mint refused: ${error.detail}`);
        }
        throw error;
      }
    },
  };
}

export type FederatedExchange = ReturnType<typeof createFederatedExchange>;
