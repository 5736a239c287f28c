import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rows } from '../../src/kernel/db/index.js';
import { newDpopKey } from '../support/dpop.js';
import { request } from '../support/http.js';
import { startService, type TestService } from '../support/service.js';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp.js';
import { type AssertionOverrides, SoftwareAuthenticator } from '../support/webauthn-authenticator.js';
import { accountsHarness, freshIp, type Pair, shape } from './accounts-support.js';

const BASE = 'https://id.example.test';
let svc: TestService;
let smtp: TestSmtpServer;
beforeAll(async () => {
  smtp = await startSmtpServer();
  svc = await startService({
    TRUST_PROXY: '1',
    BASE_URL: BASE,
    SMTP_URL: smtp.url,
    MFA_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
  });
});
afterAll(async () => {
  await svc?.close();
  await smtp?.close();
});

const { api, signUp, db, eventsOf, me } = accountsHarness(() => svc);

/** A signed-up owner with one passkey; `uv` is whether the authenticator verifies the user when registering. */
async function withPasskey() {
  const who = await signUp();
  const token = who.tokens.access_token;
  const authenticator = new SoftwareAuthenticator(BASE);
  const options = await request(api('/webauthn/credentials/options'), { method: 'POST', token });
  const credential = authenticator.createCredential(options.body);
  const res = await request(api('/webauthn/credentials'), { token, json: credential });
  expect(res.status, res.text).toBe(201);
  return { ...who, token, authenticator, credentialId: credential.id, passkey: res.body };
}

const loginOptions = (ip = freshIp()) =>
  request(api('/webauthn/login/options'), { method: 'POST', headers: { 'x-forwarded-for': ip } });

const verify = (json: unknown, headers: Record<string, string> = {}) =>
  request<Pair>(api('/webauthn/login/verify'), { json, headers: { 'x-forwarded-for': freshIp(), ...headers } });

/** One whole passkey sign-in: fresh options, the authenticator's assertion, verify. */
async function passkeySignIn(
  authenticator: SoftwareAuthenticator,
  slug: string,
  overrides: AssertionOverrides = {},
  extra: Record<string, unknown> = {},
) {
  const options = await loginOptions();
  expect(options.status).toBe(200);
  const assertion = authenticator.getAssertion(options.body, overrides);
  return { assertion, res: await verify({ ...assertion, tenant_slug: slug, ...extra }) };
}

const latestSession = async (userId: string) =>
  (
    await rows<{ amr: string[] }>(
      db(),
      sql`select amr from sessions where user_id = ${userId} order by created_at desc, id desc limit 1`,
    )
  )[0];

const storedCounter = async (passkeyId: string) =>
  (
    await rows<{ counter: string | number }>(
      db(),
      sql`select counter from webauthn_credentials where id = ${passkeyId}`,
    )
  ).map((r) => Number(r.counter))[0];

describe('login options', () => {
  it('discoverable request options (no allowCredentials, UV preferred) with a stored 5-minute challenge', async () => {
    const res = await loginOptions();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      rpId: 'id.example.test',
      challenge: expect.stringMatching(/^[A-Za-z0-9_-]{32,}$/),
      allowCredentials: [],
      timeout: 300_000,
      userVerification: 'preferred',
    });
    const [stored] = await rows<{ purpose: string; user_id: string | null; ttl: number }>(
      db(),
      sql`select purpose, user_id, extract(epoch from expires_at - created_at)::int as ttl
          from webauthn_challenges where challenge = ${res.body.challenge}`,
    );
    expect(stored).toEqual({ purpose: 'authentication', user_id: null, ttl: 300 });
  });

  it('is throttled per IP with a 429 and rate headers', async () => {
    const ip = freshIp();
    for (let i = 0; i < 60; i++) expect((await loginOptions(ip)).status).toBe(200);
    const refused = await loginOptions(ip);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('ratelimit-limit')).toBe('60');
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    expect((await loginOptions()).status).toBe(200);
  });
});

