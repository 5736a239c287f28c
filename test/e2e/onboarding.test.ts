import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOOTSTRAP_GLOBAL, BOOTSTRAP_PER_NETWORK } from '../../src/modules/onboarding/abuse.js';
import { insertCustomRole } from '../../src/modules/roles/index.js';
import { RecordType, startDnsServer } from '../support/dns.js';
import { observableAnswer, request } from '../support/http.js';
import { bootstrapPlatformOwner } from '../support/platform.js';
import { startService, type TestService } from '../support/service.js';
import { extractToken, startSmtpServer, type TestSmtpServer } from '../support/smtp.js';
import { SoftwareAuthenticator } from '../support/webauthn-authenticator.js';

// Agent onboarding over HTTP (Part B 4.5, issue 23): invite codes, bootstrap, poll, proof of work, the hosted
// /onboard/verify pages walked by a browser without JavaScript, quarantine and its lifting, approval and denial.

const BASE = 'https://id.example.test';
let svc: TestService;
let smtp: TestSmtpServer;
let dns: Awaited<ReturnType<typeof startDnsServer>>;
let operator: Awaited<ReturnType<typeof bootstrapPlatformOwner>>;
beforeAll(async () => {
  smtp = await startSmtpServer();
  dns = await startDnsServer({
    'acme.test': [{ type: RecordType.MX, priority: 10, exchange: 'mx.acme.test' }],
    'nomx.test': [{ type: RecordType.A, address: '192.0.2.10' }],
    'nullmx.test': [{ type: RecordType.MX, priority: 0, exchange: '' }],
  });
  svc = await startService({
    SMTP_URL: smtp.url,
    DNS_SERVERS: `127.0.0.1:${dns.port}`,
    TRUST_PROXY: '1',
    BASE_URL: BASE,
    ONBOARD_BOOTSTRAP_ENABLED: 'true',
    AGENT_APPROVALS_ENABLED: 'true',
    PUBLIC_SIGNUP_ENABLED: 'false',
  });
  operator = await bootstrapPlatformOwner(svc);
});
afterAll(async () => {
  await svc?.close();
  await smtp?.close();
  await dns?.close();
});

/** A browser without JavaScript: fetch, a cookie jar, forms posted with their CSRF field, redirects not followed. */
class FormWalker {
  readonly cookies = new Map<string, string>();
  constructor(private readonly base: string) {}

