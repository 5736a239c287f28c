import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { hashPassword } from '../../src/kernel/crypto/index.js';
import { newId } from '../../src/kernel/ids.js';
import { newAccount, request } from './http.js';
import type { TestService } from './service.js';
import { extractToken, type TestSmtpServer } from './smtp.js';

/** A new account with its own organization, signed up over HTTP; it owns the organization. */
export async function signUpOwner(baseUrl: string, label = 'owner') {
  const account = newAccount(label);
  const res = await request(`${baseUrl}/api/v1/auth/signup`, { json: account });
  expect(res.status).toBe(201);
  const me = await request(`${baseUrl}/api/v1/me`, { token: res.body.access_token });
  return {
    account,
    email: account.email,
    password: account.password,
    token: res.body.access_token as string,
    refresh: res.body.refresh_token as string,
    userId: me.body.user_id as string,
    tenantId: me.body.tenant_id as string,
    slug: account.organization_name.toLowerCase().replace(/ /g, '-'),
  };
}

/**
 * A person holding `role` in `org`, signed in: a new account belongs to this organization only, an
 * `existing` one keeps its others.
 */
export async function addMember(
  svc: TestService,
  org: { tenantId: string; slug: string },
  role: string,
  existing?: { userId: string; email: string; password: string },
) {
  // Direct test set-up: the membership row is inserted with SQL, skipping invitations on purpose.
  let person = existing;
  if (!person) {
    const { email, password } = newAccount('member');
    const hash = await hashPassword(password);
    const userId = await svc.deps.transactions.system((tx) => svc.deps.accounts.createAccount(tx, email, hash));
    person = { userId, email, password };
  }
  await svc.deps.database.db.execute(
    sql`insert into memberships (id, tenant_id, user_id, role, population, status, created_at)
        values (${newId()}, ${org.tenantId}, ${person.userId}, ${role}, 'workforce', 'active', ${svc.clock.now()})`,
  );
  const login = await request(`${svc.url}/api/v1/auth/login`, {
    json: { email: person.email, password: person.password, tenant_slug: org.slug },
  });
  expect(login.status).toBe(200);
  return {
    userId: person.userId,
    email: person.email,
    password: person.password,
    token: login.body.access_token as string,
  };
}

/**
 * The invitation routes over HTTP, and the invitation mail. `svc` and `smtp` are read at each call, as a
 * test file starts them in `beforeAll`.
 */
export function invitationSteps(svc: () => { url: string }, smtp: () => TestSmtpServer) {
  const api = (path: string) => `${svc().url}/api/v1${path}`;
  const invite = (token: string, json: Record<string, unknown>) => request(api('/members/invites'), { token, json });
  const preview = (token: string) => request(api('/invites/preview'), { json: { token } });
  const accept = (token: string, password: string) => request(api('/invites/accept'), { json: { token, password } });
  const acceptExisting = (bearer: string, token: string) =>
    request(api('/invites/accept-existing'), { token: bearer, json: { token } });

  /** The invitation mail to an address (sign-up sends its own verification mail to the same address). */
  const invitationMail = (email: string) =>
    smtp().waitFor((mail) => mail.to.includes(email.toLowerCase()) && /invited/i.test(mail.subject));

  /** A fresh access token after moving the clock past the old one's 15 minutes. */
  async function relogin(who: { account: { email: string; password: string }; slug: string }) {
    const res = await request(api('/auth/login'), {
      json: { email: who.account.email, password: who.account.password, tenant_slug: who.slug },
    });
    expect(res.status).toBe(200);
    return res.body.access_token as string;
  }

  async function invitedToken(ownerToken: string, email: string, role?: string) {
    const res = await invite(ownerToken, { email, ...(role ? { role } : {}) });
    expect(res.status).toBe(201);
    return { invite: res.body, token: extractToken((await invitationMail(email)).text) };
  }

  return { invite, preview, accept, acceptExisting, invitationMail, relogin, invitedToken };
}

/** Marks the account's address verified, as opening the verification link does. */
async function markAddressVerified(svc: TestService, userId: string) {
  await svc.deps.database.db.execute(sql`update users set email_verified = true where id = ${userId}`);
}

/** `signUpOwner` whose address is verified (what linking a provider account by address requires). */
export async function signUpVerifiedOwner(svc: TestService, label?: string) {
  const owner = await signUpOwner(svc.url, label);
  await markAddressVerified(svc, owner.userId);
  return owner;
}

/** `addMember` whose address is verified (what linking a provider account by address requires). */
export async function addVerifiedMember(...args: Parameters<typeof addMember>) {
  const member = await addMember(...args);
  await markAddressVerified(args[0], member.userId);
  return member;
}

/**
 * Direct set-up: the organization proved a new domain of its own (the DNS proof itself is tested in domains-flow);
 * its identity provider vouches only for addresses there (docs/decisions.md "SSO trust model"). Answers the domain.
 */
export async function verifyDomainDirectly(svc: TestService, tenantId: string): Promise<string> {
  const domain = `corp-${newId().slice(-12)}.example.com`;
  await svc.deps.database.db.execute(
    sql`insert into member_domains (tenant_id, id, domain, verification_value, verified, verified_at, created_at)
        values (${tenantId}, ${newId()}, ${domain}, 'x', true, ${svc.clock.now()}, ${svc.clock.now()})`,
  );
  return domain;
}

/**
 * `addMember` with an account on `domain` that the organization provisioned (as SCIM does: it owns the account),
 * so its identity provider signs the person in without the holder's mailed confirmation.
 */
export async function addProvisionedMember(
  svc: TestService,
  org: { tenantId: string; slug: string },
  role: string,
  domain: string,
) {
  const { password } = newAccount('member');
  const email = `member-${newId().slice(-12)}@${domain}`;
  const hash = await hashPassword(password);
  const userId = await svc.deps.transactions.system((tx) => svc.deps.accounts.createAccount(tx, email, hash));
  await svc.deps.database.db.execute(sql`update users set owner_tenant_id = ${org.tenantId} where id = ${userId}`);
  return addMember(svc, org, role, { userId, email, password });
}
