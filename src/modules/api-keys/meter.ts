import type { Clock } from '../../kernel/clock.js';
import type { Transactions } from '../../kernel/db/index.js';
import { HttpError } from '../../kernel/http/index.js';
import * as store from './store.js';

/** Calendar month in UTC, `YYYY-MM`: the quota period (Part A 8). */
export const periodOf = (date: Date) => date.toISOString().slice(0, 7);

function secondsToNextPeriod(now: Date): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
  return Math.max(1, Math.ceil((next - now.getTime()) / 1000));
}

/** Part A 8: over the plan's monthly calls every call answers 429 with `RateLimit-Policy: monthly-quota`. */
export function quotaSpent(quota: number, now: Date): HttpError {
  const reset = String(secondsToNextPeriod(now));
  return new HttpError(429, 'Monthly API quota exceeded', {
    'RateLimit-Policy': 'monthly-quota',
    'RateLimit-Limit': String(quota),
    'RateLimit-Remaining': '0',
    'RateLimit-Reset': reset,
    'Retry-After': reset,
  });
}

interface TenantView {
  period: string;
  /** The organization's calls this period in the database at the last sync (every node's). */
  confirmed: number;
  /** Calls admitted here since the last sync's snapshot. */
  unsynced: number;
  /** Calls of the snapshot being written by the sync in progress (not yet in `confirmed`). */
  writing: number;
  /** performance.now() of the last sync that read this organization's total. */
  syncedAt: number;
  notified: boolean;
}

/** How stale a node's view of an organization's total may get; also how often counts are written. */
const SYNC_INTERVAL_MS = 1000;
/** `last_used_at` is coarse (Part A 2.5): written at most once a minute per key. */
const LAST_USED_GRANULARITY_MS = 60_000;
/** Views of organizations idle this long are dropped. */
const IDLE_MS = 5 * 60_000;

/**
 * Counts API-key calls per key per month without a database write per request: each node counts in memory
 * and adds its counts to `api_key_usage` about once a second, reading back every organization's total. A call
 * is admitted while (total at the last sync + calls admitted here since) is under the plan's quota, so across
 * nodes the quota can be overrun by at most what the other nodes admit within one sync interval.
 */
export function createUsageMeter(deps: {
  transactions: Transactions;
  clock: Clock;
  onQuotaSpent: (tenantId: string, period: string) => Promise<void>;
}) {
  const { transactions, clock } = deps;
  const views = new Map<string, TenantView>();
  /** `tenant|period|key` -> calls not yet written. */
  const pending = new Map<string, number>();
  const used = new Set<string>();
  let inflight: Promise<void> | null = null;
  let timer: NodeJS.Timeout | undefined;

  async function doSync(): Promise<void> {
    const now = clock.now();
    const period = periodOf(now);
    const started = performance.now();
    const snapshot = [...pending].map(([compound, calls]) => {
      const [tenantId, keyPeriod, apiKeyId] = compound.split('|') as [string, string, string];
      return { tenantId, period: keyPeriod, apiKeyId, calls };
    });
    const touched = [...used];
    pending.clear();
    used.clear();
    const read = [...views].filter(([, view]) => view.period === period).map(([tenantId]) => tenantId);
    for (const tenantId of read) {
      const view = views.get(tenantId)!;
      view.writing += view.unsynced;
      view.unsynced = 0;
    }
    let found: Map<string, number>;
    try {
      found = await transactions.system(async (tx) => {
        // Explicitly cross-organization: every row written and read names its organization.
        await store.addUsage(tx, snapshot);
        await store.touchKeys(tx, touched, now, LAST_USED_GRANULARITY_MS);
        return store.totals(tx, read, period);
      });
    } catch (error) {
      for (const row of snapshot) count(row.tenantId, row.period, row.apiKeyId, row.calls);
      for (const id of touched) used.add(id);
      for (const tenantId of read) {
        const view = views.get(tenantId);
        if (!view) continue;
        view.unsynced += view.writing;
        view.writing = 0;
      }
      throw error;
    }
    for (const tenantId of read) {
      const view = views.get(tenantId);
      if (!view || view.period !== period) continue;
      view.confirmed = found.get(tenantId) ?? 0;
      view.writing = 0;
      view.syncedAt = started;
    }
    for (const [tenantId, view] of views) {
      if (started - view.syncedAt > IDLE_MS && view.unsynced === 0) views.delete(tenantId);
    }
  }

  function count(tenantId: string, period: string, apiKeyId: string, calls: number): void {
    const compound = `${tenantId}|${period}|${apiKeyId}`;
    pending.set(compound, (pending.get(compound) ?? 0) + calls);
  }

  /** Writes what was counted and re-reads the totals; concurrent callers share one round. */
  function sync(): Promise<void> {
    inflight ??= doSync().finally(() => {
      inflight = null;
    });
    return inflight;
  }

  return {
    /** Admits one call of `apiKeyId` or throws the monthly-quota 429; `quota` null is unlimited. */
    async admit(tenantId: string, apiKeyId: string, quota: number | null): Promise<void> {
      const now = clock.now();
      const period = periodOf(now);
      let view = views.get(tenantId);
      if (!view || view.period !== period) {
        view = { period, confirmed: 0, unsynced: 0, writing: 0, syncedAt: Number.NEGATIVE_INFINITY, notified: false };
        views.set(tenantId, view);
      }
      for (let round = 0; round < 2 && performance.now() - view.syncedAt > SYNC_INTERVAL_MS; round++) {
        // A round already running may have started before this view existed: then one more.
        await sync();
        view = views.get(tenantId) ?? view;
      }
      if (quota !== null && view.confirmed + view.writing + view.unsynced >= quota) {
        if (!view.notified) {
          view.notified = true;
          await deps.onQuotaSpent(tenantId, period);
        }
        throw quotaSpent(quota, now);
      }
      view.unsynced += 1;
      count(tenantId, period, apiKeyId, 1);
      used.add(apiKeyId);
    },

    /** Writes every count now and forgets cached totals, so the next call re-reads them (usage reads, shutdown). */
    async flush(): Promise<void> {
      // A round already running may have taken its snapshot before the latest counts.
      if (inflight) await inflight.catch(() => undefined);
      await sync();
      for (const view of views.values()) view.syncedAt = Number.NEGATIVE_INFINITY;
    },

    start(): void {
      timer ??= setInterval(() => {
        if (pending.size > 0 || used.size > 0) sync().catch(() => undefined);
      }, SYNC_INTERVAL_MS);
      timer.unref();
    },

    /** Stops the timer and writes what is left; resolves once no write of the meter is running. */
    async close(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = undefined;
      // A round already running may have taken its snapshot before the latest counts.
      if (inflight) await inflight.catch(() => undefined);
      if (pending.size > 0 || used.size > 0) await sync().catch(() => undefined);
    },
  };
}

export type UsageMeter = ReturnType<typeof createUsageMeter>;