  private remember(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  private header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async get(path: string) {
    const response = await fetch(`${this.base}${path}`, { headers: { cookie: this.header() }, redirect: 'manual' });
    this.remember(response);
    return { status: response.status, headers: response.headers, text: await response.text() };
  }

  async post(path: string, fields: Record<string, string>, options: { csrf?: boolean; ip?: string } = {}) {
    const csrf = [...this.cookies].find(([name]) => name.endsWith('svc_csrf'))?.[1];
    const body = new URLSearchParams({ ...(options.csrf === false ? {} : { csrf_token: csrf ?? '' }), ...fields });
    const response = await fetch(`${this.base}${path}`, {
      method: 'POST',
      headers: {
        cookie: this.header(),
        'content-type': 'application/x-www-form-urlencoded',
        ...(options.ip ? { 'x-forwarded-for': options.ip } : {}),
      },
      body: body.toString(),
      redirect: 'manual',
    });
    this.remember(response);
    return { status: response.status, headers: response.headers, text: await response.text() };
  }

  async postJson(path: string, json: unknown) {
    const csrf = [...this.cookies].find(([name]) => name.endsWith('svc_csrf'))?.[1] ?? '';
    const response = await fetch(`${this.base}${path}`, {
      method: 'POST',
      headers: { cookie: this.header(), 'content-type': 'application/json', 'x-csrf-token': csrf },
      body: JSON.stringify(json),
    });
    this.remember(response);
    return { status: response.status, body: (await response.json()) as any };
  }
}

/** The hidden input's value in a page, if the page has it. */
const hiddenField = (page: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(page)?.[1];

/** A nonce solving a proof-of-work challenge (SHA-256 of `challenge.nonce` with `bits` leading zero bits). */
function solvePow(challenge: string, bits: number): string {
  for (let n = 0; ; n++) {
    const digest = createHash('sha256').update(`${challenge}.${n}`).digest();
    let zero = 0;
    for (const byte of digest) {
      if (byte === 0) {
        zero += 8;
        continue;
      }
      zero += Math.clz32(byte) - 24;
      break;
    }
    if (zero >= bits) return String(n);
  }
}

let ipCounter = 0;
/** A source address of its own (TRUST_PROXY=1): per-IP budgets never meet between tests. */
const freshIp = () => {
  ipCounter += 1;
  // Each in a /24 of its own, so the per-network budget never meets between tests either.
  return `198.${18 + Math.floor(ipCounter / 250)}.${ipCounter % 250}.1`;
};

function onboardingHarness(svc: () => TestService, smtp: () => TestSmtpServer) {
  const api = (path: string) => `${svc().url}/api/v1${path}`;

  async function issueInvite(token: string, email: string, door = 'onboard', expiresInDays?: number) {
    const res = await request(api('/operator/invite-codes'), {
      token,
      json: { email, door, ...(expiresInDays ? { expires_in_days: expiresInDays } : {}) },
    });
    expect(res.status, res.text).toBe(201);
    return res.body as { id: string; code: string };
  }

  const bootstrap = (json: Record<string, unknown>, ip = freshIp()) =>
    request(api('/onboard/bootstrap'), { json, headers: { 'x-forwarded-for': ip } });
  const poll = (deviceCode: string, ip = freshIp()) =>
    request(api('/onboard/poll'), { json: { device_code: deviceCode }, headers: { 'x-forwarded-for': ip } });

  /** The person's legs up to the review page: code entry, the mailed link, the explicit click. */
  async function confirmByMail(userCode: string, email: string, choice: Record<string, string>) {
    const walker = new FormWalker(svc().url);
    expect((await walker.get('/onboard/verify')).status).toBe(200);
    const entered = await walker.post('/onboard/verify', { user_code: userCode.toLowerCase() }, { ip: freshIp() });
    expect(entered.status, entered.text).toBe(200);
    const mail = await smtp().waitFor(email);
    const token = extractToken(mail.text);
    const linkPage = await walker.get(`/onboard/verify?token=${token}`);
    expect(linkPage.status, linkPage.text).toBe(200);
    const confirmed = await walker.post('/onboard/verify/confirm', { token, ...choice });
    return { walker, token, confirmed };
  }

  return { api, issueInvite, bootstrap, poll, confirmByMail };
}

let tokenAt = 0;
let token = '';
/** The operator's access token, signed in again once the test clock moved past its lifetime. */
async function opTokenAsync() {
  if (!token || svc.clock.now().getTime() - tokenAt > 10 * 60_000) {
    const login = await request(api('/auth/login'), {
      json: { email: operator.email, password: operator.password, tenant_slug: operator.slug },
    });
    token = login.body.access_token;
    tokenAt = svc.clock.now().getTime();
  }
  return token;
}

const h = onboardingHarness(
  () => svc,
  () => smtp,
);
const { api, bootstrap, poll } = h;
let counter = 0;
const email = (domain = 'acme.test') => {
  counter += 1;
  return `person${counter}-${Math.random().toString(36).slice(2, 8)}@${domain}`;
};
const orgName = () => `Onboarded ${counter}-${Math.random().toString(36).slice(2, 8)}`;
const manifest = {
  manifest_version: 1,
  roles: [{ code: 'support-lead', name: 'Support lead', permissions: ['members:read'] }],
};
const PASSWORD = 'correct horse battery staple onboarding';

/** An invited bootstrap for a fresh address: its answer and what it was made with. */
async function invitedBootstrap(extra: Record<string, unknown> = {}) {
  const address = email();
  const invite = await h.issueInvite(await opTokenAsync(), address);
  const res = await bootstrap({
    organization_name: orgName(),
    human_email: address,
    invite_code: invite.code,
    client_info: { name: 'Claude', platform: 'cli', model: 'test-model' },
    ...extra,
  });
  expect(res.status, res.text).toBe(201);
  return { address, invite, answer: res.body, organization: (extra.organization_name as string) ?? undefined };
}

const loginOwner = async (address: string, slug: string) =>
  request(api('/auth/login'), { json: { email: address, password: PASSWORD, tenant_slug: slug } });
const slugOf = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, '-');

describe('invite codes', () => {
  it('are issued once by the platform operator, listed without the code, revoked once', async () => {
    const address = email();
    const issued = await h.issueInvite(await opTokenAsync(), address);
    expect(issued.code).toMatch(/^inv_[A-Za-z0-9_-]{43}$/);
    const list = await request(api('/operator/invite-codes'), { token: await opTokenAsync() });
    expect(list.status).toBe(200);
    const row = list.body.invite_codes.find((c: { id: string }) => c.id === issued.id);
    expect(row).toMatchObject({ email: address, door: 'onboard', status: 'issued' });
    expect(JSON.stringify(list.body)).not.toContain(issued.code);
    const revoke = async () =>
      request(api(`/operator/invite-codes/${issued.id}/revoke`), { method: 'POST', token: await opTokenAsync() });
    expect((await revoke()).body.status).toBe('revoked');
    expect((await revoke()).status).toBe(409);
    const unknown = await request(api('/operator/invite-codes/00000000-0000-7000-8000-000000000000/revoke'), {
      method: 'POST',
      token: await opTokenAsync(),
    });
    expect(unknown.status).toBe(404);
    const bad = await request(api('/operator/invite-codes'), {
      token: await opTokenAsync(),
      json: { email: address, door: 'side' },
    });
    expect(bad.status).toBe(422);
  });

  it('are refused to owners of other organizations (platform-only, 403)', async () => {
    const other = await request(api('/auth/login'), {
      json: { email: 'x@acme.test', password: 'x', tenant_slug: 'x' },
    });
    expect(other.status).toBe(401);
    // An organization owner who is not a platform operator: the onboarding of one, approved, below, is such an owner.
    const { address, slug } = await completeOnboarding();
    const login = await loginOwner(address, slug);
    const token = login.body.access_token as string;
    for (const res of [
      await request(api('/operator/invite-codes'), { token }),
      await request(api('/operator/invite-codes'), { token, json: { email: email(), door: 'onboard' } }),
    ]) {
      expect(res.status).toBe(403);
    }
  });
});

describe('bootstrap refusals', () => {
  it('answers one identical 403 for every invite failure', async () => {
    const address = email();
    const base = { organization_name: orgName(), human_email: address };
    const wrongAddress = await h.issueInvite(await opTokenAsync(), email());
    const wrongDoor = await h.issueInvite(await opTokenAsync(), address, 'signup');
    const revoked = await h.issueInvite(await opTokenAsync(), address);
    await request(api(`/operator/invite-codes/${revoked.id}/revoke`), { method: 'POST', token: await opTokenAsync() });
    const answers = [
      await bootstrap(base),
      await bootstrap({ ...base, invite_code: 'inv_unknown' }),
      await bootstrap({ ...base, invite_code: wrongAddress.code }),
      await bootstrap({ ...base, invite_code: wrongDoor.code }),
      await bootstrap({ ...base, invite_code: revoked.code }),
      await (async () => {
        const used = await completeOnboarding();
        return bootstrap({ ...base, human_email: used.address, invite_code: used.invite.code });
      })(),
    ];
    for (const res of answers) expect(res.status).toBe(403);
    const first = observableAnswer(answers[0]!);
    for (const res of answers) expect(observableAnswer(res)).toEqual(first);
  });

  it('refuses disposable and mail-less domains, oversized and invalid manifests, and a duplicate live attempt', async () => {
    for (const domain of ['mailinator.com', 'nomx.test', 'nullmx.test', 'unknown-domain.test']) {
      const address = email(domain);
      const invite = await h.issueInvite(await opTokenAsync(), address);
      const res = await bootstrap({ organization_name: orgName(), human_email: address, invite_code: invite.code });
      expect(res.status, `${domain}: ${res.text}`).toBe(400);
    }
    const address = email();
    const invite = await h.issueInvite(await opTokenAsync(), address);
    const base = { organization_name: orgName(), human_email: address, invite_code: invite.code };
    const big = { manifest_version: 1, roles: [{ code: 'big', name: 'x'.repeat(70_000), permissions: [] }] };
    expect((await bootstrap({ ...base, manifest: big })).status).toBe(422);
    const invalid = await bootstrap({ ...base, manifest: { manifest_version: 1, surprise: true } });
    expect(invalid.status).toBe(422);
    expect(invalid.body.detail).toMatch(/surprise/);
    expect((await bootstrap(base)).status).toBe(201);
    expect((await bootstrap(base)).status).toBe(409);
  });

  it('asks for a proof of work once the per-IP budget is half spent, spends each challenge once, then throttles', async () => {
    const ip = '198.51.100.7';
    const once = async (pow?: { challenge: string; nonce: string }) => {
      const address = email();
      const invite = await h.issueInvite(await opTokenAsync(), address);
      return bootstrap(
        { organization_name: orgName(), human_email: address, invite_code: invite.code, ...(pow ? { pow } : {}) },
        ip,
      );
    };
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await once());
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201, 201, 201]);
    expect(answers.map((a) => a.body.pow_required)).toEqual([false, false, false, false, false, true]);
    const missing = await once();
    expect(missing.status).toBe(403);
    expect(missing.body.pow_required).toBe(true);
    const challenge = await request(api('/onboard/pow'), { method: 'POST', headers: { 'x-forwarded-for': ip } });
    expect(challenge.status).toBe(200);
    const pow = {
      challenge: challenge.body.challenge,
      nonce: solvePow(challenge.body.challenge, challenge.body.difficulty),
    };
    expect((await once({ ...pow, nonce: `${pow.nonce}x` })).status).toBe(403);
    // The wrong nonce spent the challenge: a new one is needed.
    expect((await once(pow)).status).toBe(403);
    const fresh = await request(api('/onboard/pow'), { method: 'POST', headers: { 'x-forwarded-for': ip } });
    const solved = { challenge: fresh.body.challenge, nonce: solvePow(fresh.body.challenge, fresh.body.difficulty) };
    expect((await once(solved)).status).toBe(201);
    expect((await once(solved)).status).toBe(429);
  });

  it('fails closed per network (/24) and overall', async () => {
    await svc.deps.limiter.consume(BOOTSTRAP_PER_NETWORK, '203.0.113.0/24', BOOTSTRAP_PER_NETWORK.points);
    const address = email();
    const invite = await h.issueInvite(await opTokenAsync(), address);
    const body = { organization_name: orgName(), human_email: address, invite_code: invite.code };
    const throttled = await bootstrap(body, '203.0.113.77');
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get('retry-after')).toBeTruthy();
    expect((await bootstrap(body, '203.0.114.77')).status).toBe(201);
  });
});

