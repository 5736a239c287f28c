import { sql } from 'drizzle-orm';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rows } from '../../src/kernel/db/index.js';
import { cspViolations, launchBrowser, openPerson } from '../support/browser.js';
import { newAccount, request } from '../support/http.js';
import { startService, type TestService } from '../support/service.js';

/**
 * The hosted passkeys page in Chromium with a CDP virtual authenticator (a platform authenticator with
 * resident keys and user verification). WebAuthn needs a secure context and a domain as RP ID, so the service
 * runs with BASE_URL http://localhost:<port> and the browser opens exactly that.
 */
let svc: TestService;
let browser: Browser;
beforeAll(async () => {
  [svc, browser] = await Promise.all([startService({}, { baseUrlHost: 'localhost' }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await svc?.close();
});

const api = (path: string) => `${svc.url}/api/v1${path}`;
const pageUrl = () => `${svc.deps.config.baseUrl}/account/passkeys`;
const slugOf = (name: string) => name.toLowerCase().replace(/ /g, '-');

async function newOwner() {
  const account = newAccount('passkey');
  const res = await request(api('/auth/signup'), { json: account });
  expect(res.status, res.text).toBe(201);
  const me = await request(api('/me'), { token: res.body.access_token });
  return {
    account,
    slug: slugOf(account.organization_name),
    userId: me.body.user_id as string,
    tenantId: me.body.tenant_id as string,
  };
}

/** A person at a browser whose device has a passkey-capable platform authenticator. */
async function personWithAuthenticator(): Promise<{
  context: BrowserContext;
  page: Page;
  cdp: CDPSession;
  authenticatorId: string;
}> {
  const { context, page } = await openPerson(browser);
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  });
  return { context, page, cdp, authenticatorId };
}

async function openPage(page: Page) {
  const opened = await page.goto(pageUrl());
  expect(opened?.status()).toBe(200);
  await page.waitForSelector('body[data-ready="true"]');
}

const state = (page: Page) => page.textContent('#state');

async function signInWithPassword(page: Page, account: { email: string; password: string }, slug: string) {
  await page.fill('#email', account.email);
  await page.fill('#password', account.password);
  await page.fill('#organization', slug);
  await page.click('#password-sign-in');
  await page.locator(`#signed-in-email:text-is("${account.email}")`).waitFor();
}

async function signOut(page: Page) {
  await page.click('#sign-out');
  await page.locator('#state:text-is("Signed out")').waitFor();
}

async function addPasskey(page: Page, name: string) {
  const before = await page.locator('#passkey-list li').count();
  await page.fill('#passkey-name', name);
  await page.click('#add-passkey');
  await page.locator('#passkey-list li').nth(before).waitFor();
}

async function signInWithPasskey(page: Page, slug: string) {
  await page.fill('#passkey-organization', slug);
  await page.click('#passkey-sign-in');
  // Done when the page says signed in, or shows an error.
  await page.locator('#state:text-is("Signed in"), #error:visible').first().waitFor();
}

const latestAmr = async (userId: string) =>
  (
    await rows<{ amr: string[] }>(
      svc.deps.database.db,
      sql`select amr from sessions where user_id = ${userId} order by created_at desc, id desc limit 1`,
    )
  )[0]?.amr;

describe('passkeys page', () => {
  it('register a passkey on the page, sign out, sign in with it (cookie session), amr webauthn recorded', async () => {
    const owner = await newOwner();
    const { context, page } = await personWithAuthenticator();
    const violations = cspViolations(page);
    await openPage(page);
    expect(await state(page)).toBe('Signed out');
    const response = await page.request.get(pageUrl());
    const csp = response.headers()['content-security-policy'] ?? '';
    expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(csp).toMatch(/connect-src 'self'/);
    expect(csp).toMatch(/frame-ancestors 'none'/);
    expect(csp).not.toMatch(/unsafe-inline/);

    await signInWithPassword(page, owner.account, owner.slug);
    await addPasskey(page, 'Test laptop');
    expect(await page.textContent('#passkey-list li')).toMatch(/^Test laptop \(added \d{4}-\d{2}-\d{2}\)$/);
    const [stored] = await rows<{ name: string; transports: string[] }>(
      svc.deps.database.db,
      sql`select name, transports from webauthn_credentials where user_id = ${owner.userId}`,
    );
    expect(stored).toEqual({ name: 'Test laptop', transports: ['internal'] });

    await signOut(page);
    // The cookie went with the sign-out: a reload stays signed out.
    await openPage(page);
    expect(await state(page)).toBe('Signed out');

    await signInWithPasskey(page, owner.slug);
    expect(await page.textContent('#error')).toBe('');
    expect(await state(page)).toBe('Signed in');
    expect(await page.textContent('#signed-in-email')).toBe(owner.account.email);
    // A user-verified platform passkey: two factors.
    expect(await latestAmr(owner.userId)).toEqual(['webauthn', 'mfa']);
    expect(await page.textContent('#passkey-list li')).toMatch(/last used \d{4}-\d{2}-\d{2}/);

    // The session lives in the refresh cookie: a reload signs in again without any input.
    await openPage(page);
    expect(await state(page)).toBe('Signed in');
    expect(await page.textContent('#signed-in-email')).toBe(owner.account.email);
    const content = await page.content();
    expect(content).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}\./); // no token on the page
    expect(violations).toEqual([]);
    await context.close();
  });

  it('a cloned authenticator (signature counter set back) is refused with the generic 401, an event and a detection', async () => {
    const owner = await newOwner();
    const { context, page, cdp, authenticatorId } = await personWithAuthenticator();
    await openPage(page);
    await signInWithPassword(page, owner.account, owner.slug);
    await addPasskey(page, 'Phone');
    await signOut(page);
    await signInWithPasskey(page, owner.slug);
    expect(await state(page)).toBe('Signed in');
    await signOut(page);

    const [{ counter }] = (await rows<{ counter: string }>(
      svc.deps.database.db,
      sql`select counter from webauthn_credentials where user_id = ${owner.userId}`,
    )) as [{ counter: string }];
    expect(Number(counter)).toBeGreaterThanOrEqual(1);

    // The same private key with its signature counter set back to zero: what a copy of the key would present.
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    const original = credentials[0]!;
    await cdp.send('WebAuthn.removeCredential', { authenticatorId, credentialId: original.credentialId });
    await cdp.send('WebAuthn.addCredential', { authenticatorId, credential: { ...original, signCount: 0 } });

    const verify = page.waitForResponse((r) => r.url().endsWith('/api/v1/webauthn/login/verify'));
    await signInWithPasskey(page, owner.slug);
    const answer = await verify;
    expect(answer.status()).toBe(401);
    expect(await answer.json()).toEqual({ detail: 'Invalid credentials' });
    expect(await state(page)).toBe('Signed out');
    expect(await page.textContent('#error')).toBe('Invalid credentials');

    // Recorded after the answer (so the refusal takes as long as any other).
    const events = await vi.waitFor(async () => {
      const recorded = await rows<{ severity: string; data: Record<string, unknown> }>(
        svc.deps.database.db,
        sql`select severity, data from events where tenant_id = ${owner.tenantId} and action = 'passkey.clone_suspected'`,
      );
      expect(recorded).toHaveLength(1);
      return recorded;
    });
    expect(events[0]).toMatchObject({ severity: 'high', data: { user_id: owner.userId } });
    const detections = await rows<{ rule_id: string; group_key: string; severity: string }>(
      svc.deps.database.db,
      sql`select rule_id, group_key, severity from detections where tenant_id = ${owner.tenantId}`,
    );
    expect(detections).toEqual([
      { rule_id: 'passkey-clone-suspected', group_key: `actor:${owner.userId}`, severity: 'high' },
    ]);
    // The stored counter did not move back.
    const [after] = await rows<{ counter: string }>(
      svc.deps.database.db,
      sql`select counter from webauthn_credentials where user_id = ${owner.userId}`,
    );
    expect(after!.counter).toBe(counter);
    await context.close();
  });
});
