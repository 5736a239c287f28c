import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.js';
import { axeCheck, type ConsoleWorld, openConsole, screenshot, startConsole } from '../support/console.js';
import { RecordType, startDnsServer, type Zone } from '../support/dns.js';
import { newAccount, request } from '../support/http.js';
import { addMember } from '../support/organizations.js';
import { extractLink, startSmtpServer, type TestSmtpServer } from '../support/smtp.js';

// The console's members, invitations and verified-domains screens (issue 29 item 3; docs/console.md
// "Organization administration") in Chromium: an admin invites a person, who accepts in a second browser from the
// mail the test SMTP server received and then appears in the roster; role change, removal, resend, revoke, a
// domain claimed, verified against a real DNS server and withdrawn. People without `members:manage` see no action,
// and a refusal the API makes after the screen was drawn shows its 403 detail.

const zone: Zone = {};
let dns: Awaited<ReturnType<typeof startDnsServer>>;
let smtp: TestSmtpServer;
let world: ConsoleWorld;
let browser: Browser;

beforeAll(async () => {
  [dns, smtp] = await Promise.all([startDnsServer(zone), startSmtpServer()]);
  [world, browser] = await Promise.all([
    startConsole({ SMTP_URL: smtp.url, DNS_SERVERS: `127.0.0.1:${dns.port}` }),
    launchBrowser(),
  ]);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await world?.close();
  await smtp?.close();
  await dns?.close();
});

const api = (path: string) => `${world.svc.url}/api/v1${path}`;
const asOwner = (path: string, init: { method?: string; json?: unknown } = {}) =>
  request(api(path), { token: world.org.owner.token, ...init });

async function heading(page: Page) {
  return (await page.getByRole('heading', { level: 1 }).textContent())?.trim();
}

/** Moves to a screen through the side navigation, as a person does (a reload would drop the in-memory tokens). */
async function go(page: Page, link: string, title = link) {
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: link, exact: true }).click();
  await expect.poll(() => heading(page), { timeout: 15_000 }).toBe(title);
}

