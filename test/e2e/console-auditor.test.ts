import type { Browser, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.js';
import { type ConsoleWorld, openConsole, startConsole } from '../support/console.js';
import { request } from '../support/http.js';

// Issue 29: "The console adds nothing to the API's authority: a test signs in as an auditor and finds no way to
// change anything." The walk below opens every screen the auditor's navigation offers and presses every button
// and submits every form it finds (confirming any dialog that opens, with its inputs filled), then checks that
// the console sent the API no change at all. The auditor's own account (`/me/*`: profile, sessions, MFA,
// passkeys) and their own data-subject requests (Part A 4.10, own token) are theirs to change: those calls are
// not counted, nor are sign-out and token renewal.

let world: ConsoleWorld;
let browser: Browser;

beforeAll(async () => {
  [world, browser] = await Promise.all([startConsole(), launchBrowser()]);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await world?.close();
});

/** What signing in to the console records (the provider's sign-in and its token grants). */
const SIGN_IN_ACTIONS = new Set(['user.logged_in', 'oauth.authorization_granted', 'oauth.token_issued']);

/** Routes of the caller's own token (Part A 4.10 data-subject requests are the person's own, like `/me`). */
const SELF_SERVICE = /\/api\/v1\/(me|gdpr\/requests|oauth\/token|oauth\/revoke)(\/|$|\?)/;

/** Every change the page asked of the API: a method other than GET/HEAD to /api/v1, self-service aside. */
function changesSent(page: Page) {
  const sent: { method: string; url: string; status: number }[] = [];
  page.on('response', (response: Response) => {
    const req = response.request();
    if (!req.url().includes('/api/v1/') || SELF_SERVICE.test(new URL(req.url()).pathname)) return;
    if (req.method() === 'GET' || req.method() === 'HEAD') return;
    sent.push({ method: req.method(), url: req.url(), status: response.status() });
  });
  return sent;
}

async function settle(page: Page) {
  await page
    .locator('main [aria-busy="true"], main .loading')
    .first()
    .waitFor({ state: 'detached', timeout: 5_000 })
    .catch(() => undefined);
}

/** Fills every empty text-like input, picks the second option of every select, and presses the last button. */
async function answerDialog(page: Page) {
  const dialog = page.locator('dialog[open]').first();
  if (!(await dialog.count())) return;
  for (const input of await dialog.locator('input:not([type=hidden]):not([type=checkbox]):not([type=radio])').all()) {
    if ((await input.isEditable()) && !(await input.inputValue())) await input.fill('auditor walk');
  }
  for (const box of await dialog.locator('input[type=checkbox]').all()) await box.check().catch(() => undefined);
  for (const textarea of await dialog.locator('textarea').all()) await textarea.fill('auditor walk');
  const buttons = await dialog.locator('button:enabled').all();
  await buttons
    .at(-1)
    ?.click({ timeout: 2_000 })
    .catch(() => undefined);
  await page.keyboard.press('Escape');
}

/** Presses every enabled button in the screen's main area and submits every form, returning to the screen each time. */
async function pressEverything(page: Page, open: () => Promise<void>): Promise<number> {
  const screenUrl = page.url();
  let pressed = 0;
  const count = await page.locator('main button:enabled').count();
  for (let i = 0; i < Math.min(count, 30); i++) {
    const button = page.locator('main button:enabled').nth(i);
    if (!(await button.isVisible().catch(() => false))) continue;
    const form = button.locator('xpath=ancestor::form[1]');
    if (await form.count()) {
      for (const input of await form.locator('input:not([type=hidden]):not([type=checkbox]):not([type=radio])').all()) {
        if ((await input.isEditable().catch(() => false)) && !(await input.inputValue())) {
          await input.fill('auditor-walk@example.com').catch(() => undefined);
        }
      }
    }
    await button.click({ timeout: 2_000 }).catch(() => undefined);
    pressed++;
    await answerDialog(page);
    await settle(page);
    if (page.url() !== screenUrl) await open();
  }
  return pressed;
}

describe('console: an auditor', () => {
  it('walks every screen the navigation offers, presses everything, and changes nothing', async () => {
    const auditor = world.org.auditor;
    const before = await request(`${world.svc.url}/api/v1/command/events?actor_id=${auditor.userId}&limit=1000`, {
      token: world.org.owner.token,
    });
    expect(before.status).toBe(200);
    const { context, page } = await openConsole(browser, world.svc.url, auditor);
    const sent = changesSent(page);
    try {
      const links = await page
        .locator('nav[aria-label="Console"] a')
        .evaluateAll((anchors) =>
          anchors.map((a) => ({ href: (a as unknown as { href: string }).href, text: a.textContent?.trim() ?? '' })),
        );
      // The person's own screens (My account, My data and privacy) are theirs to use.
      const screens = links.filter((link) => !/^my /i.test(link.text));
      // The auditor reads the Command Center and the organization: the walk has something to press.
      expect(screens.length).toBeGreaterThanOrEqual(3);
      let pressed = 0;
      for (const screen of screens) {
        // Through the navigation, as a person moves: the console keeps its tokens in memory, a reload signs in again.
        const open = async () => {
          await page.locator('nav[aria-label="Console"]').getByRole('link', { name: screen.text, exact: true }).click();
          await page.waitForURL(screen.href);
          await page.getByRole('heading', { level: 1 }).first().waitFor();
          await settle(page);
        };
        await open();
        pressed += await pressEverything(page, open);
      }
      expect(pressed).toBeGreaterThan(0);
      expect(sent, `changes the console sent for an auditor: ${JSON.stringify(sent)}`).toEqual([]);
    } finally {
      await context.close();
    }
    // And the service recorded no change by the auditor beyond signing in.
    const after = await request(`${world.svc.url}/api/v1/command/events?actor_id=${auditor.userId}&limit=1000`, {
      token: world.org.owner.token,
    });
    const seen = new Set((before.body.events as { id: string }[]).map((e) => e.id));
    const newActions = (after.body.events as { id: string; action: string }[])
      .filter((e) => !seen.has(e.id))
      .map((e) => e.action)
      .filter((action) => !SIGN_IN_ACTIONS.has(action));
    expect(newActions).toEqual([]);
  });
});
