import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

/**
 * Debian's Chromium driven by playwright-core: hosted pages are tested the way a person uses them. Headless,
 * without a sandbox (containers) and without any background traffic of its own.
 */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** A fresh profile (own cookies) with one page: one person at one browser. */
export async function openPerson(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  return { context, page };
}

/**
 * Presses the page's submit button (as a person does) and waits for the page the form post returns; answers
 * that post's HTTP status.
 */
export async function submitForm(page: Page): Promise<number> {
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST' && r.request().resourceType() === 'document'),
    page.click('button[type=submit]'),
  ]);
  await page.waitForLoadState('domcontentloaded');
  return response.status();
}

/** Collects the Content-Security-Policy violations the browser reports on a page (there must be none). */
export function cspViolations(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) seen.push(message.text());
  });
  return seen;
}

/** A hosted page fetched without a browser (as a mail scanner or an attacker would): its cookie and CSRF field. */
export async function fetchForm(url: string) {
  const response = await fetch(url, { redirect: 'manual' });
  const html = await response.text();
  const setCookie = response.headers.get('set-cookie') ?? '';
  return {
    status: response.status,
    headers: response.headers,
    html,
    /** `name=value` of the CSRF cookie, ready for a Cookie header. */
    cookie: setCookie.split(';')[0] ?? '',
    csrf: /name="csrf_token" value="([^"]*)"/.exec(html)?.[1] ?? '',
  };
}

/** A form-encoded post, as a browser sends a form, with an optional Cookie header. */
export async function postForm(url: string, fields: Record<string, string>, cookie?: string) {
  const response = await fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(cookie ? { cookie } : {}),
    },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: response.status, headers: response.headers, html: await response.text() };
}
