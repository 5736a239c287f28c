import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rows } from '../../src/kernel/db/index.js';
import { newAccount, request } from '../support/http.js';
import { signUpOwner } from '../support/organizations.js';
import { extractLink, extractToken } from '../support/smtp.js';
import { DAY, invitationsUnderTest, PUBLIC_BASE_URL } from './invitations-support.js';

const { svc, api, invite, preview, accept, acceptExisting, invitationMail, relogin, invitedToken } =
  invitationsUnderTest();
const db = () => svc().deps.database.db;

describe('POST /members/invites', () => {
  it('creates an invitation (role member by default) and mails its link', async () => {
    const owner = await signUpOwner(svc().url);
    const person = newAccount('invitee');
    const res = await invite(owner.token, { email: person.email });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      invite_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      email: person.email,
      role: 'member',
      expires_at: new Date(svc().clock.now().getTime() + 7 * DAY).toISOString(),
      reissued: false,
    });
    const mail = await invitationMail(person.email);
    expect(mail.subject).toContain(owner.account.organization_name);
    const link = new URL(extractLink(mail.text));
    expect(`${link.origin}${link.pathname}`).toBe(`${PUBLIC_BASE_URL}/invite`);
    expect(link.searchParams.get('token')).toBeTruthy();
    const list = await request(api('/members/invites'), { token: owner.token });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([res.body]);
    // Only a hash of the token is stored.
    const stored = await rows<{ token_hash: string }>(
      db(),
      sql`select token_hash from invitations where id = ${res.body.invite_id}`,
    );
    expect(stored[0]!.token_hash).not.toBe(link.searchParams.get('token'));
  });

  it('answers 422 for an unknown role, owner, customer, a malformed email', async () => {
    const owner = await signUpOwner(svc().url);
    for (const role of ['superuser', 'owner', 'customer', '']) {
      const res = await invite(owner.token, { email: newAccount().email, role });
      expect(res.status, role).toBe(422);
      expect(res.body.detail).toMatch(/^role/);
    }
    expect((await invite(owner.token, { email: 'not-an-email' })).status).toBe(422);
    expect((await request(api('/members/invites'), { token: owner.token })).body).toEqual([]);
  });

  it('answers 409 when the address is already a member', async () => {
    const owner = await signUpOwner(svc().url);
    const res = await invite(owner.token, { email: owner.account.email.toUpperCase() });
    expect(res.status).toBe(409);
    expect(res.body.detail).toMatch(/already a member/i);
  });

  it('refuses a role holding permissions the inviter lacks (403)', async () => {
    const owner = await signUpOwner(svc().url);
    const admin = newAccount('admin');
    const { token } = await invitedToken(owner.token, admin.email, 'admin');
    const adminToken = (await accept(token, admin.password)).body.access_token;
    const res = await invite(adminToken, { email: newAccount().email, role: 'compliance_officer' });
    expect(res.status).toBe(403);
    expect(res.body.detail).toMatch(/compliance:admin/);
    expect((await invite(adminToken, { email: newAccount().email, role: 'auditor' })).status).toBe(201);
  });

  it('an API key scoped members:manage invites a member (self-only permissions do not count), not an admin', async () => {
    const owner = await signUpOwner(svc().url);
    const key = (
      await request(api('/tenants/api-keys'), {
        token: owner.token,
        json: { label: 'hr-sync', scopes: ['members:manage', 'members:read'] },
      })
    ).body.key as string;
    const member = await invite(key, { email: newAccount().email });
    expect(member.status).toBe(201);
    expect(member.body.role).toBe('member');
    const admin = await invite(key, { email: newAccount().email, role: 'admin' });
    expect(admin.status).toBe(403);
    expect(admin.body.detail).toMatch(/^Role admin holds permissions you do not hold: /);
    expect(admin.body.detail).not.toMatch(/identity:self:write/);
  });

  it('re-invites by re-issuing the same invitation: old link refused, expiry restarted, role updated', async () => {
    const owner = await signUpOwner(svc().url);
    const person = newAccount('reinvite');
    const first = await invitedToken(owner.token, person.email);
    svc().clock.advance(3 * DAY);
    const again = await invite(await relogin(owner), { email: person.email, role: 'auditor' });
    expect(again.status).toBe(201);
    expect(again.body).toEqual({
      invite_id: first.invite.invite_id,
      email: person.email,
      role: 'auditor',
      expires_at: new Date(svc().clock.now().getTime() + 7 * DAY).toISOString(),
      reissued: true,
    });
    const second = extractToken((await invitationMail(person.email)).text);
    expect(second).not.toBe(first.token);
    expect((await preview(first.token)).status).toBe(404);
    expect((await accept(first.token, person.password)).status).toBe(404);
    const list = await request(api('/members/invites'), { token: await relogin(owner) });
    expect(list.body).toEqual([again.body]); // the list says it was re-issued too
    const ok = await preview(second);
    expect(ok.status).toBe(200);
    expect(ok.body.role).toBe('auditor');
  });
});

