import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as oidc from 'openid-client';
import type { Browser, BrowserContext, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cspViolations, launchBrowser, openPerson } from '../support/browser.js';
import { RecordType, startDnsServer } from '../support/dns.js';
import { newAccount, request } from '../support/http.js';
import { organizationWithClient } from '../support/oidc-browser.js';
import { invitationSteps, signUpOwner } from '../support/organizations.js';
import { bootstrapPlatformOwner } from '../support/platform.js';
import { startService, type TestService } from '../support/service.js';
import { extractLink, startSmtpServer, type TestSmtpServer } from '../support/smtp.js';

// The hosted pages' look (issue 29, item 5), in Chromium: every page, reached in a real state (mailed links,
// a real authorization, a real onboarding), is checked at 1280 px and 360 px for horizontal overflow, equal
// widths of a form's fields and buttons, a visible focus ring on Tab, a dark scheme, a CSP without
// 'unsafe-inline' and no serious or critical axe-core violation (light and dark); screenshots go to
// docs/console/hosted-<page>.png and hosted-<page>-mobile.png.

const SHOTS = new URL('../../docs/console/', import.meta.url);
const AXE = new URL('../../node_modules/axe-core/axe.min.js', import.meta.url).pathname;
const DESKTOP = { width: 1280, height: 800 };
const MOBILE = { width: 360, height: 740 };
/** Each test walks several pages, each checked twice over with screenshots and axe-core: minutes under load. */
const SLOW = 240_000;

let svc: TestService;
let smtp: TestSmtpServer;
let dns: Awaited<ReturnType<typeof startDnsServer>>;
let browser: Browser;
/** The one context whose pages ignore the CSP: axe-core is injected there, and only there. */
let axeContext: BrowserContext;
let rp: Server;
let callback: string;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  rp = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('signed in'));
  await new Promise<void>((resolve) => rp.listen(0, '127.0.0.1', resolve));
  callback = `http://127.0.0.1:${(rp.address() as AddressInfo).port}/callback`;
  smtp = await startSmtpServer();
  dns = await startDnsServer({ 'acme.test': [{ type: RecordType.MX, priority: 10, exchange: 'mx.acme.test' }] });
  [svc, browser] = await Promise.all([
    startService(
      { SMTP_URL: smtp.url, DNS_SERVERS: `127.0.0.1:${dns.port}`, ONBOARD_BOOTSTRAP_ENABLED: 'true' },
      { baseUrlIsListenAddress: true },
    ),
    launchBrowser(),
  ]);
  axeContext = await browser.newContext({ bypassCSP: true });
});
afterAll(async () => {
  await axeContext?.close();
  await browser?.close();
  await svc?.close();
  await smtp?.close();
  await dns?.close();
  rp?.closeAllConnections();
  await new Promise((resolve) => rp?.close(resolve));
});

const api = (path: string) => `${svc.url}/api/v1${path}`;
const suffix = () => Math.random().toString(36).slice(2, 8);

interface Layout {
  overflow: number;
  /** Per visible form: the widths of its visible inputs and buttons. */
  forms: number[][];
}

// The functions below run in the page; they are strings because this project compiles without the DOM library.

function measure(page: Page): Promise<Layout> {
  return page.evaluate(`(() => {
    const visible = (element) => {
      const box = element.getBoundingClientRect();
      return box.width > 0 && box.height > 0;
    };
    const forms = [...document.querySelectorAll('form')].filter(visible).map((form) =>
      [...form.querySelectorAll('input:not([type=hidden]), button, select, textarea')]
        .filter(visible)
        .map((control) => Math.round(control.getBoundingClientRect().width)),
    );
    return { overflow: document.scrollingElement.scrollWidth - window.innerWidth, forms };
  })()`);
}

interface FocusRing {
  tag: string;
  focusVisible: boolean;
  outlineStyle: string;
  outlineWidth: number;
}

/** The outline of whatever Tab focuses first, as the browser draws it. */
async function focusRingOnTab(page: Page): Promise<FocusRing | undefined> {
  // A click on the page's margin moves the keyboard's starting point back to the top, as a fresh load does.
  await page.mouse.click(1, 1);
  await page.keyboard.press('Tab');
  return page.evaluate(`(() => {
    const element = document.activeElement;
    if (!element || element === document.body) return undefined;
    const style = getComputedStyle(element);
    return {
      tag: element.tagName.toLowerCase(),
      focusVisible: element.matches(':focus-visible'),
      outlineStyle: style.outlineStyle,
      outlineWidth: Number.parseFloat(style.outlineWidth),
    };
  })()`);
}

const backgrounds = (page: Page): Promise<{ body: string; main: string }> =>
  page.evaluate(`({
    body: getComputedStyle(document.body).backgroundColor,
    main: getComputedStyle(document.querySelector('main')).backgroundColor,
  })`);

