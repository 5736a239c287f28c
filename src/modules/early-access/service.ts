import type { Config } from '../../config.js';
import type { AfterAnswer } from '../../kernel/after-answer.js';
import { addMs, type Clock, days } from '../../kernel/clock.js';
import { randomSecret, sha256Hex } from '../../kernel/crypto/index.js';
import type { Transactions } from '../../kernel/db/index.js';
import type { Events } from '../../kernel/events/index.js';
import { badRequest, unprocessable } from '../../kernel/http/index.js';
import { newId } from '../../kernel/ids.js';
import { type Limiter, type LimitPolicy, throttled } from '../../kernel/limits/index.js';
import type { Mailer } from '../../kernel/mail/index.js';
import type { Dns } from '../../kernel/net/index.js';
import { assertMailableEmail } from './domains.js';
import * as store from './store.js';

/** Part A 4.12 and 8: per-IP and global budgets; past either, 429 with the rate headers. */
export const EARLY_ACCESS_PER_IP: LimitPolicy = { name: 'early-access-ip', points: 5, durationSeconds: 3600 };
export const EARLY_ACCESS_GLOBAL: LimitPolicy = { name: 'early-access-global', points: 500, durationSeconds: 3600 };
/** A confirmation link works for a week after the (latest) submission. */
export const CONFIRMATION_LIFETIME_MS = days(7);

export interface EarlyAccessInput {
  email: string;
  full_name: string;
  role: string;
  organization: string;
  app_name?: string | undefined;
  app_url?: string | undefined;
  app_description?: string | undefined;
  stage: string;
  platforms: string[];
  integrations: string[];
  test_goals: string;
  expected_users: string;
  expected_agents: string;
  timeline: string;
  consent: boolean;
  acknowledgement: boolean;
  consent_text_version: string;
  acknowledgement_text_version: string;
  intended_use?: string | undefined;
  source?: string | undefined;
}

export function createEarlyAccessService(deps: {
  config: Config;
  transactions: Transactions;
  events: Events;
  limiter: Limiter;
  mailer: Mailer;
  dns: Dns;
  clock: Clock;
  logger: { warn(obj: object, msg: string): void };
  afterAnswer: AfterAnswer;
}) {
  const { config, transactions, events, limiter, mailer, dns, clock, logger } = deps;

  return {
    /**
     * Part A 4.12 `POST /early-access`: 202 alike for new and repeat addresses; 422 and nothing stored without
     * both consent flags; 400 for a disposable domain or one without a mail exchanger; 429 past the budgets.
     */
    async request(input: EarlyAccessInput, ip: string): Promise<void> {
      if (input.consent !== true) throw unprocessable('consent: must be true');
      if (input.acknowledgement !== true) throw unprocessable('acknowledgement: must be true');
      const byIp = await limiter.consume(EARLY_ACCESS_PER_IP, ip);
      if (!byIp.allowed) throw throttled(byIp);
      const global = await limiter.consume(EARLY_ACCESS_GLOBAL, 'all');
      if (!global.allowed) throw throttled(global);
      const email = input.email.trim();
      await assertMailableEmail(dns, email);

      const token = randomSecret();
      const now = clock.now();
      const saved = await transactions.system(async (tx) => {
        const row = await store.upsertRequest(tx, {
          id: newId(),
          email,
          emailKey: email.toLowerCase(),
          fullName: input.full_name,
          role: input.role,
          organization: input.organization,
          appName: input.app_name ?? null,
          appUrl: input.app_url ?? null,
          appDescription: input.app_description ?? null,
          stage: input.stage,
          platforms: input.platforms,
          integrations: input.integrations,
          testGoals: input.test_goals,
          expectedUsers: input.expected_users,
          expectedAgents: input.expected_agents,
          timeline: input.timeline,
          consent: true,
          acknowledgement: true,
          consentTextVersion: input.consent_text_version,
          acknowledgementTextVersion: input.acknowledgement_text_version,
          intendedUse: input.intended_use ?? null,
          source: input.source ?? null,
          confirmTokenHash: sha256Hex(token),
          createdAt: now,
          updatedAt: now,
        });
        // No address in the event: the audit log is never purged (the request row holds it, and can be erased).
        await events.emit(tx, {
          tenantId: null,
          actor: { id: 'anonymous', type: 'system' },
          category: 'admin',
          action: 'early_access.requested',
          data: { request_id: row.id, submissions: row.submissions },
        });
        return row;
      });
      const text = saved.confirmedAt
        ? [
            'Thanks: your request for early access is up to date. Your address is already confirmed;',
            'we will write to you when your place opens.',
          ].join('\n')
        : [
            'Thanks for asking for early access. Confirm your email address to keep your place on the list',
            '(the link works for 7 days):',
            '',
            `${config.baseUrl}/early-access/confirm?token=${token}`,
            '',
            'If you did not ask for this, ignore this message and nothing more will be sent.',
          ].join('\n');
      // After the answer: delivery time must not tell a repeat address from a new one.
      deps.afterAnswer.run(
        () => mailer.send({ to: email, subject: 'Your early-access request', text }),
        (error) => logger.warn({ err: error.message }, 'early-access mail not delivered'),
      );
    },

    /** Confirms the address with the mailed link (double opt-in); 400 when invalid, used or expired. */
    async confirm(token: string): Promise<void> {
      const confirmed = await transactions.system(async (tx) => {
        const now = clock.now();
        const row = await store.confirm(tx, sha256Hex(token), now, addMs(now, -CONFIRMATION_LIFETIME_MS));
        if (!row) return false;
        await events.emit(tx, {
          tenantId: null,
          actor: { id: 'anonymous', type: 'system' },
          category: 'admin',
          action: 'early_access.confirmed',
          data: { request_id: row.id },
        });
        return true;
      });
      if (!confirmed) throw badRequest('Invalid or expired confirmation token');
    },
  };
}

export type EarlyAccessService = ReturnType<typeof createEarlyAccessService>;
