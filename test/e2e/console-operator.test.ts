import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.js';
import { axeCheck, type ConsoleWorld, openConsole, startConsole, screenshot as take } from '../support/console.js';
import { request } from '../support/http.js';

/**
 * The console's platform-operator screens (issue 29, Part B 4.10): organizations with their plan, onboarding invite
 * codes. Driven in Chromium by the platform owner signed in through /login, every outcome checked against the API;
 * an ordinary organization's owner finds none of it. docs/console.md "Operator plane".
 */
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
const heading = (page: Page) => page.getByRole('heading', { level: 1 });
const poll = (read: () => unknown) => expect.poll(read, { timeout: 15_000 });

async function screenshot(page: Page, name: string) {
  await page.evaluate('window.scrollTo(0, 0)');
  await take(page, name);
}

/** Client-side navigation (a reload would drop the tokens the console keeps in memory only). */
async function go(page: Page, path: string, title: string) {
  await page.evaluate(
    `history.pushState(null, '', ${JSON.stringify(`/console${path}`)}); dispatchEvent(new PopStateEvent('popstate'));`,
  );
  await poll(() => heading(page).textContent()).toBe(title);
}

async function planOf(tenantId: string): Promise<string | undefined> {
  const res = await request(api(`/operator/tenants?q=${encodeURIComponent(world.org.slug)}`), {
    token: world.platform.owner.token,
  });
  expect(res.status, res.text).toBe(200);
  return (res.body.tenants as { id: string; plan_code: string }[]).find((t) => t.id === tenantId)?.plan_code;
}

