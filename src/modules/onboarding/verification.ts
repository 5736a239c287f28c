import { addMs, hours, seconds } from '../../kernel/clock.js';
import { hashPassword, randomSecret, sha256Hex } from '../../kernel/crypto/index.js';
import { conflict, HttpError, notFound } from '../../kernel/http/index.js';
import { newId } from '../../kernel/ids.js';
import { throttled } from '../../kernel/limits/index.js';
import { assertStrongPassword } from '../accounts/index.js';
import { CODE_ENTRY_PER_IP } from './abuse.js';
import { DEFAULT_AGENT_NAME } from './bootstrap.js';
import { hashCode, normalizeUserCode } from './codes.js';
import { type OnboardingDeps, ownerPrincipal } from './deps.js';
import { createManifestPlanner, recordApprovedManifestAsk } from './manifests-port.js';
import type { AttemptRow } from './schema.js';
import * as store from './store.js';

// The person's side of onboarding (Part B 4.5 "/onboard/verify/*"), behind the hosted pages: enter the user code
// (a link is mailed), confirm the email with an explicit click on that link (the organization, quarantined, and
// its owner are created then, and the invite code is consumed), set a passkey or a password, review the plan of
// the parked manifest, approve or deny. From the click on, the browser is bound to the attempt by a random value
// in an httpOnly cookie whose SHA-256 the attempt keeps.

/** Part B 8: the emailed link stays valid 48 hours, far longer than the attempt's codes. */
export const LINK_LIFETIME_MS = hours(48);
/**
 * How long an approval's own release may take before a retry may finish it instead: retries within it answer 409,
 * so two releases (two agents) never run side by side.
 */
export const RELEASE_LEASE_MS = seconds(60);
/** Part B 8: the released agent's `manifest:plan` and `manifest:apply` last 7 days. */
export const RELEASED_DELEGATION_DAYS = 7;
export const RELEASED_PERMISSIONS = ['manifest:plan', 'manifest:apply'];

const UNKNOWN_CODE = 'This code is unknown or expired. Ask your agent for the current code.';
const DEAD_LINK = 'This link is unknown, already used or expired. Enter your code again to get a new one.';
const NO_ATTEMPT = 'Nothing is waiting here: open the link from your email again.';

export const maskEmail = (email: string) => {
  const at = email.lastIndexOf('@');
  return `${email.slice(0, 1)}***${email.slice(at)}`;
};

export type ConfirmChoice = { method: 'password'; password: string } | { method: 'passkey' };

