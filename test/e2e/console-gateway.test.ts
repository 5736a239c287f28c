import { createHash, randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentAccessToken } from '../support/agent-tokens.js';
import { delegate, registerAgent } from '../support/agents.js';
import { launchBrowser } from '../support/browser.js';
import { axeCheck, type ConsoleWorld, openConsole, startConsole, screenshot as take } from '../support/console.js';
import { request } from '../support/http.js';

/**
 * The console's MCP gateway screen (issue 29, Part B 4.4) and agent content screen (Part B 4.3), driven in Chromium by people signed in through /login,
 * every outcome checked against the public API. docs/console.md "MCP gateway".
 */
let world: ConsoleWorld;
let browser: Browser;

beforeAll(async () => {
  [world, browser] = await Promise.all([
    startConsole({ MCP_GATEWAY_ENABLED: 'true', AGENT_APPROVALS_ENABLED: 'true' }),
    launchBrowser(),
  ]);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await world?.close();
});

const api = (path: string) => `${world.svc.url}/api/v1${path}`;
const heading = (page: Page) => page.getByRole('heading', { level: 1 });
const servers = async () =>
  (await request(api('/mcp/servers'), { token: world.org.owner.token })).body.servers as Array<{
    id: string;
    name: string;
    upstream_url: string;
    enabled: boolean;
    max_calls_per_minute: number;
    tools: { name: string; allowed: boolean; risk: number }[];
  }>;

async function screenshot(page: Page, name: string) {
  await page.evaluate('window.scrollTo(0, 0)');
  await take(page, name);
}

/** Client-side navigation (a reload would drop the tokens the console keeps in memory only). */
async function go(page: Page, path: string, title: string) {
  await page.evaluate(
    `history.pushState(null, '', ${JSON.stringify(`/console${path}`)}); dispatchEvent(new PopStateEvent('popstate'));`,
  );
  await expect.poll(() => heading(page).textContent(), { timeout: 15_000 }).toBe(title);
}

