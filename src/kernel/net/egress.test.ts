import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RecordType, startDnsServer, type Zone } from '../../../test/support/dns.js';
import { type Config, loadConfig } from '../../config.js';
import { createDns, type Dns } from './dns.js';
import { createEgress, EgressError } from './egress.js';

const testdata = new URL('./testdata/', import.meta.url);
const caFile = new URL('ca.pem', testdata).pathname;
const LARGE_BODY = Buffer.alloc(200 * 1024, 'x');

// --- a real DNS server answering names that point inside ---------------------------------------------------------

const zone: Zone = {
  'loopback.example.test': [{ type: RecordType.A, address: '127.0.0.1' }],
  'metadata.example.test': [{ type: RecordType.A, address: '169.254.169.254' }],
  // One public and one private answer: refused as a whole.
  'mixed.example.test': [
    { type: RecordType.A, address: '93.184.216.34' },
    { type: RecordType.A, address: '10.0.0.5' },
  ],
  'v6-loopback.example.test': [{ type: RecordType.AAAA, address: '::1' }],
  'v6-mapped.example.test': [{ type: RecordType.AAAA, address: '::ffff:7f00:1' }],
};

// --- local listeners ------------------------------------------------------------------------------------------------

interface Seen {
  method: string;
  url: string;
  host: string | undefined;
  body: string;
  servername?: string | false | null;
}

let connections = 0;
const seen: Seen[] = [];

function handler(request: IncomingMessage, response: ServerResponse): void {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    seen.push({
      method: request.method ?? '',
      url: request.url ?? '',
      host: request.headers.host,
      body: Buffer.concat(chunks).toString('utf8'),
      servername: (request.socket as TLSSocket).servername,
    });
    if (request.url === '/redirect') {
      response.writeHead(302, { location: 'http://hooks.example.test/landed' }).end('moved');
    } else if (request.url === '/slow') {
      // Never answers.
    } else if (request.url === '/large') {
      response.writeHead(200, { 'content-type': 'text/plain' });
      // Several writes, so the body arrives in several chunks.
      for (let offset = 0; offset < LARGE_BODY.length; offset += 16 * 1024) {
        response.write(LARGE_BODY.subarray(offset, offset + 16 * 1024));
      }
      response.end();
    } else if (request.url === '/exact') {
      response.writeHead(200).end(Buffer.alloc(1000, 'y'));
    } else {
      response.writeHead(200, { 'content-type': 'text/plain', 'set-cookie': ['a=1', 'b=2'] }).end('hello');
    }
  });
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

function closedPort(): Promise<number> {
  const server = createServer();
  return listen(server).then((port) => new Promise((resolve) => server.close(() => resolve(port))));
}

const httpServer = createServer(handler);
const httpsServer = createHttpsServer(
  {
    key: readFileSync(new URL('server-key.pem', testdata)),
    cert: readFileSync(new URL('server-cert.pem', testdata)),
  },
  handler,
);
httpServer.on('connection', () => connections++);
httpsServer.on('connection', () => connections++);

let dnsServer: Awaited<ReturnType<typeof startDnsServer>>;
let config: Config;
let httpPort = 0;
let httpsPort = 0;
let deadPort = 0;

beforeAll(async () => {
  httpPort = await listen(httpServer);
  httpsPort = await listen(httpsServer);
  deadPort = await closedPort();
  dnsServer = await startDnsServer(zone);
  const started = dnsServer;
  config = loadConfig({
    SVC_ENV: 'test',
    DNS_SERVERS: `127.0.0.1:${started.port}`,
    EGRESS_TEST_ROUTES: [
      `hooks.example.test=127.0.0.1:${httpPort}`,
      `secure.example.test=127.0.0.1:${httpsPort}`,
      // The certificate names secure.example.test only.
      `wrong-name.example.test=127.0.0.1:${httpsPort}`,
      `down.example.test=127.0.0.1:${deadPort}`,
      `intranet=127.0.0.1:${httpPort}`,
      `localhost=127.0.0.1:${httpPort}`,
      `dev.localhost=127.0.0.1:${httpPort}`,
    ].join(','),
    EGRESS_TEST_CA_FILE: caFile,
  });
});

afterAll(async () => {
  httpServer.closeAllConnections();
  httpsServer.closeAllConnections();
  await Promise.all([
    new Promise((resolve) => httpServer.close(resolve)),
    new Promise((resolve) => httpsServer.close(resolve)),
    dnsServer?.close(),
  ]);
});

beforeEach(() => {
  connections = 0;
  seen.length = 0;
});

