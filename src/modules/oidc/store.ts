import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { type Queryable, rows } from '../../kernel/db/index.js';
import { operatorSettings } from '../operator-settings/index.js';
import { tenantStanding } from '../organizations/index.js';
import { oauthAuthorizationCodes, oauthClients, oauthConsents, oauthResources } from './schema.js';
import { NEGOTIATED_ALLOWANCE } from './token-throttles.js';

export type ClientRow = typeof oauthClients.$inferSelect;
export type ResourceRow = typeof oauthResources.$inferSelect;

// ---- clients: every statement names its organization (row-level security backs it up) ----

export async function insertClient(q: Queryable, row: ClientRow): Promise<void> {
  await q.insert(oauthClients).values(row);
}

/**
 * The organization's registered clients: the client API (list, read, change, delete) never sees the first-party
 * console client (migration 0034), which the installation owns.
 */
const registered = (tenantId: string) => and(eq(oauthClients.tenantId, tenantId), eq(oauthClients.firstParty, false));

export async function listClients(q: Queryable, tenantId: string): Promise<ClientRow[]> {
  return q
    .select()
    .from(oauthClients)
    .where(registered(tenantId))
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
    .where(and(registered(tenantId), eq(oauthClients.clientId, clientId)));
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
    .where(and(registered(tenantId), eq(oauthClients.clientId, clientId)))
    .returning();
  return row;
}

/** Deletes the client in one statement and answers what it was (for the event), or undefined. */
export async function deleteClient(q: Queryable, tenantId: string, clientId: string): Promise<ClientRow | undefined> {
  const [row] = await q
    .delete(oauthClients)
    .where(and(registered(tenantId), eq(oauthClients.clientId, clientId)))
    .returning();
  return row;
}

// ---- resources ----

