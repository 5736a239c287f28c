import { eq, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../kernel/db/index.js';
import { users } from './schema.js';

/*
 * Accounts as an identity provider (SCIM) provisions them: an account without a password (the person sets one
 * through the reset link, or signs in another way), with the provider's names and address. The provisioning
 * module calls these through `accounts.provisioning`.
 */

export type ProvisionedAccount = Pick<
  typeof users.$inferSelect,
  'id' | 'email' | 'emailKey' | 'emailVerified' | 'profileSource' | 'status' | 'ownerTenantId'
>;

/** The one account the condition matches, with the fields provisioning reads. */
async function provisionedAccount(q: Queryable, condition: SQL): Promise<ProvisionedAccount | undefined> {
  const [row] = await q
    .select({
      id: users.id,
      email: users.email,
      emailKey: users.emailKey,
      emailVerified: users.emailVerified,
      profileSource: users.profileSource,
      status: users.status,
      ownerTenantId: users.ownerTenantId,
    })
    .from(users)
    .where(condition);
  return row;
}

export async function accountByEmailKey(q: Queryable, emailKey: string): Promise<ProvisionedAccount | undefined> {
  return provisionedAccount(q, eq(users.emailKey, emailKey));
}

export async function accountById(q: Queryable, userId: string): Promise<ProvisionedAccount | undefined> {
  return provisionedAccount(q, eq(users.id, userId));
}

/** Who keeps a provisioned account's names: the person (`local`) or the identity provider that created it. */
export type ProfileSource = 'local' | 'scim' | 'sso';

/**
 * A provisioned account: no password (the person sets one through the reset link, or signs in another way).
 * `emailVerified` says whether the provider vouched for the address (a social provider's verified email, the
 * organization's own SSO identity provider); SCIM does not.
 */
export async function insertAccount(
  q: Queryable,
  row: {
    id: string;
    email: string;
    emailKey: string;
    now: Date;
    profileSource: ProfileSource;
    emailVerified: boolean;
    /** The organization whose SSO or SCIM creates the account, which owns it (docs/decisions.md "SSO trust model"). */
    ownerTenantId?: string | null;
  } & AccountProfile,
): Promise<void> {
  await q.insert(users).values({
    id: row.id,
    email: row.email,
    emailKey: row.emailKey,
    emailVerified: row.emailVerified,
    passwordHash: null,
    name: row.name,
    givenName: row.givenName,
    familyName: row.familyName,
    profileSource: row.profileSource,
    ownerTenantId: row.ownerTenantId ?? null,
    createdAt: row.now,
    updatedAt: row.now,
  });
}

export interface AccountProfile {
  name: string | null;
  givenName: string | null;
  familyName: string | null;
}

/** Mirrors the identity provider's names (and address, when it changed) onto an account it manages. */
export async function updateAccount(
  q: Queryable,
  userId: string,
  set: Partial<AccountProfile> & {
    email?: string;
    emailKey?: string;
    profileSource?: ProfileSource;
    /** Cleared when the address leaves the owning organization's verified domains. */
    ownerTenantId?: null;
  },
  now: Date,
): Promise<void> {
  await q
    .update(users)
    .set({ ...set, ...(set.emailKey ? { emailVerified: false } : {}), updatedAt: now })
    .where(eq(users.id, userId));
}
