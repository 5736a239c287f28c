// Loads shared by bench/peers.mjs, bench/scale.mjs and bench/oauth.mjs, written once so that every provider gets
// exactly the same client: a browser (cookies, its own X-Forwarded-For address) that follows an OAuth authorization to its
// redirect, the authorization-code exchange loop, refresh-token chains, GET loads with one credential per
// connection, and the peak resident memory of a process.
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { cannon, log, measuredLoad, round, summarize, withCpu } from './util.mjs';

export const REDIRECT = 'http://127.0.0.1:9/callback';

export function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** HTTP Basic client authentication (RFC 6749, section 2.3.1). */
export const basicAuth = (id, secret) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

/** autocannon options of a client_credentials load at `tokenUrl`, authenticated with `authorization`. */
export function clientCredentialsLoadOptions(tokenUrl, authorization, scope, connections) {
  return {
    url: tokenUrl,
    method: 'POST',
    connections,
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization },
    body: `grant_type=client_credentials&scope=${encodeURIComponent(scope)}`,
  };
}

/** The authorization request of a client with PKCE (RFC 7636, S256), asking for `openid email`. */
export function authorizationUrl({ base, authorizePath, clientId, challenge }) {
  const url = new URL(authorizePath, base);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    scope: 'openid email',
    state: randomBytes(8).toString('hex'),
    nonce: randomBytes(8).toString('hex'),
    code_challenge: challenge,
    code_challenge_method: 'S256',
  }).toString();
  return url;
}

/** A browser's cookies for one host (paths ignored) and its own client address. */
export class Browser {
  jar = new Map();
  address = `198.19.${randomBytes(1)[0]}.${1 + (randomBytes(1)[0] % 254)}`;

  constructor(base) {
    this.base = base;
  }

  async request(url, form) {
    const target = new URL(url, this.base);
    const response = await fetch(target, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: [...this.jar].map(([name, value]) => `${name}=${value}`).join('; '),
        'x-forwarded-for': this.address,
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair.indexOf('=');
      this.jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return {
      url: target,
      status: response.status,
      location: response.headers.get('location'),
      html: await response.text(),
    };
  }

  /**
   * GETs `url` and follows redirects until one leads to REDIRECT; `page(browser, step)` answers any page met on
   * the way (a sign-in or consent form; `step.url` is where it was found) with the next step. Returns the
   * authorization code.
   */
  async authorize(url, page) {
    let step = await this.request(url);
    for (let hop = 0; hop < 8; hop++) {
      if (step.location?.startsWith(REDIRECT)) {
        const code = new URL(step.location).searchParams.get('code');
        if (code) return code;
        break;
      }
      if (step.location) step = await this.request(step.location);
      else if (page && step.status === 200) step = await page(this, step);
      else break;
    }
    throw new Error(
      `authorization did not reach the client: ${step.status} ${step.location ?? step.html.slice(0, 300)}`,
    );
  }
}

/** Form fields of a page (hidden inputs), HTML entities decoded. */
export const hiddenFields = (html) =>
  Object.fromEntries(
    [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [
      m[1],
      m[2]
        .replaceAll('&quot;', '"')
        .replaceAll('&#39;', "'")
        .replaceAll('&lt;', '<')
        .replaceAll('&gt;', '>')
        .replaceAll('&amp;', '&'),
    ]),
  );

export async function postForm(url, form, headers = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form).toString(),
  });
  const text = await response.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {}
  return { status: response.status, json, text };
}

/**
 * A provider's authorization-code flow: `authorizeUrl(challenge)` and `exchange(code, verifier)` (the token
 * request; resolves to the token response's JSON or throws).
 */
export async function codeExchange(flow, browser) {
  const { verifier, challenge } = pkce();
  const code = await browser.authorize(flow.authorizeUrl(challenge), flow.page);
  return flow.exchange(code, verifier);
}

function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/**
 * `browsers.length` loops of back-to-back full exchanges (GET authorize with the signed-in browser, then the
 * token request with PKCE) for `seconds`. Latency is per exchange (both requests).
 */
export async function exchangeLoad(flow, browsers, seconds) {
  const deadline = performance.now() + seconds * 1000;
  const start = performance.now();
  const latencies = [];
  let failed = 0;
  await Promise.all(
    browsers.map(async (browser) => {
      while (performance.now() < deadline) {
        const began = performance.now();
        try {
          await codeExchange(flow, browser);
          latencies.push(performance.now() - began);
        } catch (error) {
          failed++;
          if (failed === 1) log(`exchange failed: ${error.message}`);
        }
      }
    }),
  );
  const elapsed = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    rps: round(latencies.length / elapsed, 1),
    p50_ms: round(percentile(latencies, 50)),
    p99_ms: round(percentile(latencies, 99)),
    non_2xx: failed,
    errors: 0,
    requests: latencies.length,
    workers: browsers.length,
  };
}

