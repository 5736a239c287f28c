import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as oidc from 'openid-client';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cspViolations, launchBrowser, openPerson } from '../support/browser.js';
import { organizationWithClient } from '../support/oidc-browser.js';
import { startService, type TestService } from '../support/service.js';

/**
 * The OpenID Provider's hosted pages in Chromium (issue 6): a person signs in on /login, approves on /consent and
 * lands on the relying party's redirect URI with a code, which the relying party then exchanges.
 */

let svc: TestService;
let browser: Browser;
/** The relying party's callback: a real loopback HTTP server that records what the browser brought. */
let rp: Server;
let callback: string;
const arrivals: URL[] = [];

beforeAll(async () => {
  rp = createServer((req, res) => {
    arrivals.push(new URL(req.url!, callback));
    res.writeHead(200, { 'content-type': 'text/plain' }).end('signed in');
  });
  await new Promise<void>((resolve) => rp.listen(0, '127.0.0.1', resolve));
  callback = `http://127.0.0.1:${(rp.address() as AddressInfo).port}/callback`;
  [svc, browser] = await Promise.all([startService({}, { baseUrlIsListenAddress: true }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await svc?.close();
  rp?.closeAllConnections();
  await new Promise((resolve) => rp?.close(resolve));
});

describe('hosted sign-in and consent in Chromium', () => {
  it('signs in on /login, approves on /consent and lands on the redirect URI with a code that exchanges', async () => {
    const org = await organizationWithClient(svc.url, { name: 'Timesheets', redirect_uris: [callback] });
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
      scope: 'openid email',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
    });

    const { context, page } = await openPerson(browser);
    const violations = cspViolations(page);
    await page.goto(authorizeUrl.toString());
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(await page.inputValue('input[name=tenant_slug]')).toBe(org.tenantSlug);
    await page.fill('#email', org.account.email);
    await page.fill('#password', org.account.password);
    await Promise.all([
      page.waitForURL((url) => url.pathname === '/consent'),
      page.click('form[action="/login"] button'),
    ]);
    expect(await page.textContent('main')).toContain('Timesheets wants to');

    await Promise.all([page.waitForURL((url) => url.href.startsWith(callback)), page.click('button[name=approve]')]);
    const landed = new URL(page.url());
    expect(landed.searchParams.get('state')).toBe(state);
    expect(landed.searchParams.get('code')).toBeTruthy();
    // Chromium may also ask the relying party for /favicon.ico: only the callback's arrival counts.
    const callbacks = arrivals.filter((arrival) => arrival.pathname === '/callback');
    expect(callbacks.at(-1)?.searchParams.get('code')).toBe(landed.searchParams.get('code'));
    expect(violations).toEqual([]);

    // The provider's session cookie is httpOnly and SameSite=Lax: the next authorization needs no page at all.
    const cookie = (await context.cookies()).find((c) => c.name === 'svc_op_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax' });

    const tokens = await oidc.authorizationCodeGrant(config, landed, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    expect(tokens.claims()).toMatchObject({ tid: org.tenantId, amr: ['pwd'] });
    await context.close();
  });
});
