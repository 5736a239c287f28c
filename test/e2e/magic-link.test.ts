import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/kernel/db/index.js';
import { MAGIC_LINK_PER_ADDRESS, MAGIC_LINK_PER_IP } from '../../src/modules/magic-link/index.js';
import { newDpopKey } from '../support/dpop.js';
import { request } from '../support/http.js';
import { addMember } from '../support/organizations.js';
import { privacySteps } from '../support/privacy.js';
import { changeDirectly, startService, type TestService } from '../support/service.js';
import { extractLink, extractToken, startSmtpServer, type TestSmtpServer } from '../support/smtp.js';
import { accountsHarness, freshIp, type Pair, shape } from './accounts-support.js';

let svc: TestService;
let smtp: TestSmtpServer;
beforeAll(async () => {
  smtp = await startSmtpServer();
  svc = await startService(
    { SMTP_URL: smtp.url, TRUST_PROXY: '1', MFA_ENCRYPTION_KEY: randomBytes(32).toString('hex') },
    { baseUrlIsListenAddress: true },
  );
});
afterAll(async () => {
  await svc?.close();
  await smtp?.close();
});

const { api, signUp, me, db, eventsOf } = accountsHarness(() => svc);
const INVALID = 'Invalid or expired link';

const isLinkMail = (email: string) => (mail: { to: string[]; subject: string }) =>
  mail.to.includes(email.toLowerCase()) && /sign-in link/i.test(mail.subject);
/** Sign-in link mails received so far for an address. */
const linkMails = (email: string) => smtp.messages.filter(isLinkMail(email));
/** The next sign-in link mailed to the address: its token. */
const nextToken = async (email: string) => extractToken((await smtp.waitFor(isLinkMail(email))).text);
/** The request's work runs after its answer: it has all ended (and mailed) once the node's work is drained. */
const settle = () => svc.deps.afterAnswer.drain();

const ask = (email: string, slug: string, ip = freshIp()) =>
  request(api('/auth/magic-link'), { json: { email, tenant_slug: slug }, headers: { 'x-forwarded-for': ip } });
const verify = (token: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  request<Pair>(api('/auth/magic-link/verify'), { json: { token, ...extra }, headers });

/** A new organization and its owner; a sign-in link requested and received for the owner. */
async function ownerWithLink() {
  const owner = await signUp();
  expect((await ask(owner.account.email, owner.slug)).status).toBe(202);
  return { ...owner, token: await nextToken(owner.account.email) };
}

const setMagicLinks = (ownerToken: string, value: boolean) =>
  request(api('/tenants/config/auth.magic_link_enabled'), { method: 'PATCH', token: ownerToken, json: { value } });

const noRateHeaders = (headers: Headers) =>
  expect([...headers.keys()].filter((name) => /ratelimit|retry-after/i.test(name))).toEqual([]);

/** The session id (`sid`) an access token names. */
const sessionIdOf = (accessToken: string): string =>
  JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString('utf8')).sid;

const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex');

