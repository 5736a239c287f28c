import { createHash } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/kernel/ids.js';
import { mintAgentToken } from '../support/agent-tokens.js';
import { delegate, registerAgent } from '../support/agents.js';
import { launchBrowser } from '../support/browser.js';
import { axeCheck, type ConsoleWorld, openConsole, screenshot, startConsole } from '../support/console.js';
import { request } from '../support/http.js';
import { addMember } from '../support/organizations.js';

// The console's approvals queue (issue 29 item 3; docs/console.md "Approvals") in Chromium, with
// AGENT_APPROVALS_ENABLED on: a supervised agent's call is parked, a person reads the bound action in the console
// and approves it, and the agent's identical retry runs (once); a denial with its reason refuses the retry; content
// asks share the queue; people who may not decide see no decision, and the API's refusal shows its detail.

/** The page's state as it settles: a browser round trip to the API can take seconds on a loaded machine. */
const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 15_000 });

let world: ConsoleWorld;
let browser: Browser;

beforeAll(async () => {
  [world, browser] = await Promise.all([startConsole({ AGENT_APPROVALS_ENABLED: 'true' }), launchBrowser()]);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await world?.close();
});

const api = (path: string) => `${world.svc.url}/api/v1${path}`;
const ownerToken = () => world.org.owner.token;
const askOf = (id: string) => request(api(`/approvals/${id}`), { token: ownerToken() });

/** A supervised agent holding `permissions` (delegated by the owner) and a task token for `task`. */
async function supervisedAgent(name: string, permissions: string[], task: string) {
  const agent = await registerAgent(world.svc, ownerToken(), { name, oversight_mode: 'supervised' });
  const granted = await delegate(world.svc, ownerToken(), agent.agent_id, permissions);
  expect(granted.status, granted.text).toBe(201);
  const minted = await mintAgentToken(world.svc, agent.credential, { task: { task, permissions, budget: 50 } });
  expect(minted.status, minted.text).toBe(200);
  return { agentId: agent.agent_id as string, token: minted.body.access_token as string };
}

const claimDomain = (token: string, domain: string) => request(api('/members/domains'), { token, json: { domain } });

/** Sends the agent's call and answers the id of the ask it parked. */
async function park(token: string, domain: string) {
  const res = await claimDomain(token, domain);
  expect(res.status, res.text).toBe(403);
  expect(res.body.approval_request_id).toMatch(/^[0-9a-f-]{36}$/);
  return res.body.approval_request_id as string;
}

async function heading(page: Page) {
  return (await page.getByRole('heading', { level: 1 }).textContent())?.trim();
}

/** A console address reached inside the running app (a page load would drop the in-memory tokens). */
async function visit(page: Page, path: string) {
  // A string, evaluated in the page: the tests are compiled without the DOM's types.
  await page.evaluate(
    `history.pushState(null, '', ${JSON.stringify(path)}); dispatchEvent(new PopStateEvent('popstate'))`,
  );
}

const domainName = (label: string) => `${label}-${newId().slice(-8)}.example.com`;

