import { eq, sql } from 'drizzle-orm';
import { type Queryable, rows } from '../../kernel/db/index.js';
import { accountTokens, users } from './schema.js';

export async function insertUser(q: Queryable, row: typeof users.$inferInsert): Promise<void> {
  await q.insert(users).values(row);
}

export async function userByEmail(q: Queryable, emailKey: string): Promise<typeof users.$inferSelect | undefined> {
  const [row] = await q.select().from(users).where(eq(users.emailKey, emailKey));
  return row;
}

export async function userById(q: Queryable, userId: string): Promise<typeof users.$inferSelect | undefined> {
  const [row] = await q.select().from(users).where(eq(users.id, userId));
  return row;
}

/**
 * Memberships of the account in other organizations that are not removed. Row-level security hides other
 * organizations' rows from a tenant transaction, so this asks a SECURITY DEFINER function (migration 0003)
 * that answers only the count.
 */
export async function membershipsElsewhere(q: Queryable, userId: string, tenantId: string): Promise<number> {
  const [row] = await rows<{ n: number | string }>(
    q,
    sql`select svc_memberships_elsewhere(${userId}::uuid, ${tenantId}::uuid) as n`,
  );
  return Number(row?.n ?? 0);
}

/**
 * Erasure of the account itself: the address becomes a unique non-routable placeholder, names, picture and
 * password go, the account is disabled and its epoch bumped (every token anywhere dies).
 */
export async function scrubUser(q: Queryable, userId: string, now: Date): Promise<number> {
  const placeholder = `erased-${userId}@erased.invalid`;
  const [row] = await q
    .update(users)
    .set({
      email: placeholder,
      emailKey: placeholder,
      emailVerified: false,
      passwordHash: null,
      name: null,
      givenName: null,
      familyName: null,
      picture: null,
      status: 'disabled',
      tokenEpoch: sql`${users.tokenEpoch} + 1`,
      updatedAt: now,
    })
    .where(eq(users.id, userId))
    .returning({ epoch: users.tokenEpoch });
  await q.delete(accountTokens).where(eq(accountTokens.userId, userId));
  if (!row) throw new Error('account vanished');
  return row.epoch;
}
