import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.js';
import { axeCheck, type ConsoleWorld, openConsole, startConsole, screenshot as take } from '../support/console.js';
import { request } from '../support/http.js';
import { type SamlIdp, startSamlIdp } from '../support/saml-idp.js';
import { RECEIVER_HOST, TEST_CA_FILE } from '../support/webhook-receiver.js';

/**
 * The console's integrations area (issue 29 item 3), part two: OAuth applications and resources, single sign-on
 * (OIDC and SAML) and SCIM, driven in Chromium by the organization's owner signed in through /login, with every
 * outcome checked against the public API. docs/console.md "Integrations".
 */
let world: ConsoleWorld;
let browser: Browser;
let idp: SamlIdp;
let oidcIdp: Server;

/** A real `oidc-provider` 8 over TLS as https://secure.example.test, reached through the egress test route. */
const ISSUER = `https://${RECEIVER_HOST}`;
const CLIENT_ID = 'svc-console-sso';
const CLIENT_SECRET = 'Upstream-Secret-5c1e9a7b3d2f4e6a8b0c';
type OidcProvider = new (
  issuer: string,
  configuration: { clients: Array<Record<string, unknown>> },
) => { callback(): (request: IncomingMessage, response: ServerResponse) => void };
const OIDC_PROVIDER = 'oidc-provider';
const testdata = new URL('../../src/kernel/net/testdata/', import.meta.url);

beforeAll(async () => {
  const { default: Provider } = (await import(OIDC_PROVIDER)) as { default: OidcProvider };
  const provider = new Provider(ISSUER, {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        redirect_uris: ['https://app.example.test/callback'],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
  });
  oidcIdp = createServer(
    {
      key: readFileSync(new URL('server-key.pem', testdata)),
      cert: readFileSync(new URL('server-cert.pem', testdata)),
    },
    provider.callback(),
  );
  await new Promise<void>((resolve) => oidcIdp.listen(0, '127.0.0.1', resolve));
  const { port } = oidcIdp.address() as AddressInfo;
  [world, browser] = await Promise.all([
    startConsole({ EGRESS_TEST_ROUTES: `${RECEIVER_HOST}=127.0.0.1:${port}`, EGRESS_TEST_CA_FILE: TEST_CA_FILE }),
    launchBrowser(),
  ]);
  idp = await startSamlIdp({ clock: () => world.svc.clock.now() });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await world?.close();
  await idp?.close();
  await new Promise((resolve) => oidcIdp?.close(resolve));
});

const api = (path: string) => `${world.svc.url}/api/v1${path}`;
const heading = (page: Page) => page.getByRole('heading', { level: 1 });
const owner = () => world.org.owner.token;

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

