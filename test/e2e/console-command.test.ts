import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.js';
import { axeCheck, type ConsoleWorld, openConsole, screenshot, startConsole } from '../support/console.js';
import { request } from '../support/http.js';
import { addMember } from '../support/organizations.js';

// The console's Command Center screens (issue 29 item 3; docs/console.md "Command Center") in Chromium: a failed
// sign-in arrives on the live stream without a reload; an incident is created from two real detections (replayed
// refresh tokens) and worked; a detection is acknowledged with a note; the audit chain's verification is the
// platform operator's alone; an auditor finds nothing to change, and a refusal the API makes shows its detail.

const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 15_000 });

let world: ConsoleWorld;
let browser: Browser;
let replayed: { detectionId: string; userId: string }[];

const api = (path: string) => `${world.svc.url}/api/v1${path}`;
const asOwner = (path: string) => request(api(path), { token: world.org.owner.token });

/** A replayed refresh token of a new member: one `refresh-token-replay` detection (high), as in production. */
async function replayDetection(): Promise<{ detectionId: string; userId: string }> {
  const person = await addMember(world.svc, world.org, 'member');
  const login = await request(api('/auth/login'), {
    json: { email: person.email, password: person.password, tenant_slug: world.org.slug },
  });
  const refresh = () => request(api('/auth/refresh'), { json: { refresh_token: login.body.refresh_token } });
  expect((await refresh()).status).toBe(200);
  expect((await refresh()).status).toBe(401);
  const found = await asOwner(`/command/detections?actor_id=${person.userId}`);
  expect(found.body.detections).toHaveLength(1);
  return { detectionId: found.body.detections[0].id, userId: person.userId };
}

beforeAll(async () => {
  [world, browser] = await Promise.all([startConsole(), launchBrowser()]);
  replayed = [await replayDetection(), await replayDetection(), await replayDetection()];
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await world?.close();
});

async function heading(page: Page) {
  return (await page.getByRole('heading', { level: 1 }).textContent())?.trim();
}

/** Goes to a console address inside the running app (tokens live in memory: a page load would sign out). */
async function visit(page: Page, path: string) {
  await page.evaluate(
    `history.pushState(null, '', ${JSON.stringify(path)}); dispatchEvent(new PopStateEvent('popstate'))`,
  );
}

const search = (page: Page) => new URL(page.url()).searchParams;