describe('operator plane screens', () => {
  it("changes an organization's plan and shows its settings; issues an invite code once and revokes it", async () => {
    const before = await planOf(world.org.tenantId);
    const target = before === 'enterprise' ? 'pro' : 'enterprise';
    const { context, page } = await openConsole(browser, world.svc.url, world.platform.owner);
    try {
      const nav = page.getByRole('navigation', { name: 'Console' });
      await nav.getByRole('link', { name: 'Organizations' }).click();
      await poll(() => heading(page).textContent()).toBe('Organizations');

      // The search filter lives in the URL.
      await page.getByLabel('Slug or name contains').fill(world.org.slug);
      await page.getByRole('button', { name: 'Find' }).click();
      await poll(() => new URL(page.url()).searchParams.get('q')).toBe(world.org.slug);
      const plan = page.getByTestId(`plan-${world.org.slug}`);
      await poll(() => plan.textContent()).toBe(before);

      await page.getByRole('button', { name: `Change plan of ${world.org.slug}` }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('New plan').selectOption(target);
      await dialog.getByRole('button', { name: 'Set plan' }).click();
      await poll(() => plan.textContent()).toBe(target);
      expect(await planOf(world.org.tenantId)).toBe(target);
      await axeCheck(page, 'operator tenants');
      await screenshot(page, 'operator-tenants');

      // The organization's settings, read-only ones marked as the organization's.
      await page.getByRole('table', { name: 'Organizations' }).getByRole('link').first().click();
      await poll(() => heading(page).textContent()).toBe('Organization settings');
      await page.getByRole('table', { name: 'Settings of the organization' }).waitFor();
      const config = await request(api(`/operator/tenants/${world.org.tenantId}/config`), {
        token: world.platform.owner.token,
      });
      expect(config.status, config.text).toBe(200);
      expect(await page.getByRole('table', { name: 'Settings of the organization' }).locator('tbody tr').count()).toBe(
        Math.min(config.body.settings.length, 50),
      );
      await axeCheck(page, 'operator tenant settings');

      // An operator setting: out of bounds is refused by the API (its 400 shown), within bounds saved.
      const key = 'security.api_key_max_lifetime_days';
      await page.getByLabel('Setting', { exact: true }).selectOption(key);
      const change = page.getByRole('form', { name: 'Change an operator setting' });
      await change.getByLabel('Value').fill('4000');
      await change.getByRole('button', { name: 'Save setting' }).click();
      await poll(() => change.locator('.banner-error').count()).toBe(1);
      await change.getByLabel('Value').fill('90');
      await change.getByRole('button', { name: 'Save setting' }).click();
      await page.getByText(`Setting ${key} saved.`).waitFor();
      await poll(() => page.getByTestId(`setting-${key}`).textContent()).toBe('90');
      const after = await request(api(`/operator/tenants/${world.org.tenantId}/config`), {
        token: world.platform.owner.token,
      });
      expect(after.body.settings.find((s: { key: string }) => s.key === key)).toMatchObject({
        value: 90,
        overridden: true,
      });

      // Invite codes: issued once, listed by prefix, revoked after confirmation.
      await nav.getByRole('link', { name: 'Invite codes' }).click();
      await poll(() => heading(page).textContent()).toBe('Invite codes');
      await page.getByRole('button', { name: 'Issue invite code' }).click();
      const form = page.getByRole('form', { name: 'Issue an invite code' });
      await form.getByLabel('Email address').fill('newcomer@example.com');
      await form.getByLabel('Door').selectOption('signup');
      await form.getByLabel('Expires after (days)').fill('3');
      await form.getByRole('button', { name: 'Issue code' }).click();
      const secret = page.locator('[data-secret]');
      await secret.waitFor();
      const code = (await secret.textContent())?.trim() ?? '';
      expect(code.length).toBeGreaterThan(8);

      const listed = async () =>
        (
          (await request(api('/operator/invite-codes'), { token: world.platform.owner.token })).body.invite_codes as {
            id: string;
            email: string;
            door: string;
            status: string;
            code_prefix: string;
          }[]
        ).filter((c) => c.email === 'newcomer@example.com');
      const [issued] = await listed();
      expect(issued).toMatchObject({ door: 'signup', status: 'issued' });
      expect(code.startsWith(issued?.code_prefix ?? '-')).toBe(true);
      await page
        .getByRole('table', { name: 'Invite codes' })
        .getByRole('cell', { name: 'newcomer@example.com', exact: true })
        .waitFor();
      await axeCheck(page, 'operator invite codes');
      await screenshot(page, 'operator-invite-codes');

      // Shown once: done with it, the page holds only the prefix.
      await page.getByRole('button', { name: 'Done' }).click();
      expect(await page.getByText(code).count()).toBe(0);

      await page.getByRole('button', { name: 'Revoke invite code for newcomer@example.com' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
      await poll(async () => page.getByTestId(`code-status-${issued?.id}`).textContent()).toMatch(/^Revoked/);
      expect((await listed())[0]?.status).toBe('revoked');
    } finally {
      await context.close();
    }
  });

  it('yanks a release after confirmation, lists licences and distribution credentials, and edits the pricing', async () => {
    const published = await request(api('/operator/releases'), {
      token: world.platform.owner.token,
      json: {
        version: 'v9.8.7',
        object_key: 'releases/v9.8.7.tar.gz',
        checksum_sha256: 'a'.repeat(64),
        size_bytes: 1024,
        published_at: '2026-11-01T00:00:00Z',
      },
    });
    expect(published.status, published.text).toBe(201);
    const { context, page } = await openConsole(browser, world.svc.url, world.platform.owner);
    try {
      await go(page, '/operator/releases', 'Releases');
      const state = page.getByTestId('release-v9.8.7');
      await poll(() => state.textContent()).toBe('Published');
      await page.getByRole('button', { name: 'Yank release v9.8.7' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Yank' }).click();
      await poll(() => state.textContent()).toMatch(/^Yanked/);
      const releases = await request(api('/operator/releases'), { token: world.platform.owner.token });
      expect(releases.body.find((r: { version: string }) => r.version === 'v9.8.7')?.status).toBe('yanked');
      await axeCheck(page, 'operator releases');
      await screenshot(page, 'operator-releases');

      await go(page, '/operator/licences', 'Licences');
      await page
        .getByRole('table', { name: 'Licences' })
        .or(page.getByText('No licences issued yet.'))
        .first()
        .waitFor();
      await axeCheck(page, 'operator licences');
      await go(page, '/operator/distribution-credentials', 'Distribution credentials');
      await page
        .getByRole('table', { name: 'Distribution credentials' })
        .or(page.getByText('No distribution credentials yet.'))
        .first()
        .waitFor();
      await axeCheck(page, 'operator distribution credentials');

      // Pricing: the document edited as JSON; the public page serves the change at once.
      await go(page, '/operator/pricing', 'Pricing');
      const editor = page.getByLabel('Pricing document (JSON)');
      const before = JSON.parse(await editor.inputValue()) as { plans: { plan_code: string; name: string }[] };
      expect(before.plans.map((plan) => plan.plan_code)).toContain('pro');
      await editor.fill('{ not json');
      await page.getByRole('button', { name: 'Save pricing' }).click();
      await page.getByText(/^document: not valid JSON/).waitFor();
      const renamed = {
        ...before,
        plans: before.plans.map((p) => (p.plan_code === 'pro' ? { ...p, name: 'Pro Plus' } : p)),
      };
      await editor.fill(JSON.stringify(renamed));
      await page.getByRole('button', { name: 'Save pricing' }).click();
      await page.getByText('Pricing saved: the public page serves it now.').waitFor();
      const pricing = await request(api('/pricing'));
      expect(pricing.body.plans.find((plan: { plan_code: string }) => plan.plan_code === 'pro')?.name).toBe('Pro Plus');
      await axeCheck(page, 'operator pricing');
      await screenshot(page, 'operator-pricing');
    } finally {
      await context.close();
    }
  });

  it("gives an ordinary organization's owner no operator screen, and the API refuses them too", async () => {
    const { context, page } = await openConsole(browser, world.svc.url, world.org.owner);
    try {
      const nav = page.getByRole('navigation', { name: 'Console' });
      await nav.getByRole('link').first().waitFor();
      for (const name of ['Organizations', 'Invite codes', 'Licences', 'Distribution credentials', 'Releases'])
        expect(await nav.getByRole('link', { name, exact: true }).count(), name).toBe(0);
      await go(page, '/operator/tenants', 'Not available');
      await go(page, '/operator/invite-codes', 'Not available');
      await go(page, '/operator/releases', 'Not available');
      const plan = await request(api(`/operator/tenants/${world.org.tenantId}/plan`), {
        token: world.org.owner.token,
        method: 'PUT',
        json: { plan_code: 'enterprise' },
      });
      expect(plan.status).toBe(403);
      const codes = await request(api('/operator/invite-codes'), {
        token: world.org.owner.token,
        json: { email: 'x@example.com', door: 'signup' },
      });
      expect(codes.status).toBe(403);
    } finally {
      await context.close();
    }
  });
});
