import { describe, expect, it } from 'vitest';
import { cspViolations, fetchForm, openPerson, postForm, submitForm } from '../support/browser.js';
import { newAccount, request } from '../support/http.js';
import { invitationSteps, signUpOwner } from '../support/organizations.js';
import { extractLink } from '../support/smtp.js';
import { mailedPagesUnderTest } from './web-support.js';

const { svc, smtp, browser, api } = mailedPagesUnderTest();
const DAY = 86_400_000;
const { invite, preview, invitationMail } = invitationSteps(svc, smtp);

/** An invitation mailed by `owner` to `email`: the link as the mail carries it. */
async function invitationLink(ownerToken: string, email: string, role = 'auditor') {
  expect((await invite(ownerToken, { email, role })).status).toBe(201);
  return extractLink((await invitationMail(email)).text);
}
const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;
const logIn = (email: string, password: string, slug: string) =>
  request(api('/auth/login'), { json: { email, password, tenant_slug: slug } });

describe('invite page', () => {
  it('shows the organization and role; a new person chooses a password and joins', async () => {
    const owner = await signUpOwner(svc().url);
    const person = newAccount('invitee');
    const link = await invitationLink(owner.token, person.email);
    expect(link.startsWith(`${svc().url}/invite?token=`)).toBe(true);

    const { context, page } = await openPerson(browser());
    const violations = cspViolations(page);
    expect((await page.goto(link))?.status()).toBe(200);
    expect(await page.textContent('h1')).toBe(`Join ${owner.account.organization_name}`);
    const text = await page.textContent('main');
    expect(text).toContain('as auditor');
    expect(text).toContain(person.email);
    expect(text).toMatch(/Already have an account/);
    expect(text).toContain('accept-existing');

    // A weak password: the form again with the policy's reason, and the invitation still usable.
    await page.fill('#password', 'short');
    await page.fill('#confirm_password', 'short');
    expect(await submitForm(page)).toBe(400);
    expect(await page.textContent('.error')).toMatch(/at least 12 characters/);
    expect(await page.textContent('h1')).toBe(`Join ${owner.account.organization_name}`);
    expect((await preview(tokenOf(link))).status).toBe(200);

    await page.fill('#password', person.password);
    await page.fill('#confirm_password', person.password);
    expect(await submitForm(page)).toBe(200);
    expect(await page.textContent('h1')).toBe(`Welcome to ${owner.account.organization_name}`);
    expect(await page.textContent('main')).toContain(owner.slug);
    expect(violations).toEqual([]);
    // The new session's refresh token went to the API's httpOnly cookie, not into the page.
    const cookies = await context.cookies(`${svc().url}/api/v1/auth/refresh`);
    expect(cookies.find((c) => c.name === 'svc_refresh')).toMatchObject({ httpOnly: true, path: '/api/v1/auth' });

    const login = await logIn(person.email, person.password, owner.slug);
    expect(login.status).toBe(200);
    const me = await request(api('/me'), { token: login.body.access_token });
    expect(me.body).toMatchObject({ tenant_id: owner.tenantId, role: 'auditor', email_verified: true });
    const members = await request(api('/members'), { token: owner.token });
    expect(members.status).toBe(200);
    expect(JSON.stringify(members.body)).toContain(me.body.user_id);

    // The spent link: a clear page, status 404, nothing offered.
    expect((await page.goto(link))?.status()).toBe(404);
    expect(await page.textContent('h1')).toBe('This invitation cannot be used');
    expect(await page.$('form')).toBeNull();
    await context.close();
  });

  it('someone who already has an account is told how to accept signed in; nothing is created', async () => {
    const owner = await signUpOwner(svc().url);
    const existing = newAccount('existing');
    expect((await request(api('/auth/signup'), { json: existing })).status).toBe(201);
    const link = await invitationLink(owner.token, existing.email);
    const { context, page } = await openPerson(browser());
    await page.goto(link);
    await page.fill('#password', 'a different passphrase entirely');
    await page.fill('#confirm_password', 'a different passphrase entirely');
    expect(await submitForm(page)).toBe(409);
    expect(await page.textContent('.error')).toMatch(/already exists/);
    expect(await page.textContent('main')).toMatch(/sign in with\s+your current password/);
    // The invitation stays pending for accept-existing; the account's password is unchanged.
    expect((await preview(tokenOf(link))).status).toBe(200);
    expect((await logIn(existing.email, 'a different passphrase entirely', owner.slug)).status).toBe(401);
    await context.close();
  });

  it('a bogus link and a forged post: clear pages, nothing created', async () => {
    const { context, page } = await openPerson(browser());
    expect((await page.goto(`${svc().url}/invite?token=bogus`))?.status()).toBe(404);
    expect(await page.textContent('.error')).toMatch(/accepted already, revoked, or replaced/);
    expect((await page.goto(`${svc().url}/invite`))?.status()).toBe(400);
    await context.close();

    const owner = await signUpOwner(svc().url);
    const person = newAccount('forged');
    const link = await invitationLink(owner.token, person.email);
    const form = await fetchForm(link);
    const fields = { token: tokenOf(link), password: person.password, confirm_password: person.password };
    expect((await postForm(`${svc().url}/invite`, fields, form.cookie)).status).toBe(403);
    expect((await postForm(`${svc().url}/invite`, { ...fields, csrf_token: 'x'.repeat(43) }, form.cookie)).status).toBe(
      403,
    );
    expect((await preview(tokenOf(link))).status).toBe(200);
    expect((await logIn(person.email, person.password, owner.slug)).status).toBe(401);
  });

  it('escapes the organization name it shows', async () => {
    const account = { ...newAccount('escape'), organization_name: `Acme <b>&</b> "Quotes" ${Date.now()}` };
    const signup = await request(api('/auth/signup'), { json: account });
    expect(signup.status).toBe(201);
    const person = newAccount('escaped');
    const link = await invitationLink(signup.body.access_token, person.email, 'member');
    const form = await fetchForm(link);
    expect(form.status).toBe(200);
    expect(form.html).not.toContain('<b>');
    expect(form.html).toContain('Acme &lt;b&gt;&amp;&lt;/b&gt; &quot;Quotes&quot;');
    const { context, page } = await openPerson(browser());
    await page.goto(link);
    expect(await page.textContent('h1')).toBe(`Join ${account.organization_name}`);
    await context.close();
  });

  // Last: it moves the clock past the access tokens' lifetime.
  it('an expired invitation shows 410 and asks for a new one', async () => {
    const owner = await signUpOwner(svc().url);
    const person = newAccount('late');
    const link = await invitationLink(owner.token, person.email);
    svc().clock.advance(8 * DAY);
    const { context, page } = await openPerson(browser());
    expect((await page.goto(link))?.status()).toBe(410);
    expect(await page.textContent('.error')).toMatch(/expired; ask for a new one/);
    expect(await page.$('form')).toBeNull();
    await context.close();
  });
});