describe('sign-in (Part A 4.3)', () => {
  it('a user-verified passkey signs in as two factors: token pair, amr webauthn + mfa, counter and last use recorded', async () => {
    const a = await withPasskey();
    const { res } = await passkeySignIn(a.authenticator, a.slug);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      token_type: 'bearer',
      expires_in: 900,
    });
    const identity = await me(res.body.access_token);
    expect(identity.status).toBe(200);
    expect(identity.body).toMatchObject({ user_id: a.userId, tenant_id: a.tenantId, role: 'owner' });
    expect((await latestSession(a.userId))?.amr).toEqual(['webauthn', 'mfa']);
    const sessions = await request(api('/me/sessions'), { token: res.body.access_token });
    expect(sessions.body.sessions.find((s: { current: boolean }) => s.current).methods).toEqual(['webauthn', 'mfa']);
    expect(await storedCounter(a.passkey.id)).toBe(1);
    const [listed] = (await request(api('/webauthn/credentials'), { token: a.token })).body;
    expect(listed.last_used_at).toBe(svc.clock.now().toISOString());
    const logins = await eventsOf(a.tenantId!, 'user.logged_in');
    // One event per sign-in, recorded when the session starts, with the session's methods.
    expect(logins.map((e) => e.data)).toEqual([{ user_id: a.userId, amr: ['webauthn', 'mfa'] }]);
    // The refresh token works like any other.
    const refreshed = await request(api('/auth/refresh'), { json: { refresh_token: res.body.refresh_token } });
    expect(refreshed.status).toBe(200);
  });

  it('without user verification the passkey is one factor: amr webauthn only', async () => {
    const a = await withPasskey();
    const { res } = await passkeySignIn(a.authenticator, a.slug, { userVerified: false });
    expect(res.status, res.text).toBe(200);
    expect((await latestSession(a.userId))?.amr).toEqual(['webauthn']);
  });

  it('with TOTP enrolled: a user-verified passkey skips the MFA challenge, one without verification gets it', async () => {
    const a = await withPasskey();
    const codeAt = (secret: string) =>
      new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: svc.clock.now().getTime() });
    const setup = await request(api('/mfa/setup'), { token: a.token, json: {} });
    expect(setup.status, setup.text).toBe(200);
    const enabled = await request(api('/mfa/setup/verify'), {
      token: a.token,
      json: { code: codeAt(setup.body.secret) },
    });
    expect(enabled.status, enabled.text).toBe(200);

    const verified = await passkeySignIn(a.authenticator, a.slug);
    expect(verified.res.status, verified.res.text).toBe(200);
    expect(verified.res.body.access_token).toEqual(expect.any(String));
    expect((await latestSession(a.userId))?.amr).toEqual(['webauthn', 'mfa']);

    const unverified = await passkeySignIn(a.authenticator, a.slug, { userVerified: false });
    expect(unverified.res.status, unverified.res.text).toBe(200);
    expect(unverified.res.body).toEqual({ mfa_required: true, mfa_token: expect.any(String) });
    svc.clock.advance(30_000);
    const completed = await request(api('/mfa/challenge'), {
      json: {
        mfa_token: (unverified.res.body as unknown as { mfa_token: string }).mfa_token,
        code: codeAt(setup.body.secret),
      },
    });
    expect(completed.status, completed.text).toBe(200);
    expect((await me(completed.body.access_token)).status).toBe(200);
  });

  it('cookie mode: the refresh token only as the httpOnly cookie; the organization slug is case-insensitive', async () => {
    const a = await withPasskey();
    const { res } = await passkeySignIn(a.authenticator, a.slug.toUpperCase(), {}, { use_cookie: true });
    expect(res.status, res.text).toBe(200);
    expect(res.body.refresh_token).toBeNull();
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^svc_refresh=/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/Secure/);
    expect(cookie).toMatch(/SameSite=Strict/);
  });

  it('a DPoP proof on verify binds the tokens to its key', async () => {
    const a = await withPasskey();
    const key = await newDpopKey();
    const options = await loginOptions();
    const assertion = a.authenticator.getAssertion(options.body);
    const proof = await key.proof('POST', `${BASE}/api/v1/webauthn/login/verify`, { now: svc.clock.now() });
    const res = await verify({ ...assertion, tenant_slug: a.slug }, { dpop: proof });
    expect(res.status, res.text).toBe(200);
    expect(res.body.token_type).toBe('DPoP');
    expect((await me(res.body.access_token)).status).toBe(401);
    // A broken proof is refused, not ignored.
    const again = await loginOptions();
    const broken = await verify(
      { ...a.authenticator.getAssertion(again.body), tenant_slug: a.slug },
      { dpop: 'x.y.z' },
    );
    expect(broken.status).toBe(400);
  });

  it('signs a member in to another organization it belongs to, as that membership', async () => {
    const a = await withPasskey();
    const b = await signUp();
    await db().execute(sql`insert into memberships (id, tenant_id, user_id, role, population, status, created_at)
      values (gen_random_uuid(), ${b.tenantId}, ${a.userId}, 'member', 'workforce', 'active', now())`);
    const { res } = await passkeySignIn(a.authenticator, b.slug);
    expect(res.status, res.text).toBe(200);
    expect((await me(res.body.access_token)).body).toMatchObject({
      user_id: a.userId,
      tenant_id: b.tenantId,
      role: 'member',
    });
  });

  it('an organization that requires SSO: 403 for a member after the passkey verified, the owner passes', async () => {
    const a = await withPasskey();
    const b = await withPasskey();
    await db().execute(sql`insert into memberships (id, tenant_id, user_id, role, population, status, created_at)
      values (gen_random_uuid(), ${b.tenantId}, ${a.userId}, 'member', 'workforce', 'active', now())`);
    await db().execute(sql`update tenants set sso_required = true where id = ${b.tenantId}`);
    const member = await passkeySignIn(a.authenticator, b.slug);
    expect(member.res.status).toBe(403);
    expect(member.res.body.detail).toBe('This organization requires single sign-on');
    const owner = await passkeySignIn(b.authenticator, b.slug);
    expect(owner.res.status).toBe(200);
  });
});

