import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.js';
import { axeCheck, type ConsoleWorld, openConsole, screenshot, startConsole } from '../support/console.js';
import { request } from '../support/http.js';

// The console's autonomous response screen (issue 29; docs/console.md "Autonomous response") in Chromium: a real
// refresh-token replay records a proposal the owner finds by mode and denies; the owner engages the autonomy kill
// switch for 1 hour (the API reports it), an indefinite stop without a reason shows the API's 400; an auditor
// reads everything and finds no action.

const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 15_000 });

let world: ConsoleWorld;
let browser: Browser;

beforeAll(async () => {
  [world, browser] = await Promise.all([startConsole({ AUTONOMY_EXECUTION_ENABLED: 'true' }), launchBrowser()]);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await world?.close();
});

const api = (path: string) => `${world.svc.url}/api/v1${path}`;

/** A member's refresh token used twice: the `refresh-token-replay` detection, a `revoke_access` proposal. */
async function replayMembersRefreshToken() {
  const { member, owner } = world.org;
  const level = await request(api('/tenants/config/autonomy.level_revoke_access'), {
    method: 'PATCH',
    token: owner.token,
    json: { value: 'recommend' },
  });
  expect(level.status, level.text).toBe(200);
  const login = await request(api('/auth/login'), {
    json: { email: member.email, password: member.password, tenant_slug: member.slug },
  });
  expect(login.status, login.text).toBe(200);
  const refresh = login.body.refresh_token as string;
  expect((await request(api('/auth/refresh'), { json: { refresh_token: refresh } })).status).toBe(200);
  expect((await request(api('/auth/refresh'), { json: { refresh_token: refresh } })).status).toBe(401);
}

/** The decisions' mode filter (the chart "Decisions by mode" is labelled too). */
const modeFilter = (page: Page) => page.getByRole('combobox', { name: 'Mode', exact: true });

async function openAutonomy(page: Page) {
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Autonomous response' }).click();
  await poll(async () => (await page.getByRole('heading', { level: 1 }).textContent())?.trim()).toBe(
    'Autonomous response',
  );
}

