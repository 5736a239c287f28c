import { hasPermission, type Principal } from '../../kernel/auth/index.js';
import { addMs, hours as hoursMs } from '../../kernel/clock.js';
import type { Tx } from '../../kernel/db/index.js';
import { badRequest, forbidden } from '../../kernel/http/index.js';
import type { SettingTie } from '../settings/index.js';
import { INDEFINITE_UNTIL, KILL_SWITCH_DETECTION, OFFERED_HOURS } from './catalogue.js';
import type { AutonomyDeps } from './deps.js';
import * as store from './store.js';

// The autonomy kill switch (Part B 3, 4.9). Its state is one setting, `autonomy.disabled_until` (Part A 2.13):
// an expiry instant, so it re-arms by itself when the instant passes; an indefinite stop is an instant that never
// comes. A tenant's switch is its own setting; the global switch (scope `global`) is the platform-operator
// organization's. `POST /autonomy/kill-switch` and `PATCH /tenants/config/autonomy.disabled_until` both go
// through the settings service, whose tie (below) needs `autonomy:disable` and raises the critical detection.

export interface KillSwitchState {
  engaged: boolean;
  scope: 'global' | 'tenant';
  until: string | null;
  indefinite: boolean;
  reason: string | null;
  offered_hours: number[];
}

interface SwitchOf {
  active: boolean;
  until: string | null;
  tenantId: string;
}

export function createKillSwitch(deps: AutonomyDeps) {
  const { transactions, settings, clock, events, organizations } = deps;
  let platformId: string | null | undefined;

  /** The platform-operator organization (never changes once made); `within` a transaction already open. */
  async function platformTenant(within?: Tx): Promise<string | null> {
    if (platformId) return platformId;
    const found =
      (within
        ? await organizations.platformOperator(within)
        : await transactions.systemRead((q) => organizations.platformOperator(q))
      )?.id ?? null;
    if (found) platformId = found;
    return found;
  }

  async function switchOf(tx: Tx, tenantId: string): Promise<SwitchOf> {
    const value = String(await settings.read(tx, tenantId, 'autonomy.disabled_until'));
    const active = value !== '' && Date.parse(value) > clock.now().getTime();
    return { active, until: active ? new Date(value).toISOString() : null, tenantId };
  }

  /**
   * The global switch (the platform-operator organization's setting), read in a system transaction of its own:
   * call it before opening the tenant's transaction (one connection may serve both, PGlite's does).
   */
  async function globalSwitch(): Promise<SwitchOf | undefined> {
    const platform = await platformTenant();
    if (!platform) return undefined;
    return transactions.system((sys) => switchOf(sys, platform));
  }

  /** The switch that stops autonomy in this organization now: its own, else the global one; undefined if none. */
  async function engagedFor(tx: Tx, tenantId: string, global: SwitchOf | undefined): Promise<SwitchOf | undefined> {
    const own = await switchOf(tx, tenantId);
    if (own.active) return own;
    return global?.active ? global : undefined;
  }

  async function state(principal: Principal): Promise<KillSwitchState> {
    const platform = await platformTenant();
    const scope = platform === principal.tenantId ? 'global' : 'tenant';
    const global = await globalSwitch();
    const stop = await transactions.tenant(
      principal.tenantId,
      async (tx) => (await engagedFor(tx, principal.tenantId, global)) ?? (await switchOf(tx, principal.tenantId)),
    );
    // The note of whichever organization's switch holds (the platform's for the global one): a system read.
    const note = await transactions.system((sys) => store.killSwitchNote(sys, stop.tenantId));
    const indefinite = stop.active && stop.until === INDEFINITE_UNTIL;
    const reason = stop.active && note && note.until === stop.until ? note.reason : null;
    return {
      engaged: stop.active,
      scope,
      until: stop.until,
      indefinite,
      reason,
      offered_hours: [...OFFERED_HOURS],
    };
  }

  return {
    platformTenant,
    globalSwitch,
    engagedFor,
    state,

    /** `POST /autonomy/kill-switch`: engage for 1, 8 or 24 hours, or indefinitely with a reason; or release. */
    async change(
      principal: Principal,
      body: { enable: boolean; hours?: number | undefined; reason?: string | undefined },
    ): Promise<KillSwitchState> {
      const reason = body.reason?.trim() || undefined;
      let until = '';
      if (body.enable) {
        if (body.hours === undefined) {
          if (!reason)
            throw badRequest('An indefinite kill switch needs a reason: give `reason`, or `hours` (1, 8 or 24)');
          until = INDEFINITE_UNTIL;
        } else {
          if (!(OFFERED_HOURS as readonly number[]).includes(body.hours)) {
            throw badRequest('hours must be one of 1, 8 or 24 (omit it, with a reason, for an indefinite stop)');
          }
          until = addMs(clock.now(), hoursMs(body.hours)).toISOString();
        }
      } else if (principal.actor.type !== 'human') {
        throw forbidden('Only a person can release the autonomy kill switch');
      }
      await settings.change(principal, 'autonomy.disabled_until', until, { reason: reason ?? null });
      return state(principal);
    },

    /** The settings tie of `autonomy.disabled_until`: one state, whichever route changes it. */
    tie(): SettingTie {
      return {
        permission: 'autonomy:disable',
        async changed(tx, change, context) {
          const next = String(change.next);
          const platform = await platformTenant(tx);
          const scope = platform === change.tenantId ? 'global' : 'tenant';
          const data = {
            scope,
            engaged: next !== '' && Date.parse(next) > clock.now().getTime(),
            until: next === '' ? null : next,
            previous_until: change.previous === '' ? null : change.previous,
            reason: typeof context.reason === 'string' ? context.reason : null,
            by: change.actor,
          };
          const event = await events.emit(tx, {
            tenantId: change.tenantId,
            actor: change.actor,
            category: 'security',
            action: 'autonomy.kill_switch_changed',
            severity: 'critical',
            data,
          });
          await events.detect(tx, {
            tenantId: change.tenantId,
            ruleId: KILL_SWITCH_DETECTION,
            groupKey: `autonomy:kill-switch:event:${event.id}`,
            severity: 'critical',
            data,
          });
          await store.saveKillSwitchNote(tx, {
            tenantId: change.tenantId,
            until: next === '' ? '' : new Date(next).toISOString(),
            reason: data.reason,
            changedBy: change.actor.id,
            changedAt: clock.now(),
          });
        },
      };
    },
  };
}

export type KillSwitch = ReturnType<typeof createKillSwitch>;

/** Whether a principal may hold the switch's permission (used by routes' descriptions and tests). */
export const canDisable = (principal: Principal) => hasPermission(principal, 'autonomy:disable');