describe('poll', () => {
  it('answers pending, slow_down when faster than the interval, 410 once expired; a repeat rotates fresh codes', async () => {
    const { address, invite, answer } = await invitedBootstrap();
    expect(answer).toMatchObject({ verification_uri: `${BASE}/onboard/verify`, expires_in: 3600, interval: 5 });
    expect(answer.user_code).toMatch(/^[B-Z]{4}-[B-Z]{4}$/);
    expect((await poll('odc_unknown')).status).toBe(404);
    expect((await poll(answer.device_code)).body).toEqual({ status: 'authorization_pending' });
    const fast = await poll(answer.device_code);
    expect(fast.status).toBe(429);
    expect(fast.body.status).toBe('slow_down');
    svc.clock.advance(61 * 60_000);
    const expired = await poll(answer.device_code);
    expect(expired.status).toBe(410);
    expect(expired.body.status).toBe('expired');
    const again = await bootstrap({ organization_name: orgName(), human_email: address, invite_code: invite.code });
    expect(again.status).toBe(201);
    expect(again.body.device_code).not.toBe(answer.device_code);
    expect((await poll(answer.device_code)).status).toBe(404);
    expect((await poll(again.body.device_code)).body).toEqual({ status: 'authorization_pending' });
  });
});

/**
 * A whole onboarding with a password, approved with the plan shown: what the tests build on. `withPlanHash: false`
 * approves without the plan's hash; `beforeApprove` runs between the review page and the approve.
 */
