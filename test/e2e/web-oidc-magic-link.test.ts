import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../support/http.js';
import { FormBrowser, hiddenFields, organizationWithClient } from '../support/oidc-browser.js';
import { startService, type TestService } from '../support/service.js';
import { extractLink, startSmtpServer, type TestSmtpServer } from '../support/smtp.js';

/**
 * A sign-in link asked for on the provider's /login page (issue 6 item 4, the magic links of issue 5): the mail
 * arrives over real SMTP, and opening it in the same browser continues the authorization.
 */
const REDIRECT = 'http://127.0.0.1:9/callback';
let svc: TestService;
let smtp: TestSmtpServer;
beforeAll(async () => {
  smtp = await startSmtpServer();
  svc = await startService({ SMTP_URL: smtp.url }, { baseUrlIsListenAddress: true });
});
afterAll(async () => {
  await svc?.close();
  await smtp?.close();
});

/** The sign-in link mailed to `email` (not the sign-up's verification mail). */
const signInLink = async (email: string) =>
  extractLink(
    (
      await smtp.waitFor(
        (mail) => mail.to.includes(email.toLowerCase()) && mail.subject.startsWith('Your sign-in link'),
      )
    ).text,
  );

async function authorizeUrl(clientId: string) {
  const url = new URL(`${svc.url}/api/v1/oauth/authorize`);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    scope: 'openid',
    state: 'magic',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
  }).toString();
  return url.toString();
}

describe('magic link from /login', () => {
  it('mails a link whose page continues the authorization in the same browser', async () => {
    const org = await organizationWithClient(svc.url, { redirect_uris: [REDIRECT] });
    const enabled = await request(`${svc.url}/api/v1/tenants/config/auth.magic_link_enabled`, {
      method: 'PATCH',
      token: org.ownerToken,
      json: { value: true },
    });
    expect(enabled.status, enabled.text).toBe(200);
    const browser = new FormBrowser(svc.url);
    const start = await browser.get(await authorizeUrl(org.client.client_id));
    const login = await browser.get(start.location!);
    const asked = await browser.post('/login/magic-link', { ...hiddenFields(login.html), email: org.account.email });
    expect(asked.status).toBe(202);
    expect(asked.html).toContain('Open it in this browser');

    const link = await signInLink(org.account.email);
    const page = await browser.get(link);
    expect(page.status).toBe(200);
    const signedIn = await browser.post('/magic-link', hiddenFields(page.html));
    expect(signedIn.status).toBe(303);
    expect(signedIn.location).toMatch(/^\/consent\?request=/);
    const consent = await browser.get(signedIn.location!);
    const approved = await browser.post('/consent', { ...hiddenFields(consent.html), approve: '1' });
    const back = new URL(approved.location!);
    expect(back.origin + back.pathname).toBe(REDIRECT);
    expect(back.searchParams.get('code')).toBeTruthy();
    expect(back.searchParams.get('state')).toBe('magic');
  });

  it('answers the same 202 for an unknown address, and a link opened in another browser just signs in', async () => {
    const org = await organizationWithClient(svc.url, { redirect_uris: [REDIRECT] });
    await request(`${svc.url}/api/v1/tenants/config/auth.magic_link_enabled`, {
      method: 'PATCH',
      token: org.ownerToken,
      json: { value: true },
    });
    const browser = new FormBrowser(svc.url);
    const login = await browser.get((await browser.get(await authorizeUrl(org.client.client_id))).location!);
    const unknown = await browser.post('/login/magic-link', {
      ...hiddenFields(login.html),
      email: 'nobody@example.com',
    });
    const known = await browser.post('/login/magic-link', { ...hiddenFields(login.html), email: org.account.email });
    expect(unknown.status).toBe(202);
    expect(unknown.html).toBe(known.html);

    const link = await signInLink(org.account.email);
    const elsewhere = new FormBrowser(svc.url);
    const page = await elsewhere.get(link);
    const signedIn = await elsewhere.post('/magic-link', hiddenFields(page.html));
    expect(signedIn.status).toBe(200);
    expect(signedIn.html).toContain('You are signed in');
  });
});
