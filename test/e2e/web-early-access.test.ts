import { sql } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/kernel/db/index.js';
import { cspViolations, fetchForm, launchBrowser, openPerson, postForm, submitForm } from '../support/browser.js';
import { RecordType, startDnsServer } from '../support/dns.js';
import { request } from '../support/http.js';
import { startService, type TestService } from '../support/service.js';
import { extractLink, startSmtpServer, type TestSmtpServer } from '../support/smtp.js';

let svc: TestService;
let smtp: TestSmtpServer;
let dns: Awaited<ReturnType<typeof startDnsServer>>;
let browser: Browser;
beforeAll(async () => {
  smtp = await startSmtpServer();
  dns = await startDnsServer({ 'acme.test': [{ type: RecordType.MX, priority: 10, exchange: 'mx.acme.test' }] });
  [svc, browser] = await Promise.all([
    startService({ SMTP_URL: smtp.url, DNS_SERVERS: `127.0.0.1:${dns.port}` }, { baseUrlIsListenAddress: true }),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await svc?.close();
  await smtp?.close();
  await dns?.close();
});

const api = (path: string) => `${svc.url}/api/v1${path}`;
let counter = 0;

/** A waitlist request over the API; answers its address and the confirmation link of its mail. */
async function requestAccess() {
  counter += 1;
  const email = `waiting${counter}-${Math.random().toString(36).slice(2, 8)}@acme.test`;
  const res = await request(api('/early-access'), {
    json: {
      email,
      full_name: 'Grace Hopper',
      role: 'Engineering lead',
      organization: 'Acme',
      stage: 'building',
      platforms: ['web'],
      integrations: ['customer_oidc'],
      test_goals: 'Try customer sign-in',
      expected_users: '1k_10k',
      expected_agents: '1_5',
      timeline: 'next_quarter',
      consent: true,
      acknowledgement: true,
      consent_text_version: '2026-01',
      acknowledgement_text_version: '2026-01',
    },
  });
  expect(res.status).toBe(202);
  const mail = await smtp.waitFor(email);
  return { email, link: extractLink(mail.text) };
}

const confirmedAt = async (email: string) =>
  (
    await rows<{ confirmed_at: string | null }>(
      svc.deps.database.db,
      sql`select confirmed_at from early_access_requests where email_key = ${email.toLowerCase()}`,
    )
  )[0]!.confirmed_at;

describe('early-access confirmation page', () => {
  it('the mailed link opens a page; the click confirms; the link is then spent', async () => {
    const { email, link } = await requestAccess();
    expect(link.startsWith(`${svc.url}/early-access/confirm?token=`)).toBe(true);
    // A mail scanner's prefetch spends nothing.
    expect((await fetchForm(link)).status).toBe(200);
    expect(await confirmedAt(email)).toBeNull();

    const { context, page } = await openPerson(browser);
    const violations = cspViolations(page);
    const opened = await page.goto(link);
    expect(opened?.status()).toBe(200);
    expect(opened?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(await page.textContent('h1')).toBe('Confirm your early-access request');
    expect(await submitForm(page)).toBe(200);
    expect(await page.textContent('h1')).toBe('Request confirmed');
    expect(await confirmedAt(email)).not.toBeNull();
    expect(violations).toEqual([]);
    // The API sees the link spent.
    const again = await request(api('/early-access/confirm'), {
      json: { token: new URL(link).searchParams.get('token') },
    });
    expect(again.status).toBe(400);

    await page.goto(link);
    expect(await submitForm(page)).toBe(400);
    expect(await page.textContent('h1')).toBe('This link does not work');
    expect(await page.textContent('.error')).toMatch(/invalid or expired/i);
    await context.close();
  });

  it('a bogus link shows the error page', async () => {
    const { context, page } = await openPerson(browser);
    await page.goto(`${svc.url}/early-access/confirm?token=${'z'.repeat(43)}`);
    expect(await submitForm(page)).toBe(400);
    expect(await page.textContent('.error')).toMatch(/invalid or expired/i);
    await context.close();
  });

  it('a post without the CSRF field or with a wrong one is 403 and confirms nothing', async () => {
    const { email, link } = await requestAccess();
    const form = await fetchForm(link);
    const token = new URL(link).searchParams.get('token')!;
    const target = `${svc.url}/early-access/confirm`;
    expect((await postForm(target, { token }, form.cookie)).status).toBe(403);
    expect((await postForm(target, { token, csrf_token: 'x'.repeat(43) }, form.cookie)).status).toBe(403);
    expect((await postForm(target, { token, csrf_token: form.csrf })).status).toBe(403);
    expect(await confirmedAt(email)).toBeNull();
  });
});