describe('seat cap', () => {
  it('refuses a new invitation with 403 once members and pending invitations fill the plan’s seats', async () => {
    const owner = await signUpOwner(svc().url);
    // Free plan: 5 seats; the owner holds one, four pending invitations the rest.
    const pending = [];
    for (let i = 0; i < 4; i++) pending.push((await invite(owner.token, { email: newAccount().email })).body);
    const refused = await invite(owner.token, { email: newAccount().email });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/seat/i);
    // Re-inviting a pending address takes no new seat.
    expect((await invite(owner.token, { email: pending[0].email })).status).toBe(201);
    expect(
      (await request(api(`/members/invites/${pending[1].invite_id}`), { method: 'DELETE', token: owner.token })).status,
    ).toBe(204);
    expect((await invite(owner.token, { email: newAccount().email })).status).toBe(201);
    await svc().deps.database.db.execute(sql`update tenants set plan = 'enterprise' where id = ${owner.tenantId}`);
    expect((await invite(owner.token, { email: newAccount().email })).status).toBe(201);
  });
});

describe('seat cap and expired invitations', () => {
  it('expired invitations hold no seat; re-issuing one takes a seat again', async () => {
    const owner = await signUpOwner(svc().url);
    const first = [];
    for (let i = 0; i < 4; i++) first.push((await invite(owner.token, { email: newAccount().email })).body);
    svc().clock.advance(7 * DAY + 1000);
    const token = await relogin(owner);
    const second = [];
    for (let i = 0; i < 4; i++) {
      const res = await invite(token, { email: newAccount().email });
      expect(res.status).toBe(201);
      second.push(res.body);
    }
    // Expired invitations are no longer listed as pending.
    const listed = (await request(api('/members/invites'), { token })).body as Array<{ invite_id: string }>;
    expect(listed.map((i) => i.invite_id).sort()).toEqual(second.map((i) => i.invite_id).sort());
    const full = await invite(token, { email: first[0].email });
    expect(full.status).toBe(403);
    expect((await request(api(`/members/invites/${second[0].invite_id}`), { method: 'DELETE', token })).status).toBe(
      204,
    );
    const reissued = await invite(token, { email: first[0].email });
    expect(reissued.status).toBe(201);
    expect(reissued.body).toMatchObject({ invite_id: first[0].invite_id, reissued: true });
    const relisted = (await request(api('/members/invites'), { token })).body as Array<{ invite_id: string }>;
    expect(relisted.map((i) => i.invite_id)).toContain(first[0].invite_id);
  });
});

describe('races', () => {
  it('concurrent invitations never pass the seat cap', async () => {
    const owner = await signUpOwner(svc().url);
    const results = await Promise.all(
      Array.from({ length: 7 }, () => invite(owner.token, { email: newAccount('race').email })),
    );
    const statuses = results.map((res) => res.status).sort();
    expect(statuses).toEqual([201, 201, 201, 201, 403, 403, 403]);
  });

  it('a link redeemed twice at once makes one membership', async () => {
    const owner = await signUpOwner(svc().url);
    const person = newAccount('double');
    const { token } = await invitedToken(owner.token, person.email);
    const results = await Promise.all([accept(token, person.password), accept(token, person.password)]);
    const statuses = results.map((res) => res.status).sort();
    expect(statuses[0]).toBe(200);
    expect([404, 409]).toContain(statuses[1]);
    const roster = await request(api('/members'), { token: owner.token });
    expect(roster.body.filter((m: { email: string }) => m.email === person.email)).toHaveLength(1);
  });
});

describe('DELETE /members/invites/{invite_id}', () => {
  it('revokes: the link dies at once; a second revoke and an unknown id are 404', async () => {
    const owner = await signUpOwner(svc().url);
    const person = newAccount('revoked');
    const { invite: created, token } = await invitedToken(owner.token, person.email);
    const path = api(`/members/invites/${created.invite_id}`);
    expect((await request(path, { method: 'DELETE', token: owner.token })).status).toBe(204);
    expect((await preview(token)).status).toBe(404);
    expect((await accept(token, person.password)).status).toBe(404);
    // The invited person, holding an account elsewhere, gets the same 404 signed in.
    const signedUp = await request(api('/auth/signup'), { json: person });
    expect(signedUp.status).toBe(201);
    expect((await acceptExisting(signedUp.body.access_token, token)).status).toBe(404);
    expect((await request(path, { method: 'DELETE', token: owner.token })).status).toBe(404);
    expect(
      (
        await request(api('/members/invites/00000000-0000-7000-8000-000000000000'), {
          method: 'DELETE',
          token: owner.token,
        })
      ).status,
    ).toBe(404);
    expect((await request(api('/members/invites/not-an-id'), { method: 'DELETE', token: owner.token })).status).toBe(
      404,
    );
  });
});
