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

const tokenRequests = (page: Page) => {
  const seen: string[] = [];
  page.on('request', (r: Request) => {
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
      await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Organization overview');
      await expect.poll(() => page.getByTestId('plan-name').textContent()).toBeTruthy();
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
});
