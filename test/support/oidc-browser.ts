import { expect } from 'vitest';
import { newAccount, request } from './http.js';

/**
 * A browser over fetch for the OpenID Provider's hosted pages: keeps cookies, follows nothing by itself, reads
 * the hidden fields of the page's form. Pages work without JavaScript, so this is how a browser uses them.
 */
export class FormBrowser {
  readonly cookies = new Map<string, string>();

  constructor(
    readonly origin: string,
    private readonly headers: Record<string, string> = {},
  ) {}

  private remember(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  private cookieHeader(): Record<string, string> {
    if (this.cookies.size === 0) return {};
    return { cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ') };
  }

  async get(url: string): Promise<{ status: number; location: string | null; html: string; headers: Headers }> {
    const response = await fetch(new URL(url, this.origin), {
      redirect: 'manual',
      headers: { ...this.headers, ...this.cookieHeader() },
    });
    this.remember(response);
    return {
      status: response.status,
      location: response.headers.get('location'),
      html: await response.text(),
      headers: response.headers,
    };
  }

  async post(url: string, fields: Record<string, string>) {
    const response = await fetch(new URL(url, this.origin), {
      method: 'POST',
      redirect: 'manual',
      headers: {
        ...this.headers,
        ...this.cookieHeader(),
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams(fields).toString(),
    });
    this.remember(response);
    return {
      status: response.status,
      location: response.headers.get('location'),
      html: await response.text(),
      headers: response.headers,
    };
  }
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
const decodeEntities = (text: string) => text.replace(/&(amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity]!);

/** The hidden inputs of a page's form, by name. */
export function hiddenFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields[match[1]!] = decodeEntities(match[2]!);
  }
  return fields;
}

/**
 * Follows an authorization request through the hosted pages the way a person would: sign in on /login (when
 * asked), approve or deny on /consent (when asked), and answers the URL the provider finally sends the browser
 * to (the client's redirect URI with a code or an error).
 */
export async function authorizeThroughPages(
  browser: FormBrowser,
  authorizeUrl: string,
  person: { email: string; password: string },
  options: { consent?: 'approve' | 'deny' } = {},
): Promise<{ url: URL; pages: string[] }> {
  const pages: string[] = [];
  let step = await browser.get(authorizeUrl);
  for (let hop = 0; hop < 6; hop += 1) {
    expect([302, 303], step.html).toContain(step.status);
    const location = new URL(step.location!, browser.origin);
    if (location.origin !== new URL(browser.origin).origin) return { url: location, pages };
    pages.push(location.pathname);
    const page = await browser.get(location.toString());
    expect(page.status, page.html).toBe(200);
    const fields = hiddenFields(page.html);
    if (location.pathname === '/login') {
      step = await browser.post('/login', { ...fields, email: person.email, password: person.password });
    } else if (location.pathname === '/consent') {
      step = await browser.post('/consent', { ...fields, [options.consent ?? 'approve']: '1' });
    } else {
      throw new Error(`unexpected page ${location.pathname}`);
    }
  }
  throw new Error('too many redirects');
}

/** An organization with its owner signed up, and an OAuth client registered by the owner. */
export async function organizationWithClient(baseUrl: string, client: Record<string, unknown>) {
  const account = newAccount('op');
  const signUp = await request(`${baseUrl}/api/v1/auth/signup`, { json: account });
  expect(signUp.status, signUp.text).toBe(201);
  const ownerToken = signUp.body.access_token as string;
  const registered = await request(`${baseUrl}/api/v1/oauth/clients`, {
    token: ownerToken,
    json: { name: 'Timesheets', client_type: 'confidential', ...client },
  });
  expect(registered.status, registered.text).toBe(201);
  const me = await request(`${baseUrl}/api/v1/me`, { token: ownerToken });
  return {
    account,
    ownerToken,
    tenantId: me.body.tenant_id as string,
    tenantSlug: account.organization_name.toLowerCase().replace(/ /g, '-'),
    client: registered.body as { client_id: string; client_secret?: string },
  };
}