/** Confirms the ConfirmButton whose accessible name is `label` with its dialog's `confirm` button. */
async function confirm(page: Page, label: string, confirmLabel: string) {
  await page.getByRole('button', { name: label, exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: confirmLabel, exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
}

describe('console: members and invitations', () => {
  it('invites a person who accepts in a second browser and then appears in the roster; changes their role and removes them', async () => {
    const { context, page } = await openConsole(browser, world.svc.url, world.org.owner);
    try {
      await go(page, 'Invitations');
      await page.getByText('No pending invitations.').waitFor();
      const person = newAccount('console-invitee');
      await page.getByLabel('Email address').fill(person.email);
      await page.getByLabel('Role').selectOption('member');
      await page.getByRole('button', { name: 'Send invitation' }).click();
      await page.getByText(`Invitation sent to ${person.email}.`).waitFor();
      await page
        .getByRole('table', { name: 'Pending invitations' })
        .getByRole('cell', { name: person.email, exact: true })
        .waitFor();
      const pending = await asOwner('/members/invites');
      expect(pending.body).toEqual([expect.objectContaining({ email: person.email, role: 'member', reissued: false })]);
      await axeCheck(page, 'invitations');

      // The invitee opens the mailed link in a browser of their own and chooses a password.
      const mail = await smtp.waitFor((m) => m.to.includes(person.email.toLowerCase()) && /invited/i.test(m.subject));
      const link = extractLink(mail.text);
      expect(link.startsWith(`${world.svc.url}/invite?token=`)).toBe(true);
      const second = await browser.newContext();
      try {
        const invitee = await second.newPage();
        expect((await invitee.goto(link))?.status()).toBe(200);
        await invitee.fill('#password', person.password);
        await invitee.fill('#confirm_password', person.password);
        await Promise.all([invitee.waitForLoadState('domcontentloaded'), invitee.click('button[type=submit]')]);
        await expect.poll(() => invitee.textContent('h1'), { timeout: 15_000 }).toMatch(/^Welcome to /);
      } finally {
        await second.close();
      }

      // The admin's console: the invitation is gone and the new member is in the roster.
      await go(page, 'Members');
      const row = page.getByRole('row').filter({ hasText: person.email });
      await row.waitFor();
      expect(await row.getByRole('cell').nth(2).textContent()).toContain('active');
      const roster = await asOwner('/members');
      const joined = roster.body.find((m: { email: string }) => m.email === person.email);
      expect(joined).toMatchObject({ role: 'member', status: 'active' });
      expect((await asOwner('/members/invites')).body).toEqual([]);
      await axeCheck(page, 'members');
      await page.evaluate('scrollTo(0, 0)');
      await screenshot(page, 'members');

      // Change the role: the API holds the new role.
      await row.getByRole('combobox', { name: `Role of ${person.email}` }).selectOption('auditor');
      await row.getByRole('button', { name: 'Change role' }).click();
      await page.getByText(`${person.email} is now Auditor`).waitFor();
      expect((await asOwner('/members')).body.find((m: { email: string }) => m.email === person.email).role).toBe(
        'auditor',
      );

      // Remove, after confirming: the membership is no longer listed by the API.
      await confirm(page, `Remove ${person.email}`, 'Remove');
      await page.getByText(`${person.email} was removed.`).waitFor();
      expect((await asOwner('/members')).body.some((m: { email: string }) => m.email === person.email)).toBe(false);
      await expect
        .poll(() => page.getByRole('row').filter({ hasText: person.email }).count(), { timeout: 15_000 })
        .toBe(0);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('resends an invitation with a new link and revokes it', async () => {
    const { context, page } = await openConsole(browser, world.svc.url, world.org.admin);
    try {
      await go(page, 'Invitations');
      const person = newAccount('console-resend');
      await page.getByLabel('Email address').fill(person.email);
      await page.getByLabel('Role').selectOption('auditor');
      await page.getByRole('button', { name: 'Send invitation' }).click();
      await page.getByText(`Invitation sent to ${person.email}.`).waitFor();
      const first = extractLink(
        (await smtp.waitFor((m) => m.to.includes(person.email.toLowerCase()) && /invited/i.test(m.subject))).text,
      );
      // The admin's role choices leave out roles holding what an admin lacks (compliance_officer).
      const offered = await page.getByLabel('Role').locator('option').allTextContents();
      expect(offered).toContain('Auditor');
      expect(offered).not.toContain('Compliance officer');
      expect(offered).not.toContain('Owner');

      await page.getByRole('button', { name: `Resend the invitation of ${person.email}` }).click();
      await page.getByText(`A new link was sent to ${person.email}`).waitFor();
      const second = extractLink(
        (await smtp.waitFor((m) => m.to.includes(person.email.toLowerCase()) && /invited/i.test(m.subject))).text,
      );
      expect(second).not.toBe(first);
      expect((await asOwner('/members/invites')).body).toEqual([
        expect.objectContaining({ email: person.email, role: 'auditor', reissued: true }),
      ]);
      await page.getByRole('row').filter({ hasText: person.email }).getByText('Resent').waitFor();
      await page.evaluate('scrollTo(0, 0)');
      await screenshot(page, 'invitations');

      await confirm(page, `Revoke the invitation of ${person.email}`, 'Revoke');
      await page.getByText(`The invitation of ${person.email} was revoked.`).waitFor();
      expect((await asOwner('/members/invites')).body).toEqual([]);
      // The revoked link is dead at once.
      const preview = await request(api('/invites/preview'), {
        json: { token: new URL(second).searchParams.get('token') },
      });
      expect(preview.status).toBe(404);
    } finally {
      await context.close();
    }
  }, 120_000);
});

describe('console: verified domains', () => {
  it('claims a domain showing its TXT record, verifies it against DNS and withdraws it', async () => {
    const { context, page } = await openConsole(browser, world.svc.url, world.org.owner);
    try {
      await go(page, 'Verified domains');
      await page.getByText('No domain claimed yet.').waitFor();
      // A public email provider is refused next to the field (422 naming `domain`).
      await page.getByRole('textbox', { name: /^Domain/ }).fill('gmail.com');
      await page.getByRole('button', { name: 'Claim domain' }).click();
      await page.locator('.field-error').waitFor();
      expect(await page.getByRole('textbox', { name: /^Domain/ }).getAttribute('aria-invalid')).toBe('true');

      const domain = `console-${Math.random().toString(36).slice(2, 8)}.example`;
      await page.getByRole('textbox', { name: /^Domain/ }).fill(domain);
      await page.getByRole('button', { name: 'Claim domain' }).click();
      const record = page.getByTestId(`txt-${domain}`).first();
      await record.waitFor();
      const claims = await asOwner('/members/domains');
      expect(claims.body).toEqual([expect.objectContaining({ domain, verified: false })]);
      const txt = claims.body[0].txt_record as string;
      expect(txt).toMatch(/^svc-verify=/);
      expect(await record.textContent()).toBe(`${domain}. TXT "${txt}"`);

      // Before the record is published, Verify says so and nothing changes.
      await page.getByRole('button', { name: `Verify ${domain}` }).click();
      await page.getByText(`${domain} is not verified`).waitFor();
      expect((await asOwner('/members/domains')).body[0].verified).toBe(false);

      zone[domain] = [{ type: RecordType.TXT, data: txt }];
      await page.getByRole('button', { name: `Verify ${domain}` }).click();
      await page.getByText(`${domain} is verified.`).waitFor();
      expect((await asOwner('/members/domains')).body[0]).toMatchObject({ domain, verified: true });
      await page.getByRole('row').filter({ hasText: domain }).getByText('Verified').waitFor();
      await axeCheck(page, 'domains');
      await page.evaluate('scrollTo(0, 0)');
      await screenshot(page, 'domains');

      await confirm(page, `Remove ${domain}`, 'Remove');
      await page.getByText(`The claim on ${domain} was withdrawn.`).waitFor();
      expect((await asOwner('/members/domains')).body).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);
});

describe('console: who may change the organization', () => {
  it('an auditor reads the roster, invitations and domains without any action; a member does not see them', async () => {
    await asOwner('/members/invites', { json: { email: newAccount('console-seen').email, role: 'member' } });
    const { context, page } = await openConsole(browser, world.svc.url, world.org.auditor);
    try {
      await go(page, 'Members');
      await page.getByRole('row').filter({ hasText: world.org.owner.email }).waitFor();
      expect(await page.getByRole('button', { name: /^Remove / }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Change role' }).count()).toBe(0);
      expect(await page.getByRole('columnheader', { name: 'Actions' }).count()).toBe(0);
      await axeCheck(page, 'members (auditor)');

      await go(page, 'Invitations');
      await page.getByRole('table', { name: 'Pending invitations' }).waitFor();
      expect(await page.getByRole('button', { name: 'Send invitation' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: /^(Resend|Revoke) / }).count()).toBe(0);

      await go(page, 'Verified domains');
      await page.getByText('No domain claimed yet.').waitFor();
      expect(await page.getByRole('button', { name: 'Claim domain' }).count()).toBe(0);
    } finally {
      await context.close();
    }

    const member = await openConsole(browser, world.svc.url, world.org.member);
    try {
      const nav = member.page.getByRole('navigation', { name: 'Console' });
      await nav.getByRole('link', { name: 'My account' }).waitFor();
      for (const name of ['Members', 'Invitations', 'Verified domains'])
        expect(await nav.getByRole('link', { name, exact: true }).count()).toBe(0);
    } finally {
      await member.context.close();
    }
  }, 120_000);

  it('a refusal the API makes after the screen was drawn shows its 403 detail', async () => {
    const admin = await addMember(world.svc, world.org, 'admin');
    const { context, page } = await openConsole(browser, world.svc.url, { ...admin, slug: world.org.slug });
    try {
      await go(page, 'Invitations');
      // Meanwhile the owner makes this admin an auditor: the form is still on screen, the API now refuses.
      const roster = await asOwner('/members');
      const membership = roster.body.find((m: { user_id: string }) => m.user_id === admin.userId);
      expect(
        (await asOwner(`/members/${membership.membership_id}`, { method: 'PATCH', json: { role: 'auditor' } })).status,
      ).toBe(200);
      const email = newAccount('console-late').email;
      await page.getByLabel('Email address').fill(email);
      await page.getByRole('button', { name: 'Send invitation' }).click();
      const banner = page.getByRole('alert').filter({ hasText: 'refused by the API: 403' });
      await banner.waitFor();
      const direct = await request(api('/members/invites'), { token: admin.token, json: { email } });
      expect(direct.status).toBe(403);
      expect(await banner.textContent()).toContain(direct.body.detail);
      expect((await asOwner('/members/invites')).body.some((i: { email: string }) => i.email === email)).toBe(false);
    } finally {
      await context.close();
    }
  }, 120_000);
});
