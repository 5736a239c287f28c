import { sql } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/kernel/db/index.js';
import { cspViolations, launchBrowser, openPerson, submitForm } from '../support/browser.js';
import { RecordType, startDnsServer } from '../support/dns.js';
import { request } from '../support/http.js';
import { bootstrapPlatformOwner } from '../support/platform.js';
import { startService, type TestService } from '../support/service.js';
import { extractLink, startSmtpServer, type TestSmtpServer } from '../support/smtp.js';

// The passkey variant of a complete onboarding (issue 23, Part B 4.5) walked in Chromium: the agent bootstraps with
// a manifest, the person enters the user code, clicks the mailed link choosing a passkey, is refused approval while
// the account has no passkey, creates one on the hosted page's own passkey step (a CDP virtual authenticator),
// approves the plan shown; the agent's next poll gets the credential once and the pre-approved manifest applies.
// WebAuthn needs a domain as RP ID: the service runs as http://localhost:<port>.

let svc: TestService;
let smtp: TestSmtpServer;
let dns: Awaited<ReturnType<typeof startDnsServer>>;
let browser: Browser;
let operatorToken: string;
beforeAll(async () => {
  smtp = await startSmtpServer();
  dns = await startDnsServer({ 'acme.test': [{ type: RecordType.MX, priority: 10, exchange: 'mx.acme.test' }] });
  [svc, browser] = await Promise.all([
    startService(
      {
        SMTP_URL: smtp.url,
        DNS_SERVERS: `127.0.0.1:${dns.port}`,
        ONBOARD_BOOTSTRAP_ENABLED: 'true',
        AGENT_APPROVALS_ENABLED: 'true',
        PUBLIC_SIGNUP_ENABLED: 'false',
      },
      { baseUrlHost: 'localhost' },
    ),
    launchBrowser(),
  ]);
  const operator = await bootstrapPlatformOwner(svc);
  const login = await request(`${svc.url}/api/v1/auth/login`, {
    json: { email: operator.email, password: operator.password, tenant_slug: operator.slug },
  });
  operatorToken = login.body.access_token;
});
afterAll(async () => {
  await browser?.close();
  await svc?.close();
  await smtp?.close();
  await dns?.close();
});

const api = (path: string) => `${svc.url}/api/v1${path}`;

describe('a complete onboarding with a passkey, in Chromium', () => {
  it('creates the passkey on the hosted step, approves the plan shown, releases the credential once, and the manifest applies', async () => {
    const suffix = Math.random().toString(36).slice(2, 8);
    const address = `owner-${suffix}@acme.test`;
    const invitee = `clerk-${suffix}@acme.test`;
    const manifest = {
      manifest_version: 1,
      roles: [{ code: 'support-lead', name: 'Support lead', permissions: ['members:read'] }],
      invites: [{ email: invitee, role: 'support-lead' }],
    };
    const invite = await request(api('/operator/invite-codes'), {
      token: operatorToken,
      json: { email: address, door: 'onboard' },
    });
    expect(invite.status, invite.text).toBe(201);
    const started = await request(api('/onboard/bootstrap'), {
      json: {
        organization_name: `Passkey Org ${suffix}`,
        human_email: address,
        invite_code: invite.body.code,
        client_info: { name: 'Claude', platform: 'cli' },
        manifest,
      },
    });
    expect(started.status, started.text).toBe(201);
    const { device_code: deviceCode, user_code: userCode, verification_uri: verificationUri } = started.body;
    expect(verificationUri).toBe(`${svc.deps.config.baseUrl}/onboard/verify`);

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
    const violations = cspViolations(page);

    // The code, then the mailed link and its explicit click choosing a passkey.
    await page.goto(verificationUri);
    await page.fill('#user_code', userCode);
    expect(await submitForm(page)).toBe(200);
    expect(await page.textContent('body')).toContain('We sent a link');
    const link = extractLink((await smtp.waitFor(address)).text);
    expect(link.startsWith(`${svc.deps.config.baseUrl}/onboard/verify?token=`)).toBe(true);
    await page.goto(link);
    await Promise.all([
      page.waitForURL((url) => url.pathname === '/onboard/verify/passkey'),
      page.click('button[name=method][value=passkey]'),
    ]);

    // Approval is refused while the account has neither a passkey nor a password.
    await page.goto(`${svc.deps.config.baseUrl}/onboard/verify/review`);
    expect(await page.textContent('body')).toContain('no passkey or password yet');
    expect(await page.textContent('body')).toContain('support-lead');
    const [refused] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/onboard/verify/approve')),
      page.click('button[value=approve]'),
    ]);
    expect(refused.status()).toBe(409);
    await page.waitForLoadState('domcontentloaded');
    expect(await page.textContent('body')).toContain('Set a passkey or a password');
    expect((await request(api('/onboard/poll'), { json: { device_code: deviceCode } })).body.status).toBe(
      'authorization_pending',
    );

    // The hosted page's own passkey step, with the virtual authenticator.
    await Promise.all([
      page.waitForURL((url) => url.pathname === '/onboard/verify/passkey'),
      page.click('a[href="/onboard/verify/passkey"]'),
    ]);
    await page.waitForSelector('body[data-ready="true"]');
    await Promise.all([
      page.waitForURL((url) => url.pathname === '/onboard/verify/review'),
      page.click('#create-passkey'),
    ]);
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(await page.textContent('body')).toContain('Your account can sign in');

    // Approve with the plan shown.
    const planHash = await page.getAttribute('input[name=plan_hash]', 'value');
    expect(planHash).toMatch(/^[0-9a-f]{64}$/);
    expect(await submitForm(page)).toBe(200);
    expect(await page.textContent('body')).toContain('The plan you reviewed is approved');
    expect(violations).toEqual([]);
    await context.close();

    // The agent's next poll gets the credential, once.
    svc.clock.advance(5_000);
    const released = await request(api('/onboard/poll'), { json: { device_code: deviceCode } });
    expect(released.status, released.text).toBe(200);
    expect(released.body).toMatchObject({ status: 'approved', agent: { name: 'Claude' } });
    expect(released.body.agent.credential).toMatch(/^agt_/);
    svc.clock.advance(5_000);
    expect((await request(api('/onboard/poll'), { json: { device_code: deviceCode } })).body).toEqual({
      status: 'consumed',
    });

    // The owner's account holds the passkey (and no password); the pre-approved manifest applies, approved by them.
    const owner = await svc.deps.transactions.system((tx) => svc.deps.accounts.findUserByEmail(tx, address));
    expect(owner).toBeDefined();
    const [factors] = await rows<{ passkeys: number; password: boolean }>(
      svc.deps.database.db,
      sql`select (select count(*)::int from webauthn_credentials where user_id = ${owner!.id}) as passkeys,
        (select password_hash is not null from users where id = ${owner!.id}) as password`,
    );
    expect(factors).toEqual({ passkeys: 1, password: false });
    const minted = await request(api('/agents/token'), { json: { credential: released.body.agent.credential } });
    expect(minted.status, minted.text).toBe(200);
    const applied = await request(api('/manifest/apply'), {
      token: minted.body.access_token,
      json: { manifest },
    });
    expect(applied.status, applied.text).toBe(200);
    expect(applied.body).toMatchObject({ approved_by: owner!.id, resumed: false, applied: 2, skipped: 0 });
  }, 120_000);
});
