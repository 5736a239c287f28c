import { createHash } from 'node:crypto';
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minutes } from '../../src/kernel/clock.js';
import { launchBrowser } from '../support/browser.js';
import {
  axeCheck,
  type ConsoleWorld,
  openConsole,
  screenshot,
  signInThroughLogin,
  startConsole,
} from '../support/console.js';
import { request } from '../support/http.js';

const EXPECTED_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; font-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

let world: ConsoleWorld;
let browser: Browser;

beforeAll(async () => {
  [world, browser] = await Promise.all([startConsole(), launchBrowser()]);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await world?.close();
});

/** Every token the console's page could have left behind in storage a script or the next visitor can read. */
async function storedEverywhere(page: Page) {
  const storage = (await page.evaluate(
    '({ local: Object.entries(localStorage), session: Object.entries(sessionStorage), cookie: document.cookie })',
  )) as { local: [string, string][]; session: [string, string][]; cookie: string };
  const cookies = await page.context().cookies();
  return { ...storage, cookies };
}

/**
 * Token requests whose answer has arrived: counted on `requestfinished`, not when sent, so a test that moves the
 * server's clock after seeing a renewal cannot move it under a token the server has not minted yet.
 */
const tokenRequests = (page: Page) => {
  const seen: string[] = [];
  page.on('requestfinished', (r: Request) => {
    if (r.url().endsWith('/api/v1/oauth/token') && r.method() === 'POST') seen.push(r.postData() ?? '');
  });
  return seen;
};

