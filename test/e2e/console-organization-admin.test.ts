import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.js';
import { axeCheck, type ConsoleWorld, openConsole, screenshot, startConsole } from '../support/console.js';
import { request } from '../support/http.js';

// The console's custom roles, settings (rendered from the registry) and privacy screens (issue 29 item 3;
// docs/console.md "Organization administration") in Chromium: each screen's main task end to end, checked through
// the API, and what people without the permission see.

let world: ConsoleWorld;
let browser: Browser;

beforeAll(async () => {
  [world, browser] = await Promise.all([startConsole(), launchBrowser()]);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await world?.close();
});

const api = (path: string) => `${world.svc.url}/api/v1${path}`;
const as = (token: string, path: string, init: { method?: string; json?: unknown } = {}) =>
  request(api(path), { token, ...init });
const asOwner = (path: string, init: { method?: string; json?: unknown } = {}) => as(world.org.owner.token, path, init);

async function heading(page: Page) {
  return (await page.getByRole('heading', { level: 1 }).textContent())?.trim();
}

async function go(page: Page, link: string, title = link) {
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: link, exact: true }).click();
  await expect.poll(() => heading(page), { timeout: 15_000 }).toBe(title);
}

/** A console URL opened the way the router does (a reload would drop the in-memory tokens). */
async function pushUrl(page: Page, path: string) {
  // A string, evaluated in the page: the tests' TypeScript has no DOM types.
  await page.evaluate(
    `history.pushState(null, '', ${JSON.stringify(path)}); dispatchEvent(new PopStateEvent('popstate'))`,
  );
}

const navLinks = async (page: Page) =>
  (await page.getByRole('navigation', { name: 'Console' }).getByRole('link').allTextContents()).map((t) => t.trim());

async function membershipOf(userId: string): Promise<string> {
  const roster = await asOwner('/members');
  return roster.body.find((m: { user_id: string }) => m.user_id === userId).membership_id;
}

