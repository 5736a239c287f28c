/** Small helpers over fetch: every test talks to the service over real HTTP. */
export interface JsonResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export async function request<T = any>(
  url: string,
  options: { method?: string; json?: unknown; body?: string; token?: string; headers?: Record<string, string> } = {},
): Promise<JsonResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body = options.body;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (body !== undefined && !headers['content-type']) {
    headers['content-type'] = 'application/json';
  }
  const response = await fetch(url, { method: options.method ?? (body === undefined ? 'GET' : 'POST'), headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

let counter = 0;
/** A new address on `domain`, never handed out before in this run. */
export function uniqueEmail(label: string, domain = 'example.com') {
  counter += 1;
  return `${label}-${counter}${Math.random().toString(36).slice(2, 8)}@${domain}`;
}

/** A unique, valid sign-up (email, strong password, organization name). */
export function newAccount(label = 'user') {
  counter += 1;
  const unique = `${label}${counter}${Math.random().toString(36).slice(2, 8)}`;
  return {
    email: `${unique}@example.com`,
    password: `correct horse battery ${unique}`,
    organization_name: `Org ${unique}`,
  };
}

/** Headers that differ between any two answers (the clock, the request id, the connection). */
const PER_REQUEST_HEADERS = new Set(['date', 'x-request-id', 'connection', 'keep-alive']);

/**
 * What a client can tell of an answer, for "identical to an unknown path" checks: the status, the body and every
 * header but the per-request ones.
 */
export function observableAnswer(res: JsonResponse) {
  const headers = Object.fromEntries([...res.headers].filter(([name]) => !PER_REQUEST_HEADERS.has(name)));
  return { status: res.status, text: res.text, headers };
}