describe('console foundation', () => {
  it('serves the console with a strict CSP, no inline script, long-cached assets and a client-route fallback', async () => {
    const index = await fetch(`${world.svc.url}/console`);
    expect(index.status).toBe(200);
    expect(index.headers.get('content-security-policy')).toBe(EXPECTED_CSP);
    expect(index.headers.get('cache-control')).toBe('no-cache');
    const body = await index.text();
    expect(body).toContain('<div id="root"></div>');
    // Every script is external (src=), and there is no style element or style attribute.
    const scripts = [...body.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, content] of scripts) {
      expect(attributes).toMatch(/\bsrc="\/console\/assets\/[^"]+\.js"/);
      expect(content!.trim()).toBe('');
    }
    expect(body).not.toMatch(/<style\b|\sstyle=/);

    const deep = await fetch(`${world.svc.url}/console/account?x=1`);
    expect(deep.status).toBe(200);
    expect(await deep.text()).toBe(body);

    const asset = body.match(/src="(\/console\/assets\/[^"]+\.js)"/)![1]!;
    const script = await fetch(world.svc.url + asset);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await fetch(`${world.svc.url}/console/assets/..%2f..%2fpackage.json`)).status).toBe(404);
    expect((await fetch(`${world.svc.url}/console/assets/missing-abc.js`)).status).toBe(404);

    // Hosted like the other pages: not part of the API document.
    const openapi = await request(`${world.svc.url}/api/v1/openapi.json`);
    expect(Object.keys(openapi.body.paths).filter((path) => path.startsWith('/console'))).toEqual([]);
  });

  it('signs in through /login with PKCE, keeps tokens out of storage and cookies, and shows the overview', async () => {
    const { context, page } = await openConsole(browser, world.svc.url, world.org.owner, {
      beforeLoad: async (p) => {
        const violations: string[] = [];
        p.on('console', (m) => {
          if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
        });
        (p as unknown as { cspViolations: string[] }).cspViolations = violations;
      },
    });
    try {
      await expect
        .poll(() => page.getByRole('heading', { level: 1 }).textContent(), { timeout: 15_000 })
        .toBe('Organization overview');
      await expect.poll(() => page.getByTestId('plan-name').textContent(), { timeout: 15_000 }).toBeTruthy();
      const stored = await storedEverywhere(page);
      expect(stored.session).toEqual([]);
      expect(stored.local.map(([key]) => key)).toEqual(['console.organization']);
      expect(stored.cookie).toBe('');
      // The provider's own session cookie (httpOnly, set by /login) is the only cookie; the console sets none.
      for (const cookie of stored.cookies) expect(cookie.httpOnly, cookie.name).toBe(true);
      expect((page as unknown as { cspViolations: string[] }).cspViolations).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('overview: plan, seats and entitlements with a chart; the owner invites a member, a member sees no admin action', async () => {
    const owner = await openConsole(browser, world.svc.url, world.org.owner);
    try {
      const { page } = owner;
      await expect.poll(() => page.getByTestId('plan-name').textContent(), { timeout: 15_000 }).toBe('Free');
      await expect
        .poll(() => page.getByTestId('seats').textContent(), { timeout: 15_000 })
        .toMatch(/^4 of \d+ used$|^4 of Unlimited used$/);
      await page.getByRole('img', { name: /Active members by role/ }).waitFor();
      await axeCheck(page, 'overview');
      await screenshot(page, 'overview');

      await page.getByRole('button', { name: 'Invite a member' }).click();
      const invitee = `invitee-${Date.now()}@example.com`;
      await page.getByLabel('Email address').fill(invitee);
      await page.getByLabel('Role', { exact: true }).selectOption('member');
      await page.getByRole('button', { name: 'Send invitation' }).click();
      await page.getByText(`Invitation sent to ${invitee}.`).waitFor();
      const invites = await request(`${world.svc.url}/api/v1/members/invites`, { token: world.org.owner.token });
      expect(invites.body.map((i: { email: string }) => i.email)).toContain(invitee);
    } finally {
      await owner.context.close();
    }

    const member = await openConsole(browser, world.svc.url, world.org.member);
    try {
      const { page } = member;
      await expect.poll(() => page.getByTestId('plan-name').textContent(), { timeout: 15_000 }).toBe('Free');
      expect(await page.getByRole('button', { name: 'Invite a member' }).count()).toBe(0);
      // No members:read either: the seat count shows the plan's cap only, and no roster chart is asked for.
      expect(await page.getByRole('img', { name: /Active members by role/ }).count()).toBe(0);
      await axeCheck(page, 'overview as member');
    } finally {
      await member.context.close();
    }
  });

  it('my account: profile with a field error, sessions revoked after confirmation', async () => {
    const { context, page } = await openConsole(browser, world.svc.url, world.org.admin);
    try {
      await page.getByRole('link', { name: 'My account' }).click();
      await page.getByRole('heading', { name: 'My account', level: 1 }).waitFor();
      // The admin's API sign-in (test set-up) is listed beside this console's own session.
      const table = page.getByRole('table', { name: 'Your sessions' });
      await table.getByText('This console').waitFor();
      await expect
        .poll(() => table.getByRole('button', { name: /^Revoke session/ }).count(), { timeout: 15_000 })
        .toBe(1);
      await axeCheck(page, 'my account');
      await screenshot(page, 'my-account');

      // A 422 naming a field shows under that field.
      await page.getByLabel('Full name').fill('x'.repeat(1000));
      await page.getByRole('button', { name: 'Save profile' }).click();
      await page.getByText(/^name: must be at most \d+ characters$/).waitFor();
      expect(await page.getByLabel('Full name').getAttribute('aria-invalid')).toBe('true');
      await page.getByLabel('Full name').fill('Ada Admin');
      await page.getByRole('button', { name: 'Save profile' }).click();
      await page.getByText('Profile saved.').waitFor();
      const profile = await request(`${world.svc.url}/api/v1/me/profile`, { token: world.org.admin.token });
      expect(profile.body.name).toBe('Ada Admin');

      // Revoke asks first; Cancel changes nothing, confirming ends that session at once.
      await table.getByRole('button', { name: /^Revoke session/ }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      expect((await request(`${world.svc.url}/api/v1/me`, { token: world.org.admin.token })).status).toBe(200);
      await table.getByRole('button', { name: /^Revoke session/ }).click();
      await dialog.getByRole('button', { name: 'Revoke' }).click();
      await expect
        .poll(() => table.getByRole('button', { name: /^Revoke session/ }).count(), { timeout: 15_000 })
        .toBe(0);
      expect((await request(`${world.svc.url}/api/v1/me`, { token: world.org.admin.token })).status).toBe(401);
      await page.getByText('No application holds your consent.').waitFor();
    } finally {
      await context.close();
    }
  });

  it('renews silently by refresh-token rotation before expiry and after the server clock passed it', async () => {
    const { context, page } = await openConsole(browser, world.svc.url, world.org.auditor, {
      beforeLoad: (p) => p.clock.install(),
    });
    const grants = tokenRequests(page);
    try {
      await page.getByTestId('plan-name').waitFor();
      // Before expiry: the console's own timer renews a minute ahead of the 15-minute access token.
      world.svc.clock.advance(minutes(14) + 30_000);
      await page.clock.fastForward('14:30');
      await expect
        .poll(() => grants.filter((body) => body.includes('grant_type=refresh_token')).length, { timeout: 15_000 })
        .toBe(1);
      // After expiry by the server's clock (the browser's timer has not fired yet): a 401 renews and retries.
      world.svc.clock.advance(minutes(20));
      await page.getByRole('link', { name: 'My account' }).click();
      await page.getByRole('table', { name: 'Your sessions' }).getByText('This console').waitFor();
      expect(grants.filter((body) => body.includes('grant_type=refresh_token')).length).toBe(2);
      const refreshTokens = grants.map((body) => new URLSearchParams(body).get('refresh_token')).filter(Boolean);
      expect(new Set(refreshTokens).size).toBe(refreshTokens.length);
      const stored = await storedEverywhere(page);
      expect(stored.session).toEqual([]);
      expect(stored.cookie).toBe('');
    } finally {
      await context.close();
    }
  });

  it('signs out through the end-session endpoint: the console session ends', async () => {
    const { context, page } = await openConsole(browser, world.svc.url, world.org.owner);
    const bearer: string[] = [];
    page.on('request', (r: Request) => {
      const header = r.headers().authorization;
      if (header?.startsWith('Bearer ')) bearer.push(header.slice(7));
    });
    try {
      await page.getByRole('link', { name: 'My account' }).click();
      await page.getByRole('heading', { name: 'My account', level: 1 }).waitFor();
      const token = bearer.at(-1)!;
      expect((await request(`${world.svc.url}/api/v1/me`, { token })).status).toBe(200);
      await Promise.all([page.waitForURL(/\/logout\?/), page.getByRole('button', { name: 'Sign out' }).click()]);
      await Promise.all([page.waitForURL(/\/console\/$/), page.locator('form[action="/logout"] button').click()]);
      await page.getByLabel('Organization').waitFor();
      await screenshot(page, 'sign-in');
      await axeCheck(page, 'sign-in');
      expect((await request(`${world.svc.url}/api/v1/me`, { token })).status).toBe(401);
      // The provider's browser session ended too: signing in again goes through the password form.
      await signInThroughLogin(page, world.org.owner);
    } finally {
      await context.close();
    }
  });

  it('the first-party console client exists for every organization and stays out of the client API', async () => {
    const consoleClientId = (slug: string) =>
      `cl_${createHash('sha256').update(`svc-console:${slug}`).digest('base64url').slice(0, 22)}`;
    const id = consoleClientId(world.org.slug);
    // A fresh API sign-in: earlier tests moved the clock past the set-up tokens' life.
    const login = await request(`${world.svc.url}/api/v1/auth/login`, {
      json: { email: world.org.owner.email, password: world.org.owner.password, tenant_slug: world.org.slug },
    });
    const token = login.body.access_token as string;
    const list = await request(`${world.svc.url}/api/v1/oauth/clients`, { token });
    expect(list.status).toBe(200);
    expect(list.body.map((c: { client_id: string }) => c.client_id)).not.toContain(id);
    for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
      const res = await request(`${world.svc.url}/api/v1/oauth/clients/${id}`, {
        method,
        token,
        ...(method === 'PATCH' ? { json: { name: 'Mine now' } } : {}),
      });
      expect(res.status, method).toBe(404);
    }
    expect(
      (await request(`${world.svc.url}/api/v1/oauth/clients/${id}/rotate-secret`, { method: 'POST', token })).status,
    ).toBe(404);
    // Another organization's console client does not take this organization's people: the authorize request
    // names its organization, and /login signs in to that one only.
    const authorize = new URL(`${world.svc.url}/api/v1/oauth/authorize`);
    authorize.search = new URLSearchParams({
      response_type: 'code',
      client_id: consoleClientId(world.platform.owner.slug),
      redirect_uri: `${world.svc.url}/console/callback`,
      scope: 'openid',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
      state: 's',
    }).toString();
    const answer = await fetch(authorize, { redirect: 'manual' });
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toMatch(/^\/login\?/);
    // A redirect URI other than BASE_URL/console/callback is refused without a redirect.
    authorize.searchParams.set('redirect_uri', 'https://evil.example/console/callback');
    expect((await fetch(authorize, { redirect: 'manual' })).status).toBe(400);
    // An unknown organization has no console client.
    authorize.searchParams.set('client_id', consoleClientId('no-such-organization'));
    authorize.searchParams.set('redirect_uri', `${world.svc.url}/console/callback`);
    expect((await fetch(authorize, { redirect: 'manual' })).status).toBe(400);
  });
});