/**
 * axe-core over the page as it stands, in the CSP-bypassing context: the same URL answers the same markup and
 * headers (served from the snapshot, so a spent link or a POST result is checked as the person saw it).
 */
async function axeViolations(page: Page, headers: Record<string, string>, scheme: 'light' | 'dark') {
  const url = page.url();
  const markup = await page.content();
  const probe = await axeContext.newPage();
  await probe.route(url, (route) => route.fulfill({ status: 200, headers, body: markup }));
  await probe.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
  await probe.goto(url);
  await probe.addScriptTag({ path: AXE });
  // The dark scheme changes colors only: its pass checks contrast, the light pass every rule.
  const options = scheme === 'dark' ? "{ runOnly: ['color-contrast'] }" : '{}';
  const found: { id: string; impact: string; nodes: { target: string[] }[] }[] = await probe.evaluate(
    `axe.run(document, ${options}).then((result) => result.violations)`,
  );
  await probe.close();
  return found
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.impact}) at ${violation.nodes.map((n) => n.target).join(' ')}`);
}

/**
 * Every check of the look on the page as it stands, at both widths and in both schemes, and its screenshots.
 * `response` is the page's document (its CSP header); `interactive` says a keyboard user has something to focus.
 */
async function inspect(name: string, page: Page, response: Response | null, interactive = true) {
  expect(response, name).not.toBeNull();
  const headers = response!.headers();
  const csp = headers['content-security-policy'] ?? '';
  expect(csp, name).toContain("default-src 'none'");
  expect(csp, name).toMatch(/style-src 'sha256-[A-Za-z0-9+/=]+'/);
  expect(csp, name).not.toContain('unsafe-inline');
  expect(csp, name).not.toContain('unsafe-eval');

  for (const [viewport, file] of [
    [DESKTOP, `hosted-${name}.png`],
    [MOBILE, `hosted-${name}-mobile.png`],
  ] as const) {
    await page.setViewportSize(viewport);
    // Reduced motion turns the pages' color transitions off: a scheme switch is drawn at once, not mid-fade.
    await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
    const layout = await measure(page);
    expect(layout.overflow, `${name} at ${viewport.width} px overflows`).toBeLessThanOrEqual(0);
    for (const widths of layout.forms) {
      if (widths.length < 2) continue;
      expect(
        Math.max(...widths) - Math.min(...widths),
        `${name} at ${viewport.width} px: ${widths}`,
      ).toBeLessThanOrEqual(1);
    }
    if (interactive) {
      const ring = await focusRingOnTab(page);
      expect(ring, `${name}: Tab focuses something`).toBeDefined();
      expect(ring!.focusVisible, name).toBe(true);
      expect(ring!.outlineStyle, name).not.toBe('none');
      expect(ring!.outlineWidth, name).toBeGreaterThanOrEqual(2);
      await page.mouse.click(1, 1);
    }
    await page.screenshot({ path: new URL(file, SHOTS).pathname, fullPage: true });
  }

  await page.setViewportSize(DESKTOP);
  const light = await backgrounds(page);
  await page.emulateMedia({ colorScheme: 'dark', reducedMotion: 'reduce' });
  const dark = await backgrounds(page);
  expect(dark.body, `${name}: dark background`).not.toBe(light.body);
  expect(dark.main, `${name}: dark card`).not.toBe(light.main);
  if (name === 'login') await page.screenshot({ path: new URL('hosted-login-dark.png', SHOTS).pathname });
  await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });

  const served = { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': csp };
  expect(await axeViolations(page, served, 'light'), `${name} (light)`).toEqual([]);
  expect(await axeViolations(page, served, 'dark'), `${name} (dark)`).toEqual([]);
}

/** Clicks a submit button (as a person does) and answers the document the form post ended on. */
async function submit(page: Page, selector: string): Promise<Response> {
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().resourceType() === 'document' && r.status() !== 302 && r.status() !== 303),
    page.click(selector),
  ]);
  await page.waitForLoadState('domcontentloaded');
  return response;
}

describe('the hosted pages look finished, at 1280 px and 360 px, light and dark', () => {
  it(
    'sign-in (and its refusal), consent and sign-out of the OpenID Provider name the organization',
    async () => {
      const org = await organizationWithClient(svc.url, {
        name: 'Timesheets',
        redirect_uris: [callback],
        post_logout_redirect_uris: [callback],
      });
      const config = await oidc.discovery(
        new URL(svc.deps.config.oidcIssuer),
        org.client.client_id,
        org.client.client_secret,
        undefined,
        { execute: [oidc.allowInsecureRequests] },
      );
      const verifier = oidc.randomPKCECodeVerifier();
      const authorizeUrl = oidc.buildAuthorizationUrl(config, {
        redirect_uri: callback,
        scope: 'openid email profile',
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state: oidc.randomState(),
      });

      const { context, page } = await openPerson(browser);
      const violations = cspViolations(page);
      const login = await page.goto(authorizeUrl.toString());
      expect(new URL(page.url()).pathname).toBe('/login');
      expect(await page.textContent('.brand-name')).toBe(org.account.organization_name);
      expect(await page.title()).toBe(`Sign in · ${org.account.organization_name}`);
      await inspect('login', page, login);

      await page.fill('#email', org.account.email);
      await page.fill('#password', 'not the password at all');
      const refused = await submit(page, 'form[action="/login"] button');
      expect(refused.status()).toBe(401);
      expect(await page.textContent('.error')).toBeTruthy();
      await inspect('login-error', page, refused);

      await page.fill('#password', org.account.password);
      const consent = await submit(page, 'form[action="/login"] button');
      expect(new URL(page.url()).pathname).toBe('/consent');
      expect(await page.textContent('.brand-name')).toBe(org.account.organization_name);
      await inspect('consent', page, consent);

      await Promise.all([page.waitForURL((url) => url.href.startsWith(callback)), page.click('button[name=approve]')]);
      const tokens = await oidc.authorizationCodeGrant(config, new URL(page.url()), {
        pkceCodeVerifier: verifier,
        expectedState: oidc.skipStateCheck,
      });
      const endSession = oidc.buildEndSessionUrl(config, {
        id_token_hint: tokens.id_token!,
        post_logout_redirect_uri: callback,
      });
      const logout = await page.goto(endSession.toString());
      expect(new URL(page.url()).pathname).toBe('/logout');
      expect(await page.textContent('.brand-name')).toBe(org.account.organization_name);
      await inspect('logout', page, logout);
      expect(violations).toEqual([]);
      await context.close();

      // Another browser asks for a sign-in link from /login: the "Check your email" notice names the organization.
      const other = await openPerson(browser);
      await other.page.goto(authorizeUrl.toString());
      await other.page.fill('#link-email', org.account.email);
      const sent = await submit(other.page, '#magic-link-request');
      expect(sent.status()).toBe(202);
      expect(await other.page.textContent('.notice')).toContain('a sign-in link is on its way');
      expect(await other.page.textContent('.brand-name')).toBe(org.account.organization_name);
      await inspect('login-link-sent', other.page, sent, false);
      await other.context.close();
    },
    SLOW,
  );

  it(
    'the mailed links: verify-email and reset-password',
    async () => {
      const { context, page } = await openPerson(browser);
      const violations = cspViolations(page);

      const person = newAccount('look');
      expect((await request(api('/auth/signup'), { json: person })).status).toBe(201);
      const verifyMail = await smtp.waitFor(
        (m) => m.to.includes(person.email) && /confirm your email/i.test(m.subject),
      );
      await inspect('verify-email', page, await page.goto(extractLink(verifyMail.text)));

      expect((await request(api('/auth/forgot-password'), { json: { email: person.email } })).status).toBe(202);
      const resetMail = await smtp.waitFor(
        (m) => m.to.includes(person.email) && /reset your password/i.test(m.subject),
      );
      await inspect('reset-password', page, await page.goto(extractLink(resetMail.text)));
      expect(violations).toEqual([]);
      await context.close();
    },
    SLOW,
  );

  it(
    'the mailed links: invite (and a refused password), magic link (and its result)',
    async () => {
      const { context, page } = await openPerson(browser);
      const violations = cspViolations(page);

      const owner = await signUpOwner(svc.url, 'inviter');
      const { invite, invitationMail } = invitationSteps(
        () => svc,
        () => smtp,
      );
      const invitee = newAccount('invitee');
      expect((await invite(owner.token, { email: invitee.email, role: 'auditor' })).status).toBe(201);
      const inviteLink = extractLink((await invitationMail(invitee.email)).text);
      const invitePage = await page.goto(inviteLink);
      expect(await page.textContent('.brand-name')).toBe(owner.account.organization_name);
      await inspect('invite', page, invitePage);
      await page.fill('#password', 'short');
      await page.fill('#confirm_password', 'short');
      const weak = await submit(page, 'button[type=submit]');
      expect(weak.status()).toBe(400);
      await inspect('invite-error', page, weak);

      expect(
        (await request(api('/auth/magic-link'), { json: { email: owner.email, tenant_slug: owner.slug } })).status,
      ).toBe(202);
      const linkMail = await smtp.waitFor((m) => m.to.includes(owner.email) && /sign-in link/i.test(m.subject));
      await inspect('magic-link', page, await page.goto(extractLink(linkMail.text)));
      const signedIn = await submit(page, 'button[type=submit]');
      expect(signedIn.status()).toBe(200);
      expect(await page.textContent('.brand-name')).toBe(owner.account.organization_name);
      expect(await page.textContent('.success')).toBe(`You are signed in to ${owner.account.organization_name}.`);
      await inspect('magic-link-signed-in', page, signedIn, false);
      expect(violations).toEqual([]);
      await context.close();
    },
    SLOW,
  );

  it(
    'the mailed links: early access and SSO link (and a refused link)',
    async () => {
      const { context, page } = await openPerson(browser);
      const violations = cspViolations(page);

      const waiting = `waiting-${suffix()}@acme.test`;
      const asked = await request(api('/early-access'), {
        json: {
          ...{ email: waiting, full_name: 'Grace Hopper', role: 'Engineering lead', organization: 'Acme' },
          ...{ stage: 'building', platforms: ['web'], integrations: ['customer_oidc'] },
          ...{ test_goals: 'Try customer sign-in', expected_users: '1k_10k', expected_agents: '1_5' },
          ...{ timeline: 'next_quarter', consent: true, acknowledgement: true },
          ...{ consent_text_version: '2026-01', acknowledgement_text_version: '2026-01' },
        },
      });
      expect(asked.status, asked.text).toBe(202);
      await inspect('early-access-confirm', page, await page.goto(extractLink((await smtp.waitFor(waiting)).text)));

      // An SSO link is mailed only after a sign-in at an identity provider; its page is the same for any token
      // until the click, which is checked here with one that was never issued (the refusal page).
      await inspect('sso-link', page, await page.goto(`${svc.url}/sso/link?token=${'x'.repeat(43)}`));
      const spent = await submit(page, 'button[type=submit]');
      expect(spent.status()).toBe(400);
      expect(await page.textContent('h1')).toBe('This link does not work');
      await inspect('link-refused', page, spent, false);

      expect(violations).toEqual([]);
      await context.close();
    },
    SLOW,
  );

  it(
    'the onboarding pages: the code, the mailed confirmation, the plan review and the passkey step',
    async () => {
      const operator = await bootstrapPlatformOwner(svc);
      const id = suffix();
      const address = `owner-${id}@acme.test`;
      const code = await request(api('/operator/invite-codes'), {
        token: operator.token,
        json: { email: address, door: 'onboard' },
      });
      expect(code.status, code.text).toBe(201);
      const organizationName = `Look Org ${id}`;
      const started = await request(api('/onboard/bootstrap'), {
        json: {
          organization_name: organizationName,
          human_email: address,
          invite_code: code.body.code,
          client_info: { name: 'Claude', platform: 'cli' },
          manifest: {
            manifest_version: 1,
            roles: [{ code: 'support-lead', name: 'Support lead', permissions: ['members:read'] }],
            invites: [{ email: `clerk-${id}@acme.test`, role: 'support-lead' }],
          },
        },
      });
      expect(started.status, started.text).toBe(201);

      const { context, page } = await openPerson(browser);
      const violations = cspViolations(page);
      await inspect('onboard-verify', page, await page.goto(started.body.verification_uri));
      await page.fill('#user_code', started.body.user_code);
      const sent = await submit(page, 'button[type=submit]');
      expect(await page.textContent('.brand-name')).toBe(organizationName);
      await inspect('onboard-verify-sent', page, sent, false);

      const confirm = await page.goto(extractLink((await smtp.waitFor(address)).text));
      expect(await page.textContent('.brand-name')).toBe(organizationName);
      await inspect('onboard-verify-confirm', page, confirm);
      await page.fill('#password', 'a long and unusual passphrase 42');
      await page.fill('#confirm_password', 'a long and unusual passphrase 42');
      const review = await submit(page, 'button[name=method][value=password]');
      expect(new URL(page.url()).pathname).toBe('/onboard/verify/review');
      expect(await page.textContent('table')).toContain('support-lead');
      await inspect('onboard-verify-review', page, review);
      // The passkey step (the onboarding's one script), as the review page links to it.
      const passkeyStep = await page.goto(`${svc.url}/onboard/verify/passkey`);
      await page.waitForSelector('body[data-ready="true"]');
      await inspect('onboard-verify-passkey', page, passkeyStep);
      expect(violations).toEqual([]);
      await context.close();
    },
    SLOW,
  );

  it(
    'the passkeys page (the one page with a script), signed out',
    async () => {
      const { context, page } = await openPerson(browser);
      const violations = cspViolations(page);
      const opened = await page.goto(`${svc.url}/account/passkeys`);
      await page.waitForSelector('body[data-ready="true"]');
      expect(await page.isVisible('#signed-out')).toBe(true);
      await inspect('passkeys', page, opened);
      expect(violations).toEqual([]);
      await context.close();
    },
    SLOW,
  );
});
