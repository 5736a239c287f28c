import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.js';
import { axeCheck, type ConsoleWorld, openConsole, startConsole, screenshot as take } from '../support/console.js';
import { request } from '../support/http.js';
import { startWebhookReceiver, TEST_CA_FILE, type WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * The console's integrations area (issue 29 item 3), part one: API keys and webhooks, driven in Chromium by people
 * signed in through /login, with every outcome checked against the public API. docs/console.md "Integrations".
 */
let world: ConsoleWorld;
let browser: Browser;
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  [world, browser] = await Promise.all([
    startConsole({
      EGRESS_TEST_ROUTES: `secure.example.test=127.0.0.1:${receiver.port}`,
      EGRESS_TEST_CA_FILE: TEST_CA_FILE,
    }),
    launchBrowser(),
  ]);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await world?.close();
  await receiver?.close();
});

const api = (path: string) => `${world.svc.url}/api/v1${path}`;
const heading = (page: Page) => page.getByRole('heading', { level: 1 });

/** Screenshots of a screen from its top (actions scroll the page). */
async function screenshot(page: Page, name: string) {
  await page.evaluate('window.scrollTo(0, 0)');
  await take(page, name);
}

/** Client-side navigation (a reload would drop the tokens the console keeps in memory only). */
async function go(page: Page, path: string, title: string) {
  // Evaluated in the page (a string: the server's type check has no DOM library).
  await page.evaluate(
    `history.pushState(null, '', ${JSON.stringify(`/console${path}`)}); dispatchEvent(new PopStateEvent('popstate'));`,
  );
  await expect.poll(() => heading(page).textContent(), { timeout: 15_000 }).toBe(title);
}

describe('API keys screen', () => {
  it('creates a key shown once that works against the API, rotates it, revokes it with a reason, filters in the URL', async () => {
    const { context, page } = await openConsole(browser, world.svc.url, world.org.owner);
    try {
      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'API keys' }).click();
      await expect.poll(() => heading(page).textContent(), { timeout: 15_000 }).toBe('API keys');
      await page.getByText('No API keys yet.').waitFor();

      await page.getByRole('button', { name: 'Create API key' }).click();
      const form = page.getByRole('form', { name: 'Create an API key' });
      await form.getByLabel('Label').fill('Billing sync');
      await form.getByRole('checkbox', { name: 'members:read' }).check();
      await form.getByRole('button', { name: 'Create key' }).click();
      const secret = page.locator('[data-secret]');
      await secret.waitFor();
      const key = (await secret.textContent())!;
      expect(key).toMatch(/^svc_test_/);

      // The key shown works against the API with exactly the scope chosen.
      const members = await request(api('/members'), { token: key });
      expect(members.status, members.text).toBe(200);
      const refused = await request(api('/tenants/api-keys'), { token: key });
      expect(refused.status).toBe(403);

      // Shown once: after Done it is gone, and the list holds only its handle.
      await page.getByRole('button', { name: 'Done' }).click();
      await expect.poll(() => secret.count(), { timeout: 15_000 }).toBe(0);
      const table = page.getByRole('table', { name: 'API keys' });
      await table.getByRole('cell', { name: 'Billing sync', exact: true }).waitFor();
      expect(await page.content()).not.toContain(key);
      await axeCheck(page, 'api keys');
      await screenshot(page, 'api-keys');

      // Rotation: a successor with the same scopes, shown once; the old key works until revoked.
      const [original] = (await request(api('/tenants/api-keys'), { token: world.org.owner.token })).body;
      await page.getByRole('button', { name: 'Rotate key Billing sync' }).click();
      await page
        .getByRole('dialog', { name: 'Rotate key Billing sync' })
        .getByRole('button', { name: 'Rotate' })
        .click();
      await secret.waitFor();
      const successor = (await secret.textContent())!;
      expect(successor).not.toBe(key);
      expect((await request(api('/members'), { token: successor })).status).toBe(200);
      expect((await request(api('/members'), { token: key })).status).toBe(200);
      await page.getByRole('button', { name: 'Done' }).click();
      const originalRow = table.getByRole('row').filter({ hasText: original.display_handle });

      await originalRow.getByRole('button', { name: 'Revoke key Billing sync' }).click();
      const dialog = page.getByRole('dialog', { name: 'Revoke key Billing sync' });
      await dialog.getByLabel('Reason (required)').fill('Vendor contract ended');
      await dialog.getByRole('button', { name: 'Revoke' }).click();
      await originalRow.getByText(/Revoked .*: Vendor contract ended/).waitFor();
      const listed = (await request(api('/tenants/api-keys'), { token: world.org.owner.token })).body;
      expect(listed).toHaveLength(2);
      expect(listed).toContainEqual(
        expect.objectContaining({ id: original.id, revoked: true, reason: 'Vendor contract ended' }),
      );
      expect(listed).toContainEqual(
        expect.objectContaining({ label: 'Billing sync', revoked: false, rotated_from_id: original.id }),
      );
      expect((await request(api('/members'), { token: key })).status).toBe(401);
      expect((await request(api('/members'), { token: successor })).status).toBe(200);

      // The filter lives in the URL.
      await page.getByLabel('Show').selectOption('active');
      await expect.poll(() => new URL(page.url()).searchParams.get('status'), { timeout: 15_000 }).toBe('active');
      await expect.poll(() => table.getByRole('row').count(), { timeout: 15_000 }).toBe(2);
      expect(await originalRow.count()).toBe(0);
      // A link with the filter opens filtered.
      await go(page, '/', 'Organization overview');
      await go(page, '/api-keys?status=revoked', 'API keys');
      expect(await page.getByLabel('Show').inputValue()).toBe('revoked');
      await originalRow.waitFor();
      await expect.poll(() => table.getByRole('row').count(), { timeout: 15_000 }).toBe(2);

      // Usage: the key's call counted this month.
      await expect
        .poll(async () => (await request(api('/tenants/api-keys/usage'), { token: world.org.owner.token })).body.total)
        .toBeGreaterThan(0);
    } finally {
      await context.close();
    }
  });
});

