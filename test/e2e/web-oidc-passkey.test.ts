import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as oidc from 'openid-client';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cspViolations, launchBrowser, openPerson } from '../support/browser.js';
import { organizationWithClient } from '../support/oidc-browser.js';
import { startService, type TestService } from '../support/service.js';

/**
 * The provider's sign-in page with a passkey (issue 6 item 4, the factors of issue 5) in Chromium with a CDP
 * virtual authenticator. WebAuthn needs a domain as RP ID: the service runs as http://localhost:<port>.
 */
let svc: TestService;
let browser: Browser;
let rp: Server;
let callback: string;

beforeAll(async () => {
  rp = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('signed in'));
  await new Promise<void>((resolve) => rp.listen(0, '127.0.0.1', resolve));
  callback = `http://127.0.0.1:${(rp.address() as AddressInfo).port}/callback`;
  [svc, browser] = await Promise.all([startService({}, { baseUrlHost: 'localhost' }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await svc?.close();
  rp?.closeAllConnections();
  await new Promise((resolve) => rp?.close(resolve));
});

describe('passkey sign-in on /login', () => {
  it('signs in with a passkey registered on /account/passkeys, consents and lands with a code (amr webauthn)', async () => {
    const org = await organizationWithClient(svc.url, { redirect_uris: [callback] });
    const { context, page } = await openPerson(browser);
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
    await page.goto(`${svc.deps.config.baseUrl}/account/passkeys`);
    await page.waitForSelector('body[data-ready="true"]');
    await page.fill('#email', org.account.email);
    await page.fill('#password', org.account.password);
    await page.fill('#organization', org.tenantSlug);
    await page.click('#password-sign-in');
    await page.locator(`#signed-in-email:text-is("${org.account.email}")`).waitFor();
    await page.fill('#passkey-name', 'Laptop');
    await page.click('#add-passkey');
    await page.locator('#passkey-list li').first().waitFor();

    const config = await oidc.discovery(
      new URL(svc.deps.config.oidcIssuer),
      org.client.client_id,
      org.client.client_secret,
      undefined,
      { execute: [oidc.allowInsecureRequests] },
    );
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const authorizeUrl = oidc.buildAuthorizationUrl(config, {
      redirect_uri: callback,
      scope: 'openid',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
    });
    const violations = cspViolations(page);
    await page.goto(authorizeUrl.toString());
    expect(new URL(page.url()).pathname).toBe('/login');
    await page.locator('#passkey-sign-in').waitFor();
    await Promise.all([page.waitForURL((url) => url.pathname === '/consent'), page.click('#passkey-sign-in')]);
    await Promise.all([page.waitForURL((url) => url.href.startsWith(callback)), page.click('button[name=approve]')]);
    expect(violations).toEqual([]);
    const tokens = await oidc.authorizationCodeGrant(config, new URL(page.url()), {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    expect(tokens.claims()!.amr).toEqual(expect.arrayContaining(['webauthn']));
    await context.close();
  });
});