function egress(overrides: { config?: Pick<Config, 'env' | 'egressTest'>; dns?: Pick<Dns, 'lookupAll'> } = {}) {
  return createEgress({ config: overrides.config ?? config, dns: overrides.dns ?? createDns(config) });
}

/** Resolves to the EgressError the request failed with; fails the test when the request succeeds. */
async function failure(promise: Promise<unknown>): Promise<EgressError> {
  const outcome = await promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  if (outcome.ok) throw new Error(`expected an EgressError, got ${JSON.stringify(outcome.value)}`);
  expect(outcome.error).toBeInstanceOf(EgressError);
  return outcome.error as EgressError;
}

/** A resolver that records the names asked and answers fixed addresses. */
function recordingDns(addresses: { address: string; family: 4 | 6 }[]) {
  const asked: string[] = [];
  return {
    asked,
    async lookupAll(name: string) {
      asked.push(name);
      return addresses;
    },
  };
}

describe('egress refuses addresses inside', () => {
  it.each([
    ['loopback IPv4', () => `http://127.0.0.1:${httpPort}/`, 'loopback'],
    ['loopback IPv4 in decimal', () => `http://2130706433:${httpPort}/`, 'loopback'],
    ['loopback IPv4 in hex', () => `http://0x7f.1:${httpPort}/`, 'loopback'],
    ['0.0.0.0', () => `http://0:${httpPort}/`, 'this network'],
    ['loopback IPv6', () => `http://[::1]:${httpPort}/`, 'loopback'],
    ['IPv4-mapped loopback', () => `http://[::ffff:127.0.0.1]:${httpPort}/`, 'IPv4-mapped'],
    ['IPv4-mapped loopback on the default port', () => 'http://[::ffff:127.0.0.1]/', 'IPv4-mapped'],
    ['cloud metadata', () => 'http://169.254.169.254/latest/meta-data/', 'link-local'],
    ['a private network', () => 'https://10.1.2.3/', 'private'],
  ])('%s', async (_label, url, words) => {
    const error = await failure(egress().request(url()));
    expect(error.code).toBe('blocked');
    expect(error.reason).toContain(words);
    expect(connections).toBe(0);
  });

  it.each([
    ['loopback.example.test', '127.0.0.1'],
    ['metadata.example.test', '169.254.169.254'],
    ['mixed.example.test', '10.0.0.5'],
    ['v6-loopback.example.test', '::1'],
    // c-ares prints the mapped answer in its dotted form.
    ['v6-mapped.example.test', '::ffff:127.0.0.1, IPv4-mapped'],
  ])('a name whose DNS answer is inside: %s', async (name, answer) => {
    const error = await failure(egress().request(`http://${name}:${httpPort}/`));
    expect(error.code).toBe('blocked');
    expect(error.reason).toContain(`${name} resolves to ${answer}`);
    expect(connections).toBe(0);
  });

  it.each(['intranet', 'localhost', 'dev.localhost'])(
    'a routed test name the name policy refuses: %s',
    async (name) => {
      const error = await failure(egress().request(`http://${name}/`));
      expect(error.code).toBe('blocked');
      expect(connections).toBe(0);
    },
  );

  it('a routed IP literal (test routes apply to names only)', async () => {
    const routes = new Map([['93.184.216.34', { host: '127.0.0.1', port: httpPort }]]);
    const error = await failure(
      egress({ config: { env: 'test', egressTest: { routes, caFile: undefined, ca: undefined } } }).request(
        'http://93.184.216.34/',
      ),
    );
    expect(error.code).toBe('blocked');
    expect(connections).toBe(0);
  });

  it('ignores test routes outside the test environment and resolves the name instead', async () => {
    const dns = recordingDns([{ address: '127.0.0.1', family: 4 }]);
    const error = await failure(
      egress({ config: { ...config, env: 'development' }, dns }).request('http://hooks.example.test/'),
    );
    expect(dns.asked).toEqual(['hooks.example.test']);
    expect(error.code).toBe('blocked');
    expect(error.reason).toContain('resolves to 127.0.0.1');
    expect(connections).toBe(0);
  });
});

describe('egress refuses URLs', () => {
  it.each([
    'not a url',
    '/relative/path',
    'ftp://example.com/file',
    'file:///etc/passwd',
    'gopher://example.com/',
    'javascript:alert(1)',
    'http://user:secret@example.com/',
    'https://user@example.com/',
  ])('%s', async (url) => {
    const error = await failure(egress().request(url));
    expect(error.code).toBe('invalid_url');
  });
});

