import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/kernel/db/index.js';
import { newAccount, request } from '../support/http.js';
import { signUpOwner } from '../support/organizations.js';
import { startService, type TestService } from '../support/service.js';
import { extractToken, startSmtpServer, type TestSmtpServer } from '../support/smtp.js';

let svc: TestService;
let smtp: TestSmtpServer;
beforeAll(async () => {
  smtp = await startSmtpServer();
  svc = await startService({ SMTP_URL: smtp.url });
});
afterAll(async () => {
  await svc?.close();
  await smtp?.close();
});

const api = (path: string) => `${svc.url}/api/v1${path}`;
const db = () => svc.deps.database.db;
const NO_ID = '00000000-0000-7000-8000-000000000000';

/** A new person in the owner's organization with `role`, signed in; answers their tokens and membership id. */
async function join(ownerToken: string, role: string) {
  const person = newAccount(role.replace('_', ''));
  const invited = await request(api('/members/invites'), { token: ownerToken, json: { email: person.email, role } });
  expect(invited.status).toBe(201);
  const mail = await smtp.waitFor((m) => m.to.includes(person.email.toLowerCase()) && /invited/i.test(m.subject));
  const accepted = await request(api('/invites/accept'), {
    json: { token: extractToken(mail.text), password: person.password },
  });
  expect(accepted.status).toBe(200);
  const roster = await request(api('/members'), { token: ownerToken });
  const entry = roster.body.find((m: { email: string }) => m.email === person.email);
  return {
    person,
    token: accepted.body.access_token as string,
    refresh: accepted.body.refresh_token as string,
    membershipId: entry.membership_id as string,
    userId: entry.user_id as string,
  };
}

const patchRole = (token: string, id: string, role: unknown) =>
  request(api(`/members/${id}`), { method: 'PATCH', token, json: { role } });
const remove = (token: string, id: string) => request(api(`/members/${id}`), { method: 'DELETE', token });

describe('GET /members', () => {
  it('lists the roster with membership id, role, status and the SCIM flag', async () => {
    const owner = await signUpOwner(svc.url);
    const auditor = await join(owner.token, 'auditor');
    const res = await request(api('/members'), { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      {
        membership_id: expect.any(String),
        user_id: owner.userId,
        email: owner.account.email,
        name: null,
        role: 'owner',
        status: 'active',
        population: 'workforce',
        scim_managed: false,
        joined_at: expect.any(String),
      },
      expect.objectContaining({ membership_id: auditor.membershipId, role: 'auditor', scim_managed: false }),
    ]);
    // members:read is enough to read.
    expect((await request(api('/members'), { token: auditor.token })).status).toBe(200);
    expect((await request(api('/members?limit=1'), { token: owner.token })).body).toHaveLength(1);
    expect((await request(api('/members?population=customer'), { token: owner.token })).body).toEqual([]);
    expect((await request(api('/members?limit=0'), { token: owner.token })).status).toBe(422);
  });
});

