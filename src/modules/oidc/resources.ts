import type { Principal } from '../../kernel/auth/index.js';
import type { Clock } from '../../kernel/clock.js';
import type { Transactions, Tx } from '../../kernel/db/index.js';
import type { Events } from '../../kernel/events/index.js';
import { conflict, notFound, unprocessable } from '../../kernel/http/index.js';
import { isUuid, newId } from '../../kernel/ids.js';
import { resourceIdentifierRefusal } from './redirect-uris.js';
import { checkName } from './registration.js';
import * as store from './store.js';

const RESOURCE_NOT_FOUND = 'OAuth resource not found';

export interface ResourceView {
  id: string;
  identifier: string;
  name: string;
  enabled: boolean;
  created_at: string;
  updated_at: string;
}

const viewOf = (row: store.ResourceRow): ResourceView => ({
  id: row.id,
  identifier: row.identifier,
  name: row.name,
  enabled: row.enabled,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});

function checkIdentifier(raw: string): string {
  const refusal = resourceIdentifierRefusal(raw);
  if (refusal) throw unprocessable(`identifier: ${refusal}`);
  return raw;
}

/**
 * Protected resources (RFC 8707) an organization's clients may ask tokens for (Part A 4.14): only a registered
 * and enabled identifier is a valid `resource`. The identifier is fixed once registered; name and enabled change.
 */
export function createResourceService(deps: { transactions: Transactions; events: Events; clock: Clock }) {
  const { transactions, events, clock } = deps;

  const emit = (tx: Tx, principal: Principal, action: string, data: Record<string, unknown>) =>
    events.emit(tx, { tenantId: principal.tenantId, actor: principal.actor, category: 'admin', action, data });

  return {
    /**
     * `POST /oauth/resources`: 409 when the identifier is registered already, here or in another organization:
     * a token bound to a resource names only its identifier, so one identifier has one owner.
     */
    async create(principal: Principal, input: { identifier: string; name: string; enabled?: boolean | undefined }) {
      const identifier = checkIdentifier(input.identifier);
      const name = checkName(input.name);
      return transactions.tenant(principal.tenantId, async (tx) => {
        const now = clock.now();
        const row = await store.insertResource(tx, {
          tenantId: principal.tenantId,
          id: newId(),
          identifier,
          name,
          enabled: input.enabled ?? true,
          createdAt: now,
          updatedAt: now,
        });
        if (!row) throw conflict('That resource identifier is registered already');
        const view = viewOf(row);
        await emit(tx, principal, 'oauth.resource_created', {
          resource_id: row.id,
          identifier,
          name,
          enabled: row.enabled,
        });
        return view;
      });
    },

    async list(principal: Principal): Promise<ResourceView[]> {
      return transactions.tenant(principal.tenantId, async (tx) =>
        (await store.listResources(tx, principal.tenantId)).map(viewOf),
      );
    },

    /** `PATCH /oauth/resources/{id}`: name and enabled; a disabled resource is refused as `resource` at once. */
    async update(
      principal: Principal,
      id: string,
      patch: { name?: string | undefined; enabled?: boolean | undefined },
    ) {
      if (!isUuid(id)) throw notFound(RESOURCE_NOT_FOUND);
      const name = patch.name === undefined ? undefined : checkName(patch.name);
      return transactions.tenant(principal.tenantId, async (tx) => {
        const row = await store.resource(tx, principal.tenantId, id);
        if (!row) throw notFound(RESOURCE_NOT_FOUND);
        const changes: Partial<Pick<store.ResourceRow, 'name' | 'enabled'>> = {};
        if (name !== undefined && name !== row.name) changes.name = name;
        if (patch.enabled !== undefined && patch.enabled !== row.enabled) changes.enabled = patch.enabled;
        if (Object.keys(changes).length === 0) return viewOf(row);
        const updated = await store.updateResource(tx, principal.tenantId, id, { ...changes, updatedAt: clock.now() });
        await emit(tx, principal, 'oauth.resource_updated', {
          resource_id: id,
          identifier: row.identifier,
          changed: Object.keys(changes),
          enabled: updated!.enabled,
        });
        return viewOf(updated!);
      });
    },
  };
}

export type ResourceService = ReturnType<typeof createResourceService>;