describe('webhooks screen', () => {
  it('refuses an endpoint URL next to its field, registers one, shows its delivery and replays it', async () => {
    const { context, page } = await openConsole(browser, world.svc.url, world.org.admin);
    try {
      await go(page, '/webhooks', 'Webhooks');
      await page.getByText('No webhook endpoints yet.').waitFor();
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      const form = page.getByRole('form', { name: 'Add a webhook endpoint' });
      await form.getByRole('checkbox', { name: 'apikey.issued' }).check();
      // 422 from the API, shown next to the field it names.
      await form.getByLabel('URL').fill('http://hooks.example.com/identity');
      await form.getByRole('button', { name: 'Add endpoint' }).click();
      const urlError = form.locator('.field-invalid .field-error');
      await expect.poll(() => urlError.textContent(), { timeout: 15_000 }).toBe('url: must use https');
      expect(await form.getByLabel('URL').getAttribute('aria-invalid')).toBe('true');

      await form.getByLabel('URL').fill(receiver.url('/console-hook'));
      await form.getByLabel('Description').fill('Data warehouse');
      await form.getByRole('button', { name: 'Add endpoint' }).click();
      const secret = (await page.locator('[data-secret]').textContent())!;
      expect(secret).toMatch(/^whsec_/);
      const [endpoint] = (await request(api('/tenants/webhooks'), { token: world.org.owner.token })).body;
      expect(endpoint).toMatchObject({ url: receiver.url('/console-hook'), event_types: ['apikey.issued'] });
      await axeCheck(page, 'webhooks');
      await screenshot(page, 'webhooks');

      // An event happens, the worker delivers it signed with the secret shown.
      const issued = await request(api('/tenants/api-keys'), {
        token: world.org.owner.token,
        json: { label: 'event source', scopes: [] },
      });
      expect(issued.status).toBe(201);
      await world.svc.deps.webhooks.runOnce();
      const forKey = () => receiver.on('/console-hook').filter((d) => d.json.data.api_key_id === issued.body.id);
      await expect.poll(() => forKey().length, { timeout: 10_000 }).toBe(1);
      const first = forKey()[0]!;
      expect(first.json.type).toBe('apikey.issued');
      expect(first.headers['svc-signature']).toMatch(/v1=[0-9a-f]{64}/);
      const logOf = async () =>
        (await request(api(`/tenants/webhooks/${endpoint.id}/deliveries`), { token: world.org.owner.token }))
          .body as Array<{ id: string; event_id: string; replay_of: string | null; status: string }>;
      const original = (await logOf()).find((d) => d.event_id === first.json.id)!;
      expect(original.status).toBe('delivered');

      await page.getByRole('link', { name: 'Open its delivery log' }).click();
      await expect.poll(() => heading(page).textContent(), { timeout: 15_000 }).toBe('Webhook endpoint');
      // The test call: sent now, signed, reported, and not in the log.
      await page.getByRole('button', { name: 'Send test event' }).click();
      await page.getByText('Test event delivered (HTTP 204)').waitFor();
      expect(receiver.on('/console-hook').some((d) => d.json.type === 'svc.test')).toBe(true);
      const log = page.getByRole('table', { name: 'Deliveries, newest first' });
      await log.getByRole('cell', { name: 'Delivered' }).first().waitFor();
      await page.getByRole('button', { name: `Replay delivery ${original.id} of apikey.issued` }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Replay' }).click();
      await page.getByText(/Replay queued as delivery/).waitFor();
      await world.svc.deps.webhooks.runOnce();
      await expect.poll(() => forKey().length, { timeout: 10_000 }).toBe(2);
      expect(forKey()[1]!.json.id).toBe(first.json.id);
      const deliveries = await logOf();
      expect(deliveries.find((d) => d.replay_of === original.id)).toMatchObject({ event_id: first.json.id });

      // The log's status filter is in the URL.
      await page.getByRole('button', { name: 'Refresh' }).click();
      await page.getByLabel('Status').selectOption('dead_letter');
      await expect.poll(() => new URL(page.url()).searchParams.get('status'), { timeout: 15_000 }).toBe('dead_letter');
      await page.getByText('No delivery has this status.').waitFor();
      await page.getByLabel('Status').selectOption('');
      await expect.poll(() => log.getByRole('row').count(), { timeout: 15_000 }).toBe(deliveries.length + 1);
      await axeCheck(page, 'webhook endpoint');
      await screenshot(page, 'webhook-deliveries');

      // Pausing through the settings form reaches the API.
      await page.getByLabel('State').selectOption('false');
      await page.getByRole('form', { name: 'Endpoint settings' }).getByRole('button', { name: 'Save' }).click();
      await page.getByText('Endpoint saved.').waitFor();
      const after = (await request(api('/tenants/webhooks'), { token: world.org.owner.token })).body;
      expect(after[0]).toMatchObject({ enabled: false, description: 'Data warehouse' });

      await page.getByRole('button', { name: 'Delete endpoint' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Delete endpoint' }).click();
      await expect.poll(() => heading(page).textContent(), { timeout: 15_000 }).toBe('Webhooks');
      expect((await request(api('/tenants/webhooks'), { token: world.org.owner.token })).body).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('integrations refused', () => {
  it('shows a member and an auditor none of the integration screens or actions, which the API refuses them too', async () => {
    for (const person of [world.org.member, world.org.auditor]) {
      const { context, page } = await openConsole(browser, world.svc.url, person);
      try {
        const nav = page.getByRole('navigation', { name: 'Console' });
        await nav.getByRole('link', { name: 'Overview' }).waitFor();
        for (const name of [
          'API keys',
          'Webhooks',
          'OAuth applications',
          'OAuth resources',
          'Single sign-on',
          'SCIM provisioning',
        ]) {
          expect(await nav.getByRole('link', { name }).count(), name).toBe(0);
        }
        for (const path of ['/api-keys', '/webhooks', '/oauth/clients', '/oauth/resources', '/sso', '/scim']) {
          await go(page, path, 'Not available');
          expect(await page.getByRole('button', { name: /Create|Add|Register|Configure|Issue/ }).count(), path).toBe(0);
        }
        // What the console hides, the API refuses.
        for (const path of [
          '/tenants/api-keys',
          '/tenants/webhooks',
          '/oauth/clients',
          '/oauth/resources',
          '/tenants/sso/saml/sp',
          '/tenants/scim',
        ]) {
          const res = await request(api(path), { token: person.token });
          expect(res.status, path).toBe(403);
          expect(res.body.detail).toBe('Missing permission: tenant:manage');
        }
      } finally {
        await context.close();
      }
    }
  });
});
