import { randomBytes } from 'node:crypto';
import * as oauth from 'oauth4webapi';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { days } from '../../src/kernel/clock.js';
import { autonomyJob } from '../../src/modules/autonomy/index.js';
import { request } from '../support/http.js';
import { FormBrowser, hiddenFields } from '../support/oidc-browser.js';
import { addMember, signUpOwner } from '../support/organizations.js';
import { startService, type TestService } from '../support/service.js';
import { extractToken, startSmtpServer, type TestSmtpServer } from '../support/smtp.js';
import { SoftwareAuthenticator } from '../support/webauthn-authenticator.js';

// Part B 4.9 `contain_source` on every sign-in path: once autonomy contains an address for an organization, that
// address is refused on each path an attacker could use instead of the password sign-in (the hosted /login page,
// magic links, passkeys, the MFA challenge, password reset mails), while another address and another
// organization are unaffected, and nothing a refused attempt presented is used up. Then the 30-day hold-back of
// the class after a reversal, by the clock. TRUST_PROXY=1: X-Forwarded-For names each test source.

let svc: TestService;
let smtp: TestSmtpServer;
beforeAll(async () => {
  smtp = await startSmtpServer();
  svc = await startService(
    {
      AUTONOMY_EXECUTION_ENABLED: 'true',
      TRUST_PROXY: '1',
      SMTP_URL: smtp.url,
      MFA_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    },
    { baseUrlIsListenAddress: true },
  );
});
afterAll(async () => {
  await svc?.close();
  await smtp?.close();
});

const api = (path: string) => `${svc.url}/api/v1${path}`;
const ATTACKER = '203.0.113.66';
const NEIGHBOUR = '203.0.113.67';
/** The failure throttle's window: a containment's Retry-After (up to an hour) is longer. */
const FAILURE_WINDOW_SECONDS = 900;
const from = (ip: string) => ({ 'x-forwarded-for': ip });

const login = (ip: string, who: { email: string; password: string }, slug: string) =>
  request(api('/auth/login'), {
    headers: from(ip),
    json: { email: who.email, password: who.password, tenant_slug: slug },
  });

const totp = (secret: string) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: svc.clock.now().getTime() });

function expectContained(res: { status: number; headers: Headers; text: string }, what: string) {
  expect(res.status, `${what}: ${res.text}`).toBe(429);
  expect(Number(res.headers.get('retry-after')), what).toBeGreaterThan(FAILURE_WINDOW_SECONDS);
}

async function decisionsOf(token: string) {
  const res = await request(api('/autonomy/decisions?limit=200'), { token });
  expect(res.status, res.text).toBe(200);
  return res.body.decisions as Array<Record<string, any>>;
}

