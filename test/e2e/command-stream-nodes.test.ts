import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../../src/kernel/events/index.js';
import { request } from '../support/http.js';
import { signUpOwner } from '../support/organizations.js';
import { startSecondNode, startService, type TestService } from '../support/service.js';

// The live stream across nodes (issue 22 item 2; ARCHITECTURE.md scale-out): an event committed on one node reaches
// a stream held on another node of the same installation, through Redis pub/sub when REDIS_URL is set and through
// the database's LISTEN/NOTIFY without it (with DATABASE_URL a PostgreSQL server; otherwise the embedded database,
// shared by the nodes of this process).

type Owner = Awaited<ReturnType<typeof signUpOwner>>;

interface Stream {
  status: number;
  headers: IncomingHttpHeaders;
  text(): string;
  events(): EventEnvelope[];
  /** Resolves once the received text satisfies `holds`; fails after `timeoutMs`. */
  until(holds: (text: string) => boolean, timeoutMs?: number): Promise<void>;
  ended: Promise<void>;
  close(): void;
}

/** A Server-Sent Events client over plain HTTP, holding everything it received. */
function openStream(url: string, token?: string): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
    req.on('error', reject);
    req.on('response', (res) => {
      let text = '';
      const listeners = new Set<() => void>();
      const tell = () => {
        for (const listener of [...listeners]) listener();
      };
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        tell();
      });
      res.on('error', () => undefined);
      const ended = new Promise<void>((done) => res.once('close', done));
      void ended.then(tell);
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        text: () => text,
        events: () =>
          text
            .split('\n\n')
            .filter((frame) => frame.startsWith('data: '))
            .map((frame) => JSON.parse(frame.slice('data: '.length)) as EventEnvelope),
        until(holds, timeoutMs = 15_000) {
          return new Promise<void>((done, fail) => {
            const check = () => {
              if (!holds(text)) return;
              listeners.delete(check);
              clearTimeout(timer);
              done();
            };
            const timer = setTimeout(() => {
              listeners.delete(check);
              fail(new Error(`stream: not seen within ${timeoutMs} ms; received:\n${text.slice(-2000)}`));
            }, timeoutMs);
            listeners.add(check);
            check();
          });
        },
        ended,
        close: () => req.destroy(),
      });
    });
    req.end();
  });
}

const opened = (text: string) => text.includes(': stream open\n\n');

const fanOuts: Array<{ name: string; env: Record<string, string> }> = process.env.REDIS_URL
  ? [
      { name: 'Redis pub/sub', env: {} },
      { name: 'the database (LISTEN/NOTIFY, no Redis)', env: { REDIS_URL: '' } },
    ]
  : [{ name: 'the database (LISTEN/NOTIFY)', env: {} }];

describe.each(fanOuts)('across nodes through $name', ({ env }) => {
  let first: TestService;
  let second: Awaited<ReturnType<typeof startSecondNode>>;
  let alpha: Owner;
  let beta: Owner;
  beforeAll(async () => {
    first = await startService(env);
    second = await startSecondNode(first);
    alpha = await signUpOwner(first.url, 'alpha');
    beta = await signUpOwner(first.url, 'beta');
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('delivers an event committed on one node to a stream held on the other, confined to its organization', async () => {
    const stream = await openStream(`${second.url}/api/v1/command/events/stream`, alpha.token);
    expect(stream.status).toBe(200);
    await stream.until(opened);
    for (const who of [beta, alpha]) {
      const failed = await request(`${first.url}/api/v1/auth/login`, {
        json: { email: who.email, password: 'not the password at all', tenant_slug: who.slug },
      });
      expect(failed.status).toBe(401);
      await first.deps.afterAnswer.drain();
    }
    await stream.until((text) => text.includes('user.login_failed'));
    expect(stream.events()).toEqual([
      expect.objectContaining({
        tenant_id: alpha.tenantId,
        actor: { id: alpha.userId, type: 'human' },
        action: 'user.login_failed',
      }),
    ]);
    stream.close();
  });

  it('carries an envelope too large for one notification whole, in commit order', async () => {
    const stream = await openStream(`${second.url}/api/v1/command/events/stream`, alpha.token);
    await stream.until(opened);
    const large = 'y'.repeat(20_000);
    const emitted: EventEnvelope[] = [];
    for (const data of [{ note: large }, { note: 'small' }]) {
      emitted.push(
        await first.deps.transactions.tenant(alpha.tenantId, (tx) =>
          first.deps.events.emit(tx, {
            tenantId: alpha.tenantId,
            actor: { id: alpha.userId, type: 'human' },
            category: 'admin',
            action: 'setting.changed',
            data,
          }),
        ),
      );
    }
    await stream.until((text) => text.includes('"small"'));
    expect(stream.events()).toEqual(emitted);
    stream.close();
  });
});
