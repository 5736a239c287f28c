import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.js';
import { type ConsoleWorld, openConsole, startConsole } from '../support/console.js';
import { request } from '../support/http.js';

// The events screen's live stream across the service's end of a stream (issue 29 item 3; docs/console.md
// "Events"): the service closes a stream after one access-token lifetime (here the shortest allowed, 60 s); the
// console opens it again with its renewed token and events keep arriving without a reload.

let world: ConsoleWorld;
let browser: Browser;

beforeAll(async () => {
  [world, browser] = await Promise.all([startConsole({ ACCESS_TOKEN_TTL_SECONDS: '60' }), launchBrowser()]);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await world?.close();
});

describe('console: the live stream outlives a token lifetime', () => {
  it('reconnects with the renewed token when the service ends the stream, and shows the next event', async () => {
    const { context, page } = await openConsole(browser, world.svc.url, world.org.admin);
    // The stream requests the service answered (an attempt the page aborted before an answer is not counted).
    const streamAuth: string[] = [];
    page.on('response', (res) => {
      if (res.url().includes('/api/v1/command/events/stream') && res.status() === 200) {
        streamAuth.push(res.request().headers().authorization ?? '');
      }
    });
    try {
      await page
        .getByRole('navigation', { name: 'Console' })
        .getByRole('link', { name: 'Events', exact: true })
        .click();
      const state = page.getByTestId('stream-state');
      await expect.poll(() => state.getAttribute('data-state'), { timeout: 15_000 }).toBe('live');
      expect(streamAuth).toHaveLength(1);

      // The service ends the stream at 60 s; the console connects again, with a newer token.
      await expect.poll(() => streamAuth.length, { timeout: 100_000, interval: 1_000 }).toBe(2);
      await expect.poll(() => state.getAttribute('data-state'), { timeout: 15_000 }).toBe('live');
      expect(streamAuth[1]).toMatch(/^Bearer /);
      expect(streamAuth[1]).not.toBe(streamAuth[0]);

      const failed = await request(`${world.svc.url}/api/v1/auth/login`, {
        json: { email: world.org.member.email, password: 'not the password at all', tenant_slug: world.org.slug },
      });
      expect(failed.status).toBe(401);
      await page
        .getByRole('table', { name: 'Events arriving live' })
        .getByRole('row')
        .filter({ hasText: 'user.login_failed' })
        .filter({ hasText: world.org.member.userId })
        .waitFor({ timeout: 15_000 });
    } finally {
      await context.close();
    }
  }, 180_000);
});
