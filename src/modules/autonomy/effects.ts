import { isIP } from 'node:net';
import type { Clock } from '../../kernel/clock.js';
import { sha256Hex } from '../../kernel/crypto/index.js';
import type { Tx } from '../../kernel/db/index.js';
import { canonicalJson } from '../../kernel/events/canonical-json.js';
import type { Actor, Events } from '../../kernel/events/index.js';
import { isUuid } from '../../kernel/ids.js';
import type { Limiter } from '../../kernel/limits/index.js';
import { CONTAINMENT_SECONDS, containSource, releaseSource, sourceContainment } from '../accounts/index.js';
import { engageKillSwitch, killSwitchStanding, refuseHeldTokens, releaseKillSwitch } from '../agents/index.js';
import { liveSessionsOfUser, type SessionService } from '../sign-in/index.js';
import type { TargetKind } from './catalogue.js';

// What each action does, through the same services a person's action uses: the sign-in module's session
// revocation (and its cascade), the agents module's kill switch, the sign-in throttle. Each action has
// `world` (what approving it is checked against), `execute` and, when revertible, `revert`.

export interface EffectDeps {
  events: Events;
  clock: Clock;
  limiter: Limiter;
  sessions: SessionService;
}

export interface Target {
  tenantId: string;
  targetId: string;
  decisionId: string;
}

export interface Executed {
  result: Record<string, unknown>;
  detail: string;
}

/** A revert that cannot happen: the effect was superseded (409, nothing changed). */
export class Superseded extends Error {}

interface Effect {
  target: TargetKind;
  /** The one-sentence plan (Part B 2.8 `effect`). */
  sentence(targetId: string): string;
  /** The state the effect is planned against; approving a changed world expires the proposal. */
  world(tx: Tx, deps: EffectDeps, target: Target): Promise<unknown>;
  /** Why a world differs, in words for the approver. */
  changed: string;
  execute?(tx: Tx, deps: EffectDeps, target: Target, by: Actor | null): Promise<Executed>;
  revert?(
    tx: Tx,
    deps: EffectDeps,
    target: Target,
    executed: Record<string, unknown>,
    by: Actor,
    reason: string,
  ): Promise<string>;
}

const sessionReason = (decisionId: string) => `autonomy:${decisionId}`;

