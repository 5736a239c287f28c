import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { createSecureContext, rootCertificates, type SecureContext } from 'node:tls';
import type { Config } from '../../config.js';
import { hostNameRefusalReason, refusalReason } from './address-policy.js';
import type { Dns } from './dns.js';

export type EgressErrorCode = 'blocked' | 'timeout' | 'invalid_url' | 'connection' | 'tls';

/** Why an outbound request did not produce a response. `reason` is safe to log and to show to the tenant. */
export class EgressError extends Error {
  readonly code: EgressErrorCode;
  readonly reason: string;

  constructor(code: EgressErrorCode, reason: string, options?: { cause?: unknown }) {
    super(`egress ${code}: ${reason}`, options);
    this.name = 'EgressError';
    this.code = code;
    this.reason = reason;
  }
}

export interface EgressRequestOptions {
  method?: string;
  /** Request headers; a `host` header is ignored (the URL decides it). */
  headers?: Record<string, string | string[] | number>;
  body?: string | Buffer;
  /** Deadline for the whole exchange: name resolution, connection, TLS, response and body. Default 10 s. */
  timeoutMs?: number;
  /** Bytes of the response body kept; the connection is dropped past them. Default 64 KiB. */
  maxBodyBytes?: number;
}

export interface EgressResponse {
  status: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
  /** True when the body was longer than `maxBodyBytes` and was cut there. */
  truncated: boolean;
}

export interface Egress {
  request(url: string, options?: EgressRequestOptions): Promise<EgressResponse>;
}

export interface EgressDeps {
  config: Pick<Config, 'env' | 'egressTest'>;
  dns: Pick<Dns, 'lookupAll'>;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_BODY_BYTES = 64 * 1024;

/** Where to connect: the address is vetted (or a configured test route) and is the only one the socket may use. */
interface Destination {
  url: URL;
  /** Host as written in the URL, brackets removed: the TLS server name and the Host header come from it. */
  hostname: string;
  address: string;
  family: 4 | 6;
  port: number;
}

type Target =
  | { kind: 'address'; url: URL; hostname: string; address: string; family: 4 | 6 }
  | { kind: 'name'; url: URL; hostname: string; name: string }
  | { kind: 'routed'; url: URL; hostname: string; address: string; family: 4 | 6; port: number };

function parseTarget(rawUrl: string, config: EgressDeps['config']): Target {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new EgressError('invalid_url', 'not an absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new EgressError('invalid_url', `scheme ${url.protocol} is not allowed; use http or https`);
  }
  if (url.username || url.password) throw new EgressError('invalid_url', 'credentials in the URL are not allowed');
  // The WHATWG parser already canonicalised the host: IPv4 in any spelling (0x7f.1, 2130706433) is dotted decimal,
  // IPv6 is compressed lower-case in brackets, names are lower-case punycode.
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (!hostname) throw new EgressError('invalid_url', 'the URL has no host');
  const testRoutes = config.env === 'test' ? config.egressTest.routes : undefined;

  const family = isIP(hostname);
  if (family === 4 || family === 6) {
    const reason = refusalReason(hostname);
    if (reason) throw new EgressError('blocked', `${hostname} is ${reason}`);
    if (testRoutes?.has(hostname)) throw new EgressError('blocked', 'test routes apply to host names only');
    return { kind: 'address', url, hostname, address: hostname, family };
  }

  const name = hostname.replace(/\.$/, '');
  const nameReason = hostNameRefusalReason(name);
  if (nameReason) throw new EgressError('blocked', `${name} is a ${nameReason}`);
  // Test-only (SVC_ENV=test, config refuses it elsewhere): the name passed the policy and is sent to a loopback
  // listener without being resolved.
  const route = testRoutes?.get(name);
  if (route) {
    const address = route.host === 'localhost' ? '127.0.0.1' : route.host;
    return { kind: 'routed', url, hostname, address, family: isIP(address) === 6 ? 6 : 4, port: route.port };
  }
  return { kind: 'name', url, hostname, name };
}

function defaultPort(url: URL): number {
  if (url.port) return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

async function resolveDestination(target: Target, dns: EgressDeps['dns']): Promise<Destination> {
  const { url, hostname } = target;
  if (target.kind === 'routed') return { ...target };
  if (target.kind === 'address') return { ...target, port: defaultPort(url) };
  let addresses: Awaited<ReturnType<Dns['lookupAll']>>;
  try {
    addresses = await dns.lookupAll(target.name);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'DNS_FAILURE';
    throw new EgressError('connection', code, { cause: error });
  }
  const first = addresses[0];
  if (!first) throw new EgressError('connection', 'ENOTFOUND');
  // Every answer is vetted, not only the one we would use: a name that mixes public and private addresses is
  // refused whole, so no retry or other client can be steered inside.
  for (const { address } of addresses) {
    const reason = refusalReason(address);
    if (reason) throw new EgressError('blocked', `${target.name} resolves to ${address}, ${reason}`);
  }
  return { url, hostname, address: first.address, family: first.family, port: defaultPort(url) };
}

/** A `lookup` for the socket that answers only the vetted address, so no second DNS answer can move the connection. */
function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as LookupFunction;
}

// OpenSSL verification codes (CERT_HAS_EXPIRED, UNABLE_TO_VERIFY_LEAF_SIGNATURE, SELF_SIGNED_CERT_IN_CHAIN, ...)
// and Node's own TLS and OpenSSL errors.
const TLS_CODE = /^(ERR_TLS_|ERR_SSL_)|CERT|UNABLE_TO_|SELF_SIGNED|^EPROTO$/;

function classify(error: unknown, https: boolean): EgressError {
  if (error instanceof EgressError) return error;
  const code = (error as NodeJS.ErrnoException).code ?? 'UNKNOWN';
  const library = (error as { library?: unknown }).library;
  if (https && (TLS_CODE.test(code) || (typeof library === 'string' && /SSL/i.test(library)))) {
    return new EgressError('tls', code, { cause: error });
  }
  return new EgressError('connection', code, { cause: error });
}

function responseHeaders(response: IncomingMessage): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (value !== undefined) headers[name] = value;
  }
  return headers;
}

