import type { Clock } from '../../kernel/clock.js';
import type { Transactions } from '../../kernel/db/index.js';
import type { Limiter } from '../../kernel/limits/index.js';
import type { Egress } from '../../kernel/net/index.js';
import type { Metrics, QueueStats } from '../../kernel/observability/index.js';
import { createDeliveryWorker } from './delivery.js';
import { createWebhookService } from './service.js';
import { sealingKeyOf } from './signing.js';
import * as store from './store.js';

export { registerWebhookRoutes } from './routes.js';
export type { WebhookService } from './service.js';

/** Webhook endpoints and their delivery worker (`runOnce`: one pass, used by the job and by tests). */
export function createWebhooks(deps: {
  transactions: Transactions;
  clock: Clock;
  egress: Egress;
  limiter: Limiter;
  secretKey: Buffer;
  metrics?: Pick<Metrics, 'webhookDelivery'>;
}) {
  const sealingKey = sealingKeyOf(deps.secretKey);
  const service = createWebhookService({ ...deps, sealingKey });
  const worker = createDeliveryWorker({ ...deps, sealingKey });
  const ageSeconds = (since: Date | null) =>
    since ? Math.max(0, (deps.clock.now().getTime() - since.getTime()) / 1000) : 0;
  return {
    service,
    runOnce: worker.runOnce,
    /** For `/metrics`: deliveries waiting, and how long the oldest due one has waited (the worker's lag). */
    async queueStats(): Promise<QueueStats> {
      const queue = await deps.transactions.systemRead((q) => store.deliveryQueue(q, deps.clock.now()));
      return { depth: queue.depth, oldestDueAgeSeconds: ageSeconds(queue.oldest) };
    },
    /** For `/metrics`: events not fanned out to endpoints yet, and the age of the oldest. */
    async outboxStats(): Promise<QueueStats> {
      const queue = await deps.transactions.systemRead((q) => store.outboxQueue(q));
      return { depth: queue.depth, oldestDueAgeSeconds: ageSeconds(queue.oldest) };
    },
  };
}

export type Webhooks = ReturnType<typeof createWebhooks>;

/** The background job (src/workers.ts): every second on every node that runs workers. */
export const webhookDeliveryJob = {
  name: 'webhook-delivery',
  intervalMs: 1000,
  async run(deps: { webhooks: Webhooks }): Promise<void> {
    await deps.webhooks.runOnce();
  },
};