describe('POST /auth/magic-link', () => {
  it('202 byte-identical for a member, an unknown address, an unknown organization and a switched-off one', async () => {
    const member = await signUp();
    const off = await signUp();
    expect((await setMagicLinks(off.tokens.access_token, false)).status).toBe(200);
    const unknownEmail = `nobody-${freshIp()}@example.com`;

    const answers = [
      await ask(member.account.email, member.slug),
      await ask(unknownEmail, member.slug),
      await ask(member.account.email, `no-such-organization-${freshIp()}`),
      await ask(off.account.email, off.slug),
      // The member of one organization asking for another it does not belong to.
      await ask(member.account.email, off.slug),
    ];
    for (const res of answers) {
      expect(shape(res)).toEqual(shape(answers[0]!));
      noRateHeaders(res.headers);
    }
    expect(answers[0]!.status).toBe(202);
    expect(answers[0]!.body).toEqual({ status: 'accepted' });

    // Only the member gets a mail; the others get none.
    const mail = await smtp.waitFor(isLinkMail(member.account.email));
    expect(mail.subject).toBe(`Your sign-in link for ${member.account.organization_name}`);
    await settle();
    expect(linkMails(member.account.email)).toHaveLength(1);
    expect(linkMails(off.account.email)).toEqual([]);
    expect(smtp.messages.filter((m) => m.to.includes(unknownEmail))).toEqual([]);
    const offLinks = await rows(db(), sql`select 1 from magic_links where tenant_id = ${off.tenantId}`);
    expect(offLinks).toEqual([]);
  });

  it('the address and the organization slug are matched case-insensitively', async () => {
    const owner = await signUp();
    expect((await ask(owner.account.email.toUpperCase(), owner.slug.toUpperCase())).status).toBe(202);
    expect(await verify(await nextToken(owner.account.email))).toMatchObject({ status: 200 });
  });

  it('refuses a malformed body with 422 naming the field', async () => {
    const missing = await request(api('/auth/magic-link'), { json: { email: 'a@example.com' } });
    expect(missing.status).toBe(422);
    expect(missing.body.detail).toMatch(/tenant_slug/);
    const bad = await request(api('/auth/magic-link'), { json: { email: 'not-an-address', tenant_slug: 'x' } });
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toMatch(/email/);
  });

  it('mails a working link; the link is stored only as its hash; magic_link.sent carries no token or IP', async () => {
    const owner = await signUp();
    const ip = freshIp();
    expect((await ask(owner.account.email, owner.slug, ip)).status).toBe(202);
    const mail = await smtp.waitFor(isLinkMail(owner.account.email));
    const link = extractLink(mail.text);
    expect(link.startsWith(`${svc.url}/magic-link?token=`)).toBe(true);
    expect(mail.text).toMatch(/15 minutes/);
    const token = extractToken(mail.text);

    const [stored] = await rows<{ token_hash: string; spent_at: string | null; expires_at: Date; created_at: Date }>(
      db(),
      sql`select token_hash, spent_at, expires_at, created_at from magic_links where user_id = ${owner.userId}`,
    );
    expect(stored!.token_hash).toBe(sha256Hex(token));
    expect(stored!.spent_at).toBeNull();
    expect(new Date(stored!.expires_at).getTime() - new Date(stored!.created_at).getTime()).toBe(15 * 60_000);

    const [sent] = await eventsOf(owner.tenantId!, 'magic_link.sent');
    expect(sent!.subject_user_id).toBe(owner.userId);
    expect(Object.keys(sent!.data).sort()).toEqual(['link_id', 'user_id']);
    expect(JSON.stringify(sent!.data)).not.toContain(token);
    expect(JSON.stringify(sent!.data)).not.toContain(ip);
  });

  it('a new request supersedes the outstanding link: the first is dead, the second works', async () => {
    const owner = await signUp();
    await ask(owner.account.email, owner.slug);
    const first = await nextToken(owner.account.email);
    await ask(owner.account.email, owner.slug);
    const second = await nextToken(owner.account.email);

    const [old] = await rows<{ spent_reason: string }>(
      db(),
      sql`select spent_reason from magic_links where token_hash = ${sha256Hex(first)}`,
    );
    expect(old!.spent_reason).toBe('superseded');
    const refused = await verify(first);
    expect(refused.status).toBe(401);
    expect(refused.body.detail).toBe(INVALID);
    expect((await verify(second)).status).toBe(200);
  });

  it('concurrent requests leave exactly one live link', async () => {
    const owner = await signUp();
    const ip = freshIp();
    await Promise.all([1, 2, 3, 4].map(() => ask(owner.account.email, owner.slug, ip)));
    for (let i = 0; i < 4; i++) await nextToken(owner.account.email);
    const live = await rows(db(), sql`select 1 from magic_links where user_id = ${owner.userId} and spent_at is null`);
    expect(live).toHaveLength(1);
  });

  it('past the per-address budget: still the same 202 without rate headers, and no more mails', async () => {
    const owner = await signUp();
    const ip = freshIp();
    const unknown = `nobody-${freshIp()}@example.com`;
    const answers = [];
    for (let i = 0; i < MAGIC_LINK_PER_ADDRESS.points + 2; i++) {
      answers.push(await ask(owner.account.email, owner.slug, ip));
      answers.push(await ask(unknown, owner.slug, ip));
    }
    for (const res of answers) {
      expect(shape(res)).toEqual(shape(answers[0]!));
      noRateHeaders(res.headers);
    }
    for (let i = 0; i < MAGIC_LINK_PER_ADDRESS.points; i++) await nextToken(owner.account.email);
    await settle();
    expect(linkMails(owner.account.email)).toHaveLength(MAGIC_LINK_PER_ADDRESS.points);
    // The budget is per organization too: the same address asking for another organization is counted apart.
    const other = await signUp();
    await addMember(svc, { tenantId: other.tenantId!, slug: other.slug }, 'member', {
      userId: owner.userId!,
      email: owner.account.email,
      password: owner.account.password,
    });
    expect((await ask(owner.account.email, other.slug, ip)).status).toBe(202);
    const elsewhere = await nextToken(owner.account.email);
    expect((await verify(elsewhere)).status).toBe(200);
  });

  it('past the per-IP budget: the same 202, and no mail even for a member; another network still gets one', async () => {
    const owner = await signUp();
    const ip = freshIp();
    for (let i = 0; i < MAGIC_LINK_PER_IP.points; i++) {
      expect((await ask(`nobody-${i}-${freshIp()}@example.com`, owner.slug, ip)).status).toBe(202);
    }
    // The budget is spent after the answer: let those 30 spend it before the member asks.
    await settle();
    const capped = await ask(owner.account.email, owner.slug, ip);
    expect(capped.status).toBe(202);
    noRateHeaders(capped.headers);
    await settle();
    expect(linkMails(owner.account.email)).toEqual([]);
    await ask(owner.account.email, owner.slug, freshIp());
    expect((await verify(await nextToken(owner.account.email))).status).toBe(200);
  });

  it('no mail for a suspended membership or a disabled account', async () => {
    const suspended = await signUp();
    await changeDirectly(svc, sql`update memberships set status = 'suspended' where user_id = ${suspended.userId}`);
    const disabled = await signUp();
    await changeDirectly(svc, sql`update users set status = 'disabled' where id = ${disabled.userId}`);
    const control = await signUp();
    expect((await ask(suspended.account.email, suspended.slug)).status).toBe(202);
    expect((await ask(disabled.account.email, disabled.slug)).status).toBe(202);
    expect((await ask(control.account.email, control.slug)).status).toBe(202);
    await nextToken(control.account.email);
    await settle();
    expect(linkMails(suspended.account.email)).toEqual([]);
    expect(linkMails(disabled.account.email)).toEqual([]);
  });

  it('an organization awaiting approval (quarantined) still signs its members in (Part B: sign-in stays available)', async () => {
    const owner = await signUp();
    await changeDirectly(svc, sql`update tenants set quarantined = true where id = ${owner.tenantId}`);
    await ask(owner.account.email, owner.slug);
    expect((await verify(await nextToken(owner.account.email))).status).toBe(200);
  });
});

