import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as oidc from 'openid-client';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser } from '../support/browser.js';
import { startService, type TestService } from '../support/service.js';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp.js';

/**
 * Shared set-up of the hosted-page e2e files run in Chromium (not a test file itself). The `…UnderTest` functions
 * register the file's hooks (start before its tests, stop after them) and answer getters, read at each call.
 */

/**
 * An SMTP server, then the service mailing through it and Chromium. The service's base URL is the address it
 * listens on, so mailed links open in the browser.
 */
export function mailedPagesUnderTest() {
  let svc: TestService | undefined;
  let smtp: TestSmtpServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    [svc, browser] = await Promise.all([
      startService({ SMTP_URL: smtp.url }, { baseUrlIsListenAddress: true }),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await svc?.close();
    await smtp?.close();
  });
  const running = () => svc!;
  return {
    svc: running,
    smtp: () => smtp!,
    browser: () => browser!,
    api: (path: string) => `${running().url}/api/v1${path}`,
  };
}

/**
 * A relying party's callback (a real loopback HTTP server that records what the browser brought, in `arrivals`),
 * then the service started with `serviceOptions` and Chromium.
 */
export function signInPagesUnderTest(serviceOptions: Parameters<typeof startService>[1]) {
  let svc: TestService | undefined;
  let browser: Browser | undefined;
  let callback: string | undefined;
  const arrivals: URL[] = [];
  const relyingParty = createServer((req, res) => {
    arrivals.push(new URL(req.url!, callback));
    res.writeHead(200, { 'content-type': 'text/plain' }).end('signed in');
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => relyingParty.listen(0, '127.0.0.1', resolve));
    callback = `http://127.0.0.1:${(relyingParty.address() as AddressInfo).port}/callback`;
    [svc, browser] = await Promise.all([startService({}, serviceOptions), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await svc?.close();
    relyingParty.closeAllConnections();
    await new Promise((resolve) => relyingParty.close(resolve));
  });
  return { svc: () => svc!, browser: () => browser!, callback: () => callback!, arrivals };
}

/**
 * The relying party's side of a sign-in: it discovers the service's provider and asks for a code for `client`
 * with PKCE (S256) and a state; `exchange` trades the URL the browser landed on for tokens.
 */
export async function authorizationRequest(
  svc: TestService,
  client: { client_id: string; client_secret?: string },
  params: { redirect_uri: string; scope: string },
) {
  const config = await oidc.discovery(
    new URL(svc.deps.config.oidcIssuer),
    client.client_id,
    client.client_secret,
    undefined,
    { execute: [oidc.allowInsecureRequests] },
  );
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const authorizeUrl = oidc.buildAuthorizationUrl(config, {
    ...params,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
  });
  const exchange = (landed: URL) =>
    oidc.authorizationCodeGrant(config, landed, { pkceCodeVerifier: verifier, expectedState: state });
  return { state, authorizeUrl, exchange };
}
