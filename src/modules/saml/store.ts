import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import type { Queryable } from '../../kernel/db/index.js';
import { samlConnections, samlRequests, samlSeenMessages } from './schema.js';

export type SamlConnectionRow = typeof samlConnections.$inferSelect;
export type SamlRequestRow = typeof samlRequests.$inferSelect;

export async function connectionOf(
  q: Queryable,
  tenantId: string,
  forUpdate = false,
): Promise<SamlConnectionRow | undefined> {
  const query = q.select().from(samlConnections).where(eq(samlConnections.tenantId, tenantId));
  const [row] = forUpdate ? await query.for('update') : await query;
  return row;
}

export async function insertConnection(q: Queryable, row: SamlConnectionRow): Promise<void> {
  await q.insert(samlConnections).values(row);
}

export async function updateConnection(q: Queryable, tenantId: string, row: SamlConnectionRow): Promise<void> {
  const { tenantId: _key, createdAt: _created, ...set } = row;
  await q.update(samlConnections).set(set).where(eq(samlConnections.tenantId, tenantId));
}

/** Removes the connection; answers the removed row (none: nothing was configured). */
export async function deleteConnection(q: Queryable, tenantId: string): Promise<SamlConnectionRow | undefined> {
  const [row] = await q.delete(samlConnections).where(eq(samlConnections.tenantId, tenantId)).returning();
  return row;
}

export async function insertRequest(q: Queryable, row: SamlRequestRow): Promise<void> {
  await q.insert(samlRequests).values(row);
}

/** Requests long over: spent or not, no response to them can be accepted any more. */
export async function purgeRequests(q: Queryable, tenantId: string, before: Date): Promise<void> {
  await q.delete(samlRequests).where(and(eq(samlRequests.tenantId, tenantId), lt(samlRequests.expiresAt, before)));
}

type RequestMatch = { tenantId: string; id: string; browserHash: string };

/** The request of this id, started by this browser, not yet spent and not expired. */
const openRequest = (match: RequestMatch, now: Date) =>
  and(
    eq(samlRequests.tenantId, match.tenantId),
    eq(samlRequests.id, match.id),
    eq(samlRequests.browserHash, match.browserHash),
    isNull(samlRequests.spentAt),
    gt(samlRequests.expiresAt, now),
  );

/**
 * Whether an unspent, unexpired request of this browser has this id: a cheap look before the signature is checked,
 * so that the expensive work is done only for responses to requests this service issued (and starts are budgeted).
 */
export async function openRequestExists(q: Queryable, match: RequestMatch, now: Date): Promise<boolean> {
  const [row] = await q.select({ id: samlRequests.id }).from(samlRequests).where(openRequest(match, now));
  return row !== undefined;
}

/**
 * Spends a request once (its response is accepted), only from the browser that started it: of concurrent
 * responses one gets the row. Expiry is part of the match.
 */
export async function spendRequest(q: Queryable, match: RequestMatch, now: Date): Promise<boolean> {
  const spent = await q
    .update(samlRequests)
    .set({ spentAt: now })
    .where(openRequest(match, now))
    .returning({ id: samlRequests.id });
  return spent.length > 0;
}

/**
 * Records a message id of the identity provider as accepted, in one statement: true the first time, false when it
 * was seen before (a replay). Expired entries of the organization are dropped first: their messages are refused
 * by their own time conditions.
 */
export async function rememberMessage(
  q: Queryable,
  entry: { tenantId: string; kind: 'assertion' | 'logout_request'; messageId: string; expiresAt: Date },
  now: Date,
): Promise<boolean> {
  await q
    .delete(samlSeenMessages)
    .where(and(eq(samlSeenMessages.tenantId, entry.tenantId), lt(samlSeenMessages.expiresAt, now)));
  const inserted = await q
    .insert(samlSeenMessages)
    .values(entry)
    .onConflictDoNothing()
    .returning({ messageId: samlSeenMessages.messageId });
  return inserted.length > 0;
}

// The SSO module keeps the identities and sign-ins of both protocols, the accounts module the sessions.
export { liveSsoSessionsOf } from '../sign-in/index.js';
export { signedInWithSessionIndex, userOfNameId } from '../sso/index.js';