const EFFECTS: Record<string, Effect> = {
  end_all_sessions: {
    target: 'user',
    sentence: (userId) => `End every session of user ${userId} in this organization.`,
    async world(tx, deps, target) {
      const live = await liveSessionsOfUser(tx, target.tenantId, target.targetId, deps.clock.now());
      return { live_sessions: live.map((session) => session.id).sort() };
    },
    changed: "the person's live sessions changed since the proposal (signed in, out, or everywhere)",
    async execute(tx, deps, target, by) {
      // Sign-out everywhere in this organization (Part B 4.9), without bumping the account's epoch, so that the
      // revert can revive exactly these sessions (ARCHITECTURE.md); the cascade ends their OAuth grants too.
      const ended = await deps.sessions.revokeAllOfUser(
        tx,
        target.tenantId,
        target.targetId,
        sessionReason(target.decisionId),
      );
      const data = { user_id: target.targetId, reason: 'autonomy_revoke_access' };
      await deps.events.emit(tx, {
        tenantId: target.tenantId,
        actor: by ?? { id: 'system', type: 'system' },
        category: 'session',
        action: 'user.sessions_revoked',
        severity: 'warn',
        subjectUserId: target.targetId,
        data: { ...data, decision_id: target.decisionId, sessions: ended },
        webhook: { type: 'user.sessions_revoked', data },
      });
      return { result: { sessions_ended: ended }, detail: `ended ${ended} session(s)` };
    },
    async revert(tx, deps, target) {
      const reason = sessionReason(target.decisionId);
      const { ended, revived } = await deps.sessions.reviveEndedBy(tx, target.tenantId, reason);
      if (ended > 0 && revived.length === 0) {
        throw new Superseded('every session this decision ended has ended since for another reason');
      }
      return `revived ${revived.length} of ${ended} session(s) it ended; tokens of sessions ended otherwise stay dead`;
    },
  },
  engage_agent_kill_switch: {
    target: 'agent',
    sentence: (agentId) =>
      `Engage the kill switch of agent ${agentId} and refuse every token it holds now (releasing revives none).`,
    async world(tx, _deps, target) {
      const agent = await killSwitchStanding(tx, target.tenantId, target.targetId);
      return agent ?? { gone: true };
    },
    changed: "the agent's state changed since the proposal (kill switch, lifecycle or credential)",
    async execute(tx, deps, target, by) {
      await engageKillSwitch(
        tx,
        { events: deps.events, clock: deps.clock },
        {
          tenantId: target.tenantId,
          agentId: target.targetId,
          reason: `autonomy: contain_non_human (decision ${target.decisionId})`,
          by,
        },
      );
      // Tokens minted before the containment stay dead whatever happens to the switch later (Part B 4.9).
      await refuseHeldTokens(tx, target.tenantId, target.targetId);
      const agent = await killSwitchStanding(tx, target.tenantId, target.targetId);
      return {
        result: { kill_switch_at: agent?.killSwitchAt ?? null },
        detail: 'kill switch engaged; every token the agent held is refused',
      };
    },
    async revert(tx, deps, target, executed, by, reason) {
      const agent = await killSwitchStanding(tx, target.tenantId, target.targetId);
      if (
        !agent ||
        agent.status === 'retired' ||
        !agent.killSwitchEngaged ||
        agent.killSwitchAt !== executed.kill_switch_at
      ) {
        throw new Superseded("the agent's kill switch was changed since this decision engaged it");
      }
      await releaseKillSwitch(
        tx,
        { events: deps.events, clock: deps.clock, limiter: deps.limiter },
        { tenantId: target.tenantId, agentId: target.targetId, by, reason: `autonomy revert: ${reason}` },
      );
      return 'kill switch released; tokens minted before it stay refused (the agent mints new ones)';
    },
  },
  block_source: {
    // The accounts module's containment: sign-ins to this organization from this exact address refused for
    // CONTAINMENT_SECONDS, in the same limiter as the sign-in failure throttle.
    target: 'source',
    sentence: (source) =>
      `Refuse sign-ins to this organization from the address ${source} (that address only) for ${CONTAINMENT_SECONDS / 60} minutes.`,
    async world(_tx, deps, target) {
      const now = await sourceContainment(deps.limiter, { tenantId: target.tenantId, sourceIp: target.targetId });
      if (now.unavailable) throw new Error('the sign-in limiter is unavailable: the source cannot be planned against');
      return { contained: !now.allowed };
    },
    changed: 'the source was contained since the proposal',
    async execute(_tx, deps, target) {
      const { containedForSeconds } = await containSource(deps.limiter, {
        tenantId: target.tenantId,
        sourceIp: target.targetId,
      });
      const until = new Date(deps.clock.now().getTime() + containedForSeconds * 1000).toISOString();
      return {
        result: { source_ip: target.targetId, contained_until: until },
        detail: `sign-ins from ${target.targetId} refused until ${until}`,
      };
    },
    async revert(_tx, deps, target) {
      const released = await releaseSource(deps.limiter, { tenantId: target.tenantId, sourceIp: target.targetId });
      if (!released) throw new Superseded('the containment of this source has ended already');
      return `sign-ins from ${target.targetId} accepted again`;
    },
  },
  require_step_up: {
    target: 'user',
    sentence: (userId) =>
      `Ask user ${userId} to sign in again with a second factor (a recommendation: a person acts through the ordinary routes).`,
    async world() {
      return {};
    },
    changed: 'nothing',
  },
  disable_oauth_client: {
    target: 'client',
    sentence: (clientId) =>
      `Disable OAuth client ${clientId} (a recommendation: a person acts through the OAuth client routes).`,
    async world() {
      return {};
    },
    changed: 'nothing',
  },
};

export function effectOf(actionId: string): Effect {
  const effect = EFFECTS[actionId];
  if (!effect) throw new Error(`no effect for autonomy action ${actionId}`);
  return effect;
}

export async function worldFingerprint(tx: Tx, deps: EffectDeps, actionId: string, target: Target): Promise<string> {
  return sha256Hex(canonicalJson({ action: actionId, world: await effectOf(actionId).world(tx, deps, target) }));
}

/** The target of a detection, from its data (or its group key, `source:<address>`). */
export function targetOfDetection(
  kind: TargetKind,
  detection: { groupKey: string; data: Record<string, unknown> },
): string | undefined {
  const field = { user: 'user_id', agent: 'agent_id', source: 'source_ip', client: 'client_id' }[kind];
  const value = detection.data[field];
  const candidate =
    typeof value === 'string' && value.length > 0 && value.length <= 256
      ? value
      : kind === 'source' && detection.groupKey.startsWith('source:')
        ? detection.groupKey.slice(7)
        : undefined;
  // A person or an agent is named by its id (a UUID), a source by one address: anything else names no target
  // (and must not fail the lookups of the world the decision is planned against).
  if (candidate === undefined) return undefined;
  if ((kind === 'user' || kind === 'agent') && !isUuid(candidate)) return undefined;
  if (kind === 'source' && isIP(candidate) === 0) return undefined;
  return candidate;
}
