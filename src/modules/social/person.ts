import type { Tx } from '../../kernel/db/index.js';
import { newId } from '../../kernel/ids.js';
import type { SocialDeps } from './common.js';
import type { ProviderIdentity } from './providers.js';
import * as store from './store.js';

type VerifiedIdentity = ProviderIdentity & { email: string };
type Resolution = { userId: string } | { refused: string };

/** Links the provider account to the person in the organization, with its event and a notice to the owner. */
async function link(deps: SocialDeps, tx: Tx, flow: store.SocialFlowRow, userId: string, identity: VerifiedIdentity) {
  const now = deps.clock.now();
  const id = newId();
  await store.insertIdentity(tx, {
    tenantId: flow.tenantId,
    id,
    userId,
    provider: flow.provider,
    subject: identity.subject,
    email: identity.email,
    createdAt: now,
    lastUsedAt: flow.purpose === 'sign_in' ? now : null,
  });
  await deps.events.emit(tx, {
    tenantId: flow.tenantId,
    actor: { id: userId, type: 'human' },
    category: 'auth',
    action: 'social.identity_linked',
    subjectUserId: userId,
    data: { user_id: userId, provider: flow.provider, identity_id: id, by: flow.purpose },
  });
  await deps.notify(
    tx,
    userId,
    `A ${flow.provider} account was linked`,
    `Your ${flow.provider} account (${identity.email}) can now be used to sign in.`,
  );
}

/**
 * A link round trip (`link/start`): the provider account becomes a way in of the person whose session asked, if
 * that session is still live, the account is linked to nobody else here, and the person has no other account of
 * this provider linked.
 */
async function resolveLink(deps: SocialDeps, tx: Tx, flow: store.SocialFlowRow, identity: VerifiedIdentity) {
  if (!flow.linkUserId || !flow.linkSessionId) return { refused: 'link flow without its person' };
  const session = await deps.sessions.liveSession(flow.tenantId, flow.linkSessionId, tx);
  if (session?.userId !== flow.linkUserId) return { refused: 'the session that asked to link has ended' };
  const holder = await store.identityBySubject(tx, flow.tenantId, flow.provider, identity.subject);
  if (holder) {
    return holder.userId === flow.linkUserId
      ? { userId: holder.userId }
      : { refused: 'the provider account is linked to another person' };
  }
  const mine = await store.identitiesOfUser(tx, flow.tenantId, flow.linkUserId);
  if (mine.some((row) => row.provider === flow.provider)) {
    return { refused: 'another account of this provider is linked already' };
  }
  await link(deps, tx, flow, flow.linkUserId, identity);
  return { userId: flow.linkUserId };
}

/**
 * Who a sign-in round trip signs in (Part A 4.5), in the organization's transaction:
 * 1. a provider account linked before is its person again (whatever address the provider sends now);
 * 2. otherwise the provider-verified address decides: a member of the organization is linked to it
 *    automatically (a removed membership is not re-opened); an account that is no member, or no account at all,
 *    becomes a customer of the organization only when it takes customer sign-up (`auth.ciam_signup_enabled`);
 *    a new account has no password and takes the provider's names (the person may edit them).
 */
export async function resolvePerson(
  deps: SocialDeps,
  tx: Tx,
  flow: store.SocialFlowRow,
  identity: VerifiedIdentity,
): Promise<Resolution> {
  if (flow.purpose === 'link') return resolveLink(deps, tx, flow, identity);
  const { tenantId } = flow;
  const now = deps.clock.now();
  const known = await store.identityBySubject(tx, tenantId, flow.provider, identity.subject);
  if (known) {
    await store.touchIdentity(tx, tenantId, known.id, { email: identity.email, lastUsedAt: now });
    return { userId: known.userId };
  }
  const emailKey = identity.email.toLowerCase();
  const existing = await deps.accounts.provisioning.accountByEmailKey(tx, emailKey);
  const membership = existing && (await deps.organizations.memberships.ofUser(tx, tenantId, existing.id));
  if (membership?.status === 'removed') return { refused: 'the membership was removed' };
  // Someone may have signed up with this address without owning it: linking would hand them the provider's
  // person. The owner of the address verifies it, or signs in and links the provider from the account.
  if (existing && !existing.emailVerified) return { refused: 'the account’s address is not verified' };
  if (existing && membership) {
    const mine = await store.identitiesOfUser(tx, tenantId, existing.id);
    if (mine.some((row) => row.provider === flow.provider)) {
      return { refused: 'another account of this provider is linked to this person' };
    }
    await link(deps, tx, flow, existing.id, identity);
    return { userId: existing.id };
  }
  if (!(await deps.settings.enabled(tx, tenantId, 'auth.ciam_signup_enabled'))) {
    return { refused: 'customer sign-up is turned off' };
  }
  const userId = existing?.id ?? newId();
  if (!existing) {
    await deps.accounts.provisioning.insertAccount(tx, {
      id: userId,
      email: identity.email,
      emailKey,
      now,
      name: identity.name,
      givenName: identity.givenName,
      familyName: identity.familyName,
      // The provider verified the address (unverified ones are refused); the person owns the profile it seeded.
      emailVerified: true,
      profileSource: 'local',
    });
  }
  await deps.organizations.memberships.add(tx, { tenantId, userId, role: 'customer', population: 'customer' });
  const data = { user_id: userId, population: 'customer' };
  await deps.events.emit(tx, {
    tenantId,
    actor: { id: userId, type: 'human' },
    category: 'auth',
    action: 'user.signed_up',
    subjectUserId: userId,
    data: { ...data, role: 'customer', method: 'social', provider: flow.provider },
    webhook: { type: 'user.signed_up', data },
  });
  await link(deps, tx, flow, userId, identity);
  return { userId };
}