function requestHeaders(destination: Destination, options: EgressRequestOptions): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (name.toLowerCase() !== 'host') headers[name.toLowerCase()] = value;
  }
  // The Host header names what the URL names (with its port when not the default), also for a test route.
  headers.host = destination.url.host;
  if (options.body !== undefined && headers['content-length'] === undefined) {
    headers['content-length'] = Buffer.byteLength(options.body);
  }
  return headers;
}

/** Test-only trust store (public roots plus the test CA), built once: building it costs ~20 ms of CPU. */
const testTrust = new Map<string, SecureContext>();
function testSecureContext(testCa: string): SecureContext {
  let context = testTrust.get(testCa);
  if (!context) {
    context = createSecureContext({ ca: [...rootCertificates, testCa] });
    testTrust.set(testCa, context);
  }
  return context;
}

function exchange(
  destination: Destination,
  options: EgressRequestOptions,
  config: EgressDeps['config'],
  signal: AbortSignal,
  timeoutMs: number,
): Promise<EgressResponse> {
  const https = destination.url.protocol === 'https:';
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const testCa = config.env === 'test' ? config.egressTest.ca : undefined;

  return new Promise<EgressResponse>((resolve, reject) => {
    let settled = false;
    const done = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      outcome();
    };
    const fail = (error: unknown) => {
      done(() => reject(classify(error, https)));
      request.destroy();
    };
    const onAbort = () => fail(new EgressError('timeout', `no complete answer within ${timeoutMs} ms`));

    const request = (https ? httpsRequest : httpRequest)({
      protocol: destination.url.protocol,
      host: destination.hostname,
      port: destination.port,
      path: `${destination.url.pathname}${destination.url.search}`,
      method: options.method ?? 'GET',
      headers: requestHeaders(destination, options),
      lookup: pinnedLookup(destination.address, destination.family),
      // No pooled sockets: every request is connected to the address vetted for it.
      agent: false,
      // SNI carries the name from the URL (never for an IP literal, RFC 6066 section 3).
      ...(https && isIP(destination.hostname) === 0 ? { servername: destination.hostname } : {}),
      // Test-only: the test CA is trusted on top of the public roots.
      ...(https && testCa ? { secureContext: testSecureContext(testCa) } : {}),
    });
    request.on('error', fail);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort);
    // Redirects are never followed: a 3xx is handed back like any other status.
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const finish = (truncated: boolean) =>
        done(() =>
          resolve({
            status: response.statusCode ?? 0,
            headers: responseHeaders(response),
            body: Buffer.concat(chunks, size),
            truncated,
          }),
        );
      response.on('data', (chunk: Buffer) => {
        if (settled) return;
        const room = maxBodyBytes - size;
        if (chunk.length > room) {
          chunks.push(chunk.subarray(0, room));
          size += room;
          finish(true);
          response.destroy();
          request.destroy();
          return;
        }
        chunks.push(chunk);
        size += chunk.length;
      });
      response.on('end', () => finish(false));
      response.on('error', fail);
      response.on('close', () => {
        if (!response.complete) fail(Object.assign(new Error('response ended early'), { code: 'ECONNRESET' }));
      });
    });
    request.end(options.body);
  });
}

/**
 * The one client for requests to addresses a tenant supplied (webhooks, back-channel logout, MCP gateway, metadata
 * URLs). It resolves the name, refuses the request when any answer is not a public unicast address, connects to
 * the vetted address itself, follows no redirects, bounds time and body, and reports failures as `EgressError`.
 */
export function createEgress({ config, dns }: EgressDeps): Egress {
  return {
    async request(url, options = {}) {
      const target = parseTarget(url, config);
      const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), timeoutMs);
      try {
        const timedOut = new Promise<never>((_, reject) => {
          controller.signal.addEventListener('abort', () =>
            reject(new EgressError('timeout', `no complete answer within ${timeoutMs} ms`)),
          );
        });
        timedOut.catch(() => {});
        const destination = await Promise.race([resolveDestination(target, dns), timedOut]);
        return await exchange(destination, options, config, controller.signal, timeoutMs);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
