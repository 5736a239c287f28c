import { and, eq } from 'drizzle-orm';
import type { Principal } from '../../kernel/auth/index.js';
import { days, hours } from '../../kernel/clock.js';
import type { Tx } from '../../kernel/db/index.js';
import { notFound } from '../../kernel/http/index.js';
import { isUuid } from '../../kernel/ids.js';
import { membershipStanding } from '../organizations/index.js';
import { liveSessionsOfUser } from '../sign-in/index.js';
import type { PaymentsDeps } from './deps.js';
import type { RiskContextType, RiskQueryType } from './http-schemas.js';
import * as store from './store.js';

// The risk context (Part B 2.6): a score the payment back end weighs with its own signals. Every factor says what it
// read and what it added; an input that cannot be read is scored worst-case and named in `degraded`, so the score
// is then a floor, never an understatement. There is no exemption verdict: deciding one is the back end's.

type Factor = RiskContextType['factors'][number];

/** Points by severity of an open detection, summed and capped by the factor's maximum. */
const SEVERITY_POINTS: Record<string, number> = { critical: 20, high: 10, warn: 5, low: 2, info: 1 };

export const RISK_BANDS = { medium: 30, high: 60 } as const;
export const bandOf = (score: number): RiskContextType['band'] =>
  score >= RISK_BANDS.high ? 'high' : score >= RISK_BANDS.medium ? 'medium' : 'low';

const UNKNOWN = 'Unknown user or session';

