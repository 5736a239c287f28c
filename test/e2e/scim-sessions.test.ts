import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/kernel/db/index.js';
import { newId } from '../../src/kernel/ids.js';
import { RecordType, startDnsServer, type Zone } from '../support/dns.js';
import { request } from '../support/http.js';
import { addMember, signUpOwner } from '../support/organizations.js';
import { startService, type TestService } from '../support/service.js';
import { extractToken, startSmtpServer, type TestSmtpServer } from '../support/smtp.js';
import { freshIp } from './accounts-support.js';
import { oktaUser, person, scimHarness } from './scim-support.js';

const zone: Zone = {};
let dnsServer: Awaited<ReturnType<typeof startDnsServer>>;
let svc: TestService;
let smtp: TestSmtpServer;
beforeAll(async () => {
  dnsServer = await startDnsServer(zone);
  smtp = await startSmtpServer();
  svc = await startService({
    SMTP_URL: smtp.url,
    TRUST_PROXY: '1',
    DNS_SERVERS: `127.0.0.1:${dnsServer.port}`,
  });
});
afterAll(async () => {
  await svc?.close();
  await smtp?.close();
  await dnsServer?.close();
});

const { api, scim, patchOp, provisionedOrg, roster, eventsOf, expectScimError, db } = scimHarness(() => svc);
const PASSWORD = 'provisioned person passphrase';

const logIn = (email: string, slug: string, password = PASSWORD) =>
  request(api('/auth/login'), {
    json: { email, password, tenant_slug: slug },
    headers: { 'x-forwarded-for': freshIp() },
  });

/**
 * A provisioned person sets a password the way they would: the emailed reset link (SCIM never carries passwords),
 * then signs in to the organization.
 */
async function signInProvisioned(email: string, slug: string) {
  const asked = await request(api('/auth/forgot-password'), {
    json: { email },
    headers: { 'x-forwarded-for': freshIp() },
  });
  expect(asked.status).toBe(202);
  const mail = await smtp.waitFor((m) => m.to.includes(email.toLowerCase()) && /reset/i.test(m.subject));
  const reset = await request(api('/auth/reset-password'), {
    json: { token: extractToken(mail.text), new_password: PASSWORD },
  });
  expect(reset.status, reset.text).toBe(204);
  const login = await logIn(email, slug);
  expect(login.status, login.text).toBe(200);
  return { access: login.body.access_token as string, refresh: login.body.refresh_token as string };
}

describe('deactivation through SCIM', () => {
  it('kills a live session on its next request, and sign-in stays closed until reactivation', async () => {
    const { owner, token } = await provisionedOrg();
    const { email } = person('live');
    const created = await scim(token, 'POST', '/Users', oktaUser(email));
    expect(created.status, created.text).toBe(201);
    const session = await signInProvisioned(email, owner.slug);
    const me = await request(api('/me'), { token: session.access });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ role: 'member', population: 'workforce' });

    const deactivated = await scim(
      token,
      'PATCH',
      `/Users/${created.body.id}`,
      patchOp([{ op: 'replace', value: { active: false } }]),
    );
    expect(deactivated.status).toBe(200);

    // The very next request with the same access token is refused, and so is its refresh token.
    expect((await request(api('/me'), { token: session.access })).status).toBe(401);
    expect((await request(api('/auth/refresh'), { json: { refresh_token: session.refresh } })).status).toBe(401);
    expect((await logIn(email, owner.slug)).status).toBe(401);
    // (The password reset ended sessions before; the SCIM deactivation is the one by the provisioning service.)
    const revoked = (await eventsOf(owner.tenantId, 'user.sessions_revoked')).filter((e) => e.actor_type === 'service');
    expect(revoked).toEqual([
      expect.objectContaining({
        actor_type: 'service',
        subject_user_id: me.body.user_id,
        data: { user_id: me.body.user_id, reason: 'scim_deactivated', sessions: 1 },
      }),
    ]);

    // Reactivation opens sign-in again; the ended session stays ended.
    await scim(token, 'PATCH', `/Users/${created.body.id}`, patchOp([{ op: 'replace', path: 'active', value: true }]));
    expect((await request(api('/me'), { token: session.access })).status).toBe(401);
    const again = await logIn(email, owner.slug);
    expect(again.status).toBe(200);
    expect((await request(api('/me'), { token: again.body.access_token })).status).toBe(200);
  });

  it('DELETE /Users ends the sessions and removes the membership', async () => {
    const { owner, token } = await provisionedOrg();
    const { email } = person('gone');
    const created = await scim(token, 'POST', '/Users', oktaUser(email));
    const session = await signInProvisioned(email, owner.slug);
    expect((await scim(token, 'DELETE', `/Users/${created.body.id}`)).status).toBe(204);
    expect((await request(api('/me'), { token: session.access })).status).toBe(401);
    expect((await logIn(email, owner.slug)).status).toBe(401);
    expect((await roster(owner.token)).some((m) => m.email === email)).toBe(false);
    expect(await eventsOf(owner.tenantId, 'scim.user_deleted')).toHaveLength(1);
    // Deleted twice: the id is unknown now.
    expectScimError(await scim(token, 'DELETE', `/Users/${created.body.id}`), 404);
  });
});

