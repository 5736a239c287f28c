import { describe, expect, it } from 'vitest';
import { cspViolations, fetchForm, openPerson, postForm, submitForm } from '../support/browser.js';
import { newAccount, request } from '../support/http.js';
import { extractLink } from '../support/smtp.js';
import { mailedPagesUnderTest } from './web-support.js';

const { svc, smtp, browser, api } = mailedPagesUnderTest();

/** A new account signed up over the API, and the link of its verification mail. */
async function signUp() {
  const account = newAccount('web');
  const res = await request(api('/auth/signup'), { json: account });
  expect(res.status).toBe(201);
  const mail = await smtp().waitFor((m) => m.to.includes(account.email) && /confirm your email/i.test(m.subject));
  return { account, token: res.body.access_token as string, link: extractLink(mail.text) };
}

/** The same secret with its last character changed. */
const oneCharOff = (secret: string) => `${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`;

const emailVerified = async (token: string) => (await request(api('/me'), { token })).body.email_verified;

describe('verify-email page', () => {
  it('the mailed link opens a page; the click confirms the address, visible in /me', async () => {
    const { token, link } = await signUp();
    expect(link.startsWith(`${svc().url}/verify-email?token=`)).toBe(true);
    const { context, page } = await openPerson(browser());
    const violations = cspViolations(page);
    const opened = await page.goto(link);
    expect(opened?.status()).toBe(200);
    expect(await page.textContent('h1')).toBe('Confirm your email address');
    expect(await emailVerified(token)).toBe(false);
    expect(await submitForm(page)).toBe(200);
    expect(await page.textContent('h1')).toBe('Email address confirmed');
    expect(await emailVerified(token)).toBe(true);
    expect(violations).toEqual([]);

    // The same link again: a clear error page, status 400.
    await page.goto(link);
    expect(await submitForm(page)).toBe(400);
    expect(await page.textContent('h1')).toBe('This link does not work');
    expect(await page.textContent('.error')).toMatch(/invalid or expired/i);
    await context.close();
  });

  it('GET never spends the token (mail scanners prefetch links)', async () => {
    const { token, link } = await signUp();
    for (let i = 0; i < 3; i++) expect((await fetchForm(link)).status).toBe(200);
    expect(await emailVerified(token)).toBe(false);
    const { context, page } = await openPerson(browser());
    await page.goto(link);
    expect(await submitForm(page)).toBe(200);
    expect(await emailVerified(token)).toBe(true);
    await context.close();
  });

  it('a bogus link shows the error page; a link without a token says it is incomplete', async () => {
    const { context, page } = await openPerson(browser());
    await page.goto(`${svc().url}/verify-email?token=not-a-real-token`);
    expect(await submitForm(page)).toBe(400);
    expect(await page.textContent('.error')).toMatch(/invalid or expired/i);
    const bare = await page.goto(`${svc().url}/verify-email`);
    expect(bare?.status()).toBe(400);
    expect(await page.textContent('.error')).toMatch(/incomplete/i);
    await context.close();
  });

  it('a post without the CSRF field, or with a wrong one, is 403 and changes nothing', async () => {
    const { token, link } = await signUp();
    const linkToken = new URL(link).searchParams.get('token')!;
    const form = await fetchForm(link);
    expect(form.cookie).toMatch(/^svc_csrf=/);
    expect(form.csrf).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const target = `${svc().url}/verify-email`;
    const attempts = [
      await postForm(target, { token: linkToken }, form.cookie),
      await postForm(target, { token: linkToken, csrf_token: oneCharOff(form.csrf) }, form.cookie),
      await postForm(target, { token: linkToken, csrf_token: form.csrf }),
      await postForm(target, { token: linkToken, csrf_token: 'x'.repeat(43) }, `svc_csrf=${'y'.repeat(43)}`),
    ];
    for (const attempt of attempts) {
      expect(attempt.status).toBe(403);
      expect(attempt.headers.get('content-type')).toMatch(/^text\/html/);
      expect(attempt.html).toMatch(/Nothing was changed/);
    }
    expect(await emailVerified(token)).toBe(false);
    // The untouched link still works with a matching pair.
    const ok = await postForm(target, { token: linkToken, csrf_token: form.csrf }, form.cookie);
    expect(ok.status).toBe(200);
    expect(await emailVerified(token)).toBe(true);
  });

  it('pages send a strict CSP, refuse framing, are not cached, and escape what they echo', async () => {
    const page = await fetchForm(
      `${svc().url}/verify-email?token=${encodeURIComponent('"><script>alert(1)</script>')}`,
    );
    expect(page.status).toBe(200);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("form-action 'self'");
    expect(csp).toMatch(/style-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(csp).not.toMatch(/unsafe-inline|script-src/);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('set-cookie')).toMatch(/HttpOnly/i);
    expect(page.headers.get('set-cookie')).toMatch(/SameSite=Strict/i);
    expect(page.html).not.toContain('<script>');
    expect(page.html).toContain('&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('pages are not part of the API document', async () => {
    const doc = await request(api('/openapi.json'));
    expect(doc.status).toBe(200);
    expect(Object.keys(doc.body.paths)).toContain('/api/v1/auth/verify-email');
    for (const page of ['/verify-email', '/reset-password', '/invite', '/early-access/confirm']) {
      expect(Object.keys(doc.body.paths)).not.toContain(page);
    }
  });
});

describe('reset-password page', () => {
  async function resetLink(email: string) {
    expect((await request(api('/auth/forgot-password'), { json: { email } })).status).toBe(202);
    const mail = await smtp().waitFor((m) => m.to.includes(email) && /reset your password/i.test(m.subject));
    return extractLink(mail.text);
  }
  const logIn = (email: string, password: string, slug: string) =>
    request(api('/auth/login'), { json: { email, password, tenant_slug: slug } });

  it('weak or mismatched passwords show the form again; a good one works, old tokens die', async () => {
    const { account, token } = await signUp();
    const slug = account.organization_name.toLowerCase().replace(/ /g, '-');
    const link = await resetLink(account.email);
    expect(link.startsWith(`${svc().url}/reset-password?token=`)).toBe(true);
    const { context, page } = await openPerson(browser());
    const violations = cspViolations(page);
    await page.goto(link);
    expect(await page.textContent('h1')).toBe('Choose a new password');

    await page.fill('#new_password', 'short');
    await page.fill('#confirm_password', 'short');
    expect(await submitForm(page)).toBe(400);
    expect(await page.textContent('.error')).toMatch(/at least 12 characters/);

    await page.fill('#new_password', '!qaz2wsx#edc');
    await page.fill('#confirm_password', '!qaz2wsx#edc');
    expect(await submitForm(page)).toBe(400);
    expect(await page.textContent('.error')).toMatch(/too common/);

    const fresh = `a brand new passphrase ${Math.random().toString(36).slice(2)}`;
    await page.fill('#new_password', fresh);
    await page.fill('#confirm_password', `${fresh}x`);
    expect(await submitForm(page)).toBe(400);
    expect(await page.textContent('.error')).toMatch(/do not match/);
    // Nothing changed so far.
    expect((await logIn(account.email, account.password, slug)).status).toBe(200);

    await page.fill('#new_password', fresh);
    await page.fill('#confirm_password', fresh);
    expect(await submitForm(page)).toBe(200);
    expect(await page.textContent('h1')).toBe('Password changed');
    expect(violations).toEqual([]);

    expect((await logIn(account.email, fresh, slug)).status).toBe(200);
    expect((await logIn(account.email, account.password, slug)).status).toBe(401);
    expect((await request(api('/me'), { token })).status).toBe(401);

    // The spent link: error page, and the password stays the new one.
    await page.goto(link);
    await page.fill('#new_password', `${fresh} again`);
    await page.fill('#confirm_password', `${fresh} again`);
    expect(await submitForm(page)).toBe(400);
    expect(await page.textContent('h1')).toBe('This link does not work');
    expect((await logIn(account.email, fresh, slug)).status).toBe(200);
    await context.close();
  });

  it('a forged post (no or wrong CSRF field) is 403 and leaves the password alone', async () => {
    const { account } = await signUp();
    const slug = account.organization_name.toLowerCase().replace(/ /g, '-');
    const link = await resetLink(account.email);
    const form = await fetchForm(link);
    const fields = {
      token: new URL(link).searchParams.get('token')!,
      new_password: 'an attacker chosen passphrase',
      confirm_password: 'an attacker chosen passphrase',
    };
    expect((await postForm(`${svc().url}/reset-password`, fields, form.cookie)).status).toBe(403);
    expect(
      (await postForm(`${svc().url}/reset-password`, { ...fields, csrf_token: 'wrong' }, form.cookie)).status,
    ).toBe(403);
    expect((await logIn(account.email, account.password, slug)).status).toBe(200);
    expect((await logIn(account.email, fields.new_password, slug)).status).toBe(401);
  });
});
