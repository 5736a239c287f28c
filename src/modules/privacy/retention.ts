import type { Principal } from '../../kernel/auth/index.js';
import { addMs, type Clock, days } from '../../kernel/clock.js';
import type { Transactions, Tx } from '../../kernel/db/index.js';
import type { Actor, Events } from '../../kernel/events/index.js';
import * as store from './retention-store.js';
import { DATA_CLASSES, type DataClass } from './schema.js';

/** Until an organization sets a policy, each class reads as this: kept, with nothing purged. */
export const DEFAULT_POLICIES: Record<DataClass, { retentionDays: number }> = {
  events: { retentionDays: 365 },
  dsr: { retentionDays: 3 * 365 },
  consent_events: { retentionDays: 5 * 365 },
};
export const MAX_RETENTION_DAYS = 36_500;
/** Records deleted per class per transaction, so a large backlog never holds one huge transaction's locks. */
const PURGE_BATCH = 1000;

export interface PolicyView {
  data_class: DataClass;
  retention_days: number;
  enabled: boolean;
  archive_before_delete: boolean;
  legal_hold_exempt: boolean;
  notes: string | null;
  /** null while the class still reads as its default. */
  updated_at: string | null;
}

export interface PolicyInput {
  retention_days: number;
  enabled?: boolean | undefined;
  archive_before_delete?: boolean | undefined;
  legal_hold_exempt?: boolean | undefined;
  notes?: string | null | undefined;
}

export interface PurgeResult {
  tenant_id: string;
  data_class: DataClass;
  purged: number;
  archived: boolean;
}

export function effectivePolicies(stored: store.PolicyRow[]): PolicyView[] {
  return DATA_CLASSES.map((dataClass) => {
    const row = stored.find((p) => p.dataClass === dataClass);
    if (!row) {
      return {
        data_class: dataClass,
        retention_days: DEFAULT_POLICIES[dataClass].retentionDays,
        enabled: false,
        archive_before_delete: false,
        legal_hold_exempt: false,
        notes: null,
        updated_at: null,
      };
    }
    return {
      data_class: dataClass,
      retention_days: row.retentionDays,
      enabled: row.enabled,
      archive_before_delete: row.archiveBeforeDelete,
      legal_hold_exempt: row.legalHoldExempt,
      notes: row.notes,
      updated_at: row.updatedAt.toISOString(),
    };
  });
}

const cutoffOf = (now: Date, retentionDays: number) => addMs(now, -days(retentionDays));

/**
 * Purges one organization's enabled policies: one short tenant transaction per round, each claiming the
 * policies (SKIP LOCKED: a policy another worker is purging waits for the next run) and deleting at most one
 * batch per class with its `retention.records_purged` event, until no class has a full batch left. A large
 * backlog thus never holds one long transaction's locks, and every committed deletion has its event.
 */
async function purgeTenant(
  deps: { transactions: Transactions; events: Events; clock: Clock },
  tenantId: string,
): Promise<PurgeResult[]> {
  const totals = new Map<DataClass, PurgeResult>();
  for (let more = true; more; ) {
    more = await deps.transactions.tenant(tenantId, async (tx) => {
      const now = deps.clock.now();
      let full = false;
      for (const policy of await store.claimEnabledPolicies(tx, tenantId)) {
        const cutoff = cutoffOf(now, policy.retentionDays);
        const purged = await store.purgeBatch(tx, {
          tenantId,
          dataClass: policy.dataClass,
          cutoff,
          skipHeld: !policy.legalHoldExempt,
          archive: policy.archiveBeforeDelete,
          now,
          batch: PURGE_BATCH,
        });
        if (purged === PURGE_BATCH) full = true;
        if (purged === 0) continue;
        const total = totals.get(policy.dataClass);
        totals.set(policy.dataClass, {
          tenant_id: tenantId,
          data_class: policy.dataClass,
          purged: (total?.purged ?? 0) + purged,
          archived: policy.archiveBeforeDelete,
        });
        await deps.events.emit(tx, {
          tenantId,
          actor: SYSTEM_ACTOR,
          category: 'privacy',
          action: 'retention.records_purged',
          data: {
            data_class: policy.dataClass,
            purged,
            archived: policy.archiveBeforeDelete,
            cutoff: cutoff.toISOString(),
            retention_days: policy.retentionDays,
          },
        });
      }
      return full;
    });
  }
  return [...totals.values()];
}

