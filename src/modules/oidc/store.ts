import { and, asc, eq } from 'drizzle-orm';
import type { Queryable } from '../../kernel/db/index.js';
import { tenants } from '../organizations/schema.js';
import { oauthClients, oauthResources } from './schema.js';

export type ClientRow = typeof oauthClients.$inferSelect;
export type ResourceRow = typeof oauthResources.$inferSelect;

// ---- clients: every statement names its organization (row-level security backs it up) ----

export async function insertClient(q: Queryable, row: ClientRow): Promise<void> {
  await q.insert(oauthClients).values(row);
}

export async function listClients(q: Queryable, tenantId: string): Promise<ClientRow[]> {
  return q
    .select()
    .from(oauthClients)
    .where(eq(oauthClients.tenantId, tenantId))
    .orderBy(asc(oauthClients.createdAt), asc(oauthClients.clientId));
}

/** The client, locked for this transaction when it is about to change. */
export async function client(
  q: Queryable,
  tenantId: string,
  clientId: string,
  options: { forUpdate?: boolean } = {},
): Promise<ClientRow | undefined> {
  const query = q
    .select()
    .from(oauthClients)
    .where(and(eq(oauthClients.tenantId, tenantId), eq(oauthClients.clientId, clientId)));
  const [row] = options.forUpdate ? await query.for('update') : await query;
  return row;
}

export async function updateClient(
  q: Queryable,
  tenantId: string,
  clientId: string,
  patch: Partial<Omit<ClientRow, 'tenantId' | 'clientId' | 'clientType' | 'createdAt'>>,
): Promise<ClientRow | undefined> {
  const [row] = await q
    .update(oauthClients)
    .set(patch)
    .where(and(eq(oauthClients.tenantId, tenantId), eq(oauthClients.clientId, clientId)))
    .returning();
  return row;
}

/** Deletes the client in one statement and answers what it was (for the event), or undefined. */
export async function deleteClient(q: Queryable, tenantId: string, clientId: string): Promise<ClientRow | undefined> {
  const [row] = await q
    .delete(oauthClients)
    .where(and(eq(oauthClients.tenantId, tenantId), eq(oauthClients.clientId, clientId)))
    .returning();
  return row;
}

// ---- resources ----

/** Inserts the resource unless the organization has its identifier already (then undefined: a duplicate). */
export async function insertResource(q: Queryable, row: ResourceRow): Promise<ResourceRow | undefined> {
  const [inserted] = await q
    .insert(oauthResources)
    .values(row)
    .onConflictDoNothing({ target: [oauthResources.tenantId, oauthResources.identifier] })
    .returning();
  return inserted;
}

export async function listResources(q: Queryable, tenantId: string): Promise<ResourceRow[]> {
  return q
    .select()
    .from(oauthResources)
    .where(eq(oauthResources.tenantId, tenantId))
    .orderBy(asc(oauthResources.createdAt), asc(oauthResources.id));
}

export async function resource(q: Queryable, tenantId: string, id: string): Promise<ResourceRow | undefined> {
  const [row] = await q
    .select()
    .from(oauthResources)
    .where(and(eq(oauthResources.tenantId, tenantId), eq(oauthResources.id, id)))
    .for('update');
  return row;
}

export async function updateResource(
  q: Queryable,
  tenantId: string,
  id: string,
  patch: Partial<Pick<ResourceRow, 'name' | 'enabled' | 'updatedAt'>>,
): Promise<ResourceRow | undefined> {
  const [row] = await q
    .update(oauthResources)
    .set(patch)
    .where(and(eq(oauthResources.tenantId, tenantId), eq(oauthResources.id, id)))
    .returning();
  return row;
}

// ---- token endpoint ----

/** A client as the token endpoint needs it: its registration and its organization's plan and state. */
export type TokenClientRow = ClientRow & { plan: string; quarantined: boolean };

/**
 * The client named at the token endpoint, with its organization, found by id alone: a system read (no tenant
 * setting), because the request names no organization (RFC 6749 section 2.3.1 sends only the client id) and a
 * client id is unique across the installation (a unique constraint), so it names exactly one organization.
 * Everything after this read runs in that organization's tenant transaction.
 */
export async function tokenClient(q: Queryable, clientId: string): Promise<TokenClientRow | undefined> {
  const [row] = await q
    .select({ client: oauthClients, plan: tenants.plan, quarantined: tenants.quarantined })
    .from(oauthClients)
    .innerJoin(tenants, eq(tenants.id, oauthClients.tenantId))
    .where(eq(oauthClients.clientId, clientId));
  return row && { ...row.client, plan: row.plan, quarantined: row.quarantined };
}

/** The organization's resource with exactly this identifier, when it is enabled (RFC 8707, Part A 4.14). */
export async function enabledResource(
  q: Queryable,
  tenantId: string,
  identifier: string,
): Promise<ResourceRow | undefined> {
  const [row] = await q
    .select()
    .from(oauthResources)
    .where(
      and(
        eq(oauthResources.tenantId, tenantId),
        eq(oauthResources.identifier, identifier),
        eq(oauthResources.enabled, true),
      ),
    );
  return row;
}