describe('PATCH /members/{membership_id}', () => {
  it('changes a role, read from the database on the member’s next request', async () => {
    const owner = await signUpOwner(svc.url);
    const member = await join(owner.token, 'member');
    const res = await patchRole(owner.token, member.membershipId, 'security_operator');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ membership_id: member.membershipId, role: 'security_operator' });
    expect((await request(api('/me'), { token: member.token })).body.role).toBe('security_operator');
    const events = await rows<{ action: string; actor_id: string }>(
      db(),
      sql`select action, actor_id from events where tenant_id = ${owner.tenantId} and action = 'member.role_changed'`,
    );
    expect(events).toEqual([{ action: 'member.role_changed', actor_id: owner.userId }]);
  });

  it('answers 422 for an unknown or ungrantable role, 404 for an unknown membership', async () => {
    const owner = await signUpOwner(svc.url);
    const member = await join(owner.token, 'member');
    for (const role of ['superuser', 'owner', 'customer']) {
      const res = await patchRole(owner.token, member.membershipId, role);
      expect(res.status, role).toBe(422);
      expect(res.body.detail).toMatch(/^role/);
    }
    expect(
      (await request(api(`/members/${member.membershipId}`), { method: 'PATCH', token: owner.token, json: {} })).status,
    ).toBe(422);
    expect((await patchRole(owner.token, NO_ID, 'auditor')).status).toBe(404);
    expect((await patchRole(owner.token, 'not-a-uuid', 'auditor')).status).toBe(404);
    expect((await request(api('/me'), { token: member.token })).body.role).toBe('member');
  });

  it('answers 409 for the owner’s membership and a SCIM-managed one', async () => {
    const owner = await signUpOwner(svc.url);
    const ownerEntry = (await request(api('/members'), { token: owner.token })).body[0];
    const ownerChange = await patchRole(owner.token, ownerEntry.membership_id, 'admin');
    expect(ownerChange.status).toBe(409);
    expect(ownerChange.body.detail).toMatch(/ownership transfer/);
    const member = await join(owner.token, 'member');
    await db().execute(sql`update memberships set scim_managed = true where id = ${member.membershipId}`);
    const scim = await patchRole(owner.token, member.membershipId, 'auditor');
    expect(scim.status).toBe(409);
    expect(scim.body.detail).toMatch(/SCIM/);
    const scimRemove = await remove(owner.token, member.membershipId);
    expect(scimRemove.status).toBe(409);
    expect(scimRemove.body.detail).toMatch(/SCIM/);
  });

  it('refuses granting a role with permissions the caller lacks (403)', async () => {
    const owner = await signUpOwner(svc.url);
    const admin = await join(owner.token, 'admin');
    const member = await join(owner.token, 'member');
    const res = await patchRole(admin.token, member.membershipId, 'compliance_officer');
    expect(res.status).toBe(403);
    expect(res.body.detail).toMatch(/compliance:admin/);
    expect((await patchRole(admin.token, member.membershipId, 'auditor')).status).toBe(200);
  });

  it('answers 409 naming the separation-of-duties rule', async () => {
    const platformOwner = newAccount('platform');
    const platform = await svc.deps.accounts.bootstrapPlatform({
      email: platformOwner.email,
      password: platformOwner.password,
      organizationName: platformOwner.organization_name,
    });
    const login = await request(api('/auth/login'), {
      json: { email: platformOwner.email, password: platformOwner.password, tenant_slug: platform.slug },
    });
    const owner = await signUpOwner(svc.url);
    await request(api('/members/invites'), { token: owner.token, json: { email: platformOwner.email } });
    const mail = await smtp.waitFor(
      (m) => m.to.includes(platformOwner.email.toLowerCase()) && /invited/i.test(m.subject),
    );
    const joined = await request(api('/invites/accept-existing'), {
      token: login.body.access_token,
      json: { token: extractToken(mail.text) },
    });
    expect(joined.status).toBe(200);
    const entry = (await request(api('/members'), { token: owner.token })).body.find(
      (m: { email: string }) => m.email === platformOwner.email,
    );
    const res = await patchRole(owner.token, entry.membership_id, 'auditor');
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      detail: expect.stringMatching(/^Separation of duties \(auditor-independence\)/),
      rule: 'auditor-independence',
    });
    expect((await patchRole(owner.token, entry.membership_id, 'security_operator')).status).toBe(200);
  });
});

describe('DELETE /members/{membership_id}', () => {
  it('removes the member and ends their sessions at once: live access and refresh tokens are refused', async () => {
    const owner = await signUpOwner(svc.url);
    const member = await join(owner.token, 'admin');
    expect((await request(api('/me'), { token: member.token })).status).toBe(200);
    expect((await remove(owner.token, member.membershipId)).status).toBe(204);
    expect((await request(api('/me'), { token: member.token })).status).toBe(401);
    expect((await request(api('/auth/refresh'), { json: { refresh_token: member.refresh } })).status).toBe(401);
    const login = await request(api('/auth/login'), {
      json: { email: member.person.email, password: member.person.password, tenant_slug: owner.slug },
    });
    expect(login.status).toBe(401);
    const roster = await request(api('/members'), { token: owner.token });
    expect(roster.body.map((m: { membership_id: string }) => m.membership_id)).not.toContain(member.membershipId);
    const sessions = await rows<{ revoked_reason: string }>(
      db(),
      sql`select revoked_reason from sessions where tenant_id = ${owner.tenantId} and user_id = ${member.userId}`,
    );
    expect(sessions.length).toBeGreaterThan(0);
    for (const session of sessions) expect(session.revoked_reason).toBe('member_removed');
    const events = await rows<{ action: string }>(
      db(),
      sql`select action from events where tenant_id = ${owner.tenantId} and subject_user_id = ${member.userId}
          and action in ('member.removed', 'user.sessions_revoked') order by occurred_at`,
    );
    expect(events.map((e) => e.action).sort()).toEqual(['member.removed', 'user.sessions_revoked']);
    expect((await remove(owner.token, member.membershipId)).status).toBe(404);
    expect((await remove(owner.token, NO_ID)).status).toBe(404);
    // A removed person can be invited again and comes back.
    const again = await request(api('/members/invites'), { token: owner.token, json: { email: member.person.email } });
    expect(again.status).toBe(201);
  });

  it('answers 409 for the sole owner; a second owner can be removed only by an owner', async () => {
    const owner = await signUpOwner(svc.url);
    const ownerEntry = (await request(api('/members'), { token: owner.token })).body[0];
    const sole = await remove(owner.token, ownerEntry.membership_id);
    expect(sole.status).toBe(409);
    expect(sole.body.detail).toMatch(/sole owner/);
    const admin = await join(owner.token, 'admin');
    const second = await join(owner.token, 'member');
    await db().execute(sql`update memberships set role = 'owner' where id = ${second.membershipId}`);
    const byAdmin = await remove(admin.token, second.membershipId);
    expect(byAdmin.status).toBe(409);
    expect((await remove(owner.token, second.membershipId)).status).toBe(204);
    expect((await request(api('/me'), { token: owner.token })).status).toBe(200);
  });
});