export function createVerification(deps: OnboardingDeps) {
  const { config, transactions, events, clock, limiter } = deps;
  const planner = createManifestPlanner({ clock });

  /** The attempt bound to this browser, open (pending or approved), with its organization. */
  async function boundAttempt(
    browserSecret: string | undefined,
  ): Promise<AttemptRow & { organizationId: string; ownerUserId: string }> {
    const attempt = browserSecret
      ? await transactions.systemRead((q) => store.attemptByBrowser(q, sha256Hex(browserSecret)))
      : undefined;
    if (!attempt?.organizationId || !attempt.ownerUserId) throw notFound(NO_ATTEMPT);
    return attempt as AttemptRow & { organizationId: string; ownerUserId: string };
  }

  const ownerOf = (attempt: { organizationId: string; ownerUserId: string; ownerSessionId?: string | null }) => ({
    ...ownerPrincipal(attempt.organizationId, attempt.ownerUserId),
    ...(attempt.ownerSessionId ? { sessionId: attempt.ownerSessionId } : {}),
  });

  async function planOf(attempt: AttemptRow & { organizationId: string }) {
    if (!attempt.manifest) return null;
    return transactions.tenantRead(attempt.organizationId, (tx) =>
      planner.plan(tx, attempt.organizationId, attempt.manifest as never),
    );
  }

  /**
   * After the approval committed: the agent, its time-boxed delegations from the owner, and the manifest's
   * pre-approval when the person approved the exact plan shown. The poll releases the agent only once `agent_id`
   * is recorded, last; a failure here leaves the attempt approved without an agent, and approving again finishes.
   */
  async function release(attempt: AttemptRow & { organizationId: string; ownerUserId: string }, planHash?: string) {
    const owner = ownerPrincipal(attempt.organizationId, attempt.ownerUserId);
    const client = attempt.clientInfo ?? {};
    const agent = await deps.agentAdmin.register(owner, {
      name: client.name?.trim() || DEFAULT_AGENT_NAME,
      description: `Onboarded ${attempt.organizationName}${client.platform ? ` from ${client.platform}` : ''}${client.model ? ` (${client.model})` : ''}`,
    });
    await deps.agentAdmin.delegate(owner, agent.agent_id, {
      permissions: RELEASED_PERMISSIONS,
      expires_in_days: RELEASED_DELEGATION_DAYS,
    });
    let approvalId: string | null = null;
    if (attempt.manifest && planHash) {
      approvalId = await transactions.tenant(attempt.organizationId, async (tx) =>
        recordApprovedManifestAsk(
          tx,
          {
            tenantId: attempt.organizationId,
            agentId: agent.agent_id,
            approverUserId: attempt.ownerUserId,
            manifest: attempt.manifest,
            planHash,
          },
          { events, clock },
        ),
      );
    }
    // Conditional: should a release ever outlast its lease, the agent recorded first stays the one released.
    await transactions.system((tx) => store.recordReleasedAgent(tx, attempt.id, agent.agent_id));
    return { preapproved: approvalId !== null, approvalId };
  }

  return {
    /** The user code typed on the page: a fresh link is mailed to the address (any earlier link dies). */
    async enterCode(typed: string, context: { ip: string }) {
      const budget = await limiter.consume(CODE_ENTRY_PER_IP, context.ip);
      if (!budget.allowed) throw throttled(budget);
      const code = normalizeUserCode(typed);
      const now = clock.now();
      const attempt = code
        ? await transactions.systemRead((q) => store.attemptByUserCode(q, hashCode(code)))
        : undefined;
      if (attempt?.status !== 'pending' || attempt.codesExpireAt <= now) throw notFound(UNKNOWN_CODE);
      const token = randomSecret();
      await transactions.system((tx) =>
        store.updateAttempt(tx, attempt.id, {
          linkTokenHash: sha256Hex(token),
          linkExpiresAt: addMs(now, LINK_LIFETIME_MS),
        }),
      );
      const link = `${config.baseUrl}/onboard/verify?token=${token}`;
      await deps.mailer.send({
        to: attempt.email,
        subject: `Confirm your email to open ${attempt.organizationName}`,
        text: `An AI agent asked to open the organization "${attempt.organizationName}" for you.\n\nIf you started this, confirm your email address by opening this link and clicking the button on the page (valid 48 hours, once):\n\n${link}\n\nIf you did not, ignore this message: nothing is created without your approval.\n`,
      });
      return { email: maskEmail(attempt.email), organization_name: attempt.organizationName };
    },

    /** What the mailed link is for; reading it spends nothing (a mail scanner may open it). */
    async preview(token: string) {
      const attempt = await transactions.systemRead((q) => store.attemptByLink(q, sha256Hex(token)));
      if (!attempt?.linkExpiresAt || attempt.linkExpiresAt <= clock.now() || attempt.status !== 'pending') {
        throw notFound(DEAD_LINK);
      }
      const account = attempt.ownerUserId
        ? { id: attempt.ownerUserId }
        : await transactions.system((tx) => deps.accounts.findUserByEmail(tx, attempt.email));
      return {
        email: attempt.email,
        organization_name: attempt.organizationName,
        confirmed: attempt.emailConfirmedAt !== null,
        account_exists: account !== undefined,
      };
    },

    /**
     * The explicit click on the mailed link: spends it and binds this browser. The first click creates the owner
     * (with the chosen password, or none yet for a passkey; an address already registered keeps its account) and
     * the organization, quarantined, and consumes the invite code: an invite revoked meanwhile is 409 and nothing
     * is created (the link stays usable).
     */
    async confirm(token: string, choice: ConfirmChoice, context: { userAgent?: string | undefined }) {
      if (choice.method === 'password') assertStrongPassword(choice.password);
      const passwordHash = choice.method === 'password' ? await hashPassword(choice.password) : undefined;
      const browserSecret = randomSecret();
      const now = clock.now();
      await transactions.system(async (tx) => {
        const attempt = await store.spendLink(tx, sha256Hex(token), now);
        if (attempt?.status !== 'pending') throw notFound(DEAD_LINK);
        if (attempt.organizationId) {
          await store.updateAttempt(tx, attempt.id, { browserHash: sha256Hex(browserSecret) });
          return;
        }
        const existing = await deps.accounts.findUserByEmail(tx, attempt.email);
        let ownerUserId = existing?.id;
        if (!ownerUserId && passwordHash) {
          ownerUserId = await deps.accounts.createAccount(tx, attempt.email, passwordHash, { emailVerified: true });
        } else if (!ownerUserId) {
          ownerUserId = newId();
          await deps.accounts.provisioning.insertAccount(tx, {
            id: ownerUserId,
            email: attempt.email,
            emailKey: attempt.emailKey,
            now,
            profileSource: 'local',
            emailVerified: true,
            name: null,
            givenName: null,
            familyName: null,
          });
        }
        const tenant = await deps.organizations.create(tx, { name: attempt.organizationName, ownerUserId });
        await store.setQuarantine(tx, tenant.id, true);
        if (attempt.inviteCodeId && !(await store.consumeInviteCode(tx, attempt.inviteCodeId, tenant.id, now))) {
          throw conflict('The invite code of this onboarding was revoked or expired: nothing was created');
        }
        await transactions.enterTenant(tx, tenant.id);
        // A session of the owner kept server-side: the passkey step registers through it; never handed out.
        const session =
          choice.method === 'passkey' && !existing
            ? await deps.sessions.start(tx, {
                tenantId: tenant.id,
                userId: ownerUserId,
                population: 'workforce',
                epoch: 0,
                amr: ['email'],
                userAgent: context.userAgent,
              })
            : undefined;
        await store.updateAttempt(tx, attempt.id, {
          emailConfirmedAt: now,
          organizationId: tenant.id,
          ownerUserId,
          ownerCreated: !existing,
          ownerSessionId: session?.sessionId ?? null,
          browserHash: sha256Hex(browserSecret),
        });
        await events.emit(tx, {
          tenantId: tenant.id,
          actor: { id: ownerUserId, type: 'human' },
          category: 'onboarding',
          action: 'onboarding.email_confirmed',
          subjectUserId: ownerUserId,
          data: {
            attempt_id: attempt.id,
            organization_id: tenant.id,
            owner_user_id: ownerUserId,
            owner_created: !existing,
            invite_code_id: attempt.inviteCodeId,
            quarantined: true,
          },
        });
      });
      return { browserSecret };
    },

    /** The review: the attempt, whether the owner can sign in, and the plan of the parked manifest. */
    async review(browserSecret: string | undefined) {
      const attempt = await boundAttempt(browserSecret);
      const [hasSignInMethod, plan] = await Promise.all([
        transactions.systemRead((q) => store.ownerHasSignInMethod(q, attempt.ownerUserId)),
        attempt.status === 'pending' ? planOf(attempt) : Promise.resolve(null),
      ]);
      return { attempt, hasSignInMethod, plan, passkeyPossible: attempt.ownerSessionId !== null };
    },

    passkeyOptions: async (browserSecret: string | undefined) =>
      deps.passkeys.registrationOptions(ownerOf(await boundAttempt(browserSecret))),

    passkeyRegister: async (browserSecret: string | undefined, response: unknown) =>
      deps.passkeys.register(ownerOf(await boundAttempt(browserSecret)), {
        response: response as never,
        name: 'Onboarding',
      }),

    /**
     * Approve: refused (409) until the owner has a password or passkey; the quarantine lifts in the same
     * transaction as the decision. `planHash` pre-approves the manifest only when it is the plan's hash now.
     */
    async approve(browserSecret: string | undefined, planHash: string | undefined) {
      const attempt = await boundAttempt(browserSecret);
      if (attempt.status === 'approved' && !attempt.agentId) {
        // Finishing a release that failed midway: claimed once, never beside the approval's own release.
        const now = clock.now();
        const claimed = await transactions.systemWrite((q) =>
          store.claimUnfinishedRelease(q, attempt.id, now, addMs(now, -RELEASE_LEASE_MS)),
        );
        if (!claimed) throw conflict('This approval is still being completed: reload this page in a minute');
        return release(attempt, planHash);
      }
      if (attempt.status !== 'pending') throw conflict(`This onboarding is already ${attempt.status}`);
      if (!(await transactions.systemRead((q) => store.ownerHasSignInMethod(q, attempt.ownerUserId)))) {
        throw conflict('Set a passkey or a password for your account before approving');
      }
      const now = clock.now();
      await transactions.system(async (tx) => {
        const approved = await store.transition(tx, attempt.id, 'pending', { status: 'approved', approvedAt: now });
        if (!approved) throw conflict('This onboarding was decided already');
        await transactions.enterTenant(tx, attempt.organizationId);
        await store.setQuarantine(tx, attempt.organizationId, false);
        await events.emit(tx, {
          tenantId: attempt.organizationId,
          actor: { id: attempt.ownerUserId, type: 'human' },
          category: 'onboarding',
          action: 'onboarding.approved',
          subjectUserId: attempt.ownerUserId,
          data: { attempt_id: attempt.id, plan_hash: planHash ?? null, quarantined: false },
        });
      });
      return release(attempt, planHash);
    },

    /**
     * Deny: everything the attempt made goes (the organization with all it holds, the owner account it created, the
     * codes and link); the attempt stays as `denied` so the agent's poll learns it.
     */
    async deny(browserSecret: string | undefined) {
      const attempt = await boundAttempt(browserSecret);
      await transactions.system(async (tx) => {
        const denied = await store.transition(tx, attempt.id, 'pending', {
          status: 'denied',
          deniedAt: clock.now(),
          userCodeHash: null,
          linkTokenHash: null,
          browserHash: null,
          organizationId: null,
          ownerSessionId: null,
        });
        if (!denied) throw conflict(`This onboarding is already ${attempt.status}`);
        await store.deleteOrganization(tx, attempt.organizationId);
        if (attempt.ownerCreated) await store.deleteAccount(tx, attempt.ownerUserId);
        await events.emit(tx, {
          tenantId: null,
          actor: { id: attempt.ownerUserId, type: 'human' },
          category: 'onboarding',
          action: 'onboarding.denied',
          data: {
            attempt_id: attempt.id,
            organization_id: attempt.organizationId,
            owner_removed: attempt.ownerCreated,
          },
        });
      });
    },

    /** Whether a thrown error is the one a page shows as "nothing waiting here". */
    isDeadLink: (error: unknown) => error instanceof HttpError && error.status === 404,
  };
}

export type Verification = ReturnType<typeof createVerification>;
