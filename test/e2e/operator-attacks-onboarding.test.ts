import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/kernel/db/index.js';
import { RecordType, startDnsServer } from '../support/dns.js';
import { observableAnswer, request } from '../support/http.js';
import { bootstrapPlatformOwner } from '../support/platform.js';
import { startService, type TestService } from '../support/service.js';
import { extractToken, startSmtpServer, type TestSmtpServer } from '../support/smtp.js';

// An attacker's review of onboarding's single-use things (Part B 3, 4.5; ARCHITECTURE.md "Onboarding invite codes",
// "Spend once"): an invite code past its expiry, several bootstraps or confirmations racing for one code or link, a
// link past its 48 hours or replaced by a newer one, approvals racing each other, and decisions replayed.

const HOUR = 3_600_000;
const PASSWORD = 'correct horse battery staple attacker';
let svc: TestService;
let smtp: TestSmtpServer;
let dns: Awaited<ReturnType<typeof startDnsServer>>;
let operator: Awaited<ReturnType<typeof bootstrapPlatformOwner>>;

beforeAll(async () => {
  smtp = await startSmtpServer();
  dns = await startDnsServer({ 'acme.test': [{ type: RecordType.MX, priority: 10, exchange: 'mx.acme.test' }] });
  svc = await startService({
    SMTP_URL: smtp.url,
    DNS_SERVERS: `127.0.0.1:${dns.port}`,
    TRUST_PROXY: '1',
    ONBOARD_BOOTSTRAP_ENABLED: 'true',
    PUBLIC_SIGNUP_ENABLED: 'false',
  });
  operator = await bootstrapPlatformOwner(svc);
});
afterAll(async () => {
  await svc?.close();
  await smtp?.close();
  await dns?.close();
});

const api = (path: string) => `${svc.url}/api/v1${path}`;
let n = 0;
const fresh = () => `${++n}-${Math.random().toString(36).slice(2, 8)}`;
/** Each call from an address of its own /24, so no per-IP or per-network budget is met between tests. */
const ip = () => `198.${60 + Math.floor(n / 250)}.${n % 250}.9`;

/** The operator's token, signed in again each time (the clock moves by hours here). */
async function operatorToken() {
  const login = await request(api('/auth/login'), {
    json: { email: operator.email, password: operator.password, tenant_slug: operator.slug },
  });
  expect(login.status, login.text).toBe(200);
  return login.body.access_token as string;
}
async function invite(email: string, expiresInDays?: number) {
  const res = await request(api('/operator/invite-codes'), {
    token: await operatorToken(),
    json: { email, door: 'onboard', ...(expiresInDays ? { expires_in_days: expiresInDays } : {}) },
  });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; code: string };
}
const bootstrap = (email: string, code: string, name = `Attacked ${fresh()}`) =>
  request(api('/onboard/bootstrap'), {
    json: { organization_name: name, human_email: email, invite_code: code, client_info: { name: 'Claude' } },
    headers: { 'x-forwarded-for': ip() },
  });
const poll = (deviceCode: string) =>
  request(api('/onboard/poll'), { json: { device_code: deviceCode }, headers: { 'x-forwarded-for': ip() } });
const statusOfInvite = async (id: string) =>
  (await request(api('/operator/invite-codes'), { token: await operatorToken() })).body.invite_codes.find(
    (c: { id: string }) => c.id === id,
  ).status;
const organizationsNamed = async (name: string) =>
  (await rows(svc.deps.database.db, sql`select id from tenants where name = ${name}`)).length;

