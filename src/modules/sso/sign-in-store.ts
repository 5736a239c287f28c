import { and, eq, inArray, isNull, lt } from 'drizzle-orm';
import type { Queryable } from '../../kernel/db/index.js';
import { ssoIdentities, ssoOidcFlows, ssoSignIns } from './schema.js';

export type SsoFlowRow = typeof ssoOidcFlows.$inferSelect;
export type SsoIdentityRow = typeof ssoIdentities.$inferSelect;
export type SsoSignInRow = typeof ssoSignIns.$inferSelect;

export { tenantIdBySlug } from '../organizations/index.js';
// Read by their owners: the organization registry and the sessions (docs/decisions.md "Module boundaries").
export { liveSessionsToEnd } from '../sign-in/index.js';

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

/** The account the identity provider's SAML NameID was linked to by an earlier SAML sign-in. */
export async function userOfNameId(
  q: Queryable,
  key: { tenantId: string; issuer: string; nameId: string },
): Promise<string | undefined> {
  const [row] = await q
    .select({ userId: ssoIdentities.userId })
    .from(ssoIdentities)
    .where(
      and(
        eq(ssoIdentities.tenantId, key.tenantId),
        eq(ssoIdentities.protocol, 'saml'),
        eq(ssoIdentities.issuer, key.issuer),
        eq(ssoIdentities.subject, key.nameId),
      ),
    );
  return row?.userId;
}

/** Whether the person signed in through one of the SAML identity provider's sessions (`SessionIndex`). */
export async function signedInWithSessionIndex(
  q: Queryable,
  key: { tenantId: string; issuer: string; userId: string; sessionIndexes: string[] },
): Promise<boolean> {
  const [row] = await q
    .select({ userId: ssoSignIns.userId })
    .from(ssoSignIns)
    .where(
      and(
        eq(ssoSignIns.tenantId, key.tenantId),
        eq(ssoSignIns.protocol, 'saml'),
        eq(ssoSignIns.issuer, key.issuer),
        eq(ssoSignIns.userId, key.userId),
        inArray(ssoSignIns.providerSessionId, key.sessionIndexes),
      ),
    )
    .limit(1);
  return row !== undefined;
}
