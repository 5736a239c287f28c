import type { Deps } from './app.js';
import { domainRecheckJob } from './modules/members/index.js';
import { purgeExpiredRecords, RETENTION_PURGE_INTERVAL_MS } from './modules/privacy/index.js';
import { webhookDeliveryJob } from './modules/webhooks/index.js';

/**
 * A background job: run every `intervalMs` on every node. Jobs keep their work in tables and claim rows with
 * `FOR UPDATE SKIP LOCKED`, so any number of nodes can run them side by side.
 */
export interface Job {
  name: string;
  intervalMs: number;
  run(deps: Deps): Promise<void>;
}

/**
 * Registered jobs. Modules add theirs here (webhook delivery, retention purge, domain re-checks…); none of
 * the features built so far needs one.
 */
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
];

export function startWorkers(deps: Deps, jobs: Job[] = JOBS): { stop(): Promise<void> } {
  const running = new Set<Promise<void>>();
  const timers = jobs.map((job) =>
    setInterval(() => {
      const run = job
        .run(deps)
        .catch((error: unknown) => deps.logger.error({ err: error, job: job.name }, 'job failed'))
        .finally(() => running.delete(run));
      running.add(run);
    }, job.intervalMs),
  );
  return {
    async stop() {
      for (const timer of timers) clearInterval(timer);
      await Promise.all(running);
    },
  };
}