describe('POST /auth/magic-link/verify', () => {
  it('signs in with amr ["mlink"] recorded on the session and one user.logged_in', async () => {
    const { token, userId, tenantId } = await ownerWithLink();
    const res = await verify(token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      token_type: 'bearer',
      expires_in: expect.any(Number),
    });
    const who = await me(res.body.access_token);
    expect(who.status).toBe(200);
    expect(who.body).toMatchObject({ user_id: userId, tenant_id: tenantId, role: 'owner' });
    const [session] = await rows<{ amr: string[] }>(
      db(),
      sql`select amr from sessions where id = ${sessionIdOf(res.body.access_token)}`,
    );
    expect(session!.amr).toEqual(['mlink']);
    // One sign-in, one event (emitted by the shared sign-in step), naming the method.
    const logins = (await eventsOf(tenantId!, 'user.logged_in')).filter((e) => e.subject_user_id === userId);
    expect(logins).toHaveLength(1);
    expect(logins[0]!.data).toMatchObject({ user_id: userId, amr: ['mlink'] });
    // The refresh token works like any other.
    const refreshed = await request<Pair>(api('/auth/refresh'), { json: { refresh_token: res.body.refresh_token } });
    expect(refreshed.status).toBe(200);
    // The link was spent as used.
    const [spent] = await rows<{ spent_reason: string }>(
      db(),
      sql`select spent_reason from magic_links where token_hash = ${sha256Hex(token)}`,
    );
    expect(spent!.spent_reason).toBe('used');
  });

  it('single use: the second verify is 401, identical to an unknown token', async () => {
    const { token } = await ownerWithLink();
    expect((await verify(token)).status).toBe(200);
    const again = await verify(token);
    const bogus = await verify('not-a-real-link-token');
    expect(again.status).toBe(401);
    expect(again.body).toEqual({ detail: INVALID });
    expect(shape(again)).toEqual(shape(bogus));
  });

  it('concurrent verifies of one link: exactly one 200', async () => {
    const { token } = await ownerWithLink();
    const results = await Promise.all([1, 2, 3, 4, 5].map(() => verify(token)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 401, 401, 401, 401]);
  });

  it('expires after about 15 minutes: works at 14 minutes, 401 just past 15', async () => {
    const early = await ownerWithLink();
    svc.clock.advance(14 * 60_000);
    expect((await verify(early.token)).status).toBe(200);

    const late = await ownerWithLink();
    svc.clock.advance(15 * 60_000 + 1000);
    const refused = await verify(late.token);
    expect(refused.status).toBe(401);
    expect(refused.body.detail).toBe(INVALID);
  });

  it('turning auth.magic_link_enabled off stops an already-issued link; turning it on again does not revive it', async () => {
    const owner = await ownerWithLink();
    expect((await setMagicLinks(owner.tokens.access_token, false)).status).toBe(200);
    const refused = await verify(owner.token);
    expect(refused.status).toBe(401);
    expect(refused.body.detail).toBe(INVALID);
    expect((await setMagicLinks(owner.tokens.access_token, true)).status).toBe(200);
    expect((await verify(owner.token)).status).toBe(401);
    // Back on, new links work again.
    await ask(owner.account.email, owner.slug);
    expect((await verify(await nextToken(owner.account.email))).status).toBe(200);
  });

  it('401 alike when the membership or the account stopped being active after the link was mailed', async () => {
    const suspended = await ownerWithLink();
    await changeDirectly(svc, sql`update memberships set status = 'suspended' where user_id = ${suspended.userId}`);
    const disabled = await ownerWithLink();
    await changeDirectly(svc, sql`update users set status = 'disabled' where id = ${disabled.userId}`);
    const bogus = await verify('not-a-real-link-token');
    for (const token of [suspended.token, disabled.token]) {
      const res = await verify(token);
      expect(res.status).toBe(401);
      expect(shape(res)).toEqual(shape(bogus));
    }
  });

  it('an organization that requires SSO: no link for a member; 403 after the link for one mailed before; owners pass', async () => {
    const owner = await signUp();
    const member = await addMember(svc, { tenantId: owner.tenantId!, slug: owner.slug }, 'member');
    await ask(member.email, owner.slug);
    const before = await nextToken(member.email);
    await changeDirectly(svc, sql`update tenants set sso_required = true where id = ${owner.tenantId}`);

    const refused = await verify(before);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/single sign-on/);
    await ask(member.email, owner.slug);
    await ask(owner.account.email, owner.slug);
    expect((await verify(await nextToken(owner.account.email))).status).toBe(200);
    await settle();
    expect(linkMails(member.email)).toHaveLength(1);
  });

  it('an account with TOTP enrolled gets an MFA challenge, not tokens; the code completes it (amr mlink + mfa)', async () => {
    const owner = await signUp();
    const code = (secret: string) =>
      new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: svc.clock.now().getTime() });
    const setup = await request(api('/mfa/setup'), { token: owner.tokens.access_token, json: {} });
    expect(setup.status, setup.text).toBe(200);
    const enabled = await request(api('/mfa/setup/verify'), {
      token: owner.tokens.access_token,
      json: { code: code(setup.body.secret) },
    });
    expect(enabled.status, enabled.text).toBe(200);
    svc.clock.advance(30_000); // the next TOTP step: a code is accepted once

    await ask(owner.account.email, owner.slug);
    const res = await verify(await nextToken(owner.account.email));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ mfa_required: true, mfa_token: expect.any(String) });
    const mfaToken = (res.body as unknown as { mfa_token: string }).mfa_token;
    // No session and no sign-in event before the second factor.
    expect(
      (await eventsOf(owner.tenantId!, 'user.logged_in')).filter((e) => e.subject_user_id === owner.userId),
    ).toEqual([]);

    const done = await request<Pair>(api('/mfa/challenge'), {
      json: { mfa_token: mfaToken, code: code(setup.body.secret) },
    });
    expect(done.status, done.text).toBe(200);
    const [session] = await rows<{ amr: string[] }>(
      db(),
      sql`select amr from sessions where id = ${sessionIdOf(done.body.access_token)}`,
    );
    expect(session!.amr).toEqual(['mlink', 'mfa']);
  });

  it('use_cookie: the refresh token travels only in the httpOnly cookie, which refreshes', async () => {
    const { token } = await ownerWithLink();
    const res = await verify(token, { use_cookie: true });
    expect(res.status).toBe(200);
    expect(res.body.refresh_token).toBeNull();
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('svc_refresh='));
    expect(cookie).toBeDefined();
    const attributes = cookie!
      .split(';')
      .slice(1)
      .map((a) => a.trim().toLowerCase());
    expect(attributes).toEqual(expect.arrayContaining(['httponly', 'secure', 'samesite=strict', 'path=/api/v1/auth']));
    const value = cookie!.split(';')[0]!.slice('svc_refresh='.length);
    expect(value.length).toBeGreaterThan(20);
    const refreshed = await request<Pair>(api('/auth/refresh'), {
      method: 'POST',
      headers: { cookie: `svc_refresh=${value}` },
    });
    expect(refreshed.status).toBe(200);
  });

  it('a DPoP proof binds the tokens (token_type DPoP); a broken proof is 400 and leaves the link unspent', async () => {
    const { token } = await ownerWithLink();
    const key = await newDpopKey();
    const htu = `${svc.url}/api/v1/auth/magic-link/verify`;
    const now = () => svc.clock.now();

    const broken = await verify(
      token,
      {},
      { dpop: await key.proof('POST', `${svc.url}/api/v1/other`, { now: now() }) },
    );
    expect(broken.status).toBe(400);
    expect(broken.body.detail).toMatch(/DPoP/);

    const res = await verify(token, {}, { dpop: await key.proof('POST', htu, { now: now() }) });
    expect(res.status).toBe(200);
    expect(res.body.token_type).toBe('DPoP');
    const access = res.body.access_token;
    expect((await me(access)).status).toBe(401);
    const bound = await request(api('/me'), {
      headers: {
        authorization: `DPoP ${access}`,
        dpop: await key.proof('GET', `${svc.url}/api/v1/me`, { accessToken: access, now: now() }),
      },
    });
    expect(bound.status).toBe(200);
  });

  it('refuses a malformed body with 422', async () => {
    expect((await request(api('/auth/magic-link/verify'), { json: {} })).status).toBe(422);
    expect((await request(api('/auth/magic-link/verify'), { json: { token: '' } })).status).toBe(422);
  });
});