describe('console: custom roles', () => {
  it('creates a role from the caller’s own permissions, edits it, and shows the API’s 409 while someone holds it', async () => {
    const { context, page } = await openConsole(browser, world.svc.url, world.org.admin);
    try {
      await go(page, 'Custom roles');
      await page.getByText('No custom roles yet: members hold system roles only.').waitFor();
      await page.getByRole('button', { name: 'Create a role' }).click();
      const form = page.getByRole('form', { name: 'Create a custom role' });
      // Only what an admin holds is offered: not compliance:admin, not operator permissions.
      await form.getByRole('checkbox', { name: /^members:read / }).waitFor();
      expect(await form.getByRole('checkbox', { name: /^compliance:admin / }).count()).toBe(0);
      expect(await form.getByRole('checkbox', { name: /^operator:/ }).count()).toBe(0);

      // A code the API refuses: its 422 shows next to the Code field.
      await form.getByRole('textbox', { name: /^Code/ }).fill('Support Desk');
      await form.getByRole('textbox', { name: /^Name/ }).fill('Support desk');
      await form.getByRole('checkbox', { name: /^members:read / }).check();
      await form.getByRole('checkbox', { name: /^command:read / }).check();
      await form.getByRole('button', { name: 'Create role' }).click();
      await form.locator('.field-error').waitFor();
      expect(await form.getByRole('textbox', { name: /^Code/ }).getAttribute('aria-invalid')).toBe('true');
      expect(await form.locator('.field-error').textContent()).toMatch(/^code: /);

      await form.getByRole('textbox', { name: /^Code/ }).fill('support-desk');
      await form.getByRole('button', { name: 'Create role' }).click();
      await page.getByText('Role support-desk created.', { exact: false }).waitFor();
      const created = await asOwner('/authz/roles/support-desk');
      expect(created.body).toMatchObject({ name: 'Support desk', permissions: ['command:read', 'members:read'] });
      await axeCheck(page, 'custom roles');

      // Edit: narrow it to members:read.
      await page.getByRole('button', { name: 'Edit support-desk' }).click();
      const edit = page.getByRole('form', { name: 'Edit role support-desk' });
      expect(await edit.getByRole('checkbox', { name: /^command:read / }).isChecked()).toBe(true);
      await edit.getByRole('checkbox', { name: /^command:read / }).uncheck();
      await edit.getByRole('textbox', { name: 'Description' }).fill('Answers questions about accounts');
      await edit.getByRole('button', { name: 'Save role' }).click();
      await page.getByText('Role support-desk saved.').waitFor();
      expect((await asOwner('/authz/roles/support-desk')).body).toMatchObject({
        permissions: ['members:read'],
        description: 'Answers questions about accounts',
        read_only: true,
      });
      await page.evaluate('scrollTo(0, 0)');
      await screenshot(page, 'custom-roles');

      // While the member holds it, deleting answers 409: shown in the dialog, the role stays.
      const membership = await membershipOf(world.org.member.userId);
      expect(
        (await asOwner(`/members/${membership}`, { method: 'PATCH', json: { role: 'support-desk' } })).status,
      ).toBe(200);
      await page.getByRole('button', { name: 'Delete support-desk' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
      const refusal = await as(world.org.owner.token, '/authz/roles/support-desk', { method: 'DELETE' });
      expect(refusal.status).toBe(409);
      await dialog.getByRole('alert').filter({ hasText: refusal.body.detail }).waitFor();
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      expect((await asOwner('/authz/roles/support-desk')).status).toBe(200);

      // Once nobody holds it, it goes.
      expect((await asOwner(`/members/${membership}`, { method: 'PATCH', json: { role: 'member' } })).status).toBe(200);
      await page.getByRole('button', { name: 'Delete support-desk' }).click();
      await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
      await page.getByText('Role support-desk deleted.').waitFor();
      expect((await asOwner('/authz/roles/support-desk')).status).toBe(404);
    } finally {
      await context.close();
    }
  }, 120_000);
});

describe('console: settings', () => {
  it('renders the registry as a form, saves a boolean and an enumerated value, shows the history and resets', async () => {
    const { context, page } = await openConsole(browser, world.svc.url, world.org.owner);
    try {
      await go(page, 'Settings');
      const schema = (await asOwner('/tenants/config/schema')).body as { key: string; type: string }[];
      // One form per registry key, each control typed as the registry says.
      for (const record of schema) await page.getByRole('form', { name: record.key }).waitFor();
      const magic = page.getByRole('form', { name: 'auth.magic_link_enabled' });
      expect(await magic.getByRole('checkbox').isChecked()).toBe(true);
      const level = page.getByRole('form', { name: 'autonomy.level_disable_principal' });
      expect(await level.getByRole('combobox').locator('option').allTextContents()).toEqual(['manual', 'recommend']);
      await axeCheck(page, 'settings');

      await magic.getByRole('checkbox').uncheck();
      await magic.getByRole('button', { name: 'Save auth.magic_link_enabled' }).click();
      await page.getByText('auth.magic_link_enabled is now Off.').waitFor();
      const after = (await asOwner('/tenants/config/schema')).body.find(
        (r: { key: string }) => r.key === 'auth.magic_link_enabled',
      );
      expect(after).toMatchObject({ value: false, overridden: true });

      await level.getByRole('combobox').selectOption('recommend');
      await level.getByRole('button', { name: 'Save autonomy.level_disable_principal' }).click();
      await page.getByText('autonomy.level_disable_principal is now recommend.').waitFor();
      const history = await asOwner('/tenants/config/autonomy.level_disable_principal/history');
      expect(history.body).toEqual([
        expect.objectContaining({ old_value: 'manual', new_value: 'recommend', changed_by: expect.any(Object) }),
      ]);

      // The change history of a key, newest first.
      await magic.getByRole('button', { name: 'History' }).click();
      const changes = page.getByRole('table', { name: 'Changes of auth.magic_link_enabled' });
      await changes.getByRole('row').nth(1).waitFor();
      expect(await changes.getByRole('row').nth(1).textContent()).toContain('OnOff');
      await page.evaluate('scrollTo(0, 0)');
      await screenshot(page, 'settings');

      // Reset to the default drops the override, and the history grows.
      await magic.getByRole('button', { name: 'Reset to default' }).click();
      await page.getByText('auth.magic_link_enabled is now On.').waitFor();
      const reset = (await asOwner('/tenants/config/schema')).body.find(
        (r: { key: string }) => r.key === 'auth.magic_link_enabled',
      );
      expect(reset).toMatchObject({ value: true, overridden: false });
      await expect.poll(() => changes.getByRole('row').count(), { timeout: 15_000 }).toBe(3);
    } finally {
      await context.close();
    }
  }, 120_000);
});

describe('console: privacy requests and retention', () => {
  it('a member files and withdraws requests; a compliance administrator verifies, processes and rejects them and sets retention', async () => {
    const member = await openConsole(browser, world.svc.url, world.org.member);
    let own: { id: string; request_type: string }[] = [];
    try {
      await go(member.page, 'My data and privacy');
      await member.page.getByText('You have filed no request.').waitFor();
      for (const [type, description] of [
        ['export', 'A copy of my data, please'],
        ['rectification', 'My name is misspelt'],
      ] as const) {
        await member.page.getByLabel('What are you asking for?').selectOption(type);
        await member.page.getByRole('textbox', { name: /^Details/ }).fill(description);
        await member.page.getByRole('button', { name: 'File request' }).click();
        await member.page.getByText(/^Request filed; it is due by /).waitFor();
      }
      await expect
        .poll(async () => (await as(world.org.member.token, '/gdpr/requests')).body.requests.length, {
          timeout: 15_000,
        })
        .toBe(2);
      own = (await as(world.org.member.token, '/gdpr/requests')).body.requests;
      const rectification = own.find((r) => r.request_type === 'rectification')!;
      await member.page.getByRole('button', { name: /^Cancel request: rectification/ }).click();
      await member.page.getByRole('dialog').getByRole('button', { name: 'Withdraw' }).click();
      await member.page.getByText('Request withdrawn.').waitFor();
      expect(
        (await as(world.org.member.token, '/gdpr/requests')).body.requests.find(
          (r: { id: string }) => r.id === rectification.id,
        ).status,
      ).toBe('cancelled');
      await axeCheck(member.page, 'my privacy');
      await member.page.evaluate('scrollTo(0, 0)');
      await screenshot(member.page, 'my-privacy');
      // A member holds no compliance permission: the organization's privacy screen is not offered.
      expect(await navLinks(member.page)).not.toContain('Privacy and retention');
    } finally {
      await member.context.close();
    }
    // One more request, to be rejected.
    const erasure = await as(world.org.member.token, '/gdpr/requests', { json: { request_type: 'erasure' } });
    expect(erasure.status).toBe(201);

    const { context, page } = await openConsole(browser, world.svc.url, world.org.owner);
    try {
      await go(page, 'Privacy and retention', 'Privacy requests and retention');
      await page.getByLabel('Status').selectOption('pending');
      expect(new URL(page.url()).searchParams.get('status')).toBe('pending');
      const table = page.getByRole('table', { name: 'Data-subject requests' });
      await expect.poll(() => table.getByRole('row').count(), { timeout: 15_000 }).toBe(3);
      // The subject is named by address (members:read).
      expect(await table.textContent()).toContain(world.org.member.email);

      await page.getByRole('button', { name: /^Verify the identity for the export request/ }).click();
      await page.getByText('The requester’s identity is recorded as confirmed.').waitFor();
      const listed = async (id?: string) => {
        const all = (await asOwner('/gdpr/admin/requests')).body.requests as { id: string; request_type: string }[];
        return id ? all.find((r) => r.id === id) : all;
      };
      const exportId = own.find((r) => r.request_type === 'export')!.id;
      expect(await listed(exportId)).toMatchObject({ status: 'verified' });

      await page.getByLabel('Status').selectOption('');
      await page.getByRole('button', { name: /^Process the export request/ }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Process', exact: true }).click();
      await page.getByRole('button', { name: 'Download the export (JSON)' }).waitFor();
      expect(await listed(exportId)).toMatchObject({ status: 'completed' });
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Download the export (JSON)' }).click();
      expect((await download).suggestedFilename()).toBe(`personal-data-${world.org.member.userId}.json`);

      await page.getByRole('button', { name: /^Reject the erasure request/ }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel(/^Reason given to the requester/).fill('We hold records under a legal obligation');
      await dialog.getByRole('button', { name: 'Reject request' }).click();
      await page.getByText('The request was rejected.').waitFor();
      expect(await listed(erasure.body.id)).toMatchObject({
        status: 'rejected',
        rejection_reason: 'We hold records under a legal obligation',
      });

      // Retention: an out-of-range value is refused next to its field; then 30 days, purging on.
      await page.getByRole('button', { name: 'Edit the retention of Security events' }).click();
      const policy = page.getByRole('form', { name: 'Retention of Security events' });
      await policy.getByLabel(/^Keep records for/).fill('40000');
      await policy.getByRole('button', { name: 'Save policy' }).click();
      await policy.locator('.field-error').waitFor();
      expect(await policy.locator('.field-error').textContent()).toMatch(/^retention_days: /);
      await policy.getByLabel(/^Keep records for/).fill('30');
      await policy.getByRole('checkbox', { name: /^Purge records older than this/ }).check();
      await policy.getByRole('button', { name: 'Save policy' }).click();
      await page.getByText('Security events: kept 30 days, purging on.').waitFor();
      const policies = (await asOwner('/retention')).body.policies as { data_class: string }[];
      expect(policies.find((p) => p.data_class === 'events')).toMatchObject({ retention_days: 30, enabled: true });
      await axeCheck(page, 'privacy');
      await page.evaluate('scrollTo(0, 0)');
      await screenshot(page, 'privacy');
    } finally {
      await context.close();
    }
  }, 150_000);
});

describe('console: who may administer', () => {
  it('an admin reads privacy requests and retention without acting; an auditor gets no roles or settings screen', async () => {
    const admin = await openConsole(browser, world.svc.url, world.org.admin);
    try {
      await go(admin.page, 'Privacy and retention', 'Privacy requests and retention');
      await admin.page.getByRole('table', { name: 'Retention policies' }).waitFor();
      await admin.page.getByRole('table', { name: 'Data-subject requests' }).waitFor();
      expect(await admin.page.getByRole('button', { name: /^(Verify|Process|Reject) / }).count()).toBe(0);
      expect(await admin.page.getByRole('button', { name: /^Edit the retention/ }).count()).toBe(0);
      // Forced: the API refuses what the screen does not offer.
      const forced = await as(world.org.admin.token, '/retention/events', {
        method: 'PUT',
        json: { retention_days: 5 },
      });
      expect(forced.status).toBe(403);
      await axeCheck(admin.page, 'privacy (admin)');
    } finally {
      await admin.context.close();
    }

    const auditor = await openConsole(browser, world.svc.url, world.org.auditor);
    try {
      const links = await navLinks(auditor.page);
      expect(links).toContain('Members');
      expect(links).not.toContain('Custom roles');
      expect(links).not.toContain('Settings');
      for (const path of ['/console/settings', '/console/roles']) {
        await pushUrl(auditor.page, path);
        await expect.poll(() => heading(auditor.page), { timeout: 15_000 }).toBe('Not available');
      }
      // An auditor holds compliance:read: requests and retention are visible, with no action.
      await go(auditor.page, 'Privacy and retention', 'Privacy requests and retention');
      await auditor.page.getByRole('table', { name: 'Retention policies' }).waitFor();
      expect(await auditor.page.getByRole('button', { name: /^(Verify|Process|Reject|Edit) / }).count()).toBe(0);
    } finally {
      await auditor.context.close();
    }
  }, 120_000);
});
