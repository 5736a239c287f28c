import type { Deps } from './app.js';
import { autonomyJob } from './modules/autonomy/index.js';
import { domainRecheckJob } from './modules/members/index.js';
import { purgeExpiredRecords, RETENTION_PURGE_INTERVAL_MS } from './modules/privacy/index.js';
import { webhookDeliveryJob } from './modules/webhooks/index.js';

/**
 * A background job: run every `intervalMs` on every node that runs workers. Jobs keep their work in tables and
 * claim rows with `FOR UPDATE SKIP LOCKED`, so any number of nodes can run them side by side.
 */
export interface Job {
  name: string;
  intervalMs: number;
  run(deps: Deps): Promise<void>;
}

/** Registered jobs: the retention purge, domain re-checks, back-channel logout and webhook delivery. */
export const JOBS: Job[] = [
  {
    name: 'retention-purge',
    intervalMs: RETENTION_PURGE_INTERVAL_MS,
    run: async (deps) => {
      await purgeExpiredRecords(deps);
    },
  },
  domainRecheckJob<Deps>(),
  {
    // Part A 4.14: logout tokens go out within about a second of the session's end, best effort.
    name: 'oidc-backchannel-logout',
    intervalMs: 1000,
    run: async (deps) => {
      await deps.openIdProvider.backchannel.sendPending();
    },
  },
  webhookDeliveryJob,
  // Part B 4.9: executes autonomy decisions (SKIP LOCKED) and records detections whose hook never ran.
  autonomyJob,
];

/**
 * Runs each job `intervalMs` after its previous run ended (a run never overlaps the one before it on the same
 * node). `stop()` cancels the next runs and resolves once the runs in progress have ended, so the caller may
 * then close the database: nothing of the workers queries it afterwards.
 */
export function startWorkers(deps: Deps, jobs: Job[] = JOBS): { stop(): Promise<void> } {
  let stopped = false;
  const loops = jobs.map((job) => {
    let timer: NodeJS.Timeout | undefined;
    let current: Promise<void> | undefined;
    const schedule = () => {
      if (!stopped) timer = setTimeout(tick, job.intervalMs);
    };
    function tick(): void {
      timer = undefined;
      current = job
        .run(deps)
        .catch((error: unknown) => deps.logger.error({ err: error, job: job.name }, 'job failed'))
        .finally(() => {
          current = undefined;
          schedule();
        });
    }
    schedule();
    return {
      async stop() {
        clearTimeout(timer);
        await current;
      },
    };
  });
  return {
    async stop() {
      stopped = true;
      await Promise.all(loops.map((loop) => loop.stop()));
    },
  };
}
