import type { Config } from '../../config.js';
import type { AfterAnswer } from '../../kernel/after-answer.js';
import type { Population } from '../../kernel/auth/index.js';
import { addMs, type Clock, minutes } from '../../kernel/clock.js';
import { randomSecret, sha256Hex } from '../../kernel/crypto/index.js';
import type { Transactions } from '../../kernel/db/index.js';
import type { Events } from '../../kernel/events/index.js';
import { forbidden, unauthorized } from '../../kernel/http/index.js';
import { newId } from '../../kernel/ids.js';
import type { Limiter, LimitPolicy } from '../../kernel/limits/index.js';
import type { Mailer } from '../../kernel/mail/index.js';
import type { PersonalDataRegistry } from '../../kernel/personal-data.js';
import { sourceContainment } from '../accounts/index.js';
import type { SettingsService } from '../settings/index.js';
import {
  mayUseAccount,
  type RequestContext,
  type SignIn,
  type SignInResult,
  SSO_REQUIRED,
  signInSubject,
  ssoBlocks,
} from '../sign-in/index.js';
import { magicLinkPersonalData } from './personal-data.js';
import * as store from './store.js';

/** Part A 8: a magic link lives about 15 minutes and works once. */
export const MAGIC_LINK_TTL = minutes(15);

/**
 * Silent issuance budgets (Part A 8: "magic-link issuance (silent)"): past them the answer is still the same
 * 202 without rate headers, and no mail is sent. Per address and organization, and per source IP.
 */
export const MAGIC_LINK_PER_ADDRESS: LimitPolicy = { name: 'magic-link-address', points: 5, durationSeconds: 3600 };
export const MAGIC_LINK_PER_IP: LimitPolicy = { name: 'magic-link-ip', points: 30, durationSeconds: 3600 };

/** Part A 4.4: one answer for invalid, expired, used and superseded links, and for every later refusal. */
export const INVALID_LINK = 'Invalid or expired link';

const SETTING = 'auth.magic_link_enabled';

const keyOf = (value: string) => value.trim().toLowerCase();

/** What a redeemed link gives: the sign-in's answer and the organization it signed in to (for hosted pages). */
export interface MagicLinkSignIn {
  result: SignInResult;
  organization: { name: string; slug: string };
}

