import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { newAccount, request } from '../support/http.js';
import { signUpOwner } from '../support/organizations.js';
import { changeDirectly } from '../support/service.js';
import { extractToken } from '../support/smtp.js';
import { DAY, invitationsUnderTest } from './invitations-support.js';

const { svc, api, invite, preview, accept, acceptExisting, invitationMail, relogin, invitedToken } =
  invitationsUnderTest();

describe('anonymous redemption', () => {
  it('previews, then accepts with a new account and a session; the link is then spent', async () => {
    const owner = await signUpOwner(svc().url);
    const person = newAccount('accept');
    const { token } = await invitedToken(owner.token, person.email, 'auditor');
    const seen = await preview(token);
    expect(seen.status).toBe(200);
    expect(seen.body).toEqual({
      organization_name: owner.account.organization_name,
      tenant_slug: owner.slug,
      email: person.email,
      role: 'auditor',
      expires_at: expect.any(String),
    });
    const weak = await accept(token, 'short');
    expect(weak.status).toBe(400);
    expect(weak.body.detail).toMatch(/password/i);
    const res = await accept(token, person.password);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ access_token: expect.any(String), token_type: 'bearer' });
    const me = await request(api('/me'), { token: res.body.access_token });
    // The link arrived in the invited mailbox, so accepting it verifies the address.
    expect(me.body).toMatchObject({
      tenant_id: owner.tenantId,
      role: 'auditor',
      population: 'workforce',
      email_verified: true,
    });
    const login = await request(api('/auth/login'), {
      json: { email: person.email, password: person.password, tenant_slug: owner.slug },
    });
    expect(login.status).toBe(200);
    expect((await preview(token)).status).toBe(404);
    expect((await accept(token, person.password)).status).toBe(404);
    expect((await request(api('/members/invites'), { token: owner.token })).body).toEqual([]);
    const roster = await request(api('/members'), { token: owner.token });
    expect(roster.body.map((m: { email: string }) => m.email)).toContain(person.email);
  });

  it('answers 410 after seven days, and 404 for an unknown token', async () => {
    const owner = await signUpOwner(svc().url);
    const person = newAccount('expired');
    const { token } = await invitedToken(owner.token, person.email);
    svc().clock.advance(7 * DAY - 1000);
    expect((await preview(token)).status).toBe(200);
    svc().clock.advance(2000);
    const expired = await preview(token);
    expect(expired.status).toBe(410);
    expect((await accept(token, person.password)).status).toBe(410);
    const other = await signUpOwner(svc().url, 'other');
    expect((await acceptExisting(other.token, token)).status).toBe(410);
    expect((await preview('unknown-token')).status).toBe(404);
    // An expired invitation can be re-issued; the new link works.
    const reissued = await invite(await relogin(owner), { email: person.email });
    expect(reissued.body.reissued).toBe(true);
    expect((await preview(extractToken((await invitationMail(person.email)).text))).status).toBe(200);
  });

  it('accept answers 409 when the address already has an account; the invitation stays usable', async () => {
    const owner = await signUpOwner(svc().url);
    const existing = await signUpOwner(svc().url, 'existing');
    const { token } = await invitedToken(owner.token, existing.account.email, 'auditor');
    const res = await accept(token, 'another strong password 1');
    expect(res.status).toBe(409);
    expect((await preview(token)).status).toBe(200);
    const joined = await acceptExisting(existing.token, token);
    expect(joined.status).toBe(200);
    expect(joined.body).toEqual({ tenant_slug: owner.slug, role: 'auditor' });
    const login = await request(api('/auth/login'), {
      json: { email: existing.account.email, password: existing.account.password, tenant_slug: owner.slug },
    });
    expect(login.status).toBe(200);
    expect((await request(api('/me'), { token: login.body.access_token })).body.role).toBe('auditor');
  });

  it('accept-existing answers 403 for another address and 401 without a token; the link stays usable', async () => {
    const owner = await signUpOwner(svc().url);
    const stranger = await signUpOwner(svc().url, 'stranger');
    const person = await signUpOwner(svc().url, 'person');
    const { token } = await invitedToken(owner.token, person.account.email);
    const mismatch = await acceptExisting(stranger.token, token);
    expect(mismatch.status).toBe(403);
    expect(mismatch.body.detail).toMatch(/different email/i);
    expect((await request(api('/invites/accept-existing'), { json: { token } })).status).toBe(401);
    expect((await acceptExisting(person.token, token)).status).toBe(200);
    // Redeemed: the link is spent.
    expect((await acceptExisting(person.token, token)).status).toBe(404);
  });

  it('accept-existing answers 409 when the person became a member meanwhile, leaving the link usable', async () => {
    const owner = await signUpOwner(svc().url);
    const person = await signUpOwner(svc().url, 'twice');
    const first = await invitedToken(owner.token, person.account.email);
    // A second invitation to the same address is the same invitation; join through a raw membership instead.
    await svc().deps.database.db.execute(
      sql`insert into memberships (id, tenant_id, user_id, role, population, status, created_at)
          select gen_random_uuid(), ${owner.tenantId}, id, 'member', 'workforce', 'active', now() from users
          where email_key = ${person.account.email.toLowerCase()}`,
    );
    const res = await acceptExisting(person.token, first.token);
    expect(res.status).toBe(409);
    expect(res.body.detail).toMatch(/already a member/i);
    expect((await preview(first.token)).status).toBe(200);
  });
});

describe('cookie transport', () => {
  it('accept with use_cookie sets the refresh token as an httpOnly cookie and answers null in the body', async () => {
    const owner = await signUpOwner(svc().url);
    const person = newAccount('cookie');
    const { token } = await invitedToken(owner.token, person.email);
    const res = await request(api('/invites/accept'), { json: { token, password: person.password, use_cookie: true } });
    expect(res.status).toBe(200);
    expect(res.body.refresh_token).toBeNull();
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^svc_refresh=/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    expect(cookie).toMatch(/Path=\/api\/v1\/auth/);
  });
});

describe('separation of duties on accept', () => {
  it('refuses naming the rule and leaves the invitation usable', async () => {
    const platformOwner = newAccount('platform');
    const platform = await svc().deps.accounts.bootstrapPlatform({
      email: platformOwner.email,
      password: platformOwner.password,
      organizationName: platformOwner.organization_name,
    });
    const login = await request(api('/auth/login'), {
      json: { email: platformOwner.email, password: platformOwner.password, tenant_slug: platform.slug },
    });
    expect(login.status).toBe(200);
    const owner = await signUpOwner(svc().url);
    const { token } = await invitedToken(owner.token, platformOwner.email, 'auditor');
    const refused = await acceptExisting(login.body.access_token, token);
    expect(refused.status).toBe(409);
    expect(refused.body.rule).toBe('auditor-independence');
    expect(refused.body.detail).toMatch(/auditor-independence/);
    expect((await preview(token)).status).toBe(200);
    // Once the person no longer holds the platform role, the same link works.
    await changeDirectly(
      svc(),
      sql`update memberships set role = 'member' where tenant_id = ${platform.tenantId} and user_id = ${platform.userId}`,
    );
    const accepted = await acceptExisting(login.body.access_token, token);
    expect(accepted.status).toBe(200);
    expect(accepted.body.role).toBe('auditor');
  });
});
