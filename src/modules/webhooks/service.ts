import type { Principal } from '../../kernel/auth/index.js';
import type { Clock } from '../../kernel/clock.js';
import type { Transactions } from '../../kernel/db/index.js';
import { webhookEventTypes } from '../../kernel/events/index.js';
import { conflict, notFound } from '../../kernel/http/index.js';
import { isUuid, newId } from '../../kernel/ids.js';
import { enforce, type Limiter, type LimitPolicy } from '../../kernel/limits/index.js';
import { assertOutboundUrl, type Egress } from '../../kernel/net/index.js';
import { type SendOutcome, send } from './delivery.js';
import { assertEventTypes, MAX_ENDPOINTS_PER_ORGANIZATION } from './rules.js';
import { newEndpointSecret, openSecret, sealSecret } from './signing.js';
import * as store from './store.js';

/** Synchronous test deliveries reach out to the tenant's server: bounded per organization. */
export const TEST_DELIVERIES: LimitPolicy = { name: 'webhook-test', points: 30, durationSeconds: 60 };

export interface EndpointView {
  id: string;
  url: string;
  description: string;
  event_types: string[];
  enabled: boolean;
  disabled_reason: string | null;
  created_at: string;
  updated_at: string;
}

const viewOf = (row: store.EndpointRow): EndpointView => ({
  id: row.id,
  url: row.url,
  description: row.description,
  event_types: row.eventTypes,
  enabled: row.enabled,
  disabled_reason: row.disabledReason,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});

const deliveryViewOf = (row: store.DeliveryRow) => ({
  id: row.id,
  event_id: row.eventId,
  event_type: row.eventType,
  status: row.status,
  attempts: row.attempts,
  last_status_code: row.lastStatusCode,
  last_error: row.lastError,
  next_attempt_at: row.nextAttemptAt?.toISOString() ?? null,
  replay_of: row.replayOf,
  created_at: row.createdAt.toISOString(),
});

const ENDPOINT_NOT_FOUND = 'Webhook endpoint not found';
const checkId = (id: string, detail = ENDPOINT_NOT_FOUND) => {
  if (!isUuid(id)) throw notFound(detail);
};