/** Inserts the resource unless the organization has its identifier already (then undefined: a duplicate). */
export async function insertResource(q: Queryable, row: ResourceRow): Promise<ResourceRow | undefined> {
  const [inserted] = await q
    .insert(oauthResources)
    .values(row)
    .onConflictDoNothing({ target: [oauthResources.identifier] })
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
export type TokenClientRow = ClientRow & {
  plan: string;
  quarantined: boolean;
  tenantSlug: string;
  /** The operator setting `oauth.client_requests_per_5min` as stored (undefined: none). */
  negotiatedAllowance: unknown;
};

/**
 * The client named at the token endpoint, with its organization, found by id alone: a system read (no tenant
 * setting), because the request names no organization (RFC 6749 section 2.3.1 sends only the client id) and a
 * client id is unique across the installation (a unique constraint), so it names exactly one organization.
 * Everything after this read runs in that organization's tenant transaction.
 */
export async function tokenClient(q: Queryable, clientId: string): Promise<TokenClientRow | undefined> {
  const standing = tenantStanding(q);
  const [row] = await q
    .select({
      client: oauthClients,
      plan: standing.plan,
      quarantined: standing.quarantined,
      tenantSlug: standing.slug,
      negotiatedAllowance: operatorSettings.value,
    })
    .from(oauthClients)
    .innerJoin(standing, eq(standing.tenantId, oauthClients.tenantId))
    .leftJoin(
      operatorSettings,
      and(eq(operatorSettings.tenantId, oauthClients.tenantId), eq(operatorSettings.key, NEGOTIATED_ALLOWANCE)),
    )
    .where(eq(oauthClients.clientId, clientId));
  return (
    row && {
      ...row.client,
      plan: row.plan,
      quarantined: row.quarantined,
      tenantSlug: row.tenantSlug,
      negotiatedAllowance: row.negotiatedAllowance ?? undefined,
    }
  );
}

/** The organization's resource with exactly this identifier. */
const resourceWithIdentifier = (tenantId: string, identifier: string) =>
  and(eq(oauthResources.tenantId, tenantId), eq(oauthResources.identifier, identifier));

/** The organization's resource with exactly this identifier, enabled or not (a manifest binds existing ones). */
export async function resourceByIdentifier(
  q: Queryable,
  tenantId: string,
  identifier: string,
): Promise<ResourceRow | undefined> {
  const [row] = await q.select().from(oauthResources).where(resourceWithIdentifier(tenantId, identifier));
  return row;
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
    .where(and(resourceWithIdentifier(tenantId, identifier), eq(oauthResources.enabled, true)));
  return row;
}

// ---- authorization codes, consents, back-channel logout (the OpenID Provider, Part A 4.14) ----

export type AuthorizationCodeRow = typeof oauthAuthorizationCodes.$inferSelect;

export async function insertAuthorizationCode(q: Queryable, row: AuthorizationCodeRow): Promise<void> {
  await q.insert(oauthAuthorizationCodes).values(row);
}

/** The client's code with this hash, locked: the exchange spends it once (Part A 3). */
export async function authorizationCode(
  q: Queryable,
  tenantId: string,
  clientId: string,
  codeHash: string,
): Promise<AuthorizationCodeRow | undefined> {
  const [row] = await q
    .select()
    .from(oauthAuthorizationCodes)
    .where(
      and(
        eq(oauthAuthorizationCodes.tenantId, tenantId),
        eq(oauthAuthorizationCodes.clientId, clientId),
        eq(oauthAuthorizationCodes.codeHash, codeHash),
      ),
    )
    .for('update');
  return row;
}

export async function spendAuthorizationCode(
  q: Queryable,
  id: string,
  now: Date,
  grantSessionId: string | null,
): Promise<void> {
  await q
    .update(oauthAuthorizationCodes)
    .set({ spentAt: now, grantSessionId })
    .where(eq(oauthAuthorizationCodes.id, id));
}

export type ConsentRow = typeof oauthConsents.$inferSelect;

/** The one consent a person gave a client in an organization (its primary key). */
const consentKey = (tenantId: string, userId: string, clientId: string) =>
  and(eq(oauthConsents.tenantId, tenantId), eq(oauthConsents.userId, userId), eq(oauthConsents.clientId, clientId));

export async function consent(
  q: Queryable,
  tenantId: string,
  userId: string,
  clientId: string,
  options: { lock?: boolean } = {},
): Promise<ConsentRow | undefined> {
  const query = q
    .select()
    .from(oauthConsents)
    .where(consentKey(tenantId, userId, clientId));
  const [row] = options.lock ? await query.for('share') : await query;
  return row;
}

/** Records a consent, widening a standing one to the union of both scope sets. */
export async function upsertConsent(q: Queryable, row: ConsentRow): Promise<void> {
  await q
    .insert(oauthConsents)
    .values(row)
    .onConflictDoUpdate({
      target: [oauthConsents.tenantId, oauthConsents.userId, oauthConsents.clientId],
      set: {
        scopes: sql`(select coalesce(jsonb_agg(distinct s), '[]'::jsonb) from jsonb_array_elements_text(${oauthConsents.scopes} || excluded.scopes) s)`,
        updatedAt: row.updatedAt,
      },
    });
}

/** A person's consents in one organization with the client's name, newest first (connected apps). */
export async function consentsOf(q: Queryable, tenantId: string, userId: string) {
  return q
    .select({ consent: oauthConsents, clientName: oauthClients.name })
    .from(oauthConsents)
    .innerJoin(
      oauthClients,
      and(eq(oauthClients.tenantId, oauthConsents.tenantId), eq(oauthClients.clientId, oauthConsents.clientId)),
    )
    .where(and(eq(oauthConsents.tenantId, tenantId), eq(oauthConsents.userId, userId)))
    .orderBy(desc(oauthConsents.updatedAt), asc(oauthConsents.clientId));
}

export async function deleteConsent(
  q: Queryable,
  tenantId: string,
  userId: string,
  clientId: string,
): Promise<boolean> {
  const deleted = await q
    .delete(oauthConsents)
    .where(consentKey(tenantId, userId, clientId))
    .returning({ clientId: oauthConsents.clientId });
  return deleted.length > 0;
}

/** Erasure: a person's consents and outstanding codes in one organization. */
export async function deleteGrantsOf(q: Queryable, tenantId: string, userId: string): Promise<void> {
  await q.delete(oauthConsents).where(and(eq(oauthConsents.tenantId, tenantId), eq(oauthConsents.userId, userId)));
  await q
    .delete(oauthAuthorizationCodes)
    .where(and(eq(oauthAuthorizationCodes.tenantId, tenantId), eq(oauthAuthorizationCodes.userId, userId)));
}

/**
 * Takes up to `limit` queued back-channel logouts, each once: deleted as they are claimed (best effort, Part A
 * 4.14: no retry), skipping rows another node holds.
 */
export async function claimBackchannelLogouts(q: Queryable, limit: number) {
  return rows<{
    tenant_id: string;
    client_id: string;
    user_id: string;
    sid: string;
    backchannel_logout_uri: string | null;
  }>(
    q,
    sql`with claimed as (
          delete from oidc_backchannel_logouts where id in (
            select id from oidc_backchannel_logouts order by created_at limit ${limit} for update skip locked)
          returning tenant_id, client_id, user_id, sid)
        select claimed.*, c.backchannel_logout_uri from claimed
        left join oauth_clients c on c.tenant_id = claimed.tenant_id and c.client_id = claimed.client_id`,
  );
}

/** A grant session whose client may be told by back-channel logout that it ended. */
export interface EndedGrant {
  tenantId: string;
  clientId: string;
  userId: string;
  /** The provider session the client knows: the grant's parent (its ID tokens' `sid`), else the grant itself. */
  sid: string;
}

/**
 * Queues one back-channel logout per client with a back-channel URI and provider session (Part A 4.14); the
 * unique index drops repeats. The worker (src/workers.ts `oidc-backchannel-logout`) sends them.
 */
export async function queueBackchannelLogouts(q: Queryable, grants: readonly EndedGrant[], now: Date, ids: string[]) {
  if (grants.length === 0) return;
  const values = sql.join(
    grants.map(
      (grant, index) =>
        sql`(${ids[index]}::uuid, ${grant.tenantId}::uuid, ${grant.clientId}, ${grant.userId}::uuid, ${grant.sid}::uuid)`,
    ),
    sql`, `,
  );
  await q.execute(sql`
    insert into oidc_backchannel_logouts (id, tenant_id, client_id, user_id, sid, created_at)
      select v.id, v.tenant_id, v.client_id, v.user_id, v.sid, ${now}
      from (values ${values}) as v(id, tenant_id, client_id, user_id, sid)
      join oauth_clients c on c.tenant_id = v.tenant_id and c.client_id = v.client_id
      where c.backchannel_logout_uri is not null
    on conflict do nothing`);
}

/**
 * Queues the back-channel logouts of an account's grants in every organization, minted under `previousEpoch`.
 * Row-level security hides other organizations from the caller's transaction, so a SECURITY DEFINER function
 * (migration 0021) does it: the one cross-organization write of the cascade.
 */
export async function queueAccountBackchannelLogouts(q: Queryable, userId: string, previousEpoch: number, now: Date) {
  await q.execute(
    sql`select svc_oidc_queue_account_logouts(${userId}::uuid, ${previousEpoch}::integer, ${now}::timestamptz)`,
  );
}

// The sessions and people are read by their owner (accounts): the grant sessions a membership's end reaches, and
// what UserInfo and the ID token say (Part A 2.9, 2.10).
export { claimsSubject } from '../accounts/index.js';
export { grantsOfMember } from '../sign-in/index.js';