async function completeOnboarding(
  options: {
    withPlanHash?: boolean;
    manifest?: object;
    beforeApprove?: (owner: { address: string; slug: string }) => Promise<void>;
  } = {},
) {
  const organization = orgName();
  const { address, invite, answer } = await invitedBootstrap({
    organization_name: organization,
    manifest: options.manifest ?? manifest,
  });
  const { walker, confirmed } = await h.confirmByMail(answer.user_code, address, {
    method: 'password',
    password: PASSWORD,
    confirm_password: PASSWORD,
  });
  expect(confirmed.status, confirmed.text).toBe(303);
  expect(confirmed.headers.get('location')).toBe('/onboard/verify/review');
  const review = await walker.get('/onboard/verify/review');
  expect(review.status).toBe(200);
  const planHash = hiddenField(review.text, 'plan_hash');
  expect(planHash).toMatch(/^[0-9a-f]{64}$/);
  await options.beforeApprove?.({ address, slug: slugOf(organization) });
  const approved = await walker.post(
    '/onboard/verify/approve',
    options.withPlanHash === false ? {} : { plan_hash: planHash! },
  );
  expect(approved.status, approved.text).toBe(200);
  svc.clock.advance(5_000);
  const released = await poll(answer.device_code);
  expect(released.body.status).toBe('approved');
  return {
    address,
    invite,
    answer,
    slug: slugOf(organization),
    agent: released.body.agent,
    approvedText: approved.text,
  };
}

