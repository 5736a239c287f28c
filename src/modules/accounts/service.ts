import type { Config } from '../../config.js';
import type { AfterAnswer } from '../../kernel/after-answer.js';
import type { Population, Principal } from '../../kernel/auth/index.js';
import type { Clock } from '../../kernel/clock.js';
import { hashPassword, verifyNothing, verifyPassword } from '../../kernel/crypto/index.js';
import type { Transactions, Tx } from '../../kernel/db/index.js';
import type { Events } from '../../kernel/events/index.js';
import { conflict, forbidden, HttpError, unauthorized } from '../../kernel/http/index.js';
import { newId } from '../../kernel/ids.js';
import { type Limiter, type LimitPolicy, throttled } from '../../kernel/limits/index.js';
import type { Mailer } from '../../kernel/mail/index.js';
import type { Metrics } from '../../kernel/observability/index.js';
import type { PersonalDataRegistry } from '../../kernel/personal-data.js';
import type { RevocationCascade } from '../../kernel/revocation.js';
import type { OrganizationService } from '../organizations/index.js';
import type { SettingsService } from '../settings/index.js';
import {
  assertSsoAllows,
  mayUseAccount,
  type RequestContext,
  type SessionService,
  type SignIn,
  type SignInResult,
  signInSubject,
  type TokenPair,
} from '../sign-in/index.js';
import { createAccountLinks } from './account-links.js';
import { emailKeyOf, slugKeyOf } from './identifiers.js';
import { assertStrongPassword } from './password-policy.js';
import { accountPersonalData } from './personal-data.js';
import * as provisioning from './provisioning.js';
import { createSelfService } from './self-service.js';
import { LOGIN_FAILURES_PER_IP, raiseCredentialStuffing, sourceContainment } from './source-containment.js';
import * as store from './store.js';
import * as users from './users-store.js';

/** Sign-up and customer sign-up share one per-IP budget (Part A 4.1). */
export const SIGNUP_PER_IP: LimitPolicy = { name: 'signup-ip', points: 20, durationSeconds: 3600 };
/** Failed sign-ins per account (per source address: source-containment.ts); a success clears it (Part A 8). */
export const LOGIN_FAILURES_PER_ACCOUNT: LimitPolicy = {
  name: 'login-failures-account',
  points: 10,
  durationSeconds: 900,
};
/** One `user.login_throttled` per account and window: hammering a throttled account floods no log or webhook. */
export const LOGIN_THROTTLED_EVENT: LimitPolicy = { name: 'login-throttled-event', points: 1, durationSeconds: 900 };

const INVALID_CREDENTIALS = 'Invalid credentials';

/**
 * Issue 17: the per-account sign-in budget is keyed on the resolved organization and account ids, never on what
 * was typed, so no spelling (` org-b`, `ORG-B`) buys a fresh budget. A pair that resolves to nobody is keyed on
 * its normalized spelling, which spends and refuses exactly like a known account (Part A 7: an unknown account
 * must look the same), and can never collide with an id pair.
 */
function loginThrottleKey(subject: { tenantId: string; userId: string } | undefined, slug: string, email: string) {
  return subject ? `member:${subject.tenantId}:${subject.userId}` : `unresolved:${slug}:${email}`;
}

/** Unique-constraint violations from a concurrent insert: the loser answers like the check would have. */
const isUniqueViolation = (error: unknown) =>
  (error as { code?: string })?.code === '23505' || (error as { cause?: { code?: string } })?.cause?.code === '23505';

/** One answer for an unknown organization and one that does not take customer sign-ups (Part A 7). */
export const CUSTOMER_SIGNUP_UNAVAILABLE = 'Customer sign-up is not available';

export interface Identity {
  user_id: string;
  tenant_id: string;
  role: string;
  is_owner: boolean;
  tenant_isolation: string;
  population: Population;
  email_verified: boolean;
}

