import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { addMember, signUpOwner } from './organizations.js';
import { bootstrapPlatformOwner } from './platform.js';
import { startService, type TestService } from './service.js';

/**
 * The admin console's test harness (docs/console.md): a service whose BASE_URL is the address it listens on
 * (the console's redirect URI is BASE_URL/console/callback), a platform organization with its owner, and an
 * ordinary organization with an owner, an admin, a member and an auditor. The console itself is built once
 * for the run by test/support/global-setup.ts.
 */
export interface ConsolePerson {
  email: string;
  password: string;
  userId: string;
  slug: string;
  tenantId: string;
  /** An API token of the same person (set-up and assertions over HTTP, never used by the console). */
  token: string;
}

export interface ConsoleWorld {
  svc: TestService;
  platform: { owner: ConsolePerson };
  org: {
    tenantId: string;
    slug: string;
    owner: ConsolePerson;
    admin: ConsolePerson;
    member: ConsolePerson;
    auditor: ConsolePerson;
  };
  close(): Promise<void>;
}

export async function startConsole(env: Record<string, string> = {}): Promise<ConsoleWorld> {
  const svc = await startService(env, { baseUrlIsListenAddress: true });
  const platformOwner = await bootstrapPlatformOwner(svc);
  const owner = await signUpOwner(svc.url, 'console-owner');
  const org = { tenantId: owner.tenantId, slug: owner.slug };
  const person = async (role: string): Promise<ConsolePerson> => ({
    ...(await addMember(svc, org, role)),
    ...org,
  });
  const [admin, member, auditor] = [await person('admin'), await person('member'), await person('auditor')];
  return {
    svc,
    platform: { owner: { ...platformOwner } },
    org: {
      ...org,
      owner: { email: owner.email, password: owner.password, userId: owner.userId, token: owner.token, ...org },
      admin,
      member,
      auditor,
    },
    close: () => svc.close(),
  };
}

/**
 * Opens the console in a fresh browser profile and signs `person` in the way a person does: the console's
 * sign-in screen, the provider's real /login page (authorization code with PKCE), back to the console's
 * overview. Answers the context and its page, on the overview.
 */
export async function openConsole(
  browser: Browser,
  baseUrl: string,
  person: Pick<ConsolePerson, 'email' | 'password' | 'slug'>,
  opts: { viewport?: { width: number; height: number }; beforeLoad?: (page: Page) => Promise<void> } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: opts.viewport ?? { width: 1280, height: 800 } });
  const page = await context.newPage();
  await opts.beforeLoad?.(page);
  await page.goto(`${baseUrl}/console/`);
  await signInThroughLogin(page, person);
  return { context, page };
}

/** From the console's sign-in screen through /login back to the signed-in console. */
export async function signInThroughLogin(page: Page, person: Pick<ConsolePerson, 'email' | 'password' | 'slug'>) {
  await page.getByLabel('Organization').fill(person.slug);
  await Promise.all([page.waitForURL(/\/login/), page.getByRole('button', { name: 'Sign in' }).click()]);
  const form = page.locator('form[action="/login"]');
  await form.locator('input[name=email]').fill(person.email);
  await form.locator('input[name=password]').fill(person.password);
  await Promise.all([page.waitForURL(/\/console\/(?!callback)/), form.locator('button[type=submit]').click()]);
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}

const require = createRequire(import.meta.url);
const AXE_PATH = require.resolve('axe-core/axe.min.js');
let axeSource: Promise<string> | undefined;

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/**
 * Runs axe-core on the page as it is and fails on any serious or critical violation. The console's CSP
 * forbids foreign scripts, so axe runs in an isolated world through the DevTools protocol (Runtime.evaluate
 * is not subject to the page's CSP) rather than as a script element.
 */
export async function axeCheck(page: Page, label = page.url()): Promise<AxeViolation[]> {
  axeSource ??= readFile(AXE_PATH, 'utf8');
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('Runtime.evaluate', { expression: await axeSource });
    const result = await cdp.send('Runtime.evaluate', {
      expression: `axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } }).then((r) => JSON.stringify(r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) }))))`,
      awaitPromise: true,
      returnByValue: true,
    });
    if (result.exceptionDetails) throw new Error(`axe failed: ${JSON.stringify(result.exceptionDetails)}`);
    const violations = JSON.parse(result.result.value as string) as AxeViolation[];
    const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious, `axe: serious violations on ${label}: ${JSON.stringify(serious, null, 1)}`).toEqual([]);
    return violations;
  } finally {
    await cdp.detach();
  }
}

export const SCREENSHOT_DIR = join(dirname(fileURLToPath(import.meta.url)), '../../docs/console');

/**
 * Writes docs/console/<name>.png at 1280x800 and docs/console/<name>-mobile.png at 360 px wide (full page),
 * then restores the page's viewport.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const before = page.viewportSize() ?? { width: 1280, height: 800 };
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`) });
  await page.setViewportSize({ width: 360, height: 740 });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-mobile.png`), fullPage: true });
  await page.setViewportSize(before);
}