describe('a complete onboarding with a password, walked without JavaScript', () => {
  it('quarantines until approval, lifts it at once, releases the credential once and pre-approves the plan shown', async () => {
    const organization = orgName();
    const { address, invite, answer } = await invitedBootstrap({ organization_name: organization, manifest });
    const { walker, token, confirmed } = await h.confirmByMail(answer.user_code, address, {
      method: 'password',
      password: PASSWORD,
      confirm_password: PASSWORD,
    });
    expect(confirmed.status, confirmed.text).toBe(303);
    // The link is single use.
    expect(
      (
        await walker.post('/onboard/verify/confirm', {
          token,
          method: 'password',
          password: PASSWORD,
          confirm_password: PASSWORD,
        })
      ).status,
    ).toBe(404);
    // The organization exists, quarantined: the owner signs in, the members family, API keys and webhooks are closed.
    const login = await loginOwner(address, slugOf(organization));
    expect(login.status, login.text).toBe(200);
    const ownerToken = login.body.access_token as string;
    const gated = () =>
      Promise.all([
        request(api('/members'), { token: ownerToken }),
        request(api('/members/invites'), { token: ownerToken, json: { email: email() } }),
        request(api('/tenants/api-keys'), { token: ownerToken }),
        request(api('/tenants/webhooks'), { token: ownerToken }),
        request(api('/oauth/clients'), { token: ownerToken }),
      ]);
    for (const res of await gated()) {
      expect(res.status).toBe(403);
      expect(res.body.detail).toMatch(/awaiting approval/);
    }
    expect((await request(api('/me'), { token: ownerToken })).status).toBe(200);
    svc.clock.advance(5_000);
    expect((await poll(answer.device_code)).body).toEqual({ status: 'authorization_pending' });
    // A forged approve (no CSRF field) changes nothing.
    expect((await walker.post('/onboard/verify/approve', {}, { csrf: false })).status).toBe(403);
    const review = await walker.get('/onboard/verify/review');
    expect(review.text).toContain('support-lead');
    const planHash = hiddenField(review.text, 'plan_hash')!;
    const approved = await walker.post('/onboard/verify/approve', { plan_hash: planHash });
    expect(approved.status, approved.text).toBe(200);
    expect(approved.text).toContain('The plan you reviewed is approved');
    // Lifted at once.
    expect((await gated()).map((res) => res.status)).toEqual([200, 201, 200, 200, 200]);
    // Two concurrent polls: exactly one credential.
    svc.clock.advance(5_000);
    const [a, b] = await Promise.all([poll(answer.device_code), poll(answer.device_code)]);
    const released = [a, b].filter((res) => res.body?.status === 'approved');
    expect(released).toHaveLength(1);
    const agent = released[0]!.body.agent;
    expect(agent.credential).toMatch(/^agt_/);
    expect(agent.name).toBe('Claude');
    for (let i = 0; i < 2; i++) {
      svc.clock.advance(5_000);
      expect((await poll(answer.device_code)).body).toEqual({ status: 'consumed' });
    }
    // The credential works; the agent holds manifest:plan and manifest:apply for 7 days, from the owner.
    const minted = await request(api('/agents/token'), { json: { credential: agent.credential } });
    expect(minted.status, minted.text).toBe(200);
    const detail = await request(api(`/agents/${agent.agent_id}`), { token: ownerToken });
    expect(detail.body.delegations).toHaveLength(1);
    expect(detail.body.delegations[0].permissions.sort()).toEqual(['manifest:apply', 'manifest:plan']);
    const days = (Date.parse(detail.body.delegations[0].expires_at) - svc.clock.now().getTime()) / 86_400_000;
    expect(Math.round(days)).toBe(7);
    // The plan shown was pre-approved: one approved manifest ask for this agent.
    const asks = await request(api(`/approvals?agent_id=${agent.agent_id}`), { token: ownerToken });
    expect(asks.status, asks.text).toBe(200);
    const manifestAsks = (asks.body.approvals as Array<{ resource_type: string; status: string }>).filter(
      (ask: { resource_type: string }) => ask.resource_type === 'manifest',
    );
    expect(manifestAsks).toHaveLength(1);
    expect(manifestAsks[0]?.status).toBe('approved');
    // The invite code is consumed.
    const codes = await request(api('/operator/invite-codes'), { token: await opTokenAsync() });
    expect(codes.body.invite_codes.find((c: { id: string }) => c.id === invite.id).status).toBe('consumed');
  });

  it('grants no pre-approval when the approve does not carry the plan hash', async () => {
    const done = await completeOnboarding({ withPlanHash: false });
    const login = await loginOwner(done.address, done.slug);
    const asks = await request(api(`/approvals?agent_id=${done.agent.agent_id}`), { token: login.body.access_token });
    const list = asks.body.approvals as Array<{ resource_type: string }>;
    expect(list.filter((ask: { resource_type: string }) => ask.resource_type === 'manifest')).toHaveLength(0);
  });
});

