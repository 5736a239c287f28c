import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentAccessToken, mintAgentToken } from '../support/agent-tokens.js';
import { registerAgent } from '../support/agents.js';
import { launchBrowser } from '../support/browser.js';
import { axeCheck, type ConsoleWorld, openConsole, screenshot, startConsole } from '../support/console.js';
import { request } from '../support/http.js';
import { addMember } from '../support/organizations.js';

// The console's agents screens (issue 29 item 3; docs/console.md "Agents") in Chromium: a person registers an
// agent and sees its credential once, delegates, engages and releases the kill switch (the agent's own token is
// refused, then works again), revokes, suspends, resumes and rotates; people without the permission see no action,
// and a refusal the API makes shows its detail.

/** The page's state as it settles: a browser round trip to the API can take seconds on a loaded machine. */
const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 15_000 });

let world: ConsoleWorld;
let browser: Browser;

beforeAll(async () => {
  [world, browser] = await Promise.all([startConsole(), launchBrowser()]);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await world?.close();
});

const api = (path: string) => `${world.svc.url}/api/v1${path}`;
const agentRecord = (id: string) => request(api(`/agents/${id}`), { token: world.org.owner.token });
/** The agent's own call, with its own token: the roster (members:read). */
const rosterAs = (token: string) => request(api('/members'), { token });

async function heading(page: Page) {
  return (await page.getByRole('heading', { level: 1 }).textContent())?.trim();
}

/**
 * Goes to a console address inside the running app (tokens live in memory: a page load would sign out), as a
 * link inside the console does.
 */
async function visit(page: Page, path: string) {
  // A string, evaluated in the page: the tests are compiled without the DOM's types.
  await page.evaluate(
    `history.pushState(null, '', ${JSON.stringify(path)}); dispatchEvent(new PopStateEvent('popstate'))`,
  );
}