describe('egress through a test route', () => {
  it('sends the request to the routed listener with the original Host, without resolving the name', async () => {
    const dns = recordingDns([]);
    const response = await egress({ dns }).request('http://hooks.example.test/hook?x=1', {
      method: 'POST',
      headers: { 'content-type': 'application/json', Host: 'evil.example' },
      body: '{"a":1}',
    });
    expect(dns.asked).toEqual([]);
    expect(response.status).toBe(200);
    expect(response.body.toString()).toBe('hello');
    expect(response.truncated).toBe(false);
    expect(response.headers['content-type']).toBe('text/plain');
    expect(response.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    expect(seen).toEqual([
      expect.objectContaining({ method: 'POST', url: '/hook?x=1', host: 'hooks.example.test', body: '{"a":1}' }),
    ]);
  });

  it('keeps a non-default port of the URL in the Host header', async () => {
    await egress().request('http://hooks.example.test:8080/');
    expect(seen[0]?.host).toBe('hooks.example.test:8080');
  });

  it('returns a redirect as is and does not follow it', async () => {
    const response = await egress().request('http://hooks.example.test/redirect');
    expect(response.status).toBe(302);
    expect(response.headers.location).toBe('http://hooks.example.test/landed');
    expect(response.body.toString()).toBe('moved');
    expect(seen.map((request) => request.url)).toEqual(['/redirect']);
  });

  it('times out on a listener that does not answer', async () => {
    const started = performance.now();
    const error = await failure(egress().request('http://hooks.example.test/slow', { timeoutMs: 200 }));
    expect(error.code).toBe('timeout');
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(connections).toBe(1);
  });

  it('times out while the name is being resolved', async () => {
    const dns = { lookupAll: () => new Promise<never>(() => {}) };
    const error = await failure(egress({ dns }).request('http://slow-dns.example.test/', { timeoutMs: 100 }));
    expect(error.code).toBe('timeout');
  });

  it('truncates a large body at maxBodyBytes', async () => {
    const response = await egress().request('http://hooks.example.test/large', { maxBodyBytes: 20_000 });
    expect(response.status).toBe(200);
    expect(response.truncated).toBe(true);
    expect(response.body.length).toBe(20_000);
    expect(response.body.equals(LARGE_BODY.subarray(0, 20_000))).toBe(true);
  });

  it('truncates at 64 KiB by default', async () => {
    const response = await egress().request('http://hooks.example.test/large');
    expect(response.truncated).toBe(true);
    expect(response.body.length).toBe(64 * 1024);
  });

  it('does not mark a body of exactly maxBodyBytes as truncated', async () => {
    const response = await egress().request('http://hooks.example.test/exact', { maxBodyBytes: 1000 });
    expect(response.truncated).toBe(false);
    expect(response.body.length).toBe(1000);
  });

  it('reports a refused connection with its error code', async () => {
    const error = await failure(egress().request('http://down.example.test/'));
    expect(error.code).toBe('connection');
    expect(error.reason).toBe('ECONNREFUSED');
  });

  it('reports a name that does not exist as a connection failure', async () => {
    const error = await failure(egress().request('http://missing.example.test/'));
    expect(error.code).toBe('connection');
    expect(error.reason).toBe('ENOTFOUND');
  });
});

describe('egress over TLS', () => {
  it('trusts the test CA and sends the URL name as SNI', async () => {
    const response = await egress().request('https://secure.example.test/');
    expect(response.status).toBe(200);
    expect(response.body.toString()).toBe('hello');
    expect(seen[0]).toMatchObject({ host: 'secure.example.test', servername: 'secure.example.test' });
  });

  it('refuses a certificate from an unknown CA', async () => {
    const withoutCa = { ...config, egressTest: { ...config.egressTest, ca: undefined } };
    const error = await failure(egress({ config: withoutCa }).request('https://secure.example.test/'));
    expect(error.code).toBe('tls');
    expect(error.reason).toMatch(/UNABLE_TO_VERIFY|SELF_SIGNED|CERT/);
  });

  it('refuses a certificate that does not name the host', async () => {
    const error = await failure(egress().request('https://wrong-name.example.test/'));
    expect(error.code).toBe('tls');
    expect(error.reason).toBe('ERR_TLS_CERT_ALTNAME_INVALID');
  });

  it('reports a listener that does not speak TLS as a TLS failure', async () => {
    const plain = { ...config, egressTest: { ...config.egressTest, routes: new Map(config.egressTest.routes) } };
    plain.egressTest.routes.set('plain.example.test', { host: '127.0.0.1', port: httpPort });
    const error = await failure(egress({ config: plain }).request('https://plain.example.test/'));
    expect(error.code).toBe('tls');
  });
});