const SYSTEM_ACTOR: Actor = { id: 'retention-purge', type: 'system' };

/**
 * The retention purge (worker job, and callable directly): for every organization with an enabled policy,
 * deletes what each policy covers, archiving first when asked. Never touches the audit log.
 */
export async function purgeExpiredRecords(
  deps: { transactions: Transactions; events: Events; clock: Clock },
  options: { tenantId?: string } = {},
): Promise<PurgeResult[]> {
  // Which organizations have work is a cross-tenant question; each purge then runs held to its tenant.
  const tenants = options.tenantId
    ? [options.tenantId]
    : await deps.transactions.system((tx) => store.tenantsWithEnabledPolicies(tx));
  const results: PurgeResult[] = [];
  for (const tenantId of tenants) results.push(...(await purgeTenant(deps, tenantId)));
  return results;
}

export function createRetentionService(deps: { transactions: Transactions; events: Events; clock: Clock }) {
  const { transactions, events, clock } = deps;

  async function read(tx: Tx, tenantId: string) {
    return effectivePolicies(await store.policies(tx, tenantId));
  }

  return {
    async list(principal: Principal): Promise<PolicyView[]> {
      return transactions.tenant(principal.tenantId, (tx) => read(tx, principal.tenantId));
    },

    /** `PUT /retention/{data_class}`: fields left out keep their current (or default) value. */
    async put(principal: Principal, dataClass: DataClass, input: PolicyInput): Promise<PolicyView> {
      return transactions.tenant(principal.tenantId, async (tx) => {
        const before = (await read(tx, principal.tenantId)).find((p) => p.data_class === dataClass)!;
        const row: store.PolicyRow = {
          tenantId: principal.tenantId,
          dataClass,
          retentionDays: input.retention_days,
          enabled: input.enabled ?? before.enabled,
          archiveBeforeDelete: input.archive_before_delete ?? before.archive_before_delete,
          legalHoldExempt: input.legal_hold_exempt ?? before.legal_hold_exempt,
          notes: input.notes === undefined ? before.notes : input.notes?.trim() || null,
          updatedAt: clock.now(),
          updatedBy: principal.actor.id,
        };
        await store.upsertPolicy(tx, row);
        const after = (await read(tx, principal.tenantId)).find((p) => p.data_class === dataClass)!;
        const { notes: _before, updated_at: _b, ...previous } = before;
        const { notes: _after, updated_at: _a, ...current } = after;
        await events.emit(tx, {
          tenantId: principal.tenantId,
          actor: principal.actor,
          category: 'privacy',
          action: 'retention.policy_updated',
          data: { data_class: dataClass, previous, current },
        });
        return after;
      });
    },

    /** `GET /retention/preview`: per class, the records now past its retention and how many a hold keeps. */
    async preview(principal: Principal) {
      return transactions.tenant(principal.tenantId, async (tx) => {
        const now = clock.now();
        const preview = [];
        for (const policy of await read(tx, principal.tenantId)) {
          const cutoff = cutoffOf(now, policy.retention_days);
          const { past, held } = await store.countPast(tx, principal.tenantId, policy.data_class, cutoff);
          const heldRecords = policy.legal_hold_exempt ? 0 : held;
          preview.push({
            data_class: policy.data_class,
            retention_days: policy.retention_days,
            enabled: policy.enabled,
            archive_before_delete: policy.archive_before_delete,
            legal_hold_exempt: policy.legal_hold_exempt,
            cutoff: cutoff.toISOString(),
            records_past_retention: past,
            held_records: heldRecords,
            purgeable_records: past - heldRecords,
          });
        }
        return { generated_at: now.toISOString(), policies: preview };
      });
    },
  };
}

export type RetentionService = ReturnType<typeof createRetentionService>;