describe('permissions', () => {
  it('refuses every member-management route with 403 without members:manage, reads without members:read', async () => {
    const owner = await signUpOwner(svc.url);
    const auditor = await join(owner.token, 'auditor');
    const member = await join(owner.token, 'member');
    const target = member.membershipId;
    const invite = (await request(api('/members/invites'), { token: owner.token, json: { email: newAccount().email } }))
      .body.invite_id;
    const domain = (
      await request(api('/members/domains'), { token: owner.token, json: { domain: 'acme-403.example.com' } })
    ).body.domain_id;
    const manage = (token: string) => [
      patchRole(token, target, 'auditor'),
      remove(token, target),
      request(api('/members/invites'), { token, json: { email: newAccount().email } }),
      request(api(`/members/invites/${invite}`), { method: 'DELETE', token }),
      request(api('/members/domains'), { token, json: { domain: 'other-403.example.com' } }),
      request(api(`/members/domains/${domain}/verify`), { method: 'POST', token }),
      request(api(`/members/domains/${domain}`), { method: 'DELETE', token }),
    ];
    const read = (token: string) => [
      request(api('/members'), { token }),
      request(api('/members/invites'), { token }),
      request(api('/members/domains'), { token }),
    ];
    for (const res of await Promise.all(manage(auditor.token))) {
      expect(res.status).toBe(403);
      expect(res.body.detail).toBe('Missing permission: members:manage');
    }
    for (const res of await Promise.all(read(auditor.token))) expect(res.status).toBe(200);
    for (const res of await Promise.all([...manage(member.token), ...read(member.token)])) {
      expect(res.status).toBe(403);
      expect(res.body.detail).toMatch(/^Missing permission: members:(manage|read)$/);
    }
    for (const res of await Promise.all(read(''))) expect(res.status).toBe(401);
    // Nothing changed.
    expect((await request(api('/me'), { token: member.token })).body.role).toBe('member');
    expect((await request(api('/members/invites'), { token: owner.token })).body).toHaveLength(1);
    expect((await request(api('/members/domains'), { token: owner.token })).body).toHaveLength(1);
  });
});

describe('personal data (membership contributor)', () => {
  it('exports the subject’s membership and invitations, and erasure removes the membership and scrubs addresses', async () => {
    const owner = await signUpOwner(svc.url);
    const member = await join(owner.token, 'auditor');
    const contributor = svc.deps.personalData.contributors().find((c) => c.name === 'membership')!;
    expect(contributor.tables).toEqual(['memberships', 'invitations']);
    const exported = (await svc.deps.transactions.tenant(owner.tenantId, (tx) =>
      contributor.export(tx, owner.tenantId, member.userId),
    )) as { membership: { role: string; status: string }; invitations: Array<{ email: string; status: string }> };
    expect(exported.membership).toMatchObject({
      membership_id: member.membershipId,
      role: 'auditor',
      status: 'active',
    });
    expect(exported.invitations).toEqual([expect.objectContaining({ email: member.person.email, status: 'redeemed' })]);
    await svc.deps.transactions.tenant(owner.tenantId, (tx) => contributor.erase(tx, owner.tenantId, member.userId));
    expect((await request(api('/me'), { token: member.token })).status).toBe(401);
    const stored = await rows<{ email: string }>(
      db(),
      sql`select email from invitations where tenant_id = ${owner.tenantId} and redeemed_by = ${member.userId}`,
    );
    expect(stored).toEqual([{ email: 'erased' }]);
    const after = (await svc.deps.transactions.tenant(owner.tenantId, (tx) =>
      contributor.export(tx, owner.tenantId, member.userId),
    )) as { membership: { status: string } };
    expect(after.membership.status).toBe('removed');
  });
});