const clientCredentials = (clientId: string, secret: string) =>
  fetch(api('/oauth/token'), {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}`,
    },
    body: 'grant_type=client_credentials',
  });

describe('OAuth applications and resources screens', () => {
  it('registers a confidential client whose secret (shown once) works, refuses a redirect URI next to its field, rotates and deletes', async () => {
    const { context, page } = await openConsole(browser, world.svc.url, world.org.owner);
    try {
      await go(page, '/oauth/clients', 'OAuth applications');
      await page.getByText('No applications registered yet.').waitFor();
      await page.getByRole('button', { name: 'Register application' }).click();
      let form = page.getByRole('form', { name: 'Register an OAuth application' });
      await form.getByLabel('Type').selectOption('confidential');
      await form.getByLabel('Name').fill('Reporting');
      await form.getByLabel('Redirect URIs', { exact: true }).fill('https://reports.example.com/callback');
      await form.getByRole('checkbox', { name: /Client credentials/ }).check();
      await form.getByRole('button', { name: 'Register' }).click();
      const secret = (await page.locator('[data-secret]').textContent())!;
      const [client] = (await request(api('/oauth/clients'), { token: owner() })).body;
      expect(client).toMatchObject({
        name: 'Reporting',
        client_type: 'confidential',
        redirect_uris: ['https://reports.example.com/callback'],
        grant_types: ['authorization_code', 'client_credentials'],
      });
      expect((await clientCredentials(client.client_id, secret)).status).toBe(200);
      await axeCheck(page, 'oauth clients');
      await screenshot(page, 'oauth-clients');

      await page.getByRole('link', { name: 'Open it' }).click();
      await expect.poll(() => heading(page).textContent(), { timeout: 15_000 }).toBe('Reporting');
      form = page.getByRole('form', { name: 'Application registration' });
      // 422 from the API, shown next to the field it names.
      await form.getByLabel('Redirect URIs', { exact: true }).fill('http://reports.example.com/callback');
      await form.getByRole('button', { name: 'Save' }).click();
      const error = form.locator('.field-invalid .field-error');
      await expect.poll(() => error.textContent(), { timeout: 15_000 }).toMatch(/^redirect_uris\.0: /);
      expect(await form.getByLabel('Redirect URIs', { exact: true }).getAttribute('aria-invalid')).toBe('true');
      expect((await request(api(`/oauth/clients/${client.client_id}`), { token: owner() })).body.redirect_uris).toEqual(
        ['https://reports.example.com/callback'],
      );
      await form
        .getByLabel('Redirect URIs', { exact: true })
        .fill('https://reports.example.com/callback\nhttps://reports.example.com/cb2');
      await form.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Application saved.').waitFor();
      expect((await request(api(`/oauth/clients/${client.client_id}`), { token: owner() })).body.redirect_uris).toEqual(
        ['https://reports.example.com/callback', 'https://reports.example.com/cb2'],
      );
      await axeCheck(page, 'oauth client');
      await screenshot(page, 'oauth-client');

      await page.getByRole('button', { name: 'Rotate secret' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Rotate secret' }).click();
      const rotated = (await page.locator('[data-secret]').textContent())!;
      expect(rotated).not.toBe(secret);
      expect((await clientCredentials(client.client_id, secret)).status).toBe(401);
      expect((await clientCredentials(client.client_id, rotated)).status).toBe(200);

      await page.getByRole('button', { name: 'Delete application' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Delete application' }).click();
      await expect.poll(() => heading(page).textContent(), { timeout: 15_000 }).toBe('OAuth applications');
      expect((await request(api(`/oauth/clients/${client.client_id}`), { token: owner() })).status).toBe(404);

      // A public client has no secret to show.
      await page.getByRole('button', { name: 'Register application' }).click();
      form = page.getByRole('form', { name: 'Register an OAuth application' });
      await form.getByLabel('Type').selectOption('public');
      await form.getByLabel('Name').fill('Mobile app');
      await form.getByLabel('Redirect URIs', { exact: true }).fill('com.example.app:/callback');
      await form.getByRole('button', { name: 'Register' }).click();
      await page.getByText(/Application Mobile app registered/).waitFor();
      expect(await page.locator('[data-secret]').count()).toBe(0);
      const [mobile] = (await request(api('/oauth/clients'), { token: owner() })).body;
      expect(mobile).toMatchObject({ name: 'Mobile app', client_type: 'public' });
    } finally {
      await context.close();
    }
  });

  it('registers a protected resource, refuses a bad identifier next to its field, and disables it', async () => {
    const { context, page } = await openConsole(browser, world.svc.url, world.org.admin);
    try {
      await go(page, '/oauth/resources', 'OAuth resources');
      await page.getByText('No resources registered yet.').waitFor();
      await page.getByRole('button', { name: 'Register resource' }).click();
      const form = page.getByRole('form', { name: 'Register a protected resource' });
      await form.getByLabel('Identifier').fill('https://api.example.com/orders#top');
      await form.getByLabel('Name').fill('Orders API');
      await form.getByRole('button', { name: 'Register' }).click();
      await expect
        .poll(() => form.locator('.field-invalid .field-error').textContent(), { timeout: 15_000 })
        .toMatch(/^identifier: /);
      await form.getByLabel('Identifier').fill('https://api.example.com/orders');
      await form.getByRole('button', { name: 'Register' }).click();
      await page.getByText('Resource https://api.example.com/orders registered.').waitFor();
      await page
        .getByRole('table', { name: 'OAuth resources' })
        .getByRole('cell', { name: 'Orders API', exact: true })
        .waitFor();
      await axeCheck(page, 'oauth resources');
      await screenshot(page, 'oauth-resources');

      await page.getByRole('button', { name: 'Disable Orders API' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Disable' }).click();
      await page.getByRole('button', { name: 'Enable Orders API' }).waitFor();
      expect((await request(api('/oauth/resources'), { token: owner() })).body).toEqual([
        expect.objectContaining({ identifier: 'https://api.example.com/orders', name: 'Orders API', enabled: false }),
      ]);
    } finally {
      await context.close();
    }
  });
});

describe('single sign-on and SCIM screens', () => {
  it('offers nothing to configure on a plan without Enterprise SSO or SCIM', async () => {
    const { context, page } = await openConsole(browser, world.svc.url, world.org.owner);
    try {
      await go(page, '/sso', 'Single sign-on');
      await page.getByText(/plan does not include Enterprise SSO/).waitFor();
      await page.getByText('No SAML identity provider is configured.').waitFor();
      for (const name of ['Configure OpenID Connect', 'Import metadata', 'Configure by hand']) {
        expect(await page.getByRole('button', { name }).count(), name).toBe(0);
      }
      // The API refuses what the screen does not offer.
      const refused = await request(api('/tenants/sso/saml/sp'), { token: owner() });
      expect(refused.status).toBe(403);
      await go(page, '/scim', 'SCIM provisioning');
      await page.getByText(/plan does not include SCIM/).waitFor();
      expect(await page.getByRole('button', { name: 'Issue a SCIM token' }).count()).toBe(0);
      expect((await request(api('/tenants/scim/token'), { method: 'POST', token: owner() })).status).toBe(403);
    } finally {
      await context.close();
    }
    // SSO and SCIM are Enterprise features: the plan is set as the operator plane would.
    await world.svc.deps.database.db.execute(
      sql`update tenants set plan = 'enterprise' where id = ${world.org.tenantId}`,
    );
  });

  it('configures OpenID Connect (an issuer refused at its field first), passes its connection test, requires SSO and stops', async () => {
    const { context, page } = await openConsole(browser, world.svc.url, world.org.owner);
    try {
      await go(page, '/sso', 'Single sign-on');
      await page.getByText('No OpenID Connect identity provider is configured.').waitFor();
      await page.getByRole('button', { name: 'Configure OpenID Connect' }).click();
      const oidc = page.getByRole('form', { name: 'OpenID Connect identity provider' });
      await oidc.getByLabel('Issuer').fill('http://idp.example.com');
      await oidc.getByLabel('Client id').fill(CLIENT_ID);
      await oidc.getByLabel('Client secret').fill(CLIENT_SECRET);
      await oidc.getByRole('button', { name: 'Save connection' }).click();
      await expect
        .poll(() => oidc.locator('.field-invalid .field-error').textContent(), { timeout: 15_000 })
        .toMatch(/^issuer: /);
      expect((await request(api('/tenants/sso/oidc'), { token: owner() })).status).toBe(404);
      await oidc.getByLabel('Issuer').fill(ISSUER);
      await oidc.getByRole('button', { name: 'Save connection' }).click();
      await page.getByText('Connection saved.').waitFor();
      const saved = await request(api('/tenants/sso/oidc'), { token: owner() });
      expect(saved.body).toMatchObject({
        issuer: ISSUER,
        client_id: CLIENT_ID,
        client_secret_set: true,
        last_test: null,
      });

      // Untested: requiring is not offered (the API would answer 409).
      await expect
        .poll(() => page.getByTestId('sso-required').textContent(), { timeout: 15_000 })
        .toMatch(/^Not required/);
      expect(await page.getByRole('button', { name: 'Require SSO' }).count()).toBe(0);
      await page.getByRole('button', { name: 'Test connection' }).click();
      await page.getByText('Connection test passed.').waitFor();
      await expect.poll(() => page.getByTestId('oidc-last-test').textContent(), { timeout: 15_000 }).toMatch(/^Passed/);

      await page.getByRole('button', { name: 'Require SSO' }).click();
      await page.getByRole('dialog', { name: 'Require SSO' }).getByRole('button', { name: 'Require SSO' }).click();
      await expect.poll(() => page.getByTestId('sso-required').textContent(), { timeout: 15_000 }).toMatch(/^Required/);
      expect((await request(api('/tenants/sso/enforcement'), { token: owner() })).body).toEqual({ required: true });

      await page.getByRole('button', { name: 'Stop requiring SSO' }).click();
      await page
        .getByRole('dialog', { name: 'Stop requiring SSO' })
        .getByRole('button', { name: 'Stop requiring SSO' })
        .click();
      await expect
        .poll(() => page.getByTestId('sso-required').textContent(), { timeout: 15_000 })
        .toMatch(/^Not required/);
      expect((await request(api('/tenants/sso/enforcement'), { token: owner() })).body).toEqual({ required: false });
    } finally {
      await context.close();
    }
  });

  it('configures SAML by importing the identity provider’s metadata', async () => {
    const { context, page } = await openConsole(browser, world.svc.url, world.org.owner);
    try {
      await go(page, '/sso', 'Single sign-on');
      await page.getByText('No SAML identity provider is configured.').waitFor();
      // What to register at the identity provider, before anything is configured.
      const sp = (await request(api('/tenants/sso/saml/sp'), { token: owner() })).body;
      await page.getByText(sp.acs_url).waitFor();

      await page.getByRole('button', { name: 'Import metadata' }).click();
      const importer = page.getByRole('form', { name: 'Import identity provider metadata' });
      await importer.getByLabel('Identity provider metadata (XML)').fill(idp.metadata());
      await importer.getByRole('button', { name: 'Import' }).click();
      await page.getByText('Metadata imported.').waitFor();
      await expect.poll(() => page.getByTestId('saml-entity-id').textContent(), { timeout: 15_000 }).toBe(idp.entityId);
      const saml = await request(api('/tenants/sso/saml'), { token: owner() });
      expect(saml.status).toBe(200);
      expect(saml.body).toMatchObject({ idp_entity_id: idp.entityId, sso_url: idp.ssoUrl, enabled: true });
      await axeCheck(page, 'sso');
      await screenshot(page, 'sso');

      // A change needs a sign-in with one's own factors within 10 minutes: later, the API's refusal is shown.
      world.svc.clock.advance(11 * 60_000);
      await page.getByRole('button', { name: 'Remove the SAML connection' }).click();
      const dialog = page.getByRole('dialog', { name: 'Remove the SAML connection' });
      await dialog.getByRole('button', { name: 'Remove' }).click();
      await expect
        .poll(() => dialog.getByRole('alert').textContent())
        .toMatch(/within the last 10 minutes: sign in again first.*\(refused by the API: 403\)/);
      expect((await request(api('/tenants/sso/saml'), { token: owner() })).status).toBe(200);
    } finally {
      await context.close();
    }
  });

  it('issues a SCIM token shown once that works against the SCIM API, pauses provisioning and revokes the token', async () => {
    const { context, page } = await openConsole(browser, world.svc.url, world.org.owner);
    try {
      await go(page, '/scim', 'SCIM provisioning');
      await page.getByText('SCIM is not configured: no token exists.').waitFor();
      await page.getByRole('button', { name: 'Issue a SCIM token' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Issue a SCIM token' }).click();
      const token = (await page.locator('[data-secret]').textContent())!;
      const baseUrl = (await page.getByTestId('scim-base-url').textContent())!;
      const users = await request(`${baseUrl}/Users`, { token });
      expect(users.status, users.text).toBe(200);
      await axeCheck(page, 'scim');
      await screenshot(page, 'scim');

      await page.getByRole('button', { name: 'Pause provisioning' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Pause provisioning' }).click();
      await expect.poll(() => page.getByTestId('scim-state').textContent(), { timeout: 15_000 }).toMatch(/^Paused/);
      expect((await request(api('/tenants/scim'), { token: owner() })).body.enabled).toBe(false);
      expect((await request(`${baseUrl}/Users`, { token })).status).toBe(404);

      await page.getByRole('button', { name: 'Revoke token' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Revoke token' }).click();
      await page.getByText('SCIM is not configured: no token exists.').waitFor();
      expect((await request(api('/tenants/scim'), { token: owner() })).status).toBe(404);
    } finally {
      await context.close();
    }
  });
});
