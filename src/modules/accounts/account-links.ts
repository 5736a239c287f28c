import type { Config } from '../../config.js';
import type { AfterAnswer } from '../../kernel/after-answer.js';
import { addMs, type Clock, hours, minutes } from '../../kernel/clock.js';
import { hashPassword, randomSecret, sha256Hex } from '../../kernel/crypto/index.js';
import type { Transactions, Tx } from '../../kernel/db/index.js';
import type { Events } from '../../kernel/events/index.js';
import { badRequest, forbidden } from '../../kernel/http/index.js';
import { newId } from '../../kernel/ids.js';
import type { Limiter, LimitPolicy } from '../../kernel/limits/index.js';
import type { Mailer } from '../../kernel/mail/index.js';
import type { RevocationCascade } from '../../kernel/revocation.js';
import type { SessionService } from '../sign-in/index.js';
import { emailKeyOf } from './identifiers.js';
import { assertStrongPassword } from './password-policy.js';
import { sourceContainment } from './source-containment.js';
import * as store from './store.js';
import * as users from './users-store.js';

/** Part A 8: email verification links live 48 hours, password reset links about 30 minutes. */
export const VERIFICATION_LIFETIME_MS = hours(48);
export const RESET_LIFETIME_MS = minutes(30);

/**
 * Silent budgets of the enumeration-safe mailers: past them the answer is still 202 with no rate headers
 * (Part A 8, exceptions), and simply no mail is sent.
 */
export const MAIL_PER_ADDRESS: LimitPolicy = { name: 'account-mail-address', points: 5, durationSeconds: 3600 };
export const MAIL_PER_IP: LimitPolicy = { name: 'account-mail-ip', points: 30, durationSeconds: 3600 };

export const PASSWORD_RESET_CLOSED =
  'Password reset is turned off on this installation; ask an administrator of your organization for help';

interface Logger {
  warn(obj: object, msg: string): void;
}

