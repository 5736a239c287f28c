import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/kernel/db/index.js';
import { JOBS } from '../../src/workers.js';
import { RecordType, startDnsServer, type Zone } from '../support/dns.js';
import { request } from '../support/http.js';
import { signUpOwner } from '../support/organizations.js';
import { changeDirectly, startService, type TestService } from '../support/service.js';
import { extractToken, startSmtpServer, type TestSmtpServer } from '../support/smtp.js';

const zone: Zone = {};
let dnsServer: Awaited<ReturnType<typeof startDnsServer>>;
let svc: TestService;
let smtp: TestSmtpServer;
beforeAll(async () => {
  dnsServer = await startDnsServer(zone);
  smtp = await startSmtpServer();
  svc = await startService({ DNS_SERVERS: `127.0.0.1:${dnsServer.port}`, SMTP_URL: smtp.url });
});
afterAll(async () => {
  await svc?.close();
  await smtp?.close();
  await dnsServer?.close();
});

const api = (path: string) => `${svc.url}/api/v1${path}`;
const HOUR = 3_600_000;
let counter = 0;
const uniqueDomain = () => `acme${++counter}-${Math.random().toString(36).slice(2, 8)}.example`;

const claim = (token: string, domain: string) => request(api('/members/domains'), { token, json: { domain } });
const verify = (token: string, id: string) => request(api(`/members/domains/${id}/verify`), { method: 'POST', token });
const publish = (domain: string, txt: string) => {
  zone[domain] = [
    { type: RecordType.TXT, data: txt },
    { type: RecordType.TXT, data: 'v=spf1 -all' },
  ];
};
const withdraw = (domain: string) => {
  zone[domain] = [{ type: RecordType.TXT, data: 'v=spf1 -all' }];
};
const check = (email: string) => request(api('/auth/signup/domain-check'), { json: { email } });
const joinByDomain = (email: string, password = 'a strong domain password') =>
  request(api('/auth/signup/domain'), { json: { email, password } });
const enableJoin = (token: string, value = true) =>
  request(api('/tenants/config/members.domain_join_enabled'), { method: 'PATCH', token, json: { value } });

/** An organization with a verified domain and domain join switched on. */
async function openOrganization() {
  const owner = await signUpOwner(svc.url);
  const domain = uniqueDomain();
  const claimed = await claim(owner.token, domain);
  publish(domain, claimed.body.txt_record);
  expect((await verify(owner.token, claimed.body.domain_id)).body).toEqual({ domain, verified: true });
  expect((await enableJoin(owner.token)).status).toBe(200);
  return { owner, domain, domainId: claimed.body.domain_id as string, txt: claimed.body.txt_record as string };
}

describe('POST /members/domains (claim)', () => {
  it('answers the TXT record to publish at the domain name; claiming again answers the same claim', async () => {
    const owner = await signUpOwner(svc.url);
    const domain = uniqueDomain();
    const res = await claim(owner.token, `  ${domain.toUpperCase()}. `);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      domain_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      domain,
      txt_record: expect.stringMatching(/^svc-verify=[A-Za-z0-9_-]{20,}$/),
      verified: false,
      verified_at: null,
    });
    expect((await claim(owner.token, domain)).body).toEqual(res.body);
    const list = await request(api('/members/domains'), { token: owner.token });
    expect(list.body).toEqual([res.body]);
  });

  it('answers 422 for malformed names and public email providers, storing nothing', async () => {
    const owner = await signUpOwner(svc.url);
    for (const domain of [
      'localhost',
      'not a domain',
      '1.2.3.4',
      '-acme.example',
      'acme..example',
      'acme.123',
      `${'a'.repeat(64)}.example`,
    ]) {
      const res = await claim(owner.token, domain);
      expect(res.status, domain).toBe(422);
      expect(res.body.detail).toMatch(/^domain/);
    }
    for (const domain of ['gmail.com', 'Outlook.com', 'mail.yahoo.com']) {
      const res = await claim(owner.token, domain);
      expect(res.status, domain).toBe(422);
      expect(res.body.detail).toMatch(/public email provider/);
    }
    expect((await request(api('/members/domains'), { token: owner.token })).body).toEqual([]);
  });

  it('answers 409 when another organization holds the domain verified', async () => {
    const { domain } = await openOrganization();
    const other = await signUpOwner(svc.url, 'other');
    const res = await claim(other.token, domain);
    expect(res.status).toBe(409);
    expect(res.body.detail).toMatch(/another organization/);
  });
});