describe('every refusal is the same 401 Invalid credentials', () => {
  it('unknown passkey, unknown organization, not a member, suspended, replayed, expired, forged, wrong origin or RP, wrong user', async () => {
    const a = await withPasskey();
    const b = await withPasskey();
    const stranger = new SoftwareAuthenticator(BASE);
    // A passkey the service never registered.
    stranger.createCredential({ challenge: 'x', rp: { id: 'id.example.test' }, user: { id: 'AAAA' } });

    const refusals = [];
    refusals.push((await passkeySignIn(stranger, a.slug)).res);
    refusals.push((await passkeySignIn(a.authenticator, 'no-such-organization')).res);
    refusals.push((await passkeySignIn(a.authenticator, b.slug)).res);

    // Replayed: the exact answer that just signed in, sent again.
    const good = await passkeySignIn(a.authenticator, a.slug);
    expect(good.res.status).toBe(200);
    refusals.push(await verify({ ...good.assertion, tenant_slug: a.slug }));

    // A challenge never issued, and one past its 5 minutes.
    refusals.push(
      await verify({
        ...a.authenticator.getAssertion({
          challenge: 'bm90LWlzc3VlZC1ieS10aGUtc2VydmljZS1hdC1hbGw',
          rpId: 'id.example.test',
        }),
        tenant_slug: a.slug,
      }),
    );
    const expiring = await loginOptions();
    svc.clock.advance(5 * 60_000 + 1000);
    refusals.push(await verify({ ...a.authenticator.getAssertion(expiring.body), tenant_slug: a.slug }));

    refusals.push((await passkeySignIn(a.authenticator, a.slug, { badSignature: true })).res);
    refusals.push((await passkeySignIn(a.authenticator, a.slug, { origin: 'https://evil.example.test' })).res);
    refusals.push((await passkeySignIn(a.authenticator, a.slug, { rpId: 'evil.example.test' })).res);
    refusals.push((await passkeySignIn(a.authenticator, a.slug, { userPresent: false })).res);
    // The assertion names another account as its user handle.
    refusals.push((await passkeySignIn(a.authenticator, a.slug, { userHandle: 'AAAAAAAAAAAAAAAAAAAAAA' })).res);
    // A registration challenge is no sign-in challenge.
    const registration = await request(api('/webauthn/credentials/options'), { method: 'POST', token: a.token });
    refusals.push(
      await verify({
        ...a.authenticator.getAssertion({ challenge: registration.body.challenge, rpId: 'id.example.test' }),
        tenant_slug: a.slug,
      }),
    );

    // Malformed values are bad assertions too, not a 422 that would tell them apart.
    const malformed = a.authenticator.getAssertion((await loginOptions()).body);
    refusals.push(
      await verify({
        ...malformed,
        response: { ...malformed.response, signature: '!!not base64!!' },
        tenant_slug: a.slug,
      }),
    );
    refusals.push(
      await verify({ ...malformed, response: { ...malformed.response, clientDataJSON: '%%%' }, tenant_slug: a.slug }),
    );

    // A suspended membership.
    await db().execute(
      sql`update memberships set status = 'suspended' where tenant_id = ${b.tenantId} and user_id = ${b.userId}`,
    );
    refusals.push((await passkeySignIn(b.authenticator, b.slug)).res);

    expect(refusals[0]!.status).toBe(401);
    expect(refusals[0]!.body).toEqual({ detail: 'Invalid credentials' });
    for (const res of refusals) expect(shape(res)).toEqual(shape(refusals[0]!));

    // None of them left a session behind (a's only session is the good sign-in plus the sign-up).
    const [{ n }] = (await rows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from sessions where user_id = ${a.userId}`,
    )) as [{ n: number }];
    expect(n).toBe(2);
  });

  it('a refused answer spends its challenge: the genuine answer to it fails afterwards', async () => {
    const a = await withPasskey();
    const options = await loginOptions();
    const forged = a.authenticator.getAssertion(options.body, { badSignature: true });
    expect((await verify({ ...forged, tenant_slug: a.slug })).status).toBe(401);
    const genuine = a.authenticator.getAssertion(options.body);
    expect((await verify({ ...genuine, tenant_slug: a.slug })).status).toBe(401);
  });

  it('refusals are counted per IP: past the budget, 429 with rate headers', async () => {
    const ip = freshIp();
    const junk = {
      id: 'AAAA',
      rawId: 'AAAA',
      type: 'public-key',
      response: { clientDataJSON: 'e30', authenticatorData: 'AAAA', signature: 'AAAA' },
      tenant_slug: 'nowhere',
    };
    for (let i = 0; i < 50; i++) expect((await verify(junk, { 'x-forwarded-for': ip })).status).toBe(401);
    const throttled = await verify(junk, { 'x-forwarded-for': ip });
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get('retry-after')).toBeTruthy();
    expect(throttled.headers.get('ratelimit-limit')).toBe('50');
  });
});

describe('adding a passkey needs a recent sign-in (step-up)', () => {
  const options = (token: string) => request(api('/webauthn/credentials/options'), { method: 'POST', token });

  it('a session older than 10 minutes cannot start a registration; a fresh sign-in can', async () => {
    const who = await signUp();
    svc.clock.advance(10 * 60_000 + 1000);
    const stale = await options(who.tokens.access_token);
    expect(stale.status).toBe(403);
    expect(stale.body.detail).toMatch(/Sign in again/);
    const fresh = await request<Pair>(api('/auth/login'), {
      json: { email: who.account.email, password: who.account.password, tenant_slug: who.slug },
      headers: { 'x-forwarded-for': freshIp() },
    });
    expect((await options(fresh.body.access_token)).status).toBe(200);
  });

  it('with TOTP on, only a session signed in with the second factor can add a passkey', async () => {
    const who = await signUp();
    const token = who.tokens.access_token;
    const setup = await request(api('/mfa/setup'), { method: 'POST', token });
    const totp = (offset = 0) =>
      new TOTP({ secret: Secret.fromBase32(setup.body.secret) }).generate({
        timestamp: svc.clock.now().getTime() + offset,
      });
    expect((await request(api('/mfa/setup/verify'), { token, json: { code: totp() } })).status).toBe(200);
    const pwdOnly = await options(token);
    expect(pwdOnly.status).toBe(403);
    expect(pwdOnly.body.detail).toMatch(/second factor/);
    svc.clock.advance(30_000);
    const login = await request(api('/auth/login'), {
      json: { email: who.account.email, password: who.account.password, tenant_slug: who.slug },
      headers: { 'x-forwarded-for': freshIp() },
    });
    const done = await request<Pair>(api('/mfa/challenge'), {
      json: { mfa_token: login.body.mfa_token, code: totp() },
    });
    expect(done.status, done.text).toBe(200);
    expect((await options(done.body.access_token)).status).toBe(200);
  });

  it('the owner is told by mail when a passkey is added and when it is removed', async () => {
    const a = await withPasskey();
    const added = await smtp.waitFor((m) => m.to.includes(a.account.email.toLowerCase()) && /added/.test(m.subject));
    expect(added.text).toContain('A passkey named "Passkey" was added');
    const removed = await request(api(`/webauthn/credentials/${a.passkey.id}/remove`), {
      token: a.token,
      json: { password: a.account.password },
    });
    expect(removed.status).toBe(204);
    await smtp.waitFor((m) => m.to.includes(a.account.email.toLowerCase()) && /removed/.test(m.subject));
  });
});

describe('cloned authenticators (WebAuthn section 6.1.1)', () => {
  it('a counter that goes backwards is refused (401), raises passkey.clone_suspected and a detection', async () => {
    const a = await withPasskey();
    expect((await passkeySignIn(a.authenticator, a.slug, { counter: 10 })).res.status).toBe(200);
    expect(await storedCounter(a.passkey.id)).toBe(10);

    const lower = await passkeySignIn(a.authenticator, a.slug, { counter: 7 });
    const equal = await passkeySignIn(a.authenticator, a.slug, { counter: 10 });
    const stranger = new SoftwareAuthenticator(BASE);
    stranger.createCredential({ challenge: 'x', rp: { id: 'id.example.test' }, user: { id: 'AAAA' } });
    const unknown = (await passkeySignIn(stranger, a.slug)).res;
    expect(lower.res.status).toBe(401);
    expect(shape(lower.res)).toEqual(shape(equal.res));
    expect(shape(lower.res)).toEqual(shape(unknown));
    expect(await storedCounter(a.passkey.id)).toBe(10);

    // Recorded after the answer (so the refusal takes as long as any other): wait for both.
    const events = await vi.waitFor(async () => {
      const recorded = await eventsOf(a.tenantId!, 'passkey.clone_suspected');
      expect(recorded).toHaveLength(2);
      return recorded;
    });
    // Each is recorded after its own answer: they may land in either order.
    const byCounter = [...events].sort(
      (x, y) =>
        (x.data as { presented_counter: number }).presented_counter -
        (y.data as { presented_counter: number }).presented_counter,
    );
    expect(byCounter.map((event) => event.data)).toEqual(
      [7, 10].map((presented) => ({
        user_id: a.userId,
        credential_id: a.passkey.id,
        stored_counter: 10,
        presented_counter: presented,
      })),
    );
    expect(events.map((event) => event.subject_user_id)).toEqual([a.userId, a.userId]);
    const [event] = await rows<{ severity: string; outcome: string; category: string }>(
      db(),
      sql`select severity, outcome, category from events where tenant_id = ${a.tenantId} and action = 'passkey.clone_suspected' limit 1`,
    );
    expect(event).toEqual({ severity: 'high', outcome: 'denied', category: 'security' });
    const detections = await rows<{
      rule_id: string;
      group_key: string;
      severity: string;
      count: number;
      data: unknown;
    }>(db(), sql`select rule_id, group_key, severity, count, data from detections where tenant_id = ${a.tenantId}`);
    expect(detections).toEqual([
      {
        rule_id: 'passkey-clone-suspected',
        group_key: `actor:${a.userId}`,
        severity: 'high',
        count: 2,
        data: { user_id: a.userId, credential_id: a.passkey.id },
      },
    ]);

    // The authenticator that holds the real, higher counter still signs in.
    expect((await passkeySignIn(a.authenticator, a.slug, { counter: 11 })).res.status).toBe(200);
  });

  it('a forged assertion with a low counter raises nothing (the signature is checked first)', async () => {
    const a = await withPasskey();
    expect((await passkeySignIn(a.authenticator, a.slug, { counter: 5 })).res.status).toBe(200);
    const forged = await passkeySignIn(a.authenticator, a.slug, { counter: 1, badSignature: true });
    expect(forged.res.status).toBe(401);
    expect(await eventsOf(a.tenantId!, 'passkey.clone_suspected')).toEqual([]);
  });

  it('an authenticator without a counter (always zero) signs in again and again', async () => {
    const a = await withPasskey();
    for (let i = 0; i < 3; i++)
      expect((await passkeySignIn(a.authenticator, a.slug, { counter: 0 })).res.status).toBe(200);
    expect(await eventsOf(a.tenantId!, 'passkey.clone_suspected')).toEqual([]);
  });

  it('naming an organization the account is not a member of: refused, no event there', async () => {
    const a = await withPasskey();
    const b = await signUp();
    expect((await passkeySignIn(a.authenticator, a.slug, { counter: 4 })).res.status).toBe(200);
    const res = (await passkeySignIn(a.authenticator, b.slug, { counter: 2 })).res;
    expect(res.status).toBe(401);
    expect(await eventsOf(b.tenantId!, 'passkey.clone_suspected')).toEqual([]);
    expect(await eventsOf(a.tenantId!, 'passkey.clone_suspected')).toEqual([]);
  });

  it('two sign-ins racing with one counter value: only one gets a session', async () => {
    const a = await withPasskey();
    const [o1, o2] = [await loginOptions(), await loginOptions()];
    const first = a.authenticator.getAssertion(o1.body, { counter: 3 });
    const second = a.authenticator.getAssertion(o2.body, { counter: 3 });
    const answers = await Promise.all([
      verify({ ...first, tenant_slug: a.slug }),
      verify({ ...second, tenant_slug: a.slug }),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 401]);
  });
});
