import { and, asc, count, eq, inArray, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../kernel/db/index.js';
import { tenantStanding } from '../organizations/index.js';
import { scimConfigs, scimGroupMembers, scimGroups, scimUsers } from './schema.js';

export type ConfigRow = typeof scimConfigs.$inferSelect;
export type ScimUserRow = typeof scimUsers.$inferSelect;
export type ScimGroupRow = typeof scimGroups.$inferSelect;

// Configuration and token

export async function configOf(q: Queryable, tenantId: string, forUpdate = false): Promise<ConfigRow | undefined> {
  const query = q.select().from(scimConfigs).where(eq(scimConfigs.tenantId, tenantId));
  const [row] = forUpdate ? await query.for('update') : await query;
  return row;
}

export async function insertConfig(q: Queryable, row: ConfigRow): Promise<void> {
  await q.insert(scimConfigs).values(row);
}

export async function updateConfig(
  q: Queryable,
  tenantId: string,
  set: Partial<Omit<ConfigRow, 'tenantId' | 'createdAt'>>,
): Promise<void> {
  await q.update(scimConfigs).set(set).where(eq(scimConfigs.tenantId, tenantId));
}

/** Removes the configuration with its token; answers the removed row (none: nothing was configured). */
export async function deleteConfig(q: Queryable, tenantId: string): Promise<ConfigRow | undefined> {
  const [row] = await q.delete(scimConfigs).where(eq(scimConfigs.tenantId, tenantId)).returning();
  return row;
}

/**
 * The organization a SCIM token belongs to, found by the token's SHA-256 through its unique index (a hash look-up
 * needs no constant-time comparison: the attacker never sees a comparison with the stored value). A system read:
 * the token names no organization until it is found.
 */
export async function tokenState(q: Queryable, tokenHash: string) {
  const standing = tenantStanding(q);
  const [row] = await q
    .select({
      tenantId: scimConfigs.tenantId,
      tokenId: scimConfigs.tokenId,
      enabled: scimConfigs.enabled,
      plan: standing.plan,
      quarantined: standing.quarantined,
    })
    .from(scimConfigs)
    .innerJoin(standing, eq(standing.tenantId, scimConfigs.tenantId))
    .where(eq(scimConfigs.tokenHash, tokenHash));
  return row;
}

// Users

export async function scimUser(q: Queryable, tenantId: string, id: string, forUpdate = false) {
  const query = q
    .select()
    .from(scimUsers)
    .where(and(eq(scimUsers.tenantId, tenantId), eq(scimUsers.id, id)));
  const [row] = forUpdate ? await query.for('update') : await query;
  return row;
}

export async function scimUserByUserName(q: Queryable, tenantId: string, userNameKey: string) {
  const [row] = await q
    .select()
    .from(scimUsers)
    .where(and(eq(scimUsers.tenantId, tenantId), eq(scimUsers.userNameKey, userNameKey)));
  return row;
}

export async function scimUserOfAccount(q: Queryable, tenantId: string, userId: string) {
  const [row] = await q
    .select()
    .from(scimUsers)
    .where(and(eq(scimUsers.tenantId, tenantId), eq(scimUsers.userId, userId)));
  return row;
}

export async function insertScimUser(q: Queryable, row: ScimUserRow): Promise<void> {
  await q.insert(scimUsers).values(row);
}

export async function updateScimUser(
  q: Queryable,
  tenantId: string,
  id: string,
  set: Partial<Omit<ScimUserRow, 'tenantId' | 'id' | 'userId' | 'createdAt'>>,
): Promise<void> {
  await q
    .update(scimUsers)
    .set(set)
    .where(and(eq(scimUsers.tenantId, tenantId), eq(scimUsers.id, id)));
}

/** Deletes a SCIM User (its group memberships go with it by cascade); answers the deleted row. */
export async function deleteScimUser(q: Queryable, tenantId: string, id: string) {
  const [row] = await q
    .delete(scimUsers)
    .where(and(eq(scimUsers.tenantId, tenantId), eq(scimUsers.id, id)))
    .returning();
  return row;
}

export async function deleteScimUserOfAccount(q: Queryable, tenantId: string, userId: string): Promise<void> {
  await q.delete(scimUsers).where(and(eq(scimUsers.tenantId, tenantId), eq(scimUsers.userId, userId)));
}

/** One page of users matching `where`, oldest first (a stable order for `startIndex` paging), and the total. */
export async function listScimUsers(
  q: Queryable,
  tenantId: string,
  where: SQL | undefined,
  offset: number,
  limit: number,
) {
  const condition = and(eq(scimUsers.tenantId, tenantId), where);
  const [total] = await q.select({ n: count() }).from(scimUsers).where(condition);
  const page =
    limit === 0
      ? []
      : await q
          .select()
          .from(scimUsers)
          .where(condition)
          .orderBy(asc(scimUsers.createdAt), asc(scimUsers.id))
          .offset(offset)
          .limit(limit);
  return { total: Number(total?.n ?? 0), page };
}

/** The groups each of the users is in (the User's read-only `groups` attribute). */
export async function groupsOfUsers(q: Queryable, tenantId: string, memberIds: string[]) {
  if (memberIds.length === 0) return [];
  return q
    .select({ memberId: scimGroupMembers.memberId, groupId: scimGroups.id, displayName: scimGroups.displayName })
    .from(scimGroupMembers)
    .innerJoin(
      scimGroups,
      and(eq(scimGroups.tenantId, scimGroupMembers.tenantId), eq(scimGroups.id, scimGroupMembers.groupId)),
    )
    .where(and(eq(scimGroupMembers.tenantId, tenantId), inArray(scimGroupMembers.memberId, memberIds)))
    .orderBy(asc(scimGroups.displayNameKey));
}

// Groups

export async function scimGroup(q: Queryable, tenantId: string, id: string, forUpdate = false) {
  const query = q
    .select()
    .from(scimGroups)
    .where(and(eq(scimGroups.tenantId, tenantId), eq(scimGroups.id, id)));
  const [row] = forUpdate ? await query.for('update') : await query;
  return row;
}

export async function scimGroupByName(q: Queryable, tenantId: string, displayNameKey: string) {
  const [row] = await q
    .select({ id: scimGroups.id })
    .from(scimGroups)
    .where(and(eq(scimGroups.tenantId, tenantId), eq(scimGroups.displayNameKey, displayNameKey)));
  return row;
}

export async function insertScimGroup(q: Queryable, row: ScimGroupRow): Promise<void> {
  await q.insert(scimGroups).values(row);
}

export async function updateScimGroup(
  q: Queryable,
  tenantId: string,
  id: string,
  set: Partial<Omit<ScimGroupRow, 'tenantId' | 'id' | 'createdAt'>>,
): Promise<void> {
  await q
    .update(scimGroups)
    .set(set)
    .where(and(eq(scimGroups.tenantId, tenantId), eq(scimGroups.id, id)));
}

export async function deleteScimGroup(q: Queryable, tenantId: string, id: string) {
  const [row] = await q
    .delete(scimGroups)
    .where(and(eq(scimGroups.tenantId, tenantId), eq(scimGroups.id, id)))
    .returning({ id: scimGroups.id });
  return row;
}

export async function listScimGroups(
  q: Queryable,
  tenantId: string,
  where: SQL | undefined,
  offset: number,
  limit: number,
) {
  const condition = and(eq(scimGroups.tenantId, tenantId), where);
  const [total] = await q.select({ n: count() }).from(scimGroups).where(condition);
  const page =
    limit === 0
      ? []
      : await q
          .select()
          .from(scimGroups)
          .where(condition)
          .orderBy(asc(scimGroups.createdAt), asc(scimGroups.id))
          .offset(offset)
          .limit(limit);
  return { total: Number(total?.n ?? 0), page };
}

/** Members of the groups with what a member reference displays (displayName, else userName). */
export async function membersOfGroups(q: Queryable, tenantId: string, groupIds: string[]) {
  if (groupIds.length === 0) return [];
  return q
    .select({
      groupId: scimGroupMembers.groupId,
      memberId: scimGroupMembers.memberId,
      userName: scimUsers.userName,
      displayName: scimUsers.displayName,
    })
    .from(scimGroupMembers)
    .innerJoin(
      scimUsers,
      and(eq(scimUsers.tenantId, scimGroupMembers.tenantId), eq(scimUsers.id, scimGroupMembers.memberId)),
    )
    .where(and(eq(scimGroupMembers.tenantId, tenantId), inArray(scimGroupMembers.groupId, groupIds)))
    .orderBy(asc(scimGroupMembers.createdAt), asc(scimGroupMembers.memberId));
}

/** Statements take at most this many ids: PostgreSQL allows 65,535 parameters in one statement. */
const CHUNK = 1000;
const chunksOf = (ids: string[]) =>
  Array.from({ length: Math.ceil(ids.length / CHUNK) }, (_, i) => ids.slice(i * CHUNK, (i + 1) * CHUNK));

/** Which of `ids` are SCIM Users of the organization (a member reference must name one). */
export async function existingScimUsers(q: Queryable, tenantId: string, ids: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (const chunk of chunksOf(ids)) {
    const rowsFound = await q
      .select({ id: scimUsers.id })
      .from(scimUsers)
      .where(and(eq(scimUsers.tenantId, tenantId), inArray(scimUsers.id, chunk)));
    for (const row of rowsFound) found.add(row.id);
  }
  return found;
}

export async function clearMembers(q: Queryable, tenantId: string, groupId: string): Promise<number> {
  const gone = await q
    .delete(scimGroupMembers)
    .where(and(eq(scimGroupMembers.tenantId, tenantId), eq(scimGroupMembers.groupId, groupId)))
    .returning({ id: scimGroupMembers.memberId });
  return gone.length;
}

export async function removeMembers(q: Queryable, tenantId: string, groupId: string, ids: string[]): Promise<number> {
  let removed = 0;
  for (const chunk of chunksOf(ids)) {
    const gone = await q
      .delete(scimGroupMembers)
      .where(
        and(
          eq(scimGroupMembers.tenantId, tenantId),
          eq(scimGroupMembers.groupId, groupId),
          inArray(scimGroupMembers.memberId, chunk),
        ),
      )
      .returning({ id: scimGroupMembers.memberId });
    removed += gone.length;
  }
  return removed;
}

/** Adds members; one already in the group stays as it is (adding is idempotent). */
export async function addMembers(
  q: Queryable,
  tenantId: string,
  groupId: string,
  ids: string[],
  now: Date,
): Promise<number> {
  let added = 0;
  for (const chunk of chunksOf(ids)) {
    const inserted = await q
      .insert(scimGroupMembers)
      .values(chunk.map((memberId) => ({ tenantId, groupId, memberId, createdAt: now })))
      .onConflictDoNothing()
      .returning({ id: scimGroupMembers.memberId });
    added += inserted.length;
  }
  return added;
}

/** Groups of one member, for privacy export. */
export async function groupsOfMember(q: Queryable, tenantId: string, memberId: string) {
  return groupsOfUsers(q, tenantId, [memberId]);
}