describe('console: Command Center', () => {
  it('shows a failed sign-in arriving on the live stream without a reload; filters stay in the URL', async () => {
    const { context, page } = await openConsole(browser, world.svc.url, world.org.admin);
    try {
      await page
        .getByRole('navigation', { name: 'Console' })
        .getByRole('link', { name: 'Events', exact: true })
        .click();
      await poll(() => heading(page)).toBe('Events');
      await poll(() => page.getByTestId('stream-state').getAttribute('data-state')).toBe('live');
      await page.getByRole('table', { name: 'Recorded events' }).waitFor();

      // Caused from outside the browser: a wrong password for the member.
      const failed = await request(api('/auth/login'), {
        json: { email: world.org.member.email, password: 'not the password at all', tenant_slug: world.org.slug },
      });
      expect(failed.status).toBe(401);
      const live = page.getByRole('table', { name: 'Events arriving live' });
      const arrived = live.getByRole('row').filter({ hasText: 'user.login_failed' });
      await arrived.first().waitFor({ timeout: 15_000 });
      await arrived.filter({ hasText: world.org.member.userId }).first().waitFor();
      // The same event as the API lists.
      const listed = await asOwner(`/command/events?action=user.login_failed&actor_id=${world.org.member.userId}`);
      expect(listed.body.events).toHaveLength(1);
      expect(listed.body.events[0]).toMatchObject({
        severity: 'low',
        outcome: 'failure',
        tenant_id: world.org.tenantId,
      });

      // Filters live in the address and narrow both the list and what the stream shows.
      await page.getByLabel('Severity', { exact: true }).selectOption('low');
      await page.getByLabel('Actor type').selectOption('human');
      await page.getByLabel('Action', { exact: true }).fill('user.login_failed');
      await page.getByLabel('Action', { exact: true }).press('Enter');
      await poll(() => search(page).toString()).toBe('severity=low&actor_type=human&action=user.login_failed');
      const recorded = page.getByRole('table', { name: 'Recorded events' });
      await poll(() => recorded.getByRole('row').count()).toBe(2); // header + the one event
      await recorded.getByRole('row').filter({ hasText: world.org.member.userId }).waitFor();
      await axeCheck(page, 'events with the live stream');
      await page.evaluate('scrollTo(0, 0)');
      await screenshot(page, 'command-events');

      // Pausing stops the stream (its state says so); an event meanwhile is not shown.
      await page.getByRole('button', { name: 'Pause the live stream' }).click();
      await poll(() => page.getByTestId('stream-state').getAttribute('data-state')).toBe('stopped');
      expect(search(page).get('paused')).toBe('1');

      // Activity by actor: people over the last 7 days, linking to their events.
      await page.getByRole('link', { name: 'Activity by actor' }).first().click();
      await poll(() => heading(page)).toBe('Activity by actor');
      await page.getByLabel('Actor type').selectOption('human');
      const principals = page.getByRole('table', { name: 'Activity of human principals' });
      await principals.getByRole('link', { name: world.org.member.userId }).waitFor();
      await axeCheck(page, 'activity by actor');
      await screenshot(page, 'command-by-actor');
      await principals.getByRole('link', { name: world.org.member.userId }).click();
      await poll(() => heading(page)).toBe('Events');
      expect(search(page).get('actor_id')).toBe(world.org.member.userId);
    } finally {
      await context.close();
    }
  }, 90_000);

  it('creates an incident from two detections, works it, and acknowledges a detection with a note', async () => {
    const [first, second, third] = replayed as [(typeof replayed)[0], (typeof replayed)[0], (typeof replayed)[0]];
    const { context, page } = await openConsole(browser, world.svc.url, world.org.admin);
    try {
      await visit(page, '/console/command/detections');
      await poll(() => heading(page)).toBe('Detections');
      const table = page.getByRole('table', { name: 'Detections' });
      await table.getByRole('checkbox', { name: `Select refresh-token-replay actor:${first.userId}` }).check();
      await table.getByRole('checkbox', { name: `Select refresh-token-replay actor:${second.userId}` }).check();
      await page.getByRole('button', { name: 'Create incident from 2' }).click();
      // A blank title is the API's 422, shown at the field.
      await page.getByLabel('Title').fill('   ');
      await page.getByRole('button', { name: 'Open the incident' }).click();
      await poll(() => page.getByLabel('Title').getAttribute('aria-invalid')).toBe('true');
      expect((await asOwner('/command/incidents')).body.incidents).toEqual([]);
      await page.getByLabel('Title').fill('Stolen refresh tokens');
      await page.getByLabel('Description').fill('Two sessions replayed a rotated refresh token');
      await page.getByRole('button', { name: 'Open the incident' }).click();
      await poll(() => heading(page)).toBe('Stolen refresh tokens');
      const [incident] = (await asOwner('/command/incidents')).body.incidents;
      expect(incident).toMatchObject({ title: 'Stolen refresh tokens', severity: 'high', status: 'open' });
      expect([...incident.detection_ids].sort()).toEqual([first.detectionId, second.detectionId].sort());
      expect(new URL(page.url()).pathname).toBe(`/console/command/incidents/${incident.id}`);

      // Work it: only the documented moves are offered.
      const status = page.getByLabel('Status', { exact: true });
      expect(await status.locator('option').allTextContents()).toEqual([
        'open (now)',
        'investigating',
        'contained',
        'resolved',
        'closed',
      ]);
      await status.selectOption('contained');
      await page.getByLabel('Containment').fill('Sessions of both accounts revoked');
      await page.getByLabel('Assignee').selectOption(world.org.admin.userId);
      await page.getByRole('button', { name: 'Save changes' }).click();
      await poll(() => page.getByTestId('incident-status').textContent()).toBe('contained');
      await poll(() => page.getByTestId('incident-assignee').textContent()).toBe(world.org.admin.email);
      const gathered = page.getByRole('table', { name: 'Detections gathered' });
      await poll(() => gathered.getByRole('row').filter({ hasText: 'refresh-token-replay' }).count()).toBe(2);
      const worked = (await asOwner('/command/incidents')).body.incidents[0];
      expect(worked).toMatchObject({
        status: 'contained',
        containment: 'Sessions of both accounts revoked',
        assignee: world.org.admin.userId,
      });
      // From contained, open is no longer offered.
      expect(await page.getByLabel('Status', { exact: true }).locator('option').allTextContents()).toEqual([
        'contained (now)',
        'investigating',
        'resolved',
        'closed',
      ]);
      await axeCheck(page, 'incident detail');
      await page.evaluate('scrollTo(0, 0)');
      await screenshot(page, 'command-incident');

      await page.getByRole('link', { name: 'All incidents' }).click();
      await page
        .getByRole('table', { name: 'Incidents' })
        .getByRole('link', { name: 'Stolen refresh tokens' })
        .waitFor();
      await poll(() => page.getByTestId('unresolved-count').textContent()).toBe('1');
      await axeCheck(page, 'incidents');
      await screenshot(page, 'command-incidents');

      // Acknowledge the third detection with a note.
      await visit(page, '/console/command/detections');
      await page.getByRole('button', { name: `Acknowledge refresh-token-replay actor:${third.userId}` }).click();
      await page.getByLabel('Note').fill('Asked the member to sign in again');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByText('The refresh-token-replay detection is acknowledged.').waitFor();
      const settled = (await asOwner(`/command/detections?actor_id=${third.userId}`)).body.detections[0];
      expect(settled).toMatchObject({ status: 'acknowledged', note: 'Asked the member to sign in again' });
      await page.getByTestId('detections-summary').waitFor();
      await page.getByLabel('Status', { exact: true }).selectOption('acknowledged');
      expect(search(page).get('status')).toBe('acknowledged');
      await poll(() => page.getByRole('table', { name: 'Detections' }).getByRole('row').count()).toBe(2);
      await page.getByLabel('Status', { exact: true }).selectOption('');
      await page.getByRole('table', { name: 'Detections' }).getByRole('checkbox').first().waitFor();
      // The two gathered detections link to their incident.
      await poll(() =>
        page.getByRole('table', { name: 'Detections' }).getByRole('link', { name: 'Stolen refresh tokens' }).count(),
      ).toBe(2);
      await axeCheck(page, 'detections');
      await page.evaluate('scrollTo(0, 0)');
      await screenshot(page, 'command-detections');
    } finally {
      await context.close();
    }
  }, 90_000);

  it('shows chain verification to the platform operator only; compliance readiness and findings', async () => {
    const operator = await openConsole(browser, world.svc.url, world.platform.owner);
    try {
      const page = operator.page;
      await visit(page, '/console/command/audit');
      await poll(() => heading(page)).toBe('Audit log');
      await page.getByRole('button', { name: 'Verify the chain' }).click();
      await poll(() => page.getByTestId('verified').textContent()).toBe('Yes: the chain is intact');
      const entries = Number(await page.getByTestId('verified-entries').textContent());
      expect(entries).toBeGreaterThan(10);
      expect(await page.getByTestId('broken-seq').textContent()).toBe('None');
      await page.getByRole('table', { name: 'Audit entries' }).getByText('soc2:CC6.1').first().waitFor();
      await axeCheck(page, 'audit log with verification');
      await screenshot(page, 'command-audit');
    } finally {
      await operator.context.close();
    }

    const { context, page } = await openConsole(browser, world.svc.url, world.org.owner);
    try {
      await visit(page, '/console/command/audit');
      await poll(() => heading(page)).toBe('Audit log');
      const table = page.getByRole('table', { name: 'Audit entries' });
      await table.getByText('incident.opened').first().waitFor();
      expect(await page.getByRole('button', { name: 'Verify the chain' }).count()).toBe(0);
      expect(await page.getByRole('heading', { name: 'Chain verification' }).count()).toBe(0);
      // The API refuses it too.
      const forced = await asOwner('/command/audit/verify');
      expect(forced.status).toBe(403);

      // Compliance: readiness per framework as the report says.
      await visit(page, '/console/command/compliance');
      await poll(() => heading(page)).toBe('Compliance');
      const soc2 = (await asOwner('/command/compliance/report?framework=soc2')).body;
      await poll(() => page.getByTestId('readiness').textContent()).toBe(`${soc2.readiness_pct}%`);
      await page.getByLabel('Framework').selectOption('gdpr');
      expect(search(page).get('framework')).toBe('gdpr');
      const gdpr = (await asOwner('/command/compliance/report?framework=gdpr')).body;
      await page.getByRole('heading', { name: `${gdpr.framework_name}: readiness` }).waitFor();
      await poll(() => page.getByTestId('readiness').textContent()).toBe(`${gdpr.readiness_pct}%`);
      await page.getByRole('table', { name: 'Controls and their evidence' }).waitFor();
      await axeCheck(page, 'compliance');
      await screenshot(page, 'command-compliance');

      await visit(page, '/console/command/findings');
      await poll(() => heading(page)).toBe('Findings');
      await page
        .getByRole('table', { name: 'Findings' })
        .getByText(/session\.refresh_replayed/)
        .first()
        .waitFor();
      await axeCheck(page, 'findings');
      await screenshot(page, 'command-findings');
    } finally {
      await context.close();
    }
  }, 90_000);

  it('gives an auditor nothing to change, a member no Command Center, and shows the API 403 when forced', async () => {
    const auditor = await openConsole(browser, world.svc.url, world.org.auditor);
    try {
      const page = auditor.page;
      await visit(page, '/console/command/detections');
      const table = page.getByRole('table', { name: 'Detections' });
      await table.getByText(`actor:${replayed[0]!.userId}`).waitFor();
      expect(await page.getByRole('checkbox').count()).toBe(0);
      expect(await page.getByRole('button', { name: /^Create incident/ }).count()).toBe(0);
      expect(await page.getByRole('button', { name: /^(Acknowledge|Resolve)/ }).count()).toBe(0);
      await axeCheck(page, 'detections as an auditor');

      await visit(page, '/console/command/incidents');
      await page.getByRole('table', { name: 'Incidents' }).getByRole('link', { name: 'Stolen refresh tokens' }).click();
      await poll(() => heading(page)).toBe('Stolen refresh tokens');
      await page.getByText('Sessions of both accounts revoked').waitFor();
      expect(await page.getByRole('button', { name: 'Save changes' }).count()).toBe(0);
      expect(await page.getByRole('textbox').count()).toBe(0);
      expect(await page.getByRole('combobox').count()).toBe(0);

      await visit(page, '/console/command/audit');
      await page.getByRole('table', { name: 'Audit entries' }).waitFor();
      expect(await page.getByRole('button', { name: 'Verify the chain' }).count()).toBe(0);
    } finally {
      await auditor.context.close();
    }

    const member = await openConsole(browser, world.svc.url, world.org.member);
    try {
      const nav = member.page.getByRole('navigation', { name: 'Console' });
      expect(await nav.getByRole('link', { name: 'Events', exact: true }).count()).toBe(0);
      await visit(member.page, '/console/command/events');
      await poll(() => heading(member.page)).toBe('Not available');
    } finally {
      await member.context.close();
    }

    // A security operator demoted to auditor while the settle form is open: the API's refusal shows.
    const operator = await addMember(world.svc, world.org, 'security_operator');
    const { context, page } = await openConsole(browser, world.svc.url, { ...operator, slug: world.org.slug });
    try {
      await visit(page, '/console/command/detections');
      await page.getByRole('button', { name: `Resolve refresh-token-replay actor:${replayed[2]!.userId}` }).click();
      const roster = await asOwner('/members');
      const membership = roster.body.find((m: { user_id: string }) => m.user_id === operator.userId);
      const changed = await request(api(`/members/${membership.membership_id}`), {
        method: 'PATCH',
        token: world.org.owner.token,
        json: { role: 'auditor' },
      });
      expect(changed.status, changed.text).toBe(200);
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page
        .getByRole('alert')
        .filter({ hasText: 'Missing permission: command:operate' })
        .filter({ hasText: '403' })
        .waitFor();
      const still = (await asOwner(`/command/detections?actor_id=${replayed[2]!.userId}`)).body.detections[0];
      expect(still.status).toBe('acknowledged');
    } finally {
      await context.close();
    }
  }, 90_000);
});