export function createRiskContext(deps: PaymentsDeps) {
  const { transactions, clock, mfa, passkeys } = deps;

  /** One input, read on its own (a failing read does not abort the others); undefined when it could not be read. */
  async function read<T>(work: () => Promise<T>): Promise<{ ok: true; value: T } | { ok: false }> {
    try {
      return { ok: true, value: await work() };
    } catch {
      return { ok: false };
    }
  }

  const degradedFactor = (name: string, max: number, what: string): Factor => ({
    name,
    points: max,
    max_points: max,
    value: null,
    detail: `${what} could not be read: scored worst-case`,
    degraded: true,
  });

  function detectionsFactor(
    name: string,
    max: number,
    about: string,
    found: Array<{ rule_id: string; severity: string; count: number }>,
  ): Factor {
    const points = Math.min(
      max,
      found.reduce((sum, detection) => sum + (SEVERITY_POINTS[detection.severity] ?? 1), 0),
    );
    const rules = [...new Set(found.map((detection) => detection.rule_id))];
    return {
      name,
      points,
      max_points: max,
      value: found.length,
      detail:
        found.length === 0
          ? `No open detection against ${about}`
          : `Open detections against ${about}: ${rules.join(', ')}`,
      degraded: false,
    };
  }

  return {
    /** `GET /payments/risk/context` (`payments:verify`). */
    async context(principal: Principal, query: RiskQueryType): Promise<RiskContextType> {
      if (!isUuid(query.user_id) || !isUuid(query.sid)) throw notFound(UNKNOWN);
      const tenantId = principal.tenantId;
      const userId = query.user_id.toLowerCase();
      const sid = query.sid.toLowerCase();
      const now = clock.now();
      const tenantRead = <T>(work: (q: Tx) => Promise<T>) => transactions.tenantRead(tenantId, work);

      // Who and which session: an unknown person or a session not theirs is 404, like another organization's.
      const [membership, session] = await Promise.all([
        read(() =>
          tenantRead(async (q) => {
            const m = membershipStanding(q);
            const [row] = await q
              .select({ createdAt: m.createdAt })
              .from(m)
              .where(and(eq(m.tenantId, tenantId), eq(m.userId, userId)));
            return row;
          }),
        ),
        read(() =>
          tenantRead(async (q) => {
            const all = await deps.sessions.ofUser(q, tenantId, userId);
            const mine = all.find((row) => row.id === sid);
            if (!mine) return undefined;
            const live = await liveSessionsOfUser(q, tenantId, userId, now);
            return { createdAt: mine.createdAt, live: live.some((row) => row.id === sid) };
          }),
        ),
      ]);
      if ((membership.ok && !membership.value) || (session.ok && !session.value)) throw notFound(UNKNOWN);

      const factors: Factor[] = [];
      const unavailable: string[] = [];

      // Account age: how long the person has been a member of this organization.
      if (membership.ok && membership.value) {
        const age = now.getTime() - membership.value.createdAt.getTime();
        const points = age < days(1) ? 20 : age < days(7) ? 10 : age < days(30) ? 5 : 0;
        const ageDays = Math.floor(age / days(1));
        factors.push({
          name: 'account_age',
          points,
          max_points: 20,
          value: ageDays,
          detail: `Member of this organization for ${ageDays} day(s)`,
          degraded: false,
        });
      } else factors.push(degradedFactor('account_age', 20, 'The membership'));

      // Session age: a session long after its sign-in is weaker evidence; an ended one is the worst.
      if (session.ok && session.value) {
        const age = now.getTime() - session.value.createdAt.getTime();
        const ageMinutes = Math.floor(age / 60_000);
        const points = !session.value.live ? 20 : age < hours(1) ? 0 : age < hours(12) ? 5 : age < days(1) ? 10 : 15;
        factors.push({
          name: 'session_age',
          points,
          max_points: 20,
          value: ageMinutes,
          detail: session.value.live
            ? `Signed in ${ageMinutes} minute(s) ago`
            : `The session has ended (signed in ${ageMinutes} minute(s) ago)`,
          degraded: false,
        });
      } else factors.push(degradedFactor('session_age', 20, 'The session'));

      // Factor strength: a passkey is phishing-resistant, a TOTP code is not, and no factor at all is the weakest.
      const strength = await read(() =>
        Promise.all([mfa.isEnabled(userId), transactions.systemRead((q) => passkeys.credentialIdsOf(q, userId))]),
      );
      if (strength.ok) {
        const [totp, passkeyIds] = strength.value;
        const enrolled = [...(passkeyIds.length > 0 ? ['passkey'] : []), ...(totp ? ['totp'] : [])];
        const points = passkeyIds.length > 0 ? 0 : totp ? 10 : 30;
        factors.push({
          name: 'factor_strength',
          points,
          max_points: 30,
          value: enrolled.length > 0 ? enrolled.join('+') : 'none',
          detail:
            enrolled.length === 0
              ? 'No second factor enrolled'
              : passkeyIds.length > 0
                ? 'A phishing-resistant passkey is enrolled'
                : 'TOTP only (not phishing-resistant)',
          degraded: false,
        });
      } else factors.push(degradedFactor('factor_strength', 30, 'The enrolled factors'));

      // Open detections against the person.
      const againstUser = await read(() => tenantRead((q) => store.openDetections(q, tenantId, { userId })));
      factors.push(
        againstUser.ok
          ? detectionsFactor('open_detections_user', 20, 'the person', againstUser.value)
          : degradedFactor('open_detections_user', 20, 'The detections against the person'),
      );

      // Open detections against the address the session last opened an elevation from (none known: unavailable).
      const ip = await read(() => tenantRead((q) => store.lastSourceIp(q, tenantId, sid)));
      if (!ip.ok) factors.push(degradedFactor('open_detections_ip', 10, 'The source address'));
      else if (!ip.value) unavailable.push('open_detections_ip');
      else {
        const address = ip.value;
        const againstIp = await read(() => tenantRead((q) => store.openDetections(q, tenantId, { ip: address })));
        factors.push(
          againstIp.ok
            ? detectionsFactor('open_detections_ip', 10, `the source address ${address}`, againstIp.value)
            : degradedFactor('open_detections_ip', 10, 'The detections against the source address'),
        );
      }

      const score = Math.min(
        100,
        factors.reduce((sum, factor) => sum + factor.points, 0),
      );
      return {
        user_id: userId,
        sid,
        score,
        band: bandOf(score),
        factors,
        unavailable,
        degraded: factors.filter((factor) => factor.degraded).map((factor) => factor.name),
        computed_at: now.toISOString(),
      };
    },
  };
}