describe('POST /members/domains/{domain_id}/verify', () => {
  it('verifies only once the TXT record is published at the domain, through the configured DNS', async () => {
    const owner = await signUpOwner(svc.url);
    const domain = uniqueDomain();
    const claimed = (await claim(owner.token, domain)).body;
    expect((await verify(owner.token, claimed.domain_id)).body).toEqual({ domain, verified: false });
    publish(domain, 'svc-verify=someone-elses-value');
    expect((await verify(owner.token, claimed.domain_id)).body).toEqual({ domain, verified: false });
    publish(domain, claimed.txt_record);
    expect((await verify(owner.token, claimed.domain_id)).body).toEqual({ domain, verified: true });
    const listed = (await request(api('/members/domains'), { token: owner.token })).body[0];
    expect(listed).toMatchObject({ verified: true, verified_at: expect.any(String) });
    expect((await verify(owner.token, '00000000-0000-7000-8000-000000000000')).status).toBe(404);
  });

  it('answers 409 when another organization verified the domain first', async () => {
    const first = await signUpOwner(svc.url, 'first');
    const second = await signUpOwner(svc.url, 'second');
    const domain = uniqueDomain();
    const a = (await claim(first.token, domain)).body;
    const b = (await claim(second.token, domain)).body;
    publish(domain, a.txt_record);
    zone[domain]!.push({ type: RecordType.TXT, data: b.txt_record });
    expect((await verify(first.token, a.domain_id)).body.verified).toBe(true);
    const res = await verify(second.token, b.domain_id);
    expect(res.status).toBe(409);
  });
});