describe('SCIM-managed memberships and profiles', () => {
  it('refuse edits through the members API (409) and show the profile as not editable', async () => {
    const { owner, token } = await provisionedOrg();
    const { email } = person('managed');
    await scim(token, 'POST', '/Users', oktaUser(email));
    const member = (await roster(owner.token)).find((m) => m.email === email)!;
    expect(member.scim_managed).toBe(true);

    const patched = await request(api(`/members/${member.membership_id}`), {
      method: 'PATCH',
      token: owner.token,
      json: { role: 'auditor' },
    });
    expect(patched.status).toBe(409);
    expect(patched.body.detail).toMatch(/SCIM/);
    const removed = await request(api(`/members/${member.membership_id}`), { method: 'DELETE', token: owner.token });
    expect(removed.status).toBe(409);

    const session = await signInProvisioned(email, owner.slug);
    const profile = await request(api('/me/profile'), { token: session.access });
    expect(profile.body).toEqual({
      email,
      name: 'Test User',
      given_name: 'Test',
      family_name: 'User',
      picture: null,
      editable: false,
    });
    const edit = await request(api('/me/profile'), { method: 'PATCH', token: session.access, json: { name: 'Mine' } });
    expect(edit.status).toBe(409);

    // The person's data export carries what the identity provider sent about them.
    const exported = await request(api('/gdpr/my-data'), { token: session.access });
    expect(exported.status).toBe(200);
    expect(exported.body.sections.scim).toMatchObject({
      user_name: email,
      given_name: 'Test',
      family_name: 'User',
      active: true,
      groups: [],
    });

    // Deleted through SCIM, the membership is the members API's again (and the profile its owner's).
    const listed = await scim(token, 'GET', `/Users?filter=${encodeURIComponent(`userName eq "${email}"`)}`);
    expect((await scim(token, 'DELETE', `/Users/${listed.body.Resources[0].id}`)).status).toBe(204);
    const [released] = await rows<{ scim_managed: boolean; status: string; profile_source: string }>(
      db(),
      sql`select m.scim_managed, m.status, u.profile_source from memberships m join users u on u.id = m.user_id
          where m.id = ${member.membership_id}`,
    );
    expect(released).toEqual({ scim_managed: false, status: 'removed', profile_source: 'local' });
    // The account is the person's now: a former member is not enrolled again without a verified domain.
    const again = await scim(token, 'POST', '/Users', oktaUser(email));
    expectScimError(again, 409, 'uniqueness');
  });

  it('stops writing the account once it belongs to another organization too; the SCIM copy still changes', async () => {
    const { owner, token } = await provisionedOrg();
    const { email } = person('shared');
    const created = await scim(token, 'POST', '/Users', oktaUser(email));
    expect(created.status, created.text).toBe(201);
    const userId = (await roster(owner.token)).find((m) => m.email === email)!.user_id;
    const account = () =>
      rows<{ email: string; given_name: string | null; profile_source: string }>(
        db(),
        sql`select email, given_name, profile_source from users where id = ${userId}`,
      );

    // Only in this organization, the account is the identity provider's: names are copied onto it.
    const renamed = await scim(
      token,
      'PATCH',
      `/Users/${created.body.id}`,
      patchOp([{ op: 'replace', path: 'name.givenName', value: 'Renamed' }]),
    );
    expect(renamed.status, renamed.text).toBe(200);
    expect(await account()).toEqual([{ email, given_name: 'Renamed', profile_source: 'scim' }]);

    // The person joins another organization (direct set-up, as addMember does).
    const other = await signUpOwner(svc.url, 'otherorg');
    await db().execute(
      sql`insert into memberships (id, tenant_id, user_id, role, population, status, created_at)
          values (${newId()}, ${other.tenantId}, ${userId}, 'member', 'workforce', 'active', ${svc.clock.now()})`,
    );

    // Now the identity provider's address and names stay in its SCIM copy: the account keeps its own.
    const moved = `moved-${email}`;
    const patched = await scim(
      token,
      'PATCH',
      `/Users/${created.body.id}`,
      patchOp([
        { op: 'replace', path: 'userName', value: moved },
        { op: 'replace', path: 'emails[type eq "work"].value', value: moved },
        { op: 'replace', path: 'name.givenName', value: 'Attacker' },
      ]),
    );
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({ userName: moved, name: { givenName: 'Attacker' } });
    expect(patched.body.emails).toEqual([expect.objectContaining({ value: moved })]);
    expect(await account()).toEqual([{ email, given_name: 'Renamed', profile_source: 'scim' }]);
    const replaced = await scim(token, 'PUT', `/Users/${created.body.id}`, oktaUser(`put-${email}`));
    expect(replaced.status, replaced.text).toBe(200);
    expect((await account())[0]?.email).toBe(email);
  });

  it("refuses another organization's account: same answer as for any unavailable name, nothing recorded", async () => {
    const { owner, token } = await provisionedOrg();
    const elsewhere = await signUpOwner(svc.url, 'elsewhere');
    const refused = await scim(token, 'POST', '/Users', oktaUser(elsewhere.email));
    expectScimError(refused, 409, 'uniqueness');
    expect(refused.body.detail).toBe('userName is not available in this organization');
    expect((await roster(owner.token)).some((m) => m.user_id === elsewhere.userId)).toBe(false);
    expect(await eventsOf(owner.tenantId, 'scim.user_created')).toEqual([]);
    expect((await logIn(elsewhere.email, owner.slug, elsewhere.password)).status).toBe(401);
    expect((await request(api('/me'), { token: elsewhere.token })).status).toBe(200);
  });

  it('links an existing account on a verified domain: a new membership, its profile left to its owner', async () => {
    const { owner, token } = await provisionedOrg();
    const domain = `scim${Math.random().toString(36).slice(2, 10)}.example`;
    const { unique } = person('onDomain');
    const account = {
      email: `${unique}@${domain}`,
      password: `correct horse battery ${unique}`,
      organization_name: `Org ${unique}`,
    };
    const signedUp = await request(api('/auth/signup'), { json: account });
    expect(signedUp.status, signedUp.text).toBe(201);
    const elsewhereToken = signedUp.body.access_token as string;
    const userId = (await request(api('/me'), { token: elsewhereToken })).body.user_id as string;
    const body = oktaUser(account.email, { name: { givenName: 'Idp', familyName: 'Name' } });

    // Claimed but not verified, the domain does not answer for the address.
    const claimed = await request(api('/members/domains'), { token: owner.token, json: { domain } });
    expect(claimed.status, claimed.text).toBe(201);
    expectScimError(await scim(token, 'POST', '/Users', body), 409, 'uniqueness');

    zone[domain] = [{ type: RecordType.TXT, data: claimed.body.txt_record }];
    const verified = await request(api(`/members/domains/${claimed.body.domain_id}/verify`), {
      method: 'POST',
      token: owner.token,
    });
    expect(verified.body).toEqual({ domain, verified: true });

    const linked = await scim(token, 'POST', '/Users', body);
    expect(linked.status, linked.text).toBe(201);
    const member = (await roster(owner.token)).find((m) => m.user_id === userId);
    expect(member).toMatchObject({ role: 'member', status: 'active', scim_managed: true });
    // The event does not tell whether an account existed.
    expect((await eventsOf(owner.tenantId, 'scim.user_created'))[0]?.data).toEqual({
      scim_id: linked.body.id,
      user_id: userId,
      membership_id: member!.membership_id,
      active: true,
    });

    // The person signs in to this organization with their own password; their profile stays theirs.
    const here = await logIn(account.email, owner.slug, account.password);
    expect(here.status).toBe(200);
    const profile = await request(api('/me/profile'), { token: here.body.access_token });
    expect(profile.body).toMatchObject({ editable: true, given_name: null });

    // Deactivation signs them out of this organization only.
    await scim(token, 'PATCH', `/Users/${linked.body.id}`, patchOp([{ op: 'replace', value: { active: false } }]));
    expect((await request(api('/me'), { token: here.body.access_token })).status).toBe(401);
    expect((await request(api('/me'), { token: elsewhereToken })).status).toBe(200);
  });

  it('adopts an existing member, never the owner or a customer', async () => {
    const { owner, token } = await provisionedOrg();
    const existing = await addMember(svc, owner, 'auditor');
    const adopted = await scim(token, 'POST', '/Users', oktaUser(existing.email));
    expect(adopted.status, adopted.text).toBe(201);
    expect((await roster(owner.token)).find((m) => m.user_id === existing.userId)).toMatchObject({
      role: 'auditor',
      scim_managed: true,
    });
    // Provisioned inactive, the adopted member's live session ends like on a deactivation.
    const other = await addMember(svc, owner, 'member');
    const inactive = await scim(token, 'POST', '/Users', oktaUser(other.email, { active: false }));
    expect(inactive.status).toBe(201);
    expect((await request(api('/me'), { token: other.token })).status).toBe(401);

    expectScimError(await scim(token, 'POST', '/Users', oktaUser(owner.email)), 409, 'uniqueness');
    expect((await roster(owner.token)).find((m) => m.role === 'owner')?.scim_managed).toBe(false);
  });
});