/** A browser without JavaScript: one cookie jar, forms posted with the CSRF cookie's value, no redirects followed. */
class Browser {
  readonly cookies = new Map<string, string>();
  private header = () => [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  private remember(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      this.cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
  }
  async get(path: string) {
    const response = await fetch(`${svc.url}${path}`, { headers: { cookie: this.header() }, redirect: 'manual' });
    this.remember(response);
    return { status: response.status, text: await response.text() };
  }
  async post(path: string, fields: Record<string, string>) {
    const csrf = [...this.cookies].find(([name]) => name.endsWith('svc_csrf'))?.[1] ?? '';
    const response = await fetch(`${svc.url}${path}`, {
      method: 'POST',
      headers: {
        cookie: this.header(),
        'content-type': 'application/x-www-form-urlencoded',
        'x-forwarded-for': ip(),
      },
      body: new URLSearchParams({ csrf_token: csrf, ...fields }).toString(),
      redirect: 'manual',
    });
    this.remember(response);
    return { status: response.status, text: await response.text() };
  }
}

/** Types the user code on the page and answers the mailed link's token (the browser holds its CSRF cookie). */
async function mailedLink(userCode: string, email: string) {
  const browser = new Browser();
  await browser.get('/onboard/verify');
  const entered = await browser.post('/onboard/verify', { user_code: userCode });
  expect(entered.status, entered.text).toBe(200);
  return { browser, token: extractToken((await smtp.waitFor(email)).text) };
}
const confirm = (browser: Browser, token: string) =>
  browser.post('/onboard/verify/confirm', {
    token,
    method: 'password',
    password: PASSWORD,
    confirm_password: PASSWORD,
  });

/** An invited bootstrap confirmed by mail: the browser bound to the attempt, on its review page. */
async function confirmedAttempt() {
  const email = `p${fresh()}@acme.test`;
  const code = await invite(email);
  const name = `Attacked ${fresh()}`;
  const started = await bootstrap(email, code.code, name);
  expect(started.status, started.text).toBe(201);
  const { browser, token } = await mailedLink(started.body.user_code, email);
  expect((await confirm(browser, token)).status).toBe(303);
  await browser.get('/onboard/verify/review');
  return { email, code, name, browser, deviceCode: started.body.device_code as string };
}

describe('invite codes', () => {
  it('an expired code opens nothing: the bootstrap answers the one invite 403, a pending confirm 409', async () => {
    const refusedAnswer = observableAnswer(await bootstrap(`nobody${fresh()}@acme.test`, 'inv_unknown'));
    expect(refusedAnswer.status).toBe(403);

    const late = `late${fresh()}@acme.test`;
    const lateCode = await invite(late, 1);
    const pendingEmail = `pending${fresh()}@acme.test`;
    const pendingCode = await invite(pendingEmail, 1);
    const name = `Attacked ${fresh()}`;
    const started = await bootstrap(pendingEmail, pendingCode.code, name);
    expect(started.status, started.text).toBe(201);
    const { browser, token } = await mailedLink(started.body.user_code, pendingEmail);

    svc.clock.advance(25 * HOUR);
    expect(observableAnswer(await bootstrap(late, lateCode.code))).toEqual(refusedAnswer);
    // The link (48 hours) outlived the invite (1 day): the click creates nothing.
    expect((await confirm(browser, token)).status).toBe(409);
    expect(await organizationsNamed(name)).toBe(0);
    expect(await statusOfInvite(pendingCode.id)).toBe('expired');
  });

  it('of concurrent bootstraps with one code exactly one opens an attempt', async () => {
    const email = `race${fresh()}@acme.test`;
    const code = await invite(email);
    const answers = await Promise.all(Array.from({ length: 5 }, () => bootstrap(email, code.code)));
    expect(answers.map((res) => res.status).sort()).toEqual([201, 409, 409, 409, 409]);
    const attempts = await rows(
      svc.deps.database.db,
      sql`select id from onboarding_attempts where invite_code_id = ${code.id}`,
    );
    expect(attempts).toHaveLength(1);
  });

  it('of concurrent clicks on one link exactly one creates the organization and consumes the code', async () => {
    const email = `click${fresh()}@acme.test`;
    const code = await invite(email);
    const name = `Attacked ${fresh()}`;
    const started = await bootstrap(email, code.code, name);
    const { browser, token } = await mailedLink(started.body.user_code, email);
    const clicks = await Promise.all(Array.from({ length: 4 }, () => confirm(browser, token)));
    expect(clicks.map((res) => res.status).sort()).toEqual([303, 404, 404, 404]);
    expect(await organizationsNamed(name)).toBe(1);
    expect(await statusOfInvite(code.id)).toBe('consumed');
  });
});

describe('the mailed link', () => {
  it('dies after 48 hours, and when a newer one is mailed', async () => {
    const email = `link${fresh()}@acme.test`;
    const code = await invite(email);
    const name = `Attacked ${fresh()}`;
    const started = await bootstrap(email, code.code, name);
    const first = await mailedLink(started.body.user_code, email);
    const second = await mailedLink(started.body.user_code, email);
    expect((await first.browser.get(`/onboard/verify?token=${first.token}`)).status).toBe(404);
    expect((await confirm(first.browser, first.token)).status).toBe(404);

    svc.clock.advance(48 * HOUR + 1_000);
    expect((await second.browser.get(`/onboard/verify?token=${second.token}`)).status).toBe(404);
    expect((await confirm(second.browser, second.token)).status).toBe(404);
    expect(await organizationsNamed(name)).toBe(0);
    expect(await statusOfInvite(code.id)).toBe('issued');
  });
});

describe('decisions', () => {
  it('of concurrent approvals exactly one releases one agent; replays and a late deny change nothing', async () => {
    const { name, browser, deviceCode } = await confirmedAttempt();
    // Staggered, so later clicks land while the first one is still registering the agent (approved, no agent yet).
    const approvals = await Promise.all(
      [0, 5, 10, 20, 40, 80].map(
        (delay) =>
          new Promise<{ status: number; text: string }>((done) =>
            setTimeout(() => done(browser.post('/onboard/verify/approve', {})), delay),
          ),
      ),
    );
    expect(
      approvals.filter((res) => res.status === 200 && res.text.includes('Your organization is open')),
    ).toHaveLength(1);
    const [organization] = await rows<{ id: string }>(
      svc.deps.database.db,
      sql`select id from tenants where name = ${name}`,
    );
    const agents = await rows(svc.deps.database.db, sql`select id from agents where tenant_id = ${organization!.id}`);
    expect(agents).toHaveLength(1);

    expect((await browser.post('/onboard/verify/deny', {})).status).toBe(409);
    expect(await organizationsNamed(name)).toBe(1);
    svc.clock.advance(5_000);
    const released = await poll(deviceCode);
    expect(released.body.status).toBe('approved');
    expect(released.body.agent.agent_id).toBe((agents[0] as { id: string }).id);
    svc.clock.advance(5_000);
    expect((await poll(deviceCode)).body).toEqual({ status: 'consumed' });
    // A replayed click changes nothing (the page says so).
    const replayed = await browser.post('/onboard/verify/approve', {});
    expect(replayed.text).toContain('This onboarding is consumed');
    expect(
      await rows(svc.deps.database.db, sql`select id from agents where tenant_id = ${organization!.id}`),
    ).toHaveLength(1);
  });

  it('an approval left without its agent is finished by exactly one of several concurrent retries', async () => {
    const { name, browser, deviceCode } = await confirmedAttempt();
    // What an approval whose release failed midway leaves (verification.ts `release`): approved, no agent yet.
    await svc.deps.database.db.execute(
      sql`update onboarding_attempts set status = 'approved', approved_at = ${svc.clock.now().toISOString()}
        where organization_id = (select id from tenants where name = ${name})`,
    );
    // Within the approval's lease its own release may still be running: a retry waits.
    const agentsOf = () =>
      rows<{ id: string }>(
        svc.deps.database.db,
        sql`select a.id from agents a join tenants t on t.id = a.tenant_id where t.name = ${name}`,
      );
    const early = await browser.post('/onboard/verify/approve', {});
    expect(early.text).not.toContain('Your organization is open');
    expect(await agentsOf()).toHaveLength(0);
    svc.clock.advance(61_000);
    const retries = await Promise.all(Array.from({ length: 4 }, () => browser.post('/onboard/verify/approve', {})));
    expect(retries.filter((res) => res.text.includes('Your organization is open'))).toHaveLength(1);
    const agents = await agentsOf();
    expect(agents).toHaveLength(1);
    svc.clock.advance(5_000);
    const released = await poll(deviceCode);
    expect(released.body.status, released.text).toBe('approved');
    expect(released.body.agent.agent_id).toBe(agents[0]!.id);
  });

  it('an approval after the attempt’s hour reaches the agent: a repeat bootstrap with its own consumed code rotates', async () => {
    const { email, code, browser, deviceCode } = await confirmedAttempt();
    svc.clock.advance(HOUR + 1_000);
    expect((await browser.post('/onboard/verify/approve', {})).text).toContain('Your organization is open');
    expect((await poll(deviceCode)).status).toBe(410);
    const again = await bootstrap(email, code.code);
    expect(again.status, again.text).toBe(201);
    const released = await poll(again.body.device_code);
    expect(released.body.status, released.text).toBe('approved');
    // The consumed code still opens nothing else: not for a new attempt once this one is done.
    svc.clock.advance(5_000);
    expect((await poll(again.body.device_code)).body).toEqual({ status: 'consumed' });
    expect((await bootstrap(email, code.code)).status).toBe(403);
  });

  it('a denied onboarding cannot be replayed with its code, nor approved afterwards', async () => {
    const { email, code, name, browser } = await confirmedAttempt();
    expect((await browser.post('/onboard/verify/deny', {})).status).toBe(200);
    expect((await browser.post('/onboard/verify/approve', {})).status).toBe(404);
    expect((await bootstrap(email, code.code)).status).toBe(403);
    expect(await organizationsNamed(name)).toBe(0);
  });
});
