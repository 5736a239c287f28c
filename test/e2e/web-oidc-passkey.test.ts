import { describe, expect, it } from 'vitest';
import { cspViolations, openPerson } from '../support/browser.js';
import { organizationWithClient } from '../support/oidc-browser.js';
import { authorizationRequest, signInPagesUnderTest } from './web-support.js';

/**
 * The provider's sign-in page with a passkey (issue 6 item 4, the factors of issue 5) in Chromium with a CDP
 * virtual authenticator. WebAuthn needs a domain as RP ID: the service runs as http://localhost:<port>.
 */
const { svc, browser, callback } = signInPagesUnderTest({ baseUrlHost: 'localhost' });

describe('passkey sign-in on /login', () => {
  it('signs in with a passkey registered on /account/passkeys, consents and lands with a code (amr webauthn)', async () => {
    const org = await organizationWithClient(svc().url, { redirect_uris: [callback()] });
    const { context, page } = await openPerson(browser());
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
      },
    });
    // The person registers a passkey on the account page first.
    await page.goto(`${svc().deps.config.baseUrl}/account/passkeys`);
    await page.waitForSelector('body[data-ready="true"]');
    await page.fill('#email', org.account.email);
    await page.fill('#password', org.account.password);
    await page.fill('#organization', org.tenantSlug);
    await page.click('#password-sign-in');
    await page.locator(`#signed-in-email:text-is("${org.account.email}")`).waitFor();
    await page.fill('#passkey-name', 'Laptop');
    await page.click('#add-passkey');
    await page.locator('#passkey-list li').first().waitFor();

    const { authorizeUrl, exchange } = await authorizationRequest(svc(), org.client, {
      redirect_uri: callback(),
      scope: 'openid',
    });
    const violations = cspViolations(page);
    await page.goto(authorizeUrl.toString());
    expect(new URL(page.url()).pathname).toBe('/login');
    await page.locator('#passkey-sign-in').waitFor();
    await Promise.all([page.waitForURL((url) => url.pathname === '/consent'), page.click('#passkey-sign-in')]);
    await Promise.all([page.waitForURL((url) => url.href.startsWith(callback())), page.click('button[name=approve]')]);
    expect(violations).toEqual([]);
    const tokens = await exchange(new URL(page.url()));
    expect(tokens.claims()!.amr).toEqual(expect.arrayContaining(['webauthn']));
    await context.close();
  });
});