describe('console: autonomous response', () => {
  it('lists a real proposal by mode, denies it, and engages the kill switch for 1 hour', async () => {
    await replayMembersRefreshToken();
    const listed = await request(api('/autonomy/decisions'), { token: world.org.owner.token });
    expect(listed.body.decisions).toHaveLength(1);
    const decision = listed.body.decisions[0];
    expect(decision).toMatchObject({ rule_id: 'refresh-token-replay', mode: 'proposed', adjudication: 'pending' });

    const { context, page } = await openConsole(browser, world.svc.url, world.org.owner);
    try {
      await openAutonomy(page);
      const table = page.getByRole('table', { name: 'Autonomy decisions' });
      await table.getByText('refresh-token-replay').waitFor();
      await table.getByText('proposed', { exact: true }).waitFor();
      await table.getByText(world.org.member.userId, { exact: true }).waitFor();

      // The mode filter is in the URL and goes to the API.
      await modeFilter(page).selectOption('executed');
      await page.getByText('No decision in this mode.').waitFor();
      expect(page.url()).toContain('mode=executed');
      await modeFilter(page).selectOption('proposed');
      await table.getByText('refresh-token-replay').waitFor();
      await modeFilter(page).selectOption({ label: 'Every mode' });
      await poll(() => page.url()).not.toContain('mode=');

      // Deny with a reason: the API records the verdict.
      await table.getByRole('button', { name: /^Open the decision/ }).click();
      const verdict = page.getByRole('form', { name: 'Adjudicate this decision' });
      await verdict.getByLabel('Verdict').selectOption('false');
      await verdict.getByLabel('Reason').fill('the member replayed from an old tab');
      await verdict.getByRole('button', { name: 'Record the verdict' }).click();
      await page.getByText('Outcome: denied').waitFor();
      const denied = await request(api('/autonomy/decisions?mode=denied'), { token: world.org.owner.token });
      expect(denied.body.decisions.map((d: { id: string }) => d.id)).toEqual([decision.id]);
      expect(denied.body.decisions[0]).toMatchObject({
        adjudication: 'denied',
        decided_by: world.org.owner.userId,
        decision_reason: 'the member replayed from an old tab',
      });
      // A decided proposal offers no verdict any more.
      await poll(() => verdict.count()).toBe(0);

      // Kill switch for 1 hour with a reason.
      const engage = page.getByRole('form', { name: 'Engage the autonomy kill switch' });
      await engage.getByLabel('For', { exact: true }).selectOption('1');
      await engage.getByLabel('Reason', { exact: true }).fill('incident drill');
      await engage.getByRole('button', { name: 'Engage the kill switch' }).click();
      await poll(() => page.getByTestId('autonomy-kill-state').textContent()).toMatch(/^Engaged/);
      expect(await page.getByTestId('autonomy-kill-reason').textContent()).toBe('incident drill');
      const state = await request(api('/autonomy/kill-switch'), { token: world.org.owner.token });
      expect(state.body).toMatchObject({ engaged: true, indefinite: false, reason: 'incident drill' });
      const left = Date.parse(state.body.until) - world.svc.clock.now().getTime();
      expect(Math.round(left / 60_000)).toBe(60);

      // Indefinitely without a reason: the API's 400 detail, nothing changed.
      await engage.getByLabel('For', { exact: true }).selectOption({ label: 'Indefinitely (until released)' });
      await engage.getByLabel('Reason', { exact: true }).fill('');
      await engage.getByRole('button', { name: 'Engage the kill switch' }).click();
      await engage.getByText('An indefinite kill switch needs a reason').waitFor();
      const still = await request(api('/autonomy/kill-switch'), { token: world.org.owner.token });
      expect(still.body).toMatchObject({ engaged: true, indefinite: false, until: state.body.until });

      await page.getByRole('heading', { name: 'Graduation', exact: true }).waitFor();
      await page.getByTestId('autonomy-metrics').waitFor();
      await axeCheck(page, 'autonomy');
      await screenshot(page, 'autonomy');

      // Release (a person's act) after a confirmation.
      await page.getByRole('button', { name: 'Release the kill switch' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Release', exact: true }).click();
      await poll(() => page.getByTestId('autonomy-kill-state').textContent()).toMatch(/^Released/);
      const released = await request(api('/autonomy/kill-switch'), { token: world.org.owner.token });
      expect(released.body.engaged).toBe(false);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('shows an auditor and a member no action; the member has no screen', async () => {
    const { context, page } = await openConsole(browser, world.svc.url, world.org.auditor);
    try {
      await openAutonomy(page);
      const table = page.getByRole('table', { name: 'Autonomy decisions' });
      await table.getByText('refresh-token-replay').waitFor();
      await poll(() => page.getByTestId('autonomy-kill-state').textContent()).toMatch(/^Released/);
      await table.getByRole('button', { name: /^Open the decision/ }).click();
      await page.getByRole('heading', { name: 'Decision', exact: true }).waitFor();
      expect(await page.getByRole('form', { name: 'Adjudicate this decision' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: /Revert/ }).count()).toBe(0);
      expect(await page.getByRole('form', { name: 'Engage the autonomy kill switch' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Release the kill switch' }).count()).toBe(0);
      // The API agrees: the auditor's own engagement is refused.
      const forced = await request(api('/autonomy/kill-switch'), {
        token: world.org.auditor.token,
        json: { enable: true, hours: 1 },
      });
      expect(forced.status).toBe(403);
    } finally {
      await context.close();
    }

    const member = await openConsole(browser, world.svc.url, world.org.member);
    try {
      const nav = member.page.getByRole('navigation', { name: 'Console' });
      await nav.getByRole('link').first().waitFor();
      expect(await nav.getByRole('link', { name: 'Autonomous response' }).count()).toBe(0);
    } finally {
      await member.context.close();
    }
  }, 120_000);
});
