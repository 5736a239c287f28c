import { and, eq, gt, inArray, isNull, lt, ne, not, sql } from 'drizzle-orm';
import type { Queryable } from '../../kernel/db/index.js';
import { sessions } from '../accounts/schema.js';
import { memberships, tenants } from '../organizations/schema.js';
import { ssoIdentities, ssoOidcFlows, ssoSignIns } from './schema.js';

export type SsoFlowRow = typeof ssoOidcFlows.$inferSelect;
export type SsoIdentityRow = typeof ssoIdentities.$inferSelect;
export type SsoSignInRow = typeof ssoSignIns.$inferSelect;

/**
 * The organization a sign-in names by its slug (compared lowercased), read without a tenant: the registry of
 * organizations is not tenant-scoped, and sign-in must find it before it can enter it.
 */
export async function tenantIdBySlug(q: Queryable, slug: string): Promise<string | undefined> {
  const [row] = await q.select({ id: tenants.id }).from(tenants).where(eq(tenants.slug, slug.trim().toLowerCase()));
  return row?.id;
}

export async function insertFlow(q: Queryable, row: SsoFlowRow): Promise<void> {
  await q.insert(ssoOidcFlows).values(row);
}

/**
 * Spends a flow's `state` once, and only from the browser that started it (its binding hash) and at the
 * organization's own callback. Of concurrent callbacks one gets the row. Expiry is the caller's check.
 */
export async function spendFlow(
  q: Queryable,
  match: { tenantId: string; stateHash: string; browserHash: string },
  now: Date,
): Promise<SsoFlowRow | undefined> {
  const [row] = await q
    .update(ssoOidcFlows)
    .set({ spentAt: now })
    .where(
      and(
        eq(ssoOidcFlows.tenantId, match.tenantId),
        eq(ssoOidcFlows.stateHash, match.stateHash),
        eq(ssoOidcFlows.browserHash, match.browserHash),
        isNull(ssoOidcFlows.spentAt),
      ),
    )
    .returning();
  return row;
}

/** Round trips long over: spent or not, they can no longer finish. */
export async function purgeFlows(q: Queryable, before: Date): Promise<void> {
  await q.delete(ssoOidcFlows).where(lt(ssoOidcFlows.expiresAt, before));
}

export async function identity(
  q: Queryable,
  key: { tenantId: string; protocol: 'oidc' | 'saml'; issuer: string; subject: string },
): Promise<SsoIdentityRow | undefined> {
  const [row] = await q
    .select()
    .from(ssoIdentities)
    .where(
      and(
        eq(ssoIdentities.tenantId, key.tenantId),
        eq(ssoIdentities.protocol, key.protocol),
        eq(ssoIdentities.issuer, key.issuer),
        eq(ssoIdentities.subject, key.subject),
      ),
    )
    .for('update');
  return row;
}

export async function upsertIdentity(q: Queryable, row: SsoIdentityRow): Promise<void> {
  await q
    .insert(ssoIdentities)
    .values(row)
    .onConflictDoUpdate({
      target: [ssoIdentities.tenantId, ssoIdentities.protocol, ssoIdentities.issuer, ssoIdentities.subject],
      set: { email: row.email, lastSignInAt: row.lastSignInAt, userId: row.userId, linkedBy: row.linkedBy },
    });
}

export async function identitiesOfUser(q: Queryable, tenantId: string, userId: string): Promise<SsoIdentityRow[]> {
  return q
    .select()
    .from(ssoIdentities)
    .where(and(eq(ssoIdentities.tenantId, tenantId), eq(ssoIdentities.userId, userId)));
}

export async function insertSignIn(q: Queryable, row: SsoSignInRow): Promise<void> {
  await q.insert(ssoSignIns).values(row);
}

/** Spends a completion code once (`completed_at`); expiry is the caller's check, so a late use still spends it. */
export async function spendSignIn(q: Queryable, codeHash: string, now: Date): Promise<SsoSignInRow | undefined> {
  const [row] = await q
    .update(ssoSignIns)
    .set({ completedAt: now })
    .where(and(eq(ssoSignIns.codeHash, codeHash), isNull(ssoSignIns.completedAt)))
    .returning();
  return row;
}

/** People who signed in through the provider's session `sid` (OIDC Back-Channel Logout 1.0 section 2.6). */
export async function usersOfProviderSession(
  q: Queryable,
  tenantId: string,
  issuer: string,
  sid: string,
): Promise<string[]> {
  const found = await q
    .selectDistinct({ userId: ssoSignIns.userId })
    .from(ssoSignIns)
    .where(
      and(eq(ssoSignIns.tenantId, tenantId), eq(ssoSignIns.issuer, issuer), eq(ssoSignIns.providerSessionId, sid)),
    );
  return found.map((row) => row.userId);
}

/** Sign-in records older than the longest session: no back-channel logout can concern them any more. */
export async function purgeSignIns(q: Queryable, before: Date): Promise<void> {
  await q.delete(ssoSignIns).where(lt(ssoSignIns.createdAt, before));
}

export async function signInsOfUser(q: Queryable, tenantId: string, userId: string): Promise<SsoSignInRow[]> {
  return q
    .select()
    .from(ssoSignIns)
    .where(and(eq(ssoSignIns.tenantId, tenantId), eq(ssoSignIns.userId, userId)));
}

export async function deleteOfUser(q: Queryable, tenantId: string, userId: string): Promise<void> {
  await q.delete(ssoSignIns).where(and(eq(ssoSignIns.tenantId, tenantId), eq(ssoSignIns.userId, userId)));
  await q.delete(ssoIdentities).where(and(eq(ssoIdentities.tenantId, tenantId), eq(ssoIdentities.userId, userId)));
}

const signedInWithSso = sql`${sessions.amr} @> '["sso"]'::jsonb`;

/**
 * Live first-party sessions (grants end with them: the revocation cascade) to end: the SSO sessions of some people (an
 * identity provider signed them out), or every session not signed in through SSO of the members who are not
 * owners (SSO just became required). Read here, ended through the session service.
 */
export async function liveSessionsToEnd(
  q: Queryable,
  tenantId: string,
  which: { ssoOfUsers: string[] } | { nonSsoOfNonOwners: true },
  now: Date,
): Promise<Array<{ sessionId: string; userId: string }>> {
  const live = and(
    eq(sessions.tenantId, tenantId),
    isNull(sessions.revokedAt),
    isNull(sessions.clientId),
    gt(sessions.expiresAt, now),
  );
  if ('ssoOfUsers' in which) {
    if (which.ssoOfUsers.length === 0) return [];
    return q
      .select({ sessionId: sessions.id, userId: sessions.userId })
      .from(sessions)
      .where(and(live, inArray(sessions.userId, which.ssoOfUsers), signedInWithSso));
  }
  return q
    .select({ sessionId: sessions.id, userId: sessions.userId })
    .from(sessions)
    .innerJoin(memberships, and(eq(memberships.tenantId, sessions.tenantId), eq(memberships.userId, sessions.userId)))
    .where(and(live, ne(memberships.role, 'owner'), not(signedInWithSso)));
}