export function createAccountLinks(deps: {
  config: Config;
  transactions: Transactions;
  events: Events;
  limiter: Limiter;
  mailer: Mailer;
  clock: Clock;
  logger: Logger;
  sessions: Pick<SessionService, 'revokeAllOfUser'>;
  revocation: RevocationCascade;
  afterAnswer: AfterAnswer;
}) {
  const { config, transactions, events, limiter, mailer, clock, logger, sessions, revocation, afterAnswer } = deps;

  /** Mail leaves after the answer: its delivery time must not tell a caller whether the address exists. */
  function sendLater(to: string, subject: string, text: string): void {
    afterAnswer.run(
      () => mailer.send({ to, subject, text }),
      (error) => logger.warn({ err: error.message }, 'account mail not delivered'),
    );
  }

  async function issueLink(
    tx: Tx,
    input: { userId: string; email: string; tenantId: string | undefined; purpose: users.AccountTokenPurpose },
  ): Promise<string> {
    const token = randomSecret();
    const now = clock.now();
    await users.insertAccountToken(tx, {
      id: newId(),
      userId: input.userId,
      purpose: input.purpose,
      tokenHash: sha256Hex(token),
      email: input.email,
      eventTenantId: input.tenantId ?? null,
      createdAt: now,
      expiresAt: addMs(now, input.purpose === 'verify_email' ? VERIFICATION_LIFETIME_MS : RESET_LIFETIME_MS),
    });
    return token;
  }

  const verificationText = (token: string) =>
    [
      'Confirm your email address by opening this link (valid for 48 hours, usable once):',
      '',
      `${config.baseUrl}/verify-email?token=${token}`,
      '',
      'If you did not create an account, ignore this message.',
    ].join('\n');

  /**
   * Both silent budgets, per address and per source IP; false once either is spent. The address budget is the
   * account's (keyed on its id, issue 17), or, for an address nobody registered, its normalized spelling: spent
   * alike, so probing costs the same.
   */
  async function mayMail(email: string, ip: string): Promise<boolean> {
    const emailKey = emailKeyOf(email);
    const user = await transactions.systemRead((q) => store.userByEmail(q, emailKey));
    const [byAddress, byIp] = await Promise.all([
      limiter.consume(MAIL_PER_ADDRESS, user ? `account:${user.id}` : `unresolved:${emailKey}`),
      limiter.consume(MAIL_PER_IP, ip),
    ]);
    return byAddress.allowed && byIp.allowed;
  }

  async function resendNow(email: string, ip: string): Promise<void> {
    if (!(await mayMail(email, ip))) return;
    const mail = await transactions.system(async (tx) => {
      const user = await store.userByEmail(tx, emailKeyOf(email));
      if (!user || user.emailVerified || user.status !== 'active') return undefined;
      const tenantId = await users.homeTenantOf(tx, user.id);
      const token = await issueLink(tx, { userId: user.id, email: user.email, tenantId, purpose: 'verify_email' });
      return { to: user.email, token };
    });
    if (mail) sendLater(mail.to, 'Confirm your email address', verificationText(mail.token));
  }

  return {
    /**
     * Creates a verification link inside the sign-up transaction; returns the function that mails it, to be
     * called once the transaction has committed.
     */
    async verificationMail(tx: Tx, input: { userId: string; email: string; tenantId: string }) {
      const token = await issueLink(tx, { ...input, purpose: 'verify_email' });
      return () => sendLater(input.email, 'Confirm your email address', verificationText(token));
    },

    /** Part A 4.1 `POST /auth/verify-email`: 48-hour single-use link; 400 when invalid, expired or used. */
    async verifyEmail(token: string): Promise<void> {
      const verified = await transactions.system(async (tx) => {
        const now = clock.now();
        const link = await users.spendAccountToken(tx, 'verify_email', sha256Hex(token), now);
        if (!link || !(await users.markEmailVerified(tx, link.userId, emailKeyOf(link.email), now))) return false;
        const tenantId = link.tenantId ?? (await users.homeTenantOf(tx, link.userId));
        if (tenantId) await transactions.enterTenant(tx, tenantId);
        const data = { user_id: link.userId };
        await events.emit(tx, {
          tenantId: tenantId ?? null,
          actor: { id: link.userId, type: 'human' },
          category: 'auth',
          action: 'user.email_verified',
          subjectUserId: link.userId,
          data,
          ...(tenantId ? { webhook: { type: 'user.email_verified', data } } : {}),
        });
        return true;
      });
      if (!verified) throw badRequest('Invalid or expired verification token');
    },

    /** Part A 4.1 `POST /auth/resend-verification`: 202 always; a link goes only to an unverified account. */
    resendVerification(email: string, ip: string): void {
      afterAnswer.run(
        () => resendNow(email, ip),
        (error) => logger.warn({ err: error.message }, 'verification resend failed'),
      );
    },

    /**
     * Part A 4.1 `POST /auth/forgot-password`: 403 with a reason while PASSWORD_RESET_ENABLED is off, else 202
     * always; the work happens after the answer, so known and unknown addresses answer alike.
     */
    forgotPassword(email: string, ip: string): void {
      if (!config.flags.passwordResetEnabled) throw forbidden(PASSWORD_RESET_CLOSED);
      afterAnswer.run(
        async () => {
          if (!(await mayMail(email, ip))) return;
          const mail = await transactions.system(async (tx) => {
            const user = await store.userByEmail(tx, emailKeyOf(email));
            if (user?.status !== 'active') return undefined;
            const tenantId = await users.homeTenantOf(tx, user.id);
            // A source autonomy contained for the account's organization (Part B 4.9) gets no reset mail, silently
            // like the budgets: the request names no organization, so a 429 would tell it who has an account.
            if (tenantId && !(await sourceContainment(limiter, { tenantId, sourceIp: ip })).allowed) return undefined;
            const token = await issueLink(tx, {
              userId: user.id,
              email: user.email,
              tenantId,
              purpose: 'reset_password',
            });
            return { to: user.email, token };
          });
          if (!mail) return;
          sendLater(
            mail.to,
            'Reset your password',
            [
              'Choose a new password by opening this link (valid for 30 minutes, usable once):',
              '',
              `${config.baseUrl}/reset-password?token=${mail.token}`,
              '',
              'If you did not ask for this, ignore this message: your password stays as it is.',
            ].join('\n'),
          );
        },
        (error) => logger.warn({ err: error.message }, 'password reset request failed'),
      );
    },

    /**
     * Part A 4.1 `POST /auth/reset-password`: spends the link, sets the password and bumps the revocation
     * epoch, so every token issued before is refused. Not gated by PASSWORD_RESET_ENABLED.
     */
    async resetPassword(token: string, newPassword: string): Promise<void> {
      assertStrongPassword(newPassword);
      const tokenHash = sha256Hex(token);
      // A cheap look first: an invalid link must not cost an argon2 hash.
      const live = await transactions.systemRead((q) =>
        users.accountTokenIsLive(q, 'reset_password', tokenHash, clock.now()),
      );
      if (!live) throw badRequest('Invalid or expired reset token');
      const passwordHash = await hashPassword(newPassword);
      const done = await transactions.system(async (tx) => {
        const now = clock.now();
        const link = await users.spendAccountToken(tx, 'reset_password', tokenHash, now);
        if (!link) return false;
        const epoch = await users.setPassword(tx, link.userId, passwordHash, now);
        await revocation.accountSessionsEnded(tx, { userId: link.userId, previousEpoch: epoch - 1, at: now });
        await users.spendAllAccountTokens(tx, link.userId, 'reset_password', now);
        // The new epoch ends the account's sessions in every organization: each hears of it (Part A 6).
        const memberOf = await users.activeTenantsOf(tx, link.userId);
        const actor = { id: link.userId, type: 'human' } as const;
        for (const memberTenant of memberOf) {
          await transactions.enterTenant(tx, memberTenant);
          await sessions.revokeAllOfUser(tx, memberTenant, link.userId, 'password_reset');
          const data = { user_id: link.userId, reason: 'password_reset' };
          await events.emit(tx, {
            tenantId: memberTenant,
            actor,
            category: 'session',
            action: 'user.sessions_revoked',
            severity: 'warn',
            subjectUserId: link.userId,
            data,
            webhook: { type: 'user.sessions_revoked', data },
          });
        }
        const tenantId = link.tenantId ?? memberOf[0];
        if (tenantId) await transactions.enterTenant(tx, tenantId);
        await events.emit(tx, {
          tenantId: tenantId ?? null,
          actor: { id: link.userId, type: 'human' },
          category: 'auth',
          action: 'user.password_reset',
          severity: 'warn',
          subjectUserId: link.userId,
          data: { user_id: link.userId },
        });
        return true;
      });
      if (!done) throw badRequest('Invalid or expired reset token');
    },
  };
}

export type AccountLinks = ReturnType<typeof createAccountLinks>;