/**
 * Refresh-token rotation: every connection carries its own chain and sends the token its previous answer
 * returned (see bench/run.mjs refreshLoad for why the chain lives in a closure). `chains` are `{ token }`
 * objects, updated in place, so that a later load can go on with them; `body(token)` builds the request body.
 */
export async function refreshChainLoad({ url, chains, duration, body, headers }) {
  const failedBefore = chains.map((chain) => chain.failed ?? 0);
  let next = 0;
  const setupClient = (client) => {
    const chain = chains[next++];
    client.setRequests([
      {
        method: 'POST',
        path: new URL(url).pathname,
        headers,
        setupRequest(req, context) {
          context.chain = chain;
          return { ...req, body: body(chain.token) };
        },
        onResponse(status, text, context) {
          const own = context.chain ?? chain;
          if (status >= 200 && status < 300) own.token = JSON.parse(text).refresh_token;
          else own.failed = (own.failed ?? 0) + 1;
        },
      },
    ]);
  };
  const result = await cannon({
    url,
    method: 'POST',
    connections: chains.length,
    duration,
    headers,
    body: '',
    setupClient,
  });
  const broken = chains.filter((chain, i) => (chain.failed ?? 0) > failedBefore[i]).length;
  return { ...summarize(result), broken_chains: broken };
}

/** GET `url` with one set of headers per connection (its own session or token). */
export async function perConnectionGet(url, headerSets, connections, duration) {
  let next = 0;
  const setupClient = (client) => client.setHeaders(headerSets[next++ % headerSets.length]);
  return summarize(await cannon({ url, method: 'GET', connections, duration, setupClient }));
}

/** Resident memory of a process in MB: `now` (VmRSS) and `peak` (VmHWM, the high-water mark since it started). */
export function rssOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field) => Number(status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'))?.[1] ?? Number.NaN);
    return { now: round(kb('VmRSS') / 1024, 1), peak: round(kb('VmHWM') / 1024, 1) };
  } catch {
    return { now: null, peak: null };
  }
}

/** `run()`'s figures with the highest resident memory of the process `pid` while it ran, sampled every 200 ms. */
export async function withPeakRss(pid, run) {
  let peak = rssOf(pid).now ?? 0;
  const timer = setInterval(() => {
    peak = Math.max(peak, rssOf(pid).now ?? 0);
  }, 200);
  try {
    const figures = await run();
    return { ...figures, peak_rss_mb: peak };
  } finally {
    clearInterval(timer);
  }
}

/** One measured load of `pid` (util.mjs measuredLoad) with the process's highest resident memory too. */
export function measured(pid, settings, run, quiet) {
  const sampled = (duration, warmup) => (warmup ? run(duration, true) : withPeakRss(pid, () => run(duration, false)));
  return measuredLoad(pid, settings, sampled, quiet);
}

/** One load of a provider's `run(seconds)` with its CPU split and highest resident memory (bench/peers.mjs). */
export const sampledLoad = (pid, run) => withCpu(pid, () => withPeakRss(pid, run));

/** `--json FILE` (or `--json=FILE`) from the command line, or undefined. */
export function jsonOutputPath(argv = process.argv) {
  const at = argv.findIndex((arg) => arg === '--json' || arg.startsWith('--json='));
  if (at < 0) return undefined;
  const value = argv[at].includes('=') ? argv[at].slice(7) : argv[at + 1];
  if (!value) throw new Error('--json: expected a file name');
  return value;
}

/** Prints the report on stdout and, with `--json FILE`, writes it there too. */
export async function emitReport(report) {
  const text = `${JSON.stringify(report, null, 2)}\n`;
  process.stdout.write(text);
  const path = jsonOutputPath();
  if (path) {
    await writeFile(path, text);
    log(`report written to ${path}`);
  }
}

/** Ratio of `ours` to `theirs` requests per second, and whether it reaches `target` with no failed request. */
export function versus(ours, theirs, target, peer) {
  const value = theirs?.rps > 0 ? ours.rps / theirs.rps : null;
  return {
    peer,
    ratio: round(value, 3),
    target,
    met: value !== null && value >= target && ours.non_2xx === 0 && (ours.errors ?? 0) === 0,
  };
}