describe('console: approvals', () => {
  it("approves a parked agent action and the agent's identical retry runs; a denial with a reason refuses it", async () => {
    const agent = await supervisedAgent('Domain keeper', ['members:manage'], 'claim the subsidiary domains');
    const wanted = domainName('subsidiary');
    const unwanted = domainName('unknown');
    const approveId = await park(agent.token, wanted);
    const denyId = await park(agent.token, unwanted);
    // A content ask shares the queue.
    const writer = await registerAgent(world.svc, ownerToken(), { name: 'Release writer' });
    expect((await delegate(world.svc, ownerToken(), writer.agent_id, ['content:draft:write'])).status).toBe(201);
    const writerToken = (await mintAgentToken(world.svc, writer.credential)).body.access_token as string;
    const hash = createHash('sha256').update('release notes 2.4').digest('hex');
    const contentAsk = await request(api('/approvals/content/request'), {
      token: writerToken,
      json: { content_hash: hash, title: 'Release notes 2.4', summary: 'What changed for customers' },
    });
    expect(contentAsk.status, contentAsk.text).toBe(201);

    const { context, page } = await openConsole(browser, world.svc.url, world.org.owner);
    try {
      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Approvals' }).click();
      await poll(() => heading(page)).toBe('Approvals');
      await poll(() => page.getByTestId('pending-count').textContent()).toMatch(/^3 pending asks/);
      await page.getByRole('figure').filter({ hasText: 'Pending asks by age' }).waitFor();
      const table = page.getByRole('table', { name: 'Approval asks' });
      await poll(() => table.getByRole('link', { name: 'POST /members/domains' }).count()).toBe(2);
      await table.getByRole('link', { name: 'Content: Release notes 2.4' }).waitFor();
      await axeCheck(page, 'approvals queue');
      await screenshot(page, 'approvals');

      // The kind filter lives in the URL.
      await page.getByLabel('Kind').selectOption('content');
      await poll(() => page.url()).toContain('type=content');
      await poll(() => table.getByRole('link').count()).toBe(1);
      await page.getByLabel('Kind').selectOption('');

      // The bound action in full, then approve with a reason.
      await visit(page, `/console/approvals/${approveId}`);
      await poll(() => heading(page)).toBe('Approval ask');
      const ask = (await askOf(approveId)).body;
      expect(await page.getByTestId('ask-call').textContent()).toBe('POST /api/v1/members/domains');
      expect(JSON.parse((await page.getByTestId('ask-body').textContent())!)).toEqual({ domain: wanted });
      expect(await page.getByTestId('ask-fingerprint').textContent()).toBe(ask.fingerprint);
      await page.getByText('Task: claim the subsidiary domains').waitFor();
      expect(await page.getByTestId('ask-status').textContent()).toBe('pending');
      await page.getByLabel('Reason').fill('expected: the subsidiary joins this quarter');
      await axeCheck(page, 'approval ask');
      await page.evaluate('scrollTo(0, 0)');
      await screenshot(page, 'approval-detail');
      await page.getByRole('button', { name: 'Approve' }).click();
      await poll(() => page.getByTestId('ask-status').textContent()).toBe('approved');
      await page.getByText('The ask is approved.').waitFor();
      expect((await askOf(approveId)).body).toMatchObject({
        status: 'approved',
        decided_by: world.org.owner.userId,
        reason: 'expected: the subsidiary joins this quarter',
      });
      expect(await page.getByRole('button', { name: 'Approve' }).count()).toBe(0);

      // The agent's identical retry runs, once.
      const retried = await claimDomain(agent.token, wanted);
      expect(retried.status, retried.text).toBe(201);
      expect(retried.body.domain).toBe(wanted);
      expect((await askOf(approveId)).body.status).toBe('consumed');

      // Deny the other with a reason: the agent's retry is refused, naming the denial.
      await visit(page, `/console/approvals/${denyId}`);
      await poll(() => page.getByTestId('ask-status').textContent()).toBe('pending');
      await page.getByLabel('Reason').fill('we do not own that domain');
      await page.getByRole('button', { name: 'Deny' }).click();
      await poll(() => page.getByTestId('ask-status').textContent()).toBe('denied');
      await page.getByRole('table', { name: 'Decisions on this ask' }).getByText('we do not own that domain').waitFor();
      const refused = await claimDomain(agent.token, unwanted);
      expect(refused.status).toBe(403);
      expect(refused.body.detail).toBe('A person denied this action');

      // History: the spent approval and the denial, under their own filters.
      await visit(page, '/console/approvals?status=all');
      await poll(() => table.getByRole('row').count()).toBe(4);
      await page.getByLabel('Status').selectOption('consumed');
      await poll(() => table.getByRole('link').count()).toBe(1);
      await table.getByRole('link', { name: 'POST /members/domains' }).click();
      await poll(() => page.getByTestId('ask-status').textContent()).toBe('consumed');
      await page.getByText('Used', { exact: true }).waitFor();

      // The agent's page links to its asks, filtered in the address.
      await page.getByRole('link', { name: 'Domain keeper' }).click();
      await poll(() => heading(page)).toBe('Domain keeper');
      await page.getByRole('link', { name: 'Its approval asks' }).click();
      await poll(() => page.url()).toContain(`agent=${agent.agentId}`);
      await poll(() => table.getByRole('link').count()).toBe(2);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('shows no decision to people who may not decide, and the API refusal when the ask was settled meanwhile', async () => {
    const agent = await supervisedAgent('Second keeper', ['members:manage'], 'claim a domain');
    const id = await park(agent.token, domainName('pending'));

    // The auditor reads the queue (agents:approvals:read) but holds no agents:approvals:decide.
    const auditor = await openConsole(browser, world.svc.url, world.org.auditor);
    try {
      await auditor.page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Approvals' }).click();
      await auditor.page.getByRole('table', { name: 'Approval asks' }).getByRole('link').first().waitFor();
      await visit(auditor.page, `/console/approvals/${id}`);
      await expect
        .poll(() => auditor.page.getByTestId('cannot-decide').textContent())
        .toMatch(/agents:approvals:decide/);
      expect(await auditor.page.getByRole('button', { name: 'Approve' }).count()).toBe(0);
      expect(await auditor.page.getByRole('button', { name: 'Deny' }).count()).toBe(0);
      await axeCheck(auditor.page, 'approval ask as an auditor');
    } finally {
      await auditor.context.close();
    }

    // A security operator decides, but not an ask needing members:manage, which it does not hold.
    const operator = await addMember(world.svc, world.org, 'security_operator');
    const op = await openConsole(browser, world.svc.url, { ...operator, slug: world.org.slug });
    try {
      await op.page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Approvals' }).click();
      await visit(op.page, `/console/approvals/${id}`);
      await poll(() => op.page.getByTestId('cannot-decide').textContent()).toMatch(/members:manage/);
      expect(await op.page.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    } finally {
      await op.context.close();
    }

    // A member: no approvals screen at all.
    const member = await openConsole(browser, world.svc.url, world.org.member);
    try {
      expect(
        await member.page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Approvals' }).count(),
      ).toBe(0);
      await visit(member.page, '/console/approvals');
      await poll(() => heading(member.page)).toBe('Not available');
    } finally {
      await member.context.close();
    }

    // The admin opens the ask; the owner denies it meanwhile; the admin's approval is refused and says why.
    const admin = await openConsole(browser, world.svc.url, world.org.admin);
    try {
      await visit(admin.page, `/console/approvals/${id}`);
      await poll(() => admin.page.getByTestId('ask-status').textContent()).toBe('pending');
      const denied = await request(api(`/approvals/${id}/decide`), {
        token: ownerToken(),
        json: { approve: false, reason: 'not now' },
      });
      expect(denied.status, denied.text).toBe(200);
      await admin.page.getByRole('button', { name: 'Approve' }).click();
      await admin.page.getByRole('alert').filter({ hasText: 'This approval request is already denied' }).waitFor();
      expect((await askOf(id)).body.status).toBe('denied');
    } finally {
      await admin.context.close();
    }
  }, 120_000);
});
