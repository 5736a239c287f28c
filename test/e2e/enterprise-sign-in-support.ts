import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { hashPassword } from '../../src/kernel/crypto/index.js';
import { rows } from '../../src/kernel/db/index.js';
import { newId } from '../../src/kernel/ids.js';
import { request, uniqueEmail } from '../support/http.js';
import { addMember, signUpOwner } from '../support/organizations.js';
import type { TestService } from '../support/service.js';
import { extractToken, type TestSmtpServer } from '../support/smtp.js';
import { ssoCodeOf } from '../support/sso-return.js';

/** Shared steps of the enterprise sign-in e2e files, OIDC and SAML alike (not a test file itself). */

let logins = 0;
/** A login at the identity provider that no person of it has yet. */
export function newLogin() {
  logins += 1;
  return `person-${logins}-${Math.random().toString(36).slice(2, 8)}`;
}

let domains = 0;

/** The steps over the file's service and mail server, read at each call (the file starts them in `beforeAll`). */
export function enterpriseSignInSteps(svc: () => TestService, smtp: () => TestSmtpServer) {
  const api = (path: string) => `${svc().url}/api/v1${path}`;
  const db = () => svc().deps.database.db;

  /**
   * Direct set-up: the organization proved a domain of its own (the DNS proof itself is tested in domains-flow); its
   * provider vouches only for addresses there (docs/decisions.md "SSO trust model").
   */
  async function verifyDomain(tenantId: string, domain: string) {
    await db().execute(
      sql`insert into member_domains (tenant_id, id, domain, verification_value, verified, verified_at, created_at)
          values (${tenantId}, ${newId()}, ${domain}, 'x', true, ${svc().clock.now()}, ${svc().clock.now()})`,
    );
  }

  /** A new organization on the Enterprise plan (set directly) with a verified domain of its own. */
  async function enterpriseOrganization(label: string) {
    const owner = await signUpOwner(svc().url, label);
    domains += 1;
    const domain = `corp${domains}-${Math.random().toString(36).slice(2, 8)}.example.com`;
    await verifyDomain(owner.tenantId, domain);
    await db().execute(sql`update tenants set plan = 'enterprise' where id = ${owner.tenantId}`);
    return { ...owner, domain };
  }

  /** An existing account (made with a password, outside SSO) on the organization's domain, holding `role` there. */
  async function memberAt(org: { tenantId: string; slug: string; domain: string }, role: string) {
    const email = uniqueEmail('member', org.domain);
    const password = `a long password ${Math.random().toString(36).slice(2)}`;
    const hash = await hashPassword(password);
    const userId = await svc().deps.transactions.system((tx) => svc().deps.accounts.createAccount(tx, email, hash));
    return addMember(svc(), org, role, { userId, email, password });
  }

  /** The account's holder opens the link mailed when the provider first asserted their address. */
  async function confirmLinkMail(email: string) {
    const mail = await smtp().waitFor(
      (received) => received.to.includes(email.toLowerCase()) && /single sign-on/i.test(received.subject),
    );
    const confirmed = await request(api('/auth/sso/link/confirm'), { json: { token: extractToken(mail.text) } });
    expect(confirmed.status, confirmed.text).toBe(204);
  }

  const complete = (code: string, json: Record<string, unknown> = {}) =>
    request(api('/auth/sso/complete'), { json: { code, ...json } });

  /** Completes the sign-in a round trip returned with: the tokens, and `/me` with them. */
  async function completeSignIn(location: URL) {
    const signedIn = await complete(ssoCodeOf(location));
    expect(signedIn.status, signedIn.text).toBe(200);
    const me = await request(api('/me'), { token: signedIn.body.access_token });
    expect(me.status, me.text).toBe(200);
    return { tokens: signedIn.body, me: me.body };
  }

  /** The organization's refused SSO sign-ins, oldest first: why, and through which protocol. */
  const refusalsOf = (tenantId: string) =>
    rows<{ reason: string; protocol: string }>(
      db(),
      sql`select data->>'reason' as reason, data->>'protocol' as protocol from events where tenant_id = ${tenantId}
          and action = 'sso.sign_in_refused' order by occurred_at`,
    );

  /**
   * Starts at `startPath` for every slug and expects one answer to all of them: 404 with the same body and no
   * cookie, so an organization without the connection looks like none at all. Answers that body.
   */
  async function expectOneDormantAnswer(startPath: string, slugs: string[]) {
    const answers = await Promise.all(slugs.map((slug) => request(api(startPath), { json: { tenant_slug: slug } })));
    for (const res of answers) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual(answers[0]!.body);
      expect(res.headers.get('set-cookie')).toBeNull();
    }
    return answers[0]!.body;
  }

  return {
    verifyDomain,
    enterpriseOrganization,
    memberAt,
    confirmLinkMail,
    complete,
    completeSignIn,
    refusalsOf,
    expectOneDormantAnswer,
  };
}
