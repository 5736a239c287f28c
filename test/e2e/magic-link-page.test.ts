import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cspViolations, fetchForm, launchBrowser, openPerson, postForm, submitForm } from '../support/browser.js';
import { request } from '../support/http.js';
import { startService, type TestService } from '../support/service.js';
import { extractLink, startSmtpServer, type TestSmtpServer } from '../support/smtp.js';
import { accountsHarness, freshIp } from './accounts-support.js';

let svc: TestService;
let smtp: TestSmtpServer;
let unprovisioned: TestService;
let browser: Browser;
beforeAll(async () => {
  smtp = await startSmtpServer();
  // One after the other: the two services share this worker's embedded database.
  [svc, browser] = await Promise.all([
    startService(
      { SMTP_URL: smtp.url, TRUST_PROXY: '1', MFA_ENCRYPTION_KEY: randomBytes(32).toString('hex') },
      { baseUrlIsListenAddress: true },
    ),
    launchBrowser(),
  ]);
  unprovisioned = await startService({ TRUST_PROXY: '1' });
});
afterAll(async () => {
  await browser?.close();
  await svc?.close();
  await unprovisioned?.close();
  await smtp?.close();
});

const { api, signUp, me } = accountsHarness(() => svc);

/** A new organization's owner and the sign-in link mailed to them; `owner` when already signed up. */
async function ownerWithLink(existing?: Awaited<ReturnType<typeof signUp>>) {
  const owner = existing ?? (await signUp());
  const asked = await request(api('/auth/magic-link'), {
    json: { email: owner.account.email, tenant_slug: owner.slug },
    headers: { 'x-forwarded-for': freshIp() },
  });
  expect(asked.status).toBe(202);
  const mail = await smtp.waitFor((m) => m.to.includes(owner.account.email) && /sign-in link/i.test(m.subject));
  const link = extractLink(mail.text);
  return { ...owner, link, token: new URL(link).searchParams.get('token')! };
}

/** The code an authenticator app shows for `secret` at the service's (test-moved) time. */
const totp = (secret: string) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: svc.clock.now().getTime() });

/** A new owner with TOTP enabled, the clock moved to the next step (a code is accepted once). */
async function enrolledOwner() {
  const owner = await signUp();
  const setup = await request(api('/mfa/setup'), { token: owner.tokens.access_token, json: {} });
  expect(setup.status, setup.text).toBe(200);
  const secret = setup.body.secret as string;
  const enabled = await request(api('/mfa/setup/verify'), {
    token: owner.tokens.access_token,
    json: { code: totp(secret) },
  });
  expect(enabled.status, enabled.text).toBe(200);
  svc.clock.advance(30_000);
  return { owner, secret };
}

const target = () => `${svc.url}/magic-link`;

/** The refresh cookie a response set, if any. */
const refreshCookieOf = (headers: Headers) =>
  headers
    .getSetCookie()
    .find((c) => c.startsWith('svc_refresh='))
    ?.split(';')[0]
    ?.slice('svc_refresh='.length);

const cookieRefresh = (value: string) =>
  request(api('/auth/refresh'), { method: 'POST', headers: { cookie: `svc_refresh=${value}` } });