export function createAccountService(deps: {
  config: Config;
  transactions: Transactions;
  organizations: OrganizationService;
  sessions: SessionService;
  /** The sign-in module's finishing step: a verified password ends there (tokens, or an MFA challenge). */
  signIn: SignIn;
  /** Told when an account's sessions end everywhere (epoch bump, erasure): src/kernel/revocation.ts. */
  revocation: RevocationCascade;
  events: Events;
  limiter: Limiter;
  clock: Clock;
  personalData: PersonalDataRegistry;
  mailer: Mailer;
  settings: SettingsService;
  logger: { warn(obj: object, msg: string): void };
  metrics?: Pick<Metrics, 'signIn'>;
  /** Work after the answer (failure records, mail): the node waits for it when it stops. */
  afterAnswer: AfterAnswer;
}) {
  const { config, transactions, organizations, sessions, events, limiter, clock, settings } = deps;
  deps.personalData.add(accountPersonalData({ clock, sessions, revocation: deps.revocation }));
  const links = createAccountLinks(deps);
  const selfService = createSelfService(deps);

  /**
   * A new account with a password; 409 when the address already has one. Returns its id. `emailVerified`
   * when the caller has just proven the mailbox (an invitation link arrived there).
   */
  async function createAccount(
    tx: Tx,
    email: string,
    passwordHash: string,
    options: { emailVerified?: boolean } = {},
  ): Promise<string> {
    if (await store.userByEmail(tx, emailKeyOf(email))) throw conflict('Email already registered');
    const now = clock.now();
    const userId = newId();
    await store.insertUser(tx, {
      id: userId,
      email,
      emailKey: emailKeyOf(email),
      emailVerified: options.emailVerified ?? false,
      passwordHash,
      passwordChangedAt: now,
      createdAt: now,
      updatedAt: now,
    });
    return userId;
  }

  return {
    ...links,
    ...selfService,

    /** Accounts as an identity provider provisions them (SCIM): no password, the provider's names. */
    provisioning,

    /**
     * For other modules (invitation accept, domain join, federation): a new account whose password already
     * passed the policy and was hashed outside the transaction. 409 when the address is registered.
     */
    createAccount,

    /** The account registered under an address, if any (compared case-insensitively). */
    async findUserByEmail(tx: Tx, email: string): Promise<{ id: string; email: string } | undefined> {
      const user = await store.userByEmail(tx, emailKeyOf(email));
      return user && { id: user.id, email: user.email };
    },

    /**
     * Part A 4.1 `POST /auth/signup`: a new account owning a new organization, signed in. Closed (403) while
     * PUBLIC_SIGNUP_ENABLED is off.
     */
    async signUp(
      input: { email: string; password: string; organizationName: string },
      context: RequestContext,
    ): Promise<TokenPair> {
      if (!config.flags.publicSignupEnabled) {
        throw forbidden(
          `Sign-up is closed during the private beta. Request early access at ${config.baseUrl}/api/v1/early-access`,
        );
      }
      const budget = await limiter.consume(SIGNUP_PER_IP, context.ip);
      if (!budget.allowed) throw throttled(budget);
      assertStrongPassword(input.password);
      const passwordHash = await hashPassword(input.password);
      const email = input.email.trim();
      try {
        const { tokens, mail } = await transactions.system(async (tx) => {
          const userId = await createAccount(tx, email, passwordHash);
          const tenant = await organizations.create(tx, { name: input.organizationName, ownerUserId: userId });
          await transactions.enterTenant(tx, tenant.id);
          const actor = { id: userId, type: 'human' as const };
          await events.emit(tx, {
            tenantId: tenant.id,
            actor,
            category: 'auth',
            action: 'user.signed_up',
            subjectUserId: userId,
            data: { user_id: userId, population: 'workforce', role: 'owner' },
            webhook: { type: 'user.signed_up', data: { user_id: userId, population: 'workforce' } },
          });
          const { tokens } = await sessions.start(tx, {
            tenantId: tenant.id,
            userId,
            population: 'workforce',
            epoch: 0,
            amr: ['pwd'],
            userAgent: context.userAgent,
            dpopJkt: context.dpopJkt,
          });
          return { tokens, mail: await links.verificationMail(tx, { userId, email, tenantId: tenant.id }) };
        });
        mail();
        return tokens;
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict('Email already registered or organization name taken');
        throw error;
      }
    },

    /**
     * Part A 4.1 `POST /auth/login`: one generic 401 for every failure, with the same work done whether or
     * not the account exists. Failed attempts are throttled per IP and per account.
     */
    async logIn(
      input: { email: string; password: string; tenantSlug: string },
      context: RequestContext,
    ): Promise<SignInResult> {
      // Normalized once, here, as the lookup compares them: every spelling of one account is one account.
      const tenantSlug = slugKeyOf(input.tenantSlug);
      const emailKey = emailKeyOf(input.email);
      const [byIp, { subject, tenantId }] = await Promise.all([
        limiter.peek(LOGIN_FAILURES_PER_IP, context.ip),
        // The organization is read whether or not the account is known: a contained source is refused alike.
        transactions.systemRead(async (q) => ({
          subject: await signInSubject(q, { tenantSlug, emailKey }),
          tenantId: (await users.tenantBySlug(q, tenantSlug))?.id,
        })),
      ]);
      const source = tenantId ? { tenantId, sourceIp: context.ip } : undefined;
      const accountKey = loginThrottleKey(subject, tenantSlug, emailKey);
      const [byAccount, contained] = await Promise.all([
        limiter.peek(LOGIN_FAILURES_PER_ACCOUNT, accountKey),
        source ? sourceContainment(limiter, source) : undefined,
      ]);
      // An autonomy `contain_source` decision (Part B 4.9) refuses every sign-in from this address here.
      if (contained && !contained.allowed) {
        deps.metrics?.signIn('pwd', 'throttled');
        throw throttled(contained);
      }
      if (!byIp.allowed || !byAccount.allowed) {
        // A source refused by its failure throttle that still tries this organization: credential stuffing here.
        if (source && !byIp.allowed && !byIp.unavailable) this.credentialStuffingFrom(source);
        // Not awaited either: a throttled known account must answer as fast as a throttled unknown one.
        if (subject && !byAccount.allowed) {
          deps.afterAnswer.run(
            async () => {
              if ((await limiter.consume(LOGIN_THROTTLED_EVENT, accountKey)).allowed) {
                await this.recordThrottled(subject.tenantId, subject.userId);
              }
            },
            (error) => deps.logger.warn({ err: error.message }, 'login throttle event not recorded'),
          );
        }
        deps.metrics?.signIn('pwd', 'throttled');
        throw throttled(byIp.allowed ? byAccount : byIp);
      }
      const usable = mayUseAccount(subject) && subject.passwordHash;
      const verified = usable
        ? await verifyPassword(subject.passwordHash!, input.password)
        : await verifyNothing(input.password);
      if (!verified || !subject) {
        const [ipSpent] = await Promise.all([
          limiter.consume(LOGIN_FAILURES_PER_IP, context.ip),
          limiter.consume(LOGIN_FAILURES_PER_ACCOUNT, accountKey),
        ]);
        // This failure engaged the source's throttle (its budget is spent): many accounts failed from one source.
        if (source && !ipSpent.unavailable && ipSpent.remaining === 0) this.credentialStuffingFrom(source);
        // Not awaited: the answer must take as long for an unknown account as for a known one.
        deps.metrics?.signIn('pwd', 'failure');
        if (subject) {
          deps.afterAnswer.run(
            () => this.recordFailure(subject.tenantId, subject.userId),
            (error) => deps.logger.warn({ err: error.message }, 'login failure not recorded'),
          );
        }
        throw unauthorized(INVALID_CREDENTIALS);
      }
      // Checked only after the password verifies, so it reveals nothing to a guesser; owners pass (break-glass).
      assertSsoAllows(subject);
      await limiter.reset(LOGIN_FAILURES_PER_ACCOUNT, accountKey);
      return transactions.tenant(subject.tenantId, (tx) =>
        deps.signIn.finishSignIn(tx, {
          tenantId: subject.tenantId,
          userId: subject.userId,
          population: subject.population as Population,
          epoch: subject.tokenEpoch,
          amr: ['pwd'],
          userAgent: context.userAgent,
          dpopJkt: context.dpopJkt,
          sourceIp: context.ip,
        }),
      );
    },

    /**
     * Part A 4.1 `POST /auth/signup/customer`: a customer account and membership in an organization that
     * takes self-registration (`auth.ciam_signup_enabled`), signed in, with a verification mail. One generic
     * 403 whether the organization is unknown or closed; the per-IP budget is shared with `/auth/signup`.
     */
    async signUpCustomer(
      input: { email: string; password: string; tenantSlug: string },
      context: RequestContext,
    ): Promise<TokenPair> {
      const budget = await limiter.consume(SIGNUP_PER_IP, context.ip);
      if (!budget.allowed) throw throttled(budget);
      assertStrongPassword(input.password);
      const slug = slugKeyOf(input.tenantSlug);
      const open = await transactions.system(async (tx) => {
        const tenant = await users.tenantBySlug(tx, slug);
        if (!tenant || tenant.quarantined) return undefined;
        await transactions.enterTenant(tx, tenant.id);
        return (await settings.enabled(tx, tenant.id, 'auth.ciam_signup_enabled')) ? tenant.id : undefined;
      });
      if (!open) throw forbidden(CUSTOMER_SIGNUP_UNAVAILABLE);
      const tenantId = open;
      const passwordHash = await hashPassword(input.password);
      const email = input.email.trim();
      try {
        const { tokens, mail } = await transactions.system(async (tx) => {
          const userId = await createAccount(tx, email, passwordHash);
          await transactions.enterTenant(tx, tenantId);
          await organizations.memberships.add(tx, { tenantId, userId, role: 'customer', population: 'customer' });
          const data = { user_id: userId, population: 'customer' };
          await events.emit(tx, {
            tenantId,
            actor: { id: userId, type: 'human' },
            category: 'auth',
            action: 'user.signed_up',
            subjectUserId: userId,
            data: { ...data, role: 'customer' },
            webhook: { type: 'user.signed_up', data },
          });
          const { tokens } = await sessions.start(tx, {
            tenantId,
            userId,
            population: 'customer',
            epoch: 0,
            amr: ['pwd'],
            userAgent: context.userAgent,
            dpopJkt: context.dpopJkt,
          });
          return { tokens, mail: await links.verificationMail(tx, { userId, email, tenantId }) };
        });
        mail();
        return tokens;
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict('Email already registered');
        throw error;
      }
    },

    /** Raises `credential-stuffing` after the answer (not awaited: the answer's timing must not depend on it). */
    credentialStuffingFrom(source: { tenantId: string; sourceIp: string }): void {
      deps.afterAnswer.run(
        () =>
          raiseCredentialStuffing(
            { limiter, events, inTenant: (tenantId, work) => transactions.tenant(tenantId, work) },
            source,
          ),
        (error) => deps.logger.warn({ err: error.message }, 'credential-stuffing detection not recorded'),
      );
    },

    async recordFailure(tenantId: string, userId: string): Promise<void> {
      await transactions.tenant(tenantId, (tx) =>
        events.emit(tx, {
          tenantId,
          actor: { id: userId, type: 'human' },
          category: 'auth',
          action: 'user.login_failed',
          severity: 'low',
          outcome: 'failure',
          subjectUserId: userId,
          data: { user_id: userId },
        }),
      );
    },

    /** Part A 6: `user.login_throttled` carries user_id, actor_type and occurred_at, never the source IP. */
    async recordThrottled(tenantId: string, userId: string): Promise<void> {
      const occurredAt = clock.now().toISOString().replace('Z', '+00:00');
      const data = { user_id: userId, actor_type: 'human', occurred_at: occurredAt };
      await transactions.tenant(tenantId, (tx) =>
        events.emit(tx, {
          tenantId,
          actor: { id: userId, type: 'human' },
          category: 'security',
          action: 'user.login_throttled',
          severity: 'warn',
          outcome: 'denied',
          subjectUserId: userId,
          data,
          webhook: { type: 'user.login_throttled', data },
        }),
      );
    },

    /**
     * `svc bootstrap`: the platform-operator organization and its owner, on a fresh install only.
     */
    async bootstrapPlatform(input: { email: string; password: string; organizationName: string }) {
      assertStrongPassword(input.password);
      const passwordHash = await hashPassword(input.password);
      return transactions.system(async (tx) => {
        if (await organizations.platformOperator(tx, { lock: true })) {
          throw conflict('A platform-operator organization already exists');
        }
        const email = input.email.trim();
        const userId = await createAccount(tx, email, passwordHash);
        const tenant = await organizations.create(tx, {
          name: input.organizationName,
          ownerUserId: userId,
          platformOperator: true,
        });
        await transactions.enterTenant(tx, tenant.id);
        await events.emit(tx, {
          tenantId: tenant.id,
          actor: { id: 'svc-cli', type: 'system' },
          category: 'admin',
          action: 'tenant.bootstrapped',
          subjectUserId: userId,
          data: { user_id: userId, slug: tenant.slug },
        });
        return { tenantId: tenant.id, slug: tenant.slug, userId };
      });
    },

    /** Part A 2.2: the caller's identity, as resolved from the database on this request. */
    identity(principal: Principal): Identity {
      if (!principal.userId || !principal.role || !principal.population) throw new HttpError(401, 'Not authenticated');
      return {
        user_id: principal.userId,
        tenant_id: principal.tenantId,
        role: principal.role,
        is_owner: principal.isOwner,
        tenant_isolation: String(principal.attributes.tenantIsolation ?? 'pooled'),
        population: principal.population,
        email_verified: Boolean(principal.attributes.emailVerified),
      };
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