describe('the released agent applies the manifest it parked', () => {
  /** A manifest with a custom role and an invite holding it, for a fresh address. */
  const parked = () => ({
    manifest_version: 1,
    roles: [{ code: 'support-lead', name: 'Support lead', permissions: ['members:read'] }],
    invites: [{ email: email(), role: 'support-lead' }],
  });
  const applyAs = (token: string, document: unknown) =>
    request(api('/manifest/apply'), { token, json: { manifest: document } });

  /** The agent's access token from the credential its poll released, and the owner's token and identity. */
  async function sides(done: Awaited<ReturnType<typeof completeOnboarding>>) {
    const minted = await request(api('/agents/token'), { json: { credential: done.agent.credential } });
    expect(minted.status, minted.text).toBe(200);
    const login = await loginOwner(done.address, done.slug);
    expect(login.status, login.text).toBe(200);
    const ownerToken = login.body.access_token as string;
    const me = await request(api('/me'), { token: ownerToken });
    return {
      agentToken: minted.body.access_token as string,
      ownerToken,
      ownerId: me.body.user_id as string,
      tenantId: me.body.tenant_id as string,
    };
  }

  /** What the manifest made: the custom role's permissions (null when absent) and the pending invitations. */
  async function made(ownerToken: string) {
    const role = await request(api('/authz/roles/support-lead'), { token: ownerToken });
    const invites = await request(api('/members/invites'), { token: ownerToken });
    expect(invites.status, invites.text).toBe(200);
    const list = (Array.isArray(invites.body) ? invites.body : invites.body.invites) as Array<{
      email: string;
      role: string;
    }>;
    return {
      role: role.status === 200 ? (role.body.permissions as string[]) : null,
      invites: list.map((i) => [i.email, i.role]),
    };
  }

  it('applies with the pre-approval of the plan the person approved; a second apply resumes with nothing to do', async () => {
    const document = parked();
    const done = await completeOnboarding({ manifest: document });
    expect(done.approvedText).toContain('The plan you reviewed is approved');
    const { agentToken, ownerToken, ownerId } = await sides(done);
    // The pre-approval: one manifest ask of this agent, approved by the person.
    const asks = await request(api(`/approvals?agent_id=${done.agent.agent_id}`), { token: ownerToken });
    const preapproval = (asks.body.approvals as Array<Record<string, any>>).filter(
      (ask) => ask.resource_type === 'manifest',
    );
    expect(preapproval).toHaveLength(1);
    expect(preapproval[0]).toMatchObject({ status: 'approved', decided_by: ownerId });
    expect(await made(ownerToken)).toEqual({ role: null, invites: [] });

    const first = await applyAs(agentToken, document);
    expect(first.status, first.text).toBe(200);
    expect(first.body).toEqual({
      manifest_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      approval_id: preapproval[0]!.id,
      approved_by: ownerId,
      resumed: false,
      applied: 2,
      skipped: 0,
    });
    expect(await made(ownerToken)).toEqual({
      role: ['members:read'],
      invites: [[document.invites[0]!.email, 'support-lead']],
    });
    // The pre-approval is spent; the plan now reads every step as in place.
    const spent = await request(api(`/approvals/${preapproval[0]!.id}`), { token: ownerToken });
    expect(spent.body.status).toBe('consumed');
    const after = await request(api('/manifest/plan'), { token: agentToken, json: { manifest: document } });
    expect(after.body.steps.map((step: { would: string }) => step.would)).toEqual(['noop', 'noop']);

    const second = await applyAs(agentToken, document);
    expect(second.status, second.text).toBe(200);
    expect(second.body).toEqual({ ...first.body, resumed: true, applied: 0, skipped: 2 });
    expect((await made(ownerToken)).invites).toHaveLength(1);
  });

  for (const variant of ['no plan hash', 'a stale plan hash'] as const) {
    it(`with ${variant} on the approve, apply is 403 no-approval and the agent asks through the ordinary queue`, async () => {
      const document = parked();
      const done = await completeOnboarding({
        manifest: document,
        withPlanHash: variant !== 'no plan hash',
        // The live state moves after the review: the role now exists identically, so the plan shown is stale.
        beforeApprove:
          variant === 'a stale plan hash'
            ? async ({ address, slug }) => {
                const me = await request(api('/me'), { token: (await loginOwner(address, slug)).body.access_token });
                await svc.deps.transactions.tenant(me.body.tenant_id, (tx) =>
                  insertCustomRole(tx, me.body.tenant_id, { ...document.roles[0]!, description: null }),
                );
              }
            : undefined,
      });
      expect(done.approvedText).toContain('goes through your approval queue');
      const { agentToken, ownerToken, ownerId } = await sides(done);
      const before = await made(ownerToken);
      expect(before.invites).toEqual([]);

      const refused = await applyAs(agentToken, document);
      expect(refused.status, refused.text).toBe(403);
      expect(refused.body).toMatchObject({ approval_state: 'no-approval', approval_status: 'none', approval_id: null });
      expect(await made(ownerToken)).toEqual(before);

      const asked = await request(api('/manifest/request-approval'), {
        token: agentToken,
        json: { manifest: document },
      });
      expect(asked.status, asked.text).toBe(201);
      expect(asked.body).toMatchObject({ approval_status: 'pending', created: true, appliable: true });
      const pending = await applyAs(agentToken, document);
      expect(pending.status).toBe(403);
      expect(pending.body).toMatchObject({ approval_state: 'no-approval', approval_status: 'pending' });
      const decided = await request(api(`/approvals/${asked.body.approval_id}/decide`), {
        token: ownerToken,
        json: { approve: true },
      });
      expect(decided.status, decided.text).toBe(200);
      expect(decided.body.status).toBe('approved');

      const applied = await applyAs(agentToken, document);
      expect(applied.status, applied.text).toBe(200);
      const roleSteps = variant === 'no plan hash' ? 1 : 0;
      expect(applied.body).toMatchObject({
        approval_id: asked.body.approval_id,
        approved_by: ownerId,
        resumed: false,
        applied: 1 + roleSteps,
        skipped: 1 - roleSteps,
      });
      expect(await made(ownerToken)).toEqual({
        role: ['members:read'],
        invites: [[document.invites[0]!.email, 'support-lead']],
      });
    });
  }
});

