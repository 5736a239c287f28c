import type { Clock } from '../../kernel/clock.js';
import type { Transactions } from '../../kernel/db/index.js';
import type { Limiter } from '../../kernel/limits/index.js';
import type { Egress } from '../../kernel/net/index.js';
import { createDeliveryWorker } from './delivery.js';
import { createWebhookService } from './service.js';
import { sealingKeyOf } from './signing.js';

export { registerWebhookRoutes } from './routes.js';
export type { WebhookService } from './service.js';

/** Webhook endpoints and their delivery worker (`runOnce`: one pass, used by the job and by tests). */
export function createWebhooks(deps: {
  transactions: Transactions;
  clock: Clock;
  egress: Egress;
  limiter: Limiter;
  secretKey: Buffer;
}) {
  const sealingKey = sealingKeyOf(deps.secretKey);
  const service = createWebhookService({ ...deps, sealingKey });
  const worker = createDeliveryWorker({ ...deps, sealingKey });
  return { service, runOnce: worker.runOnce };
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
