/**
 * The browser of a person signing in with a provider, on the service's side: it keeps cookies (the flow cookie
 * that binds a round trip to it), posts JSON to the API as the app's script would, and opens the callback without
 * following the redirect, so a test reads where it was sent.
 */
export class ServiceBrowser {
  readonly cookies = new Map<string, string>();
  /** Raw `Set-Cookie` lines of the last answer. */
  lastSetCookie: string[] = [];

  constructor(readonly origin: string) {}

  private remember(response: Response): void {
    this.lastSetCookie = response.headers.getSetCookie();
    for (const line of this.lastSetCookie) {
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

  async post(
    path: string,
    json: unknown,
    options: { token?: string; headers?: Record<string, string> } = {},
  ): Promise<{ status: number; body: any; text: string; headers: Headers }> {
    const response = await fetch(new URL(path, this.origin), {
      method: 'POST',
      redirect: 'manual',
      headers: {
        ...options.headers,
        ...this.cookieHeader(),
        'content-type': 'application/json',
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      },
      body: JSON.stringify(json),
    });
    this.remember(response);
    const text = await response.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON
    }
    return { status: response.status, body, text, headers: response.headers };
  }

  /** Opens a URL of the service (the callback) and answers the redirect's target. */
  async open(url: string): Promise<{ status: number; location: URL | null; headers: Headers }> {
    const response = await fetch(url, { redirect: 'manual', headers: this.cookieHeader() });
    this.remember(response);
    await response.text();
    const location = response.headers.get('location');
    return { status: response.status, location: location ? new URL(location) : null, headers: response.headers };
  }
}