export function createMagicLinkService(deps: {
  config: Config;
  transactions: Transactions;
  events: Events;
  clock: Clock;
  limiter: Limiter;
  mailer: Mailer;
  settings: SettingsService;
  personalData: PersonalDataRegistry;
  /** Finishes the sign-in with amr `mlink`: tokens, or an MFA challenge when TOTP is enrolled. */
  signIn: SignIn;
  logger: { warn(obj: object, msg: string): void };
  afterAnswer: AfterAnswer;
}) {
  const { config, transactions, events, clock, limiter, mailer, settings, logger } = deps;
  deps.personalData.add(magicLinkPersonalData());

  /**
   * Both silent budgets; false once either is spent. Spent for unknown subjects too, so probing costs alike. The
   * per-address budget is keyed on the resolved organization and account (issue 17), or on the normalized
   * spelling of a pair that resolves to nobody.
   */
  async function mayIssue(emailKey: string, slug: string, ip: string): Promise<boolean> {
    const subject = await transactions.systemRead((q) => signInSubject(q, { tenantSlug: slug, emailKey }));
    const [byAddress, byIp, contained] = await Promise.all([
      limiter.consume(
        MAGIC_LINK_PER_ADDRESS,
        subject ? `member:${subject.tenantId}:${subject.userId}` : `unresolved:${slug}:${emailKey}`,
      ),
      limiter.consume(MAGIC_LINK_PER_IP, ip),
      // A source autonomy contained for this organization (Part B 4.9 contain_source) gets no link, silently like
      // the budgets: the answer is the same 202 (its redemption is refused by the sign-in gate as well).
      subject ? sourceContainment(limiter, { tenantId: subject.tenantId, sourceIp: ip }) : undefined,
    ]);
    return byAddress.allowed && byIp.allowed && (contained?.allowed ?? true);
  }

  const mailText = (organization: string, token: string) =>
    [
      `Sign in to ${organization} by opening this link (valid for 15 minutes, usable once):`,
      '',
      `${config.baseUrl}/magic-link?token=${token}`,
      '',
      'Asking for another link makes this one stop working.',
      'If you did not ask to sign in, ignore this message: nobody can sign in without the link.',
    ].join('\n');

  async function issueNow(email: string, tenantSlug: string, ip: string): Promise<void> {
    const emailKey = keyOf(email);
    const slug = keyOf(tenantSlug);
    if (!(await mayIssue(emailKey, slug, ip))) return;
    const mail = await transactions.system(async (tx) => {
      // System transaction: the organization is known only by its slug until this read finds it.
      const subject = await signInSubject(tx, { tenantSlug: slug, emailKey });
      if (!mayUseAccount(subject) || ssoBlocks(subject)) return undefined;
      await transactions.enterTenant(tx, subject.tenantId);
      if (!(await settings.enabled(tx, subject.tenantId, SETTING))) return undefined;
      await store.lockMembership(tx, subject.tenantId, subject.userId);
      const now = clock.now();
      // Part A 3: the new link supersedes the outstanding one, in the same transaction as the insert.
      await store.supersedeLiveLinks(tx, subject.tenantId, subject.userId, now);
      const token = randomSecret();
      const linkId = newId();
      await store.insertLink(tx, {
        id: linkId,
        tenantId: subject.tenantId,
        userId: subject.userId,
        tokenHash: sha256Hex(token),
        createdAt: now,
        expiresAt: addMs(now, MAGIC_LINK_TTL),
      });
      await events.emit(tx, {
        tenantId: subject.tenantId,
        actor: { id: subject.userId, type: 'human' },
        category: 'auth',
        action: 'magic_link.sent',
        subjectUserId: subject.userId,
        // Never the token or the requester's address (Part A 6).
        data: { user_id: subject.userId, link_id: linkId },
      });
      return { to: subject.email, organization: subject.tenantName, token };
    });
    if (!mail) return;
    // A line break in a subject is refused by the mailer; an organization name is free text.
    const organization = mail.organization.replace(/[\r\n]+/g, ' ');
    await mailer.send({
      to: mail.to,
      subject: `Your sign-in link for ${organization}`,
      text: mailText(organization, mail.token),
    });
  }

  return {
    /**
     * Part A 4.4 `POST /auth/magic-link`: returns at once, before any look-up, so the answer (202, same body,
     * no rate headers) and its timing are the same for a member, an unknown address, an unknown organization
     * and an organization with `auth.magic_link_enabled` off. The work (budgets, look-up, link, mail) runs after.
     */
    requestLink(input: { email: string; tenantSlug: string }, ip: string): void {
      deps.afterAnswer.run(
        () => issueNow(input.email, input.tenantSlug, ip),
        (error) => logger.warn({ err: error.message }, 'magic link not issued'),
      );
    },

    /**
     * Part A 4.4 `POST /auth/magic-link/verify`: spends the link, then checks that the organization still
     * allows magic links (turning the setting off stops issued links, Part A 2.13) and that the account and
     * membership are still active, then signs in with amr `mlink` (tokens, or an MFA challenge: Part A 4.2,
     * a magic link does not bypass an enrolled TOTP factor). Every refusal is the same 401.
     *
     * The spend commits even when a later check refuses: a presented link is used up whatever the outcome, so
     * it cannot come back to life if the setting is turned on again. Only a failure of the sign-in itself
     * rolls the spend back (the link can then be tried again). A concurrent second use waits on the spent row
     * and finds it spent: a link never signs in twice.
     */
    async verify(token: string, context: RequestContext): Promise<MagicLinkSignIn> {
      const outcome = await transactions.system(async (tx) => {
        const now = clock.now();
        // System transaction: the link's organization is unknown until its row is found by the token's hash.
        const link = await store.spendLink(tx, sha256Hex(token), now);
        if (!link) return { refused: INVALID_LINK } as const;
        await transactions.enterTenant(tx, link.tenantId);
        const subject = await signInSubject(tx, { tenantId: link.tenantId, userId: link.userId });
        if (!mayUseAccount(subject) || !(await settings.enabled(tx, link.tenantId, SETTING))) {
          return { refused: INVALID_LINK } as const;
        }
        // Checked only once the link proved the mailbox, like the password sign-in's SSO check.
        if (ssoBlocks(subject)) return { refused: SSO_REQUIRED } as const;
        // `user.logged_in` is emitted by `signIn` when it starts the session (with amr `mlink`, or `mlink` and
        // `mfa` once an MFA challenge completes), so it is not emitted here a second time.
        const result = await deps.signIn.finishSignIn(tx, {
          tenantId: subject.tenantId,
          userId: subject.userId,
          population: subject.population as Population,
          epoch: subject.tokenEpoch,
          // RFC 8176 has no value for an emailed link; `mlink` is this service's (Part A 4.4).
          amr: ['mlink'],
          userAgent: context.userAgent,
          dpopJkt: context.dpopJkt,
          sourceIp: context.ip,
        });
        return { result, organization: { name: subject.tenantName, slug: subject.tenantSlug } };
      });
      if ('refused' in outcome) {
        throw outcome.refused === SSO_REQUIRED ? forbidden(SSO_REQUIRED) : unauthorized(INVALID_LINK);
      }
      return outcome;
    },
  };
}

export type MagicLinkService = ReturnType<typeof createMagicLinkService>;