/** Raises credential stuffing from `source` in the organization and waits for its decision. */
async function stuffingFrom(org: { tenantId: string }, token: string, source: string, occurrence = '') {
  await svc.deps.transactions.tenant(org.tenantId, (tx) =>
    svc.deps.events.detect(tx, {
      tenantId: org.tenantId,
      ruleId: 'credential-stuffing',
      groupKey: `source:${source}${occurrence}`,
      severity: 'high',
      data: { source_ip: source },
    }),
  );
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const found = (await decisionsOf(token)).filter((d) => d.target_id === source);
    if (found.length > 0) return found[0]!;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no decision about ${source}`);
}

const mailsTo = (email: string, subject: RegExp) =>
  smtp.messages.filter((mail) => mail.to.includes(email.toLowerCase()) && subject.test(mail.subject));

async function magicLinkFor(email: string, slug: string, ip: string) {
  const asked = await request(api('/auth/magic-link'), { headers: from(ip), json: { email, tenant_slug: slug } });
  expect(asked.status).toBe(202);
  const mail = await smtp.waitFor((m) => m.to.includes(email.toLowerCase()) && /sign-in link/i.test(m.subject));
  return extractToken(mail.text);
}

async function passkeyAssertion(authenticator: SoftwareAuthenticator, ip: string) {
  const options = await request(api('/webauthn/login/options'), { method: 'POST', headers: from(ip) });
  expect(options.status, options.text).toBe(200);
  return authenticator.getAssertion(options.body);
}

/** An authorization request of the organization's OAuth client, followed to the hosted /login page. */
async function hostedLogin(browser: FormBrowser, clientId: string, who: { email: string; password: string }) {
  const url = new URL(api('/oauth/authorize'));
  const params = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: 'https://app.example.com/callback',
    scope: 'openid',
    state: oauth.generateRandomState(),
    code_challenge: await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()),
    code_challenge_method: 'S256',
  };
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  const start = await browser.get(url.toString());
  expect(start.status, start.html).toBe(302);
  expect(new URL(start.location!, svc.url).pathname).toBe('/login');
  const page = await browser.get(start.location!);
  expect(page.status, page.html).toBe(200);
  return browser.post('/login', { ...hiddenFields(page.html), email: who.email, password: who.password });
}

describe('contain_source on every sign-in path', () => {
  it('refuses a contained address on each path, for that organization and address only, using nothing up', {
    timeout: 240_000,
  }, async () => {
    const owner = await signUpOwner(svc.url);
    const org = { tenantId: owner.tenantId, slug: owner.slug };
    const level = await request(api('/tenants/config/autonomy.level_contain_source'), {
      method: 'PATCH',
      token: owner.token,
      json: { value: 'full' },
    });
    expect(level.status, level.text).toBe(200);
    const client = await request(api('/oauth/clients'), {
      token: owner.token,
      json: { name: 'Timesheets', client_type: 'confidential', redirect_uris: ['https://app.example.com/callback'] },
    });
    expect(client.status, client.text).toBe(201);
    const person = await addMember(svc, org, 'member');

    // A person with a passkey, one with TOTP enrolled; another organization whose member uses the same address.
    const authenticator = new SoftwareAuthenticator(svc.deps.config.baseUrl);
    const creation = await request(api('/webauthn/credentials/options'), { method: 'POST', token: person.token });
    expect(creation.status, creation.text).toBe(200);
    const registered = await request(api('/webauthn/credentials'), {
      token: person.token,
      json: authenticator.createCredential(creation.body),
    });
    expect(registered.status, registered.text).toBe(201);
    const second = await addMember(svc, org, 'member');
    const setup = await request(api('/mfa/setup'), { token: second.token, json: {} });
    expect(setup.status, setup.text).toBe(200);
    const secret = setup.body.secret as string;
    const enabled = await request(api('/mfa/setup/verify'), { token: second.token, json: { code: totp(secret) } });
    expect(enabled.status, enabled.text).toBe(200);
    svc.clock.advance(30_000);
    const stranger = await signUpOwner(svc.url, 'stranger');

    // Before the containment, from the address: an MFA challenge half done, and a sign-in link to redeem later.
    const firstFactor = await login(ATTACKER, second, owner.slug);
    expect(firstFactor.body, firstFactor.text).toMatchObject({ mfa_required: true });
    const mfaToken = firstFactor.body.mfa_token as string;
    const link = await magicLinkFor(person.email, owner.slug, NEIGHBOUR);

    // Autonomy contains the address, unattended (contain_source at full).
    const decision = await stuffingFrom(org, owner.token, ATTACKER);
    expect(decision).toMatchObject({ mode: 'executing', blast_class: 'contain_source' });
    await autonomyJob.run({ autonomy: svc.deps.autonomy });
    expect((await decisionsOf(owner.token)).find((d) => d.id === decision.id)).toMatchObject({ mode: 'executed' });

    // 1. Password sign-in over the API, the right password.
    expectContained(await login(ATTACKER, person, owner.slug), 'POST /auth/login');

    // 2. The hosted /login page of an authorization request: refused, no redirect onwards.
    const page = await hostedLogin(new FormBrowser(svc.url, from(ATTACKER)), client.body.client_id, person);
    expect(page.status, page.html).toBe(429);
    expect(page.location).toBeNull();
    expect(Number(page.headers.get('retry-after'))).toBeGreaterThan(FAILURE_WINDOW_SECONDS);
    const elsewhere = await hostedLogin(new FormBrowser(svc.url, from(NEIGHBOUR)), client.body.client_id, person);
    expect(elsewhere.status, elsewhere.html).toBe(303);
    expect(new URL(elsewhere.location!, svc.url).pathname).toBe('/consent');

    // 3. A sign-in link redeemed from the address: refused, and the link is not used up (it works elsewhere).
    expectContained(
      await request(api('/auth/magic-link/verify'), { headers: from(ATTACKER), json: { token: link } }),
      'magic link',
    );
    const redeemed = await request(api('/auth/magic-link/verify'), { headers: from(NEIGHBOUR), json: { token: link } });
    expect(redeemed.status, redeemed.text).toBe(200);

    // 4. A sign-in link asked for from the address: the same 202, and no mail (silent, like its budgets).
    const before = mailsTo(person.email, /sign-in link/i).length;
    const asked = await request(api('/auth/magic-link'), {
      headers: from(ATTACKER),
      json: { email: person.email, tenant_slug: owner.slug },
    });
    expect(asked.status).toBe(202);
    await svc.deps.afterAnswer.drain();
    expect(mailsTo(person.email, /sign-in link/i)).toHaveLength(before);
    await magicLinkFor(person.email, owner.slug, NEIGHBOUR);

    // 5. A passkey sign-in from the address: refused after the assertion, which then still works elsewhere.
    const assertion = await passkeyAssertion(authenticator, ATTACKER);
    expectContained(
      await request(api('/webauthn/login/verify'), {
        headers: from(ATTACKER),
        json: { ...assertion, tenant_slug: owner.slug },
      }),
      'passkey',
    );
    const passkey = await request(api('/webauthn/login/verify'), {
      headers: from(NEIGHBOUR),
      json: { ...(await passkeyAssertion(authenticator, NEIGHBOUR)), tenant_slug: owner.slug },
    });
    expect(passkey.status, passkey.text).toBe(200);

    // 6. The MFA challenge begun before the containment, answered from the address: refused, the code unspent.
    expectContained(
      await request(api('/mfa/challenge'), {
        headers: from(ATTACKER),
        json: { mfa_token: mfaToken, code: totp(secret) },
      }),
      'MFA challenge',
    );
    const answered = await request(api('/mfa/challenge'), {
      headers: from(NEIGHBOUR),
      json: { mfa_token: mfaToken, code: totp(secret) },
    });
    expect(answered.status, answered.text).toBe(200);

    // 7. A password reset asked for from the address: the same 202, and no mail; from another address, a mail.
    const resets = mailsTo(second.email, /reset/i).length;
    const reset = await request(api('/auth/forgot-password'), {
      headers: from(ATTACKER),
      json: { email: second.email },
    });
    expect(reset.status).toBe(202);
    await svc.deps.afterAnswer.drain();
    expect(mailsTo(second.email, /reset/i)).toHaveLength(resets);
    await request(api('/auth/forgot-password'), { headers: from(NEIGHBOUR), json: { email: second.email } });
    await svc.deps.afterAnswer.drain();
    expect(mailsTo(second.email, /reset/i)).toHaveLength(resets + 1);

    // 8. The token endpoint has no grant that takes a password: nothing to contain there.
    const password = await request(api('/oauth/token'), {
      headers: { ...from(ATTACKER), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'password',
        username: person.email,
        password: person.password,
        client_id: client.body.client_id,
        client_secret: client.body.client_secret,
      }).toString(),
    });
    expect(password.status).toBe(400);
    expect(password.body.error).toBe('unsupported_grant_type');

    // Another address signs in to this organization; the same address signs in to another organization.
    expect((await login(NEIGHBOUR, person, owner.slug)).status).toBe(200);
    expect((await login(ATTACKER, stranger, stranger.slug)).status).toBe(200);

    // The revert releases the address on every path; the reversal then holds contain_source below unattended
    // operation for 30 days from it: a new stuffing source is proposed, not contained, until the clock has moved.
    const reverted = await request(api(`/autonomy/decisions/${decision.id}/revert`), {
      token: owner.token,
      json: { reason: 'the office network' },
    });
    expect(reverted.status, reverted.text).toBe(200);
    expect((await login(ATTACKER, person, owner.slug)).status).toBe(200);
    const held = await stuffingFrom(org, owner.token, '203.0.113.70');
    expect(held).toMatchObject({ mode: 'proposed', adjudication: 'pending' });
    expect(held.decision_reason).toContain('reversal');
    svc.clock.advance(days(29));
    const fresh = (await login(NEIGHBOUR, owner, owner.slug)).body.access_token as string;
    const stillHeld = await stuffingFrom(org, fresh, '203.0.113.71');
    expect(stillHeld.mode).toBe('proposed');
    svc.clock.advance(days(1) + 60_000);
    const later = (await login(NEIGHBOUR, owner, owner.slug)).body.access_token as string;
    const clean = await stuffingFrom(org, later, '203.0.113.72');
    expect(clean).toMatchObject({ mode: 'executing', adjudication: 'automatic' });
  });
});