/** Confirms the ConfirmButton labelled `label` with its dialog's `confirm` button. */
async function confirm(page: Page, label: string, confirmLabel: string) {
  await page.getByRole('button', { name: label, exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: confirmLabel, exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
}

describe('console: agents', () => {
  it('registers an agent with its credential shown once, delegates, and engages and releases the kill switch', async () => {
    const { context, page } = await openConsole(browser, world.svc.url, world.org.owner);
    try {
      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Agents' }).click();
      await poll(() => heading(page)).toBe('Agents');
      await page.getByText('No agent is registered yet.').waitFor();

      // Register: the answer's credential is shown once.
      await page.getByRole('button', { name: 'Register an agent' }).click();
      await page.getByLabel('Name').fill('Roster reporter');
      await page.getByLabel('Description').fill('Weekly roster summary');
      await page.getByLabel('Risk ceiling (0-100)').fill('60');
      await page.getByRole('button', { name: 'Register', exact: true }).click();
      const secret = page.locator('[data-secret]');
      await secret.waitFor();
      const credential = (await secret.textContent())!.trim();
      expect(credential).toMatch(/^agt_/);
      const listed = await request(api('/agents'), { token: world.org.owner.token });
      expect(listed.body.agents).toHaveLength(1);
      const agent = listed.body.agents[0];
      expect(agent).toMatchObject({ name: 'Roster reporter', risk_ceiling: 60, status: 'active' });
      expect(credential.startsWith(agent.credential_prefix)).toBe(true);
      await page.getByRole('table', { name: 'Agents' }).getByRole('link', { name: 'Roster reporter' }).waitFor();
      await axeCheck(page, 'agents list with a new credential');

      // Delegate members:read for 30 days from the owner's own permissions.
      await page.getByRole('link', { name: 'delegate permissions to Roster reporter' }).click();
      await poll(() => heading(page)).toBe('Roster reporter');
      // The credential is not shown again anywhere.
      expect(await page.content()).not.toContain(credential);
      await page.getByRole('checkbox', { name: /^members:read / }).check();
      await page.getByLabel('Expires after (days, 1-3650)').fill('30');
      await page.getByRole('button', { name: 'Delegate', exact: true }).click();
      await page.getByText('Delegated members:read to Roster reporter.').waitFor();
      const delegated = await agentRecord(agent.agent_id);
      expect(delegated.body.delegations).toHaveLength(1);
      expect(delegated.body.delegations[0]).toMatchObject({
        permissions: ['members:read'],
        delegator_user_id: world.org.owner.userId,
      });
      const expiresIn = Date.parse(delegated.body.delegations[0].expires_at) - world.svc.clock.now().getTime();
      expect(Math.round(expiresIn / 86_400_000)).toBe(30);
      await page
        .getByRole('table', { name: 'Live delegations' })
        .getByRole('cell', { name: 'members:read', exact: true })
        .waitFor();

      const token = await agentAccessToken(world.svc, credential);
      expect((await rosterAs(token)).status).toBe(200);

      // Engage with a reason: the agent's token (already held) is refused on its next call.
      await page.getByLabel('Reason').fill('unexpected writes to the roster');
      await page.getByRole('button', { name: 'Engage the kill switch' }).click();
      await poll(() => page.getByTestId('kill-switch-state').textContent()).toMatch(/^Engaged/);
      expect(await page.getByTestId('kill-switch-reason').textContent()).toBe('unexpected writes to the roster');
      const engaged = await agentRecord(agent.agent_id);
      expect(engaged.body.kill_switch).toMatchObject({
        engaged: true,
        reason: 'unexpected writes to the roster',
        engaged_by: { id: world.org.owner.userId },
      });
      const refused = await rosterAs(token);
      expect(refused.status, refused.text).toBe(403);
      await axeCheck(page, 'agent detail, kill switch engaged');
      await page.evaluate('scrollTo(0, 0)');
      await screenshot(page, 'agent-detail');

      // Release (the owner holds agents:kill): the same token works again.
      await confirm(page, 'Release the kill switch', 'Release');
      await poll(() => page.getByTestId('kill-switch-state').textContent()).toBe('Off');
      expect((await agentRecord(agent.agent_id)).body.kill_switch.engaged).toBe(false);
      expect((await rosterAs(token)).status).toBe(200);

      // Revoke the delegation: the agent loses it on its next call.
      await confirm(page, 'Revoke delegation of members:read', 'Revoke');
      await page.getByText('Nothing is delegated to this agent: it can do nothing.').waitFor();
      expect((await agentRecord(agent.agent_id)).body.delegations).toEqual([]);
      const lost = await rosterAs(token);
      expect(lost.status).toBe(403);
      expect(lost.body.detail).toBe('Missing permission: members:read');

      // Suspend and resume.
      await confirm(page, 'Suspend', 'Suspend');
      await poll(() => page.getByTestId('agent-status').textContent()).toBe('suspended');
      expect((await mintAgentToken(world.svc, credential)).status).toBe(401);
      await confirm(page, 'Resume', 'Resume');
      await poll(() => page.getByTestId('agent-status').textContent()).toBe('active');
      expect((await mintAgentToken(world.svc, credential)).status).toBe(200);

      // Rotate: the new credential is shown once; the old one stops at once.
      await confirm(page, 'Rotate credential', 'Rotate');
      const fresh = (await page.locator('[data-secret]').textContent())!.trim();
      expect(fresh).toMatch(/^agt_/);
      expect(fresh).not.toBe(credential);
      expect((await mintAgentToken(world.svc, credential)).status).toBe(401);
      expect((await mintAgentToken(world.svc, fresh)).status).toBe(200);
      await page.getByRole('button', { name: 'Done' }).click();
      expect(await page.locator('[data-secret]').count()).toBe(0);

      // Governance: supervised, a write budget.
      await page.getByLabel('Oversight').selectOption('supervised');
      await page.getByLabel('Write budget per hour').fill('25');
      await page.getByRole('button', { name: 'Save governance' }).click();
      await page.getByText('Governance saved.').waitFor();
      expect((await agentRecord(agent.agent_id)).body).toMatchObject({
        oversight_mode: 'supervised',
        write_budget_per_hour: 25,
      });
      // A 422 from the API shows next to the field it names.
      await page.getByLabel('Risk ceiling (0-100)').fill('101');
      await page.getByRole('button', { name: 'Save governance' }).click();
      await page
        .locator('.field-error')
        .filter({ hasText: /risk_ceiling/ })
        .waitFor();

      await page.getByRole('link', { name: 'All agents' }).click();
      await page.getByRole('table', { name: 'Agents' }).waitFor();
      await axeCheck(page, 'agents list');
      await screenshot(page, 'agents');
    } finally {
      await context.close();
    }
  }, 90_000);

  it('shows people without agents:manage no action, and a member no agents screen', async () => {
    const agent = await registerAgent(world.svc, world.org.owner.token, { name: 'Read-only view' });
    const engage = await request(api(`/agents/${agent.agent_id}/kill-switch`), {
      token: world.org.owner.token,
      json: { engaged: true, reason: 'held for review' },
    });
    expect(engage.status, engage.text).toBe(200);

    // The auditor holds agents:read only: the list and the detail, and nothing to press.
    const auditor = await openConsole(browser, world.svc.url, world.org.auditor);
    try {
      const page = auditor.page;
      await visit(page, '/console/agents');
      await page.getByRole('table', { name: 'Agents' }).getByRole('link', { name: 'Read-only view' }).click();
      await poll(() => heading(page)).toBe('Read-only view');
      expect(await page.getByTestId('kill-switch-reason').textContent()).toBe('held for review');
      await page.getByText('Releasing it needs the permission agents:kill').waitFor();
      for (const name of ['Suspend', 'Retire', 'Rotate credential', 'Release the kill switch', 'Delegate']) {
        expect(await page.getByRole('button', { name, exact: true }).count(), name).toBe(0);
      }
      expect(await page.getByRole('checkbox').count()).toBe(0);
      expect(await page.getByRole('textbox').count()).toBe(0);
      await page.getByRole('link', { name: 'All agents' }).click();
      await page.getByRole('table', { name: 'Agents' }).waitFor();
      expect(await page.getByRole('button', { name: 'Register an agent' }).count()).toBe(0);
      await axeCheck(page, 'agents list as an auditor');
      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Workload issuers' }).click();
      await page.getByText('No workload issuer is trusted.').waitFor();
      expect(await page.getByRole('button', { name: 'Trust an issuer' }).count()).toBe(0);
    } finally {
      await auditor.context.close();
    }

    // A member holds no agents:read: no navigation entry, and the address says the role does not allow it.
    const member = await openConsole(browser, world.svc.url, world.org.member);
    try {
      const page = member.page;
      expect(
        await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Agents' }).count(),
      ).toBe(0);
      await visit(page, '/console/agents');
      await poll(() => heading(page)).toBe('Not available');
    } finally {
      await member.context.close();
    }
  }, 90_000);

  it("shows the API's 403 when the person lost agents:manage after the screen was drawn", async () => {
    const operator = await addMember(world.svc, world.org, 'security_operator');
    const { context, page } = await openConsole(browser, world.svc.url, { ...operator, slug: world.org.slug });
    try {
      await visit(page, '/console/agents');
      await page.getByRole('button', { name: 'Register an agent' }).click();
      await page.getByLabel('Name').fill('Too late');
      // Meanwhile an owner makes them an auditor: the next call is refused by the API, whose detail shows.
      const roster = await request(api('/members'), { token: world.org.owner.token });
      const membership = roster.body.find((m: { user_id: string }) => m.user_id === operator.userId);
      const changed = await request(api(`/members/${membership.membership_id}`), {
        method: 'PATCH',
        token: world.org.owner.token,
        json: { role: 'auditor' },
      });
      expect(changed.status, changed.text).toBe(200);
      await page.getByRole('button', { name: 'Register', exact: true }).click();
      await page
        .getByRole('alert')
        .filter({ hasText: 'Missing permission: agents:manage' })
        .filter({ hasText: '403' })
        .waitFor();
      const listed = await request(api('/agents'), { token: world.org.owner.token });
      expect(listed.body.agents.map((a: { name: string }) => a.name)).not.toContain('Too late');
    } finally {
      await context.close();
    }
  }, 90_000);
  it('trusts a workload issuer, binds exact claims to an agent, disables it and removes the binding', async () => {
    const agent = await registerAgent(world.svc, world.org.owner.token, { name: 'Deploy bot' });
    const { context, page } = await openConsole(browser, world.svc.url, world.org.owner);
    try {
      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Workload issuers' }).click();
      await poll(() => heading(page)).toBe('Workload issuers');
      await page.getByText('No workload issuer is trusted.').waitFor();
      await page.getByRole('button', { name: 'Trust an issuer' }).click();
      await page.getByLabel('Issuer URL').fill('https://token.actions.githubusercontent.com');
      await page.getByLabel('Kind').selectOption('github-actions');
      // An explicit key set: nothing is fetched at registration.
      await page.getByLabel('Key set URL').fill('https://token.actions.githubusercontent.com/.well-known/jwks');
      await page.getByLabel('Display name').fill('GitHub Actions');
      await page.getByRole('button', { name: 'Trust issuer' }).click();
      await page.getByRole('heading', { name: 'GitHub Actions', level: 2 }).waitFor();

      await page.getByLabel('Agent', { exact: true }).selectOption(agent.agent_id);
      await page.getByLabel('Claim sub', { exact: false }).first().fill('repo:acme/app:environment:prod');
      await page.getByLabel('Claim repository_id').fill('123456');
      await page.getByRole('button', { name: 'Add binding' }).click();
      await page
        .getByRole('table', { name: 'Bindings of GitHub Actions' })
        .getByRole('cell', { name: 'Deploy bot', exact: true })
        .waitFor();
      const [issuer] = (await request(api('/agents/issuers'), { token: world.org.owner.token })).body;
      expect(issuer).toMatchObject({
        issuer: 'https://token.actions.githubusercontent.com',
        profile: 'github-actions',
        enabled: true,
      });
      expect(issuer.bindings).toEqual([
        expect.objectContaining({
          agent_id: agent.agent_id,
          claims: { repository_id: '123456', sub: 'repo:acme/app:environment:prod' },
        }),
      ]);
      await axeCheck(page, 'workload issuers');
      await page.evaluate('scrollTo(0, 0)');
      await screenshot(page, 'agent-issuers');

      await confirm(page, 'Disable GitHub Actions', 'Disable');
      await poll(() => page.getByTestId('issuer-state').textContent()).toBe('Disabled');
      expect((await request(api('/agents/issuers'), { token: world.org.owner.token })).body[0].enabled).toBe(false);
      await confirm(page, 'Remove the binding to Deploy bot', 'Remove');
      await page.getByText('No binding: no token of this issuer is exchanged yet.').waitFor();
      expect((await request(api('/agents/issuers'), { token: world.org.owner.token })).body[0].bindings).toEqual([]);

      // This deployment runs without AGENT_APPROVALS_ENABLED: the approvals screen says so.
      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Approvals' }).click();
      await page.getByText('Approvals are not enabled on this deployment.').waitFor();
    } finally {
      await context.close();
    }
  }, 90_000);
});
