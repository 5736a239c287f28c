import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.js';
import { axeCheck, type ConsoleWorld, openConsole, screenshot, startConsole } from '../support/console.js';
import { request } from '../support/http.js';
import { SoftwareAuthenticator } from '../support/webauthn-authenticator.js';

/** My account's two-step verification and passkey removal, through the console and checked at the API. */
let world: ConsoleWorld;
let browser: Browser;

beforeAll(async () => {
  [world, browser] = await Promise.all([
    startConsole({ MFA_ENCRYPTION_KEY: randomBytes(32).toString('hex') }),
    launchBrowser(),
  ]);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await world?.close();
});

const STEP = 30_000;
/** The code an authenticator app shows for `secret` at the service's (test-moved) time. */
const codeAt = (secret: string) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: world.svc.clock.now().getTime() });
const api = (path: string, token: string, json?: unknown) =>
  request(`${world.svc.url}/api/v1${path}`, json === undefined ? { token } : { token, json });

describe('console: my account, two-step verification and passkeys', () => {
  it('enrolls TOTP with a code, shows the recovery codes once, refuses a wrong code at the field, turns it off', async () => {
    const person = world.org.member;
    const status = async () => (await api('/mfa/status', person.token)).body;
    const { context, page } = await openConsole(browser, world.svc.url, person);
    try {
      await page.getByRole('link', { name: 'My account' }).click();
      await page.getByRole('heading', { name: 'My account', level: 1 }).waitFor();
      await expect.poll(() => page.getByTestId('mfa-status').textContent(), { timeout: 15_000 }).toBe('Off.');

      await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
      const secret = ((await page.getByTestId('mfa-secret').textContent()) ?? '').replace(/\s/g, '');
      expect(secret).toMatch(/^[A-Z2-7]+=*$/);
      const uri = new URL((await page.getByTestId('mfa-uri').getAttribute('href')) ?? '');
      expect(uri.protocol).toBe('otpauth:');
      expect(uri.searchParams.get('secret')).toBe(secret);
      expect(await status()).toMatchObject({ mfa_enabled: false, enrollment_pending: true });

      // A wrong code: the API's 400 detail under the field, and nothing changes.
      const right = codeAt(secret);
      await page.getByLabel('Code from the app').fill(right === '000000' ? '111111' : '000000');
      await page.getByRole('button', { name: 'Turn on' }).click();
      await page.getByRole('alert').getByText('Invalid code').waitFor();
      expect(await page.getByLabel('Code from the app').getAttribute('aria-invalid')).toBe('true');
      expect(await status()).toMatchObject({ mfa_enabled: false, enrollment_pending: true });
      await axeCheck(page, 'my account, TOTP set-up with a field error');

      await page.getByLabel('Code from the app').fill(right);
      await page.getByRole('button', { name: 'Turn on' }).click();
      const once = page.getByRole('region', { name: 'Recovery codes' });
      await once.waitFor();
      const codes = ((await once.locator('[data-secret]').textContent()) ?? '').split(' ');
      expect(codes).toHaveLength(8);
      await expect
        .poll(() => page.getByTestId('mfa-status').textContent())
        .toBe('On (authenticator app); 8 recovery codes left.');
      expect(await status()).toMatchObject({ mfa_enabled: true, mfa_verified: true, recovery_codes_remaining: 8 });
      await axeCheck(page, 'my account, TOTP on');
      await screenshot(page, 'my-account-mfa');
      // Shown once: Done removes them, and nothing on the page shows them again.
      await once.getByRole('button', { name: 'Done' }).click();
      await expect.poll(() => page.getByText(codes[0] as string).count(), { timeout: 15_000 }).toBe(0);

      // New recovery codes with one of the old ones; the old set stops working.
      await page.getByLabel('Code for new recovery codes').fill(codes[0] as string);
      await page.getByRole('button', { name: 'Replace recovery codes' }).click();
      const fresh = page.getByRole('region', { name: 'New recovery codes' });
      const newCodes = ((await fresh.locator('[data-secret]').textContent()) ?? '').split(' ');
      expect(newCodes).toHaveLength(8);
      expect(newCodes).not.toContain(codes[1]);
      await fresh.getByRole('button', { name: 'Done' }).click();

      // Turning off asks first, then needs a code; a wrong one is refused at the field and changes nothing.
      await page.getByRole('button', { name: 'Turn off two-step verification' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Continue' }).click();
      await page.getByLabel('Code to turn off').fill(codes[1] as string);
      await page.getByRole('button', { name: 'Turn off', exact: true }).click();
      await page.getByRole('alert').getByText('Invalid code').waitFor();
      expect(await status()).toMatchObject({ mfa_enabled: true });
      world.svc.clock.advance(STEP); // each TOTP step's code works once: the app's next code
      await page.getByLabel('Code to turn off').fill(codeAt(secret));
      await page.getByRole('button', { name: 'Turn off', exact: true }).click();
      await expect.poll(() => page.getByTestId('mfa-status').textContent(), { timeout: 15_000 }).toBe('Off.');
      expect(await status()).toMatchObject({ mfa_enabled: false, enrollment_pending: false });
    } finally {
      await context.close();
    }
  });

  it('removes a passkey after confirmation and the account password', async () => {
    const person = world.org.admin;
    const authenticator = new SoftwareAuthenticator(world.svc.url);
    const options = await api('/webauthn/credentials/options', person.token, {});
    expect(options.status, options.text).toBe(200);
    const added = await api('/webauthn/credentials', person.token, {
      ...authenticator.createCredential(options.body),
      name: 'Desk key',
    });
    expect(added.status, added.text).toBe(201);

    const { context, page } = await openConsole(browser, world.svc.url, person);
    try {
      await page.getByRole('link', { name: 'My account' }).click();
      const table = page.getByRole('table', { name: 'Your passkeys' });
      await table.getByRole('cell', { name: 'Desk key', exact: true }).waitFor();
      await table.getByRole('button', { name: 'Remove passkey Desk key' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Continue' }).click();
      await page.getByLabel('Your password').fill('not-the-password');
      await page.getByRole('button', { name: 'Remove passkey', exact: true }).click();
      await page.getByLabel('Your password').and(page.locator('[aria-invalid=true]')).waitFor();
      expect((await api('/webauthn/credentials', person.token)).body).toHaveLength(1);
      await page.getByLabel('Your password').fill(person.password);
      await page.getByRole('button', { name: 'Remove passkey', exact: true }).click();
      await page.getByText('Passkey Desk key removed.').waitFor();
      expect((await api('/webauthn/credentials', person.token)).body).toHaveLength(0);
      await axeCheck(page, 'my account, passkey removed');
    } finally {
      await context.close();
    }
  });
});
