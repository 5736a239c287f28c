import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';

const testdata = new URL('../../src/kernel/net/testdata/', import.meta.url);

/** The test CA that signed the receiver's certificate (for EGRESS_TEST_CA_FILE). */
export const TEST_CA_FILE = new URL('ca.pem', testdata).pathname;
/** The only name the receiver's certificate is valid for: route it with EGRESS_TEST_ROUTES. */
export const RECEIVER_HOST = 'secure.example.test';

export interface ReceivedDelivery {
  path: string;
  headers: IncomingHttpHeaders;
  /** The exact bytes received: signatures are checked over these, never over re-serialised JSON. */
  raw: Buffer;
  json: { id: string; type: string; schema_version: number; data: Record<string, unknown> };
}

type Responder = (delivery: ReceivedDelivery, response: ServerResponse) => void;

export interface WebhookReceiver {
  port: number;
  /** `https://secure.example.test<path>`: a URL that passes registration and reaches this receiver. */
  url(path: string): string;
  received: ReceivedDelivery[];
  on(path: string): ReceivedDelivery[];
  /** How the receiver answers a path: a status code, or a handler. Default 204. */
  respond(path: string, answer: number | Responder): void;
  waitFor(count: number, path?: string, timeoutMs?: number): Promise<ReceivedDelivery[]>;
  close(): Promise<void>;
}

/** A TLS webhook receiver on loopback, with the certificate of `src/kernel/net/testdata`. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedDelivery[] = [];
  const answers = new Map<string, number | Responder>();
  const server = createServer(
    {
      key: readFileSync(new URL('server-key.pem', testdata)),
      cert: readFileSync(new URL('server-cert.pem', testdata)),
    },
    (request: IncomingMessage, response: ServerResponse) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const raw = Buffer.concat(chunks);
        let json: ReceivedDelivery['json'];
        try {
          json = JSON.parse(raw.toString('utf8'));
        } catch {
          json = { id: '', type: '', schema_version: 0, data: {} };
        }
        const delivery = { path: request.url ?? '', headers: request.headers, raw, json };
        received.push(delivery);
        const answer = answers.get(delivery.path) ?? 204;
        if (typeof answer === 'number') response.writeHead(answer).end();
        else answer(delivery, response);
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: (path) => `https://${RECEIVER_HOST}${path}`,
    received,
    on: (path) => received.filter((delivery) => delivery.path === path),
    respond(path, answer) {
      answers.set(path, answer);
    },
    async waitFor(count, path, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const seen = path ? received.filter((delivery) => delivery.path === path) : received;
        if (seen.length >= count) return seen;
        if (Date.now() > deadline) throw new Error(`expected ${count} deliveries, got ${seen.length}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * An independent verifier of `Svc-Signature` (Part A 6), written from the specification: HMAC-SHA256 over
 * `<t>.` and the raw body bytes, timestamps at most 5 minutes from `now` either way, constant-time
 * comparison, and acceptance when any `v1` matches any of the receiver's active secrets.
 */
export function verifySignature(input: {
  header: string | undefined;
  raw: Buffer;
  secrets: string[];
  now: Date;
  toleranceSeconds?: number;
}): boolean {
  if (!input.header) return false;
  let timestamp: number | undefined;
  const signatures: Buffer[] = [];
  for (const part of input.header.split(',')) {
    const [name, value] = part.split('=', 2) as [string, string | undefined];
    if (name === 't' && value && /^\d+$/.test(value)) timestamp = Number(value);
    if (name === 'v1' && value && /^[0-9a-f]{64}$/.test(value)) signatures.push(Buffer.from(value, 'hex'));
  }
  if (timestamp === undefined || signatures.length === 0) return false;
  const tolerance = input.toleranceSeconds ?? 300;
  if (Math.abs(Math.floor(input.now.getTime() / 1000) - timestamp) > tolerance) return false;
  let matched = false;
  for (const secret of input.secrets) {
    const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(input.raw).digest();
    for (const signature of signatures) {
      // Every pair is compared (no early exit), each in constant time.
      if (timingSafeEqual(expected, signature)) matched = true;
    }
  }
  return matched;
}