describe('domain join', () => {
  it('check and join work only while the setting is on and the proof resolves', async () => {
    const owner = await signUpOwner(svc.url);
    const domain = uniqueDomain();
    const claimed = (await claim(owner.token, domain)).body;
    const email = `new.person@${domain}`;
    expect((await check(email)).body).toEqual({ eligible: false });
    publish(domain, claimed.txt_record);
    await verify(owner.token, claimed.domain_id);
    // Verified, but the setting is off by default.
    expect((await check(email)).body).toEqual({ eligible: false });
    expect((await joinByDomain(email)).status).toBe(409);
    await enableJoin(owner.token);
    expect((await check(email)).body).toEqual({
      eligible: true,
      tenant_slug: owner.slug,
      organization_name: owner.account.organization_name,
    });
    expect((await check(`someone@sub.${domain}`)).body).toEqual({ eligible: false });
    const weak = await joinByDomain(email, 'short');
    expect(weak.status).toBe(400);
    const res = await joinByDomain(email);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ access_token: expect.any(String), token_type: 'bearer' });
    const me = await request(api('/me'), { token: res.body.access_token });
    // The domain proves the organization's name, not the caller's mailbox: the address is verified by mail.
    expect(me.body).toMatchObject({
      tenant_id: owner.tenantId,
      role: 'member',
      population: 'workforce',
      email_verified: false,
    });
    const mail = await smtp.waitFor((m) => m.to.includes(email) && /confirm/i.test(m.subject));
    const verified = await request(api('/auth/verify-email'), { json: { token: extractToken(mail.text) } });
    expect(verified.status).toBe(204);
    const after = await request(api('/me'), { token: res.body.access_token });
    expect(after.body.email_verified).toBe(true);
    const again = await joinByDomain(email.toUpperCase());
    expect(again.status).toBe(409);
    expect(again.body.detail).toMatch(/email/i);
    await enableJoin(owner.token, false);
    expect((await joinByDomain(`second@${domain}`)).status).toBe(409);
  });

  it('keeps the door shut while the organization is quarantined', async () => {
    // (Two requests only: the file's requests share one per-IP budget.)
    const { owner, domain } = await openOrganization();
    await changeDirectly(svc, sql`update tenants set quarantined = true where id = ${owner.tenantId}`);
    expect((await check(`q@${domain}`)).body).toEqual({ eligible: false });
    expect((await joinByDomain(`q@${domain}`)).status).toBe(409);
  });

  it('closes the door at the next attempt once the TXT record is withdrawn', async () => {
    const { owner, domain, txt } = await openOrganization();
    expect((await check(`a@${domain}`)).body.eligible).toBe(true);
    withdraw(domain);
    expect((await check(`a@${domain}`)).body).toEqual({ eligible: false });
    expect((await joinByDomain(`a@${domain}`)).status).toBe(409);
    // The attempt found the proof gone: the domain is no longer verified.
    const listed = (await request(api('/members/domains'), { token: owner.token })).body[0];
    expect(listed).toMatchObject({ domain, verified: false, verified_at: null });
    // Publishing again does not reopen it by itself: it must be verified again.
    publish(domain, txt);
    expect((await check(`a@${domain}`)).body.eligible).toBe(false);
    expect((await verify(owner.token, listed.domain_id)).body.verified).toBe(true);
    expect((await check(`a@${domain}`)).body.eligible).toBe(true);
  });

  it('the worker re-check unverifies a domain whose TXT record disappeared', async () => {
    const { owner, domain, domainId } = await openOrganization();
    const other = await openOrganization();
    const job = JOBS.find((j) => j.name === 'member-domain-recheck');
    expect(job).toBeDefined();
    withdraw(domain);
    // Checked within the hour: not due yet.
    await job!.run(svc.deps);
    const before = await rows<{ verified: boolean }>(
      svc.deps.database.db,
      sql`select verified from member_domains where id = ${domainId}`,
    );
    expect(before[0]!.verified).toBe(true);
    svc.clock.advance(HOUR + 1000);
    await job!.run(svc.deps);
    const after = await rows<{ id: string; verified: boolean }>(
      svc.deps.database.db,
      sql`select id, verified from member_domains where id in (${domainId}, ${other.domainId})`,
    );
    expect(Object.fromEntries(after.map((r) => [r.id, r.verified]))).toEqual({
      [domainId]: false,
      [other.domainId]: true,
    });
    const events = await rows<{ action: string }>(
      svc.deps.database.db,
      sql`select action from events where tenant_id = ${owner.tenantId} and action = 'domain.unverified'`,
    );
    expect(events).toHaveLength(1);
    expect((await check(`x@${domain}`)).body.eligible).toBe(false);
  });

  it('join with use_cookie sets the refresh cookie and answers null in the body', async () => {
    const { domain } = await openOrganization();
    const res = await request(api('/auth/signup/domain'), {
      json: { email: `cookie@${domain}`, password: 'a strong domain password', use_cookie: true },
    });
    expect(res.status).toBe(201);
    expect(res.body.refresh_token).toBeNull();
    expect(res.headers.get('set-cookie')).toMatch(/^svc_refresh=.*HttpOnly/i);
  });

  it('counts a domain join against the seat cap', async () => {
    const { owner, domain } = await openOrganization();
    await svc.deps.database.db.execute(
      sql`insert into invitations (tenant_id, id, email, email_key, role, token_hash, status, invited_by, created_at, issued_at, expires_at)
          select ${owner.tenantId}, gen_random_uuid(), 'p' || g || '@example.com', 'p' || g || '@example.com', 'member',
                 md5(random()::text) || g, 'pending', 'test', now(), now(), ${new Date(svc.clock.now().getTime() + 86_400_000)}
          from generate_series(1, 4) g`,
    );
    const res = await joinByDomain(`seat@${domain}`);
    expect(res.status).toBe(403);
    expect(res.body.detail).toMatch(/seat/i);
  });
});

describe('DELETE /members/domains/{domain_id}', () => {
  it('withdraws the claim (closing the door) and answers 404 afterwards', async () => {
    const { owner, domain, domainId } = await openOrganization();
    expect((await request(api(`/members/domains/${domainId}`), { method: 'DELETE', token: owner.token })).status).toBe(
      204,
    );
    expect((await check(`z@${domain}`)).body.eligible).toBe(false);
    expect((await request(api(`/members/domains/${domainId}`), { method: 'DELETE', token: owner.token })).status).toBe(
      404,
    );
    expect((await request(api('/members/domains'), { token: owner.token })).body).toEqual([]);
    // Released: another organization may claim and verify it now.
    const other = await signUpOwner(svc.url, 'next');
    expect((await claim(other.token, domain)).status).toBe(201);
  });
});