describe('denial and refusals of the hosted legs', () => {
  it('tears everything down on denial; the poll answers denied', async () => {
    const organization = orgName();
    const { address, answer } = await invitedBootstrap({ organization_name: organization });
    const { walker, confirmed } = await h.confirmByMail(answer.user_code, address, {
      method: 'password',
      password: PASSWORD,
      confirm_password: PASSWORD,
    });
    expect(confirmed.status).toBe(303);
    expect((await loginOwner(address, slugOf(organization))).status).toBe(200);
    await walker.get('/onboard/verify/review');
    const denied = await walker.post('/onboard/verify/deny', {});
    expect(denied.status, denied.text).toBe(200);
    expect((await loginOwner(address, slugOf(organization))).status).toBe(401);
    svc.clock.advance(5_000);
    expect((await poll(answer.device_code)).body).toEqual({ status: 'denied' });
    expect((await walker.post('/onboard/verify/approve', {})).status).toBe(404);
  });

  it('refuses a confirm when the invite was revoked in between (409, nothing created)', async () => {
    const organization = orgName();
    const { address, invite, answer } = await invitedBootstrap({ organization_name: organization });
    await request(api(`/operator/invite-codes/${invite.id}/revoke`), { method: 'POST', token: await opTokenAsync() });
    const { confirmed } = await h.confirmByMail(answer.user_code, address, {
      method: 'password',
      password: PASSWORD,
      confirm_password: PASSWORD,
    });
    expect(confirmed.status).toBe(409);
    expect((await loginOwner(address, slugOf(organization))).status).toBe(401);
  });

  it('refuses approval until the owner has a passkey, then approves once one is registered', async () => {
    const organization = orgName();
    const { address, answer } = await invitedBootstrap({ organization_name: organization });
    const { walker, confirmed } = await h.confirmByMail(answer.user_code, address, { method: 'passkey' });
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get('location')).toBe('/onboard/verify/passkey');
    await walker.get('/onboard/verify/review');
    const refused = await walker.post('/onboard/verify/approve', {});
    expect(refused.status).toBe(409);
    expect(refused.text).toContain('passkey or a password');
    const page = await walker.get('/onboard/verify/passkey');
    expect(page.status).toBe(200);
    const options = await walker.postJson('/onboard/verify/passkey/options', {});
    expect(options.status).toBe(200);
    const credential = new SoftwareAuthenticator(BASE).createCredential(options.body);
    const registered = await walker.postJson('/onboard/verify/passkey', { response: credential });
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    const approved = await walker.post('/onboard/verify/approve', {});
    expect(approved.status, approved.text).toBe(200);
    svc.clock.advance(5_000);
    expect((await poll(answer.device_code)).body.status).toBe('approved');
  });

  it('refuses an unknown user code and a dead link with pages', async () => {
    const walker = new FormWalker(svc.url);
    await walker.get('/onboard/verify');
    expect((await walker.post('/onboard/verify', { user_code: 'BCDF-GHJK' }, { ip: freshIp() })).status).toBe(404);
    expect((await walker.get('/onboard/verify?token=nonsense')).status).toBe(404);
  });
});

describe('overall budget', () => {
  it('fails closed once the global bootstrap budget is spent', async () => {
    await svc.deps.limiter.consume(BOOTSTRAP_GLOBAL, 'all', BOOTSTRAP_GLOBAL.points);
    const address = email();
    const invite = await h.issueInvite(await opTokenAsync(), address);
    const res = await bootstrap({ organization_name: orgName(), human_email: address, invite_code: invite.code });
    expect(res.status).toBe(429);
  });
});