export function createWebhookService(deps: {
  transactions: Transactions;
  clock: Clock;
  egress: Egress;
  limiter: Limiter;
  sealingKey: Buffer;
}) {
  const { transactions, clock, egress, limiter, sealingKey } = deps;

  async function existing(tx: Parameters<Parameters<Transactions['tenant']>[1]>[0], tenantId: string, id: string) {
    checkId(id);
    const row = await store.endpoint(tx, tenantId, id);
    if (!row) throw notFound(ENDPOINT_NOT_FOUND);
    return row;
  }

  return {
    /** `GET /tenants/webhooks/events`: the published catalogue (Part A 6). */
    catalogue() {
      return webhookEventTypes().map((type) => ({
        type: type.name,
        description: type.description,
        schema_version: 1,
      }));
    },

    async register(principal: Principal, input: { url: string; description?: string; eventTypes: string[] }) {
      const url = assertOutboundUrl(input.url);
      const eventTypes = assertEventTypes(input.eventTypes);
      return transactions.tenant(principal.tenantId, async (tx) => {
        await store.lockEndpointsOf(tx, principal.tenantId);
        if ((await store.countEndpoints(tx, principal.tenantId)) >= MAX_ENDPOINTS_PER_ORGANIZATION) {
          throw conflict(`An organization has at most ${MAX_ENDPOINTS_PER_ORGANIZATION} webhook endpoints`);
        }
        const now = clock.now();
        const id = newId();
        const secret = newEndpointSecret();
        const row: store.EndpointRow = {
          id,
          tenantId: principal.tenantId,
          url,
          description: input.description ?? '',
          eventTypes,
          enabled: true,
          disabledReason: null,
          secretSealed: sealSecret(sealingKey, id, secret),
          previousSecretSealed: null,
          consecutiveFailures: 0,
          createdAt: now,
          updatedAt: now,
        };
        await store.insertEndpoint(tx, row);
        return { ...viewOf(row), secret };
      });
    },

    async list(principal: Principal): Promise<EndpointView[]> {
      return transactions.tenant(principal.tenantId, async (tx) =>
        (await store.listEndpoints(tx, principal.tenantId)).map(viewOf),
      );
    },

    /** PATCH: description, subscriptions, enabled. Re-enabling clears the failure counter and the reason. */
    async update(
      principal: Principal,
      id: string,
      patch: { description?: string; eventTypes?: string[]; enabled?: boolean },
    ): Promise<EndpointView> {
      const eventTypes = patch.eventTypes && assertEventTypes(patch.eventTypes);
      return transactions.tenant(principal.tenantId, async (tx) => {
        const row = await existing(tx, principal.tenantId, id);
        const changes: Partial<store.EndpointRow> = { updatedAt: clock.now() };
        if (patch.description !== undefined) changes.description = patch.description;
        if (eventTypes) changes.eventTypes = eventTypes;
        if (patch.enabled === true)
          Object.assign(changes, { enabled: true, disabledReason: null, consecutiveFailures: 0 });
        if (patch.enabled === false && row.enabled) Object.assign(changes, { enabled: false, disabledReason: null });
        return viewOf((await store.updateEndpoint(tx, principal.tenantId, id, changes))!);
      });
    },

    async remove(principal: Principal, id: string): Promise<void> {
      checkId(id);
      await transactions.tenant(principal.tenantId, async (tx) => {
        if (!(await store.deleteEndpoint(tx, principal.tenantId, id))) throw notFound(ENDPOINT_NOT_FOUND);
      });
    },

    /** A new secret; the previous one keeps signing (a second `v1`) until the next rotation. */
    async rotateSecret(principal: Principal, id: string) {
      return transactions.tenant(principal.tenantId, async (tx) => {
        const row = await existing(tx, principal.tenantId, id);
        const secret = newEndpointSecret();
        const updated = await store.updateEndpoint(tx, principal.tenantId, id, {
          secretSealed: sealSecret(sealingKey, id, secret),
          previousSecretSealed: row.secretSealed,
          updatedAt: clock.now(),
        });
        return { ...viewOf(updated!), secret };
      });
    },

    /** `svc.test`, sent now and answered with the outcome; never written to the delivery log. */
    async test(principal: Principal, id: string) {
      const row = await transactions.tenant(principal.tenantId, (tx) => existing(tx, principal.tenantId, id));
      await enforce(limiter, TEST_DELIVERIES, principal.tenantId);
      const now = clock.now();
      const eventId = newId();
      const body = JSON.stringify({
        id: eventId,
        type: 'svc.test',
        schema_version: 1,
        data: { endpoint_id: row.id, occurred_at: now.toISOString().replace('Z', '+00:00') },
      });
      const secrets = [row.secretSealed, row.previousSecretSealed]
        .filter((sealed): sealed is string => sealed !== null)
        .map((sealed) => openSecret(sealingKey, row.id, sealed));
      const outcome: SendOutcome = await send(
        egress,
        { url: row.url, body, eventId, eventType: 'svc.test', attempt: 1, secrets },
        now,
      );
      return {
        delivered: outcome.delivered,
        status_code: outcome.statusCode,
        error: outcome.error,
        blocked_by_policy: outcome.blocked,
      };
    },

    async deliveries(principal: Principal, id: string, limit: number) {
      return transactions.tenant(principal.tenantId, async (tx) => {
        await existing(tx, principal.tenantId, id);
        return (await store.listDeliveries(tx, principal.tenantId, id, limit)).map(deliveryViewOf);
      });
    },

    /** A new delivery of the same event (same `event_id`, same body); the original stays as it was. */
    async replay(principal: Principal, id: string, deliveryId: string) {
      checkId(deliveryId, 'Delivery not found');
      return transactions.tenant(principal.tenantId, async (tx) => {
        await existing(tx, principal.tenantId, id);
        const original = await store.delivery(tx, principal.tenantId, id, deliveryId);
        if (!original) throw notFound('Delivery not found');
        const now = clock.now();
        const copy: store.DeliveryRow = {
          ...original,
          id: newId(),
          status: 'pending',
          attempts: 0,
          lastStatusCode: null,
          lastError: null,
          nextAttemptAt: now,
          leaseUntil: null,
          replayOf: original.id,
          createdAt: now,
          updatedAt: now,
        };
        await store.insertDeliveries(tx, [copy]);
        return deliveryViewOf(copy);
      });
    },
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
