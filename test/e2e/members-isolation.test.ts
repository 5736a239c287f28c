import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

describe('tenant isolation', () => {
  it('an admin of one organization gets 404 for every member, invitation, domain and setting of another', async () => {
    const ownerA = (await signUpOwner(svc.url, 'orga')).token;
    const ownerB = (await signUpOwner(svc.url, 'orgb')).token;
    // A: a member, a pending invitation, a domain claim, a changed setting.
    const person = newAccount('amember');
    await request(api('/members/invites'), { token: ownerA, json: { email: person.email } });
    const mail = await smtp.waitFor(person.email);
    await request(api('/invites/accept'), { json: { token: extractToken(mail.text), password: person.password } });
    const pending = (await request(api('/members/invites'), { token: ownerA, json: { email: newAccount().email } }))
      .body;
    const domain = (await request(api('/members/domains'), { token: ownerA, json: { domain: 'isolated-a.example' } }))
      .body;
    await request(api('/tenants/config/auth.magic_link_enabled'), {
      method: 'PATCH',
      token: ownerA,
      json: { value: false },
    });
    const rosterA = (await request(api('/members'), { token: ownerA })).body as Array<{ membership_id: string }>;
    expect(rosterA).toHaveLength(2);

    for (const member of rosterA) {
      expect(
        (
          await request(api(`/members/${member.membership_id}`), {
            method: 'PATCH',
            token: ownerB,
            json: { role: 'auditor' },
          })
        ).status,
      ).toBe(404);
      expect((await request(api(`/members/${member.membership_id}`), { method: 'DELETE', token: ownerB })).status).toBe(
        404,
      );
    }
    expect(
      (await request(api(`/members/invites/${pending.invite_id}`), { method: 'DELETE', token: ownerB })).status,
    ).toBe(404);
    expect(
      (await request(api(`/members/domains/${domain.domain_id}/verify`), { method: 'POST', token: ownerB })).status,
    ).toBe(404);
    expect(
      (await request(api(`/members/domains/${domain.domain_id}`), { method: 'DELETE', token: ownerB })).status,
    ).toBe(404);

    // B's lists and settings show nothing of A.
    const rosterB = (await request(api('/members'), { token: ownerB })).body as Array<{ membership_id: string }>;
    expect(rosterB).toHaveLength(1);
    expect((await request(api('/members/invites'), { token: ownerB })).body).toEqual([]);
    expect((await request(api('/members/domains'), { token: ownerB })).body).toEqual([]);
    const schemaB = (await request(api('/tenants/config/schema'), { token: ownerB })).body as Array<{
      key: string;
      value: unknown;
    }>;
    expect(schemaB.find((s) => s.key === 'auth.magic_link_enabled')!.value).toBe(true);
    expect((await request(api('/tenants/config/auth.magic_link_enabled/history'), { token: ownerB })).body).toEqual([]);
    expect((await request(api('/tenants/settings'), { token: ownerB })).body).toEqual({ ciam_signup_enabled: false });

    // A's objects are intact.
    expect((await request(api('/members'), { token: ownerA })).body).toHaveLength(2);
    expect((await request(api('/members/invites'), { token: ownerA })).body).toHaveLength(1);
    expect((await request(api('/members/domains'), { token: ownerA })).body).toHaveLength(1);
    expect(
      (await request(api('/tenants/config/auth.magic_link_enabled/history'), { token: ownerA })).body,
    ).toHaveLength(1);
  });
});