describe('privacy and the API document', () => {
  const { file, admin } = privacySteps(() => svc);

  it('the export lists the person’s links without their hashes; erasure deletes them', async () => {
    const owner = await signUp();
    const member = await addMember(svc, { tenantId: owner.tenantId!, slug: owner.slug }, 'member');
    await ask(member.email, owner.slug);
    const token = await nextToken(member.email);
    await ask(member.email, owner.slug);
    await nextToken(member.email);

    const mine = await request(api('/gdpr/my-data'), { token: member.token });
    expect(mine.status).toBe(200);
    expect(mine.body.sections.magic_links).toEqual([
      expect.objectContaining({ spent_reason: 'superseded', spent_at: expect.any(String) }),
      expect.objectContaining({ spent_reason: null, spent_at: null, expires_at: expect.any(String) }),
    ]);
    expect(mine.text).not.toContain(sha256Hex(token));

    const req = (await file(member.token, { request_type: 'erasure' })).body;
    expect((await admin(owner.tokens.access_token, req.id, 'verify')).status).toBe(200);
    const processed = await admin(owner.tokens.access_token, req.id, 'process');
    expect(processed.status).toBe(200);
    expect(processed.body.erased_sections).toContain('magic_links');
    expect(await rows(db(), sql`select 1 from magic_links where user_id = ${member.userId}`)).toEqual([]);
  });

  it('documents both routes with a tag, a summary and every status', async () => {
    const doc = await request(api('/openapi.json'));
    const requestOp = doc.body.paths['/api/v1/auth/magic-link'].post;
    const verifyOp = doc.body.paths['/api/v1/auth/magic-link/verify'].post;
    for (const op of [requestOp, verifyOp]) {
      expect(op.tags).toEqual(['magic-link']);
      expect(op.summary).toEqual(expect.any(String));
    }
    expect(Object.keys(requestOp.responses).sort()).toEqual(['202', '422']);
    expect(Object.keys(verifyOp.responses).sort()).toEqual(['200', '400', '401', '403', '422']);
  });
});