describe('MCP gateway screen', () => {
  it('registers a server (an http URL refused at its field), edits it, sets and trims its allow-list, deletes it', async () => {
    const { context, page } = await openConsole(browser, world.svc.url, world.org.admin);
    try {
      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'MCP gateway' }).click();
      await expect.poll(() => heading(page).textContent(), { timeout: 15_000 }).toBe('MCP gateway');
      await page.getByText('No MCP servers registered yet.').waitFor();

      await page.getByRole('button', { name: 'Register server' }).click();
      const form = page.getByRole('form', { name: 'Register an MCP server' });
      await form.getByLabel('Name').fill('tickets');
      await form.getByLabel('Upstream URL').fill('http://mcp.tickets.example.net/mcp');
      await form.getByRole('button', { name: 'Register server' }).click();
      const urlError = form.locator('.field-invalid .field-error');
      await expect.poll(() => urlError.textContent(), { timeout: 15_000 }).toBe('upstream_url: must use https');
      expect(await form.getByLabel('Upstream URL').getAttribute('aria-invalid')).toBe('true');
      expect(await servers()).toEqual([]);

      await form.getByLabel('Upstream URL').fill('https://mcp.tickets.example.net/mcp');
      await form.getByLabel('Description').fill('Ticket desk');
      await form.getByLabel('Calls per minute (cap)').fill('30');
      await form.getByRole('button', { name: 'Register server' }).click();
      await expect.poll(() => heading(page).textContent(), { timeout: 15_000 }).toBe('MCP server');
      const [server] = await servers();
      expect(server).toMatchObject({
        name: 'tickets',
        upstream_url: 'https://mcp.tickets.example.net/mcp',
        enabled: true,
        max_calls_per_minute: 30,
        tools: [],
      });

      // The allow-list: two tools with their risk, then one removed.
      const tools = page.getByRole('form', { name: 'Add or change a tool' });
      await tools.getByLabel('Tool name').fill('search_tickets');
      await tools.getByLabel('Risk (0-100)').fill('10');
      await tools.getByRole('button', { name: 'Save tool' }).click();
      const table = page.getByRole('table', { name: 'Tools' });
      await table.getByRole('cell', { name: 'search_tickets', exact: true }).waitFor();
      await tools.getByLabel('Tool name').fill('close_ticket');
      await tools.getByLabel('Risk (0-100)').fill('60');
      await tools.getByRole('button', { name: 'Save tool' }).click();
      await table.getByRole('cell', { name: 'close_ticket', exact: true }).waitFor();
      await expect
        .poll(async () => [...((await servers())[0]?.tools ?? [])].sort((a, b) => a.name.localeCompare(b.name)), {
          timeout: 15_000,
        })
        .toEqual([
          { name: 'close_ticket', allowed: true, risk: 60 },
          { name: 'search_tickets', allowed: true, risk: 10 },
        ]);
      await axeCheck(page, 'mcp server');
      await screenshot(page, 'mcp-gateway-server');

      await page.getByRole('button', { name: 'Remove tool close_ticket' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
      await expect
        .poll(() => table.getByRole('cell', { name: 'close_ticket', exact: true }).count(), { timeout: 15_000 })
        .toBe(0);
      expect((await servers())[0]?.tools).toEqual([{ name: 'search_tickets', allowed: true, risk: 10 }]);

      // Disabling through the settings form reaches the API.
      const settings = page.getByRole('form', { name: 'Server settings' });
      await settings.getByLabel('State').selectOption('false');
      await settings.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Server saved.').waitFor();
      expect((await servers())[0]).toMatchObject({ enabled: false, max_calls_per_minute: 30 });

      await go(page, '/mcp-gateway', 'MCP gateway');
      await page.getByRole('table', { name: 'MCP servers' }).getByRole('link', { name: 'tickets' }).waitFor();
      await axeCheck(page, 'mcp gateway');
      await screenshot(page, 'mcp-gateway');

      await page.getByRole('link', { name: 'tickets' }).click();
      await page.getByRole('button', { name: 'Delete server' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Delete server' }).click();
      await expect.poll(() => heading(page).textContent(), { timeout: 15_000 }).toBe('MCP gateway');
      await page.getByText('No MCP servers registered yet.').waitFor();
      expect(await servers()).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('shows an auditor the servers but no action, which the API refuses too', async () => {
    const created = await request(api('/mcp/servers'), {
      token: world.org.owner.token,
      json: { name: 'wiki', upstream_url: 'https://mcp.wiki.example.net/mcp' },
    });
    expect(created.status, created.text).toBe(201);
    const { context, page } = await openConsole(browser, world.svc.url, world.org.auditor);
    try {
      await go(page, '/mcp-gateway', 'MCP gateway');
      await page.getByRole('link', { name: 'wiki' }).click();
      await expect.poll(() => heading(page).textContent(), { timeout: 15_000 }).toBe('MCP server');
      await page.getByText('No tool listed: the gateway allows none.').waitFor();
      expect(
        await page
          .getByRole('button')
          .filter({ hasText: /Register|Delete|Save|Remove/ })
          .count(),
      ).toBe(0);
      for (const name of ['Server settings', 'Add or change a tool'])
        expect(await page.getByRole('form', { name }).count(), name).toBe(0);
      const res = await request(api(`/mcp/servers/${created.body.id}`), {
        token: world.org.auditor.token,
        method: 'DELETE',
      });
      expect(res.status).toBe(403);
      expect(res.body.detail).toBe('Missing permission: mcp:servers:manage');
    } finally {
      await context.close();
    }
  });
});

describe('agent content screen', () => {
  it("shows an agent's track record and records a reversal of its published content; an auditor only reads", async () => {
    const owner = world.org.owner.token;
    const agent = await registerAgent(world.svc, owner, { name: 'Newsletter writer' });
    const granted = await delegate(world.svc, owner, agent.agent_id, ['content:draft:write', 'content:read']);
    expect(granted.status, granted.text).toBe(201);
    const agentToken = await agentAccessToken(world.svc, agent.credential);
    const contentHash = createHash('sha256').update(randomBytes(32)).digest('hex');
    const asked = await request(api('/approvals/content/request'), {
      token: agentToken,
      json: { content_hash: contentHash, title: 'November newsletter' },
    });
    expect(asked.status, asked.text).toBe(201);
    const decided = await request(api(`/approvals/${asked.body.approval_id}/decide`), {
      token: owner,
      json: { approve: true },
    });
    expect(decided.status, decided.text).toBe(200);

    const { context, page } = await openConsole(browser, world.svc.url, world.org.admin);
    try {
      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Agent content' }).click();
      await expect.poll(() => heading(page).textContent(), { timeout: 15_000 }).toBe('Agent content');
      await page.getByLabel('Agent', { exact: true }).selectOption(agent.agent_id);
      await page.getByRole('button', { name: 'Show track record' }).click();
      await expect.poll(() => new URL(page.url()).searchParams.get('agent'), { timeout: 15_000 }).toBe(agent.agent_id);
      const record = page.getByTestId('track-record');
      await record.getByText('1 (1 approved, 0 denied; at least 20 needed)').waitFor();
      await page
        .getByText(/min_decided/)
        .first()
        .waitFor();

      // A reversal: the reason is required by the API; recorded, it counts against the agent.
      const form = page.getByRole('form', { name: 'Record a reversal' });
      await form.getByLabel('Content hash (SHA-256, hex)').fill(contentHash);
      await form.getByLabel('Reason').fill('Quoted a retracted study');
      await form.getByRole('button', { name: 'Record reversal' }).click();
      await page.getByText(/Reversal recorded .* against agent/).waitFor();
      await expect.poll(() => record.locator('dd').nth(3).textContent(), { timeout: 15_000 }).toBe('1');
      const after = await request(api(`/approvals/content/track-record/${agent.agent_id}`), { token: owner });
      expect(after.body).toMatchObject({ reversals_30d: 1, eligible: false });
      expect(after.body.unmet.map((u: { criterion: string }) => u.criterion)).toContain('reversals_30d');
      await axeCheck(page, 'agent content');
      await screenshot(page, 'content');
    } finally {
      await context.close();
    }

    const auditor = await openConsole(browser, world.svc.url, world.org.auditor);
    try {
      await go(auditor.page, `/content?agent=${agent.agent_id}`, 'Agent content');
      await auditor.page.getByTestId('track-record').waitFor();
      expect(await auditor.page.getByRole('form', { name: 'Record a reversal' }).count()).toBe(0);
      const forced = await request(api('/approvals/content/reversal'), {
        token: world.org.auditor.token,
        json: { content_hash: contentHash, reason: 'forced' },
      });
      expect(forced.status).toBe(403);
    } finally {
      await auditor.context.close();
    }
  });
});
