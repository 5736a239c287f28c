import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { rows } from '../../src/kernel/db/index.js';
import { newAccount, request } from '../support/http.js';
import type { TestService } from '../support/service.js';
import type { TestSmtpServer } from '../support/smtp.js';

/** Shared helpers of the accounts e2e files (not a test file itself). */
export interface Pair {
  access_token: string;
  refresh_token: string | null;
  token_type: string;
  expires_in: number;
  /** Present on error answers. */
  detail?: string;
}

let ipCounter = 0;
/** A fresh client address (TRUST_PROXY is on in these files), so per-IP budgets never cross tests. */
export const freshIp = () => {
  ipCounter += 1;
  return `198.18.${Math.floor(ipCounter / 250) % 250}.${(ipCounter % 250) + 1}`;
};

export const slugOf = (name: string) => name.toLowerCase().replace(/ /g, '-');

/** The comparable part of an answer: status, body and headers other than per-request ones. */
export function shape(res: { status: number; text: string; headers: Headers }) {
  const headers = Object.fromEntries([...res.headers].filter(([name]) => !['date', 'x-request-id'].includes(name)));
  return { status: res.status, text: res.text, headers };
}

/**
 * An enumeration-safe mailing endpoint (`/auth/forgot-password`, `/auth/resend-verification`) asked for a known
 * and an unknown address past its silent per-address budget: every answer is the same 202 without rate headers,
 * and the known address receives exactly the budget's mails (plus the sign-up's verification mail).
 */
export async function expectSilentMailBudget(
  url: string,
  email: string,
  smtp: TestSmtpServer,
  budget: number,
  svc: TestService,
): Promise<void> {
  const unknownEmail = `nobody-${freshIp()}@example.com`;
  const headers = { 'x-forwarded-for': freshIp() };
  const answers = [];
  for (let i = 0; i < budget + 2; i++) {
    answers.push(await request(url, { json: { email }, headers }));
    answers.push(await request(url, { json: { email: unknownEmail }, headers }));
  }
  for (const res of answers) {
    expect(shape(res)).toEqual(shape(answers[0]!));
    expect([...res.headers.keys()].some((name) => /ratelimit|retry-after/i.test(name))).toBe(false);
  }
  expect(answers[0]!.status).toBe(202);
  // The mails leave after the answers: every one has been sent once the node's work after answers is drained.
  await svc.deps.afterAnswer.drain();
  expect(smtp.messages.filter((mail) => mail.to.includes(email))).toHaveLength(budget + 1);
}

export function accountsHarness(svc: () => TestService) {
  const api = (path: string) => `${svc().url}/api/v1${path}`;

  async function signUp(extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
    const account = newAccount();
    const res = await request<Pair>(api('/auth/signup'), {
      json: { ...account, ...extra },
      headers: { 'x-forwarded-for': freshIp(), ...headers },
    });
    expect(res.status, res.text).toBe(201);
    const who = await request<{ user_id: string; tenant_id: string }>(api('/me'), {
      ...(res.body.token_type === 'DPoP' ? {} : { token: res.body.access_token }),
    });
    return {
      account,
      slug: slugOf(account.organization_name),
      tokens: res.body,
      res,
      userId: who.body?.user_id,
      tenantId: who.body?.tenant_id,
    };
  }

  const logIn = (account: { email: string; password: string }, slug: string, extra: Record<string, unknown> = {}) =>
    request<Pair>(api('/auth/login'), {
      json: { email: account.email, password: account.password, tenant_slug: slug, ...extra },
      headers: { 'x-forwarded-for': freshIp() },
    });

  const me = (token: string) => request(api('/me'), { token });
  const refresh = (token: string) => request<Pair>(api('/auth/refresh'), { json: { refresh_token: token } });

  const db = () => svc().deps.database.db;
  const eventsOf = (tenantId: string, action: string) =>
    rows<{ action: string; data: Record<string, unknown>; actor_type: string; subject_user_id: string }>(
      db(),
      sql`select action, data, actor_type, subject_user_id from events
          where tenant_id = ${tenantId} and action = ${action} order by occurred_at`,
    );
  const outboxOf = (tenantId: string, type: string) =>
    rows<{ payload: { type: string; data: Record<string, unknown> } }>(
      db(),
      sql`select payload from webhook_outbox where tenant_id = ${tenantId} and event_type = ${type}`,
    );

  return { api, signUp, logIn, me, refresh, db, eventsOf, outboxOf };
}