describe('magic-link page', () => {
  it('in a browser: the mailed link opens a "Sign in" page; the click signs in and names the organization', async () => {
    const owner = await ownerWithLink();
    expect(owner.link.startsWith(`${svc.url}/magic-link?token=`)).toBe(true);
    const { context, page } = await openPerson(browser);
    const violations = cspViolations(page);
    const opened = await page.goto(owner.link);
    expect(opened?.status()).toBe(200);
    expect(await page.textContent('h1')).toBe('Sign in');
    expect(await page.textContent('button[type=submit]')).toBe('Sign in');
    expect(await submitForm(page)).toBe(200);
    expect(await page.textContent('h1')).toBe('You are signed in');
    expect(await page.textContent('main')).toContain(`You are signed in to ${owner.account.organization_name}.`);
    expect(violations).toEqual([]);

    // The same link again: an error page with the API's status and message.
    await page.goto(owner.link);
    expect(await submitForm(page)).toBe(401);
    expect(await page.textContent('h1')).toBe('This link does not work');
    expect(await page.textContent('.error')).toBe('Invalid or expired link');
    await context.close();
  });

  it('GET never spends the link (mail scanners prefetch); the POST signs in and sets the refresh cookie', async () => {
    const owner = await ownerWithLink();
    let form = await fetchForm(owner.link);
    for (let i = 0; i < 3; i++) {
      form = await fetchForm(owner.link);
      expect(form.status).toBe(200);
      expect(form.html).toContain('Sign in');
    }
    expect(form.headers.get('cache-control')).toBe('no-store');
    expect(form.headers.get('referrer-policy')).toBe('no-referrer');
    expect(form.headers.get('x-frame-options')).toBe('DENY');
    expect(form.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(refreshCookieOf(form.headers)).toBeUndefined();

    const done = await postForm(target(), { token: owner.token, csrf_token: form.csrf }, form.cookie);
    expect(done.status).toBe(200);
    expect(done.html).toContain(`You are signed in to ${owner.account.organization_name}.`);
    // The refresh token is in the API's cookie, never in the page.
    const cookie = done.headers.getSetCookie().find((c) => c.startsWith('svc_refresh='))!;
    expect(cookie.toLowerCase()).toMatch(/httponly/);
    expect(cookie.toLowerCase()).toMatch(/path=\/api\/v1\/auth/);
    const value = refreshCookieOf(done.headers)!;
    expect(done.html).not.toContain(value);
    const refreshed = await cookieRefresh(value);
    expect(refreshed.status).toBe(200);
    const who = await me(refreshed.body.access_token);
    expect(who.body).toMatchObject({ user_id: owner.userId, tenant_id: owner.tenantId });

    // Spent: the API refuses it now too.
    const again = await request(api('/auth/magic-link/verify'), { json: { token: owner.token } });
    expect(again.status).toBe(401);
  });

  it('a post without the CSRF field, or with a wrong one, is 403 and leaves the link usable', async () => {
    const owner = await ownerWithLink();
    const form = await fetchForm(owner.link);
    expect(form.cookie).toMatch(/^svc_csrf=/);
    const wrong = `${form.csrf.slice(0, -1)}${form.csrf.endsWith('A') ? 'B' : 'A'}`;
    const attempts = [
      await postForm(target(), { token: owner.token }, form.cookie),
      await postForm(target(), { token: owner.token, csrf_token: wrong }, form.cookie),
      await postForm(target(), { token: owner.token, csrf_token: form.csrf }),
    ];
    for (const attempt of attempts) {
      expect(attempt.status).toBe(403);
      expect(attempt.html).toMatch(/Nothing was changed/);
      expect(refreshCookieOf(attempt.headers)).toBeUndefined();
    }
    const ok = await postForm(target(), { token: owner.token, csrf_token: form.csrf }, form.cookie);
    expect(ok.status).toBe(200);
  });

  it('a bogus link is a 401 page; a link without its token says it is incomplete; the page escapes what it echoes', async () => {
    const form = await fetchForm(`${target()}?token=${encodeURIComponent('"><script>alert(1)</script>')}`);
    expect(form.status).toBe(200);
    expect(form.html).not.toContain('<script>');
    expect(form.html).toContain('&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    const bogus = await postForm(target(), { token: 'not-a-real-token', csrf_token: form.csrf }, form.cookie);
    expect(bogus.status).toBe(401);
    expect(bogus.html).toContain('Invalid or expired link');

    const bare = await fetchForm(target());
    expect(bare.status).toBe(400);
    expect(bare.html).toMatch(/incomplete/);
    const noToken = await postForm(target(), { csrf_token: form.csrf }, form.cookie);
    expect(noToken.status).toBe(400);
    expect(noToken.html).toMatch(/incomplete/);
  });

  it('the code step (POST /magic-link/mfa) checks CSRF first and asks again for a missing code', async () => {
    const form = await fetchForm(`${target()}?token=anything`);
    const forged = await postForm(`${target()}/mfa`, { mfa_token: 'x', code: '123456' }, form.cookie);
    expect(forged.status).toBe(403);
    const incomplete = await postForm(`${target()}/mfa`, { csrf_token: form.csrf, code: '123456' }, form.cookie);
    expect(incomplete.status).toBe(400);
    expect(incomplete.html).toMatch(/incomplete/);
    const noCode = await postForm(
      `${target()}/mfa`,
      { csrf_token: form.csrf, mfa_token: 'challenge-token', organization: 'Org <b>x</b>' },
      form.cookie,
    );
    expect(noCode.status).toBe(400);
    expect(noCode.html).toContain('Enter the code.');
    expect(noCode.html).toContain('name="code"');
    expect(noCode.html).toContain('value="challenge-token"');
    expect(noCode.html).toContain('Org &lt;b&gt;x&lt;/b&gt;');
  });

  it('in a browser, with TOTP enrolled: the click asks for the code; a wrong one asks again; the right one signs in', async () => {
    const { owner, secret } = await enrolledOwner();
    const { link } = await ownerWithLink(owner);
    const { context, page } = await openPerson(browser);
    const violations = cspViolations(page);
    await page.goto(link);
    expect(await submitForm(page)).toBe(200);
    expect(await page.textContent('h1')).toBe('Enter your authentication code');
    const right = totp(secret);
    await page.fill('input[name=code]', right === '000000' ? '111111' : '000000');
    expect(await submitForm(page)).toBe(400);
    expect(await page.textContent('.error')).toBe('Invalid code');
    await page.fill('input[name=code]', right);
    expect(await submitForm(page)).toBe(200);
    expect(await page.textContent('h1')).toBe('You are signed in');
    expect(await page.textContent('main')).toContain(`You are signed in to ${owner.account.organization_name}.`);
    const cookies = await context.cookies(`${svc.url}/api/v1/auth/refresh`);
    expect(cookies.find((c) => c.name === 'svc_refresh')?.httpOnly).toBe(true);
    expect(violations).toEqual([]);
    await context.close();
  });

  it('the code step: the right code sets the refresh cookie; a used or unknown challenge is a 401 page', async () => {
    const { owner, secret } = await enrolledOwner();
    const { link, token } = await ownerWithLink(owner);
    const form = await fetchForm(link);
    const challenge = await postForm(target(), { token, csrf_token: form.csrf }, form.cookie);
    expect(challenge.status).toBe(200);
    expect(refreshCookieOf(challenge.headers)).toBeUndefined();
    const mfaToken = /name="mfa_token" value="([^"]+)"/.exec(challenge.html)?.[1];
    expect(mfaToken).toBeDefined();
    const fields = { csrf_token: form.csrf, mfa_token: mfaToken!, organization: owner.account.organization_name };

    const done = await postForm(`${target()}/mfa`, { ...fields, code: totp(secret) }, form.cookie);
    expect(done.status).toBe(200);
    const value = refreshCookieOf(done.headers)!;
    expect(value).toBeDefined();
    const refreshed = await cookieRefresh(value);
    expect(refreshed.status).toBe(200);
    expect((await me(refreshed.body.access_token)).body).toMatchObject({ user_id: owner.userId });

    svc.clock.advance(30_000);
    const replayed = await postForm(`${target()}/mfa`, { ...fields, code: totp(secret) }, form.cookie);
    expect(replayed.status).toBe(401);
    expect(replayed.html).toContain('Invalid or expired MFA challenge');
    expect(refreshCookieOf(replayed.headers)).toBeUndefined();
    const unknown = await postForm(`${target()}/mfa`, { ...fields, mfa_token: 'nope', code: '123456' }, form.cookie);
    expect(unknown.status).toBe(401);
  });

  it('the code step answers a 503 page with the reason when MFA is not provisioned', async () => {
    const form = await fetchForm(`${unprovisioned.url}/magic-link?token=anything`);
    const res = await postForm(
      `${unprovisioned.url}/magic-link/mfa`,
      { csrf_token: form.csrf, mfa_token: 'challenge-token', code: '123456' },
      form.cookie,
    );
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.html).toContain('MFA is unavailable');
  });

  it('is not part of the API document', async () => {
    const doc = await request(api('/openapi.json'));
    expect(Object.keys(doc.body.paths)).toContain('/api/v1/auth/magic-link/verify');
    expect(Object.keys(doc.body.paths)).not.toContain('/magic-link');
    expect(Object.keys(doc.body.paths)).not.toContain('/magic-link/mfa');
  });
});
