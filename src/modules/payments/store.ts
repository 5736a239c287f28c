import { and, desc, eq, gt, sql } from 'drizzle-orm';
import { type Queryable, rows, spendOnce } from '../../kernel/db/index.js';
import { paymentElevations } from './schema.js';

export type ElevationRow = typeof paymentElevations.$inferSelect;

export async function insertElevation(q: Queryable, row: typeof paymentElevations.$inferInsert): Promise<void> {
  await q.insert(paymentElevations).values(row);
}

export async function elevationById(q: Queryable, tenantId: string, id: string): Promise<ElevationRow | undefined> {
  const [row] = await q
    .select()
    .from(paymentElevations)
    .where(and(eq(paymentElevations.tenantId, tenantId), eq(paymentElevations.id, id)));
  return row;
}

/** The elevation, locked until the verifying transaction ends: concurrent verifies of one ask take turns. */
export async function elevationForVerify(
  q: Queryable,
  tenantId: string,
  id: string,
): Promise<ElevationRow | undefined> {
  const [row] = await q
    .select()
    .from(paymentElevations)
    .where(and(eq(paymentElevations.tenantId, tenantId), eq(paymentElevations.id, id)))
    .for('update');
  return row;
}

export async function updateElevation(
  q: Queryable,
  id: string,
  change: Partial<
    Pick<ElevationRow, 'status' | 'attempts' | 'categories' | 'methodsUsed' | 'webauthnChallenge' | 'satisfiedAt'>
  >,
): Promise<void> {
  await q.update(paymentElevations).set(change).where(eq(paymentElevations.id, id));
}

/**
 * Spends a satisfied, unexpired elevation bound to `fingerprint` in one statement (the kernel's `spendOnce`): of
 * any number of concurrent consumes exactly one gets it.
 */
export function spendElevation(q: Queryable, input: { tenantId: string; id: string; fingerprint: string; now: Date }) {
  return spendOnce(
    q,
    paymentElevations,
    paymentElevations.spentAt,
    and(
      eq(paymentElevations.tenantId, input.tenantId),
      eq(paymentElevations.id, input.id),
      eq(paymentElevations.fingerprint, input.fingerprint),
      eq(paymentElevations.status, 'satisfied'),
      gt(paymentElevations.expiresAt, input.now),
    ),
    input.now,
    { id: paymentElevations.id },
  );
}

export async function recordSpender(q: Queryable, id: string, spentBy: string): Promise<void> {
  await q.update(paymentElevations).set({ spentBy }).where(eq(paymentElevations.id, id));
}

/** The address the session's newest elevation was opened from (the risk context's source address). */
export async function lastSourceIp(q: Queryable, tenantId: string, sessionId: string): Promise<string | undefined> {
  const [row] = await q
    .select({ ip: paymentElevations.sourceIp })
    .from(paymentElevations)
    .where(and(eq(paymentElevations.tenantId, tenantId), eq(paymentElevations.sessionId, sessionId)))
    .orderBy(desc(paymentElevations.createdAt), desc(paymentElevations.id))
    .limit(1);
  return row?.ip ?? undefined;
}

/**
 * Open detections of the organization about a person (keyed `actor:<user id>…`, or naming the user id in their
 * data) or about a source address (keyed `ip:<address>…`, or naming it as `ip` in their data). The detections are
 * the kernel's; read, never written.
 */
export async function openDetections(
  q: Queryable,
  tenantId: string,
  about: { userId: string } | { ip: string },
): Promise<Array<{ rule_id: string; severity: string; count: number }>> {
  const match =
    'userId' in about
      ? sql`(group_key = ${`actor:${about.userId}`} or group_key like ${`actor:${about.userId}:%`}
            or data->>'user_id' = ${about.userId})`
      : sql`(group_key = ${`ip:${about.ip}`} or group_key like ${`ip:${about.ip}:%`} or data->>'ip' = ${about.ip})`;
  return rows(
    q,
    sql`select rule_id, severity, count from detections
        where scope = ${tenantId} and status = 'open' and ${match}
        order by rule_id`,
  );
}

/** A person's elevations in one organization, oldest first (their personal-data export). */
export async function elevationsOfUser(q: Queryable, tenantId: string, userId: string): Promise<ElevationRow[]> {
  return q
    .select()
    .from(paymentElevations)
    .where(and(eq(paymentElevations.tenantId, tenantId), eq(paymentElevations.userId, userId)))
    .orderBy(paymentElevations.createdAt, paymentElevations.id);
}

/** Erasure: every elevation of the person in the organization (the back end keeps its attestations). */
export async function deleteElevationsOfUser(q: Queryable, tenantId: string, userId: string): Promise<void> {
  await q
    .delete(paymentElevations)
    .where(and(eq(paymentElevations.tenantId, tenantId), eq(paymentElevations.userId, userId)));
}
