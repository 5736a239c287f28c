import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { STREAM_BUFFER_MAX_BYTES, STREAM_KEEPALIVE_MS } from '../../src/modules/command/events-stream.js';
import { request } from '../support/http.js';
import { addMember } from '../support/organizations.js';
import type { TestService } from '../support/service.js';
import {
  failSignIn,
  type Owner,
  opened,
  openStream,
  type PlatformOwner,
  startWithTwoOrganizations,
} from './command-support.js';

// The live event stream (issue 22 item 2; Part B 4.8, 5.7, 6.1): Server-Sent Events from the live tip, header
// authentication, confinement, keepalive comments, no ids, a bounded buffer per consumer, and a clean stop.

let svc: TestService;
const logLines: string[] = [];
let platform: PlatformOwner;
let alpha: Owner;
let beta: Owner;
beforeAll(async () => {
  ({ svc, platform, alpha, beta } = await startWithTwoOrganizations(
    { LOG_LEVEL: 'warn' },
    { onLogLine: (line) => logLines.push(line) },
  ));
});
afterAll(async () => {
  await svc?.close();
});

const api = (path: string) => `${svc.url}/api/v1${path}`;
const streamUrl = (query = '') => api(`/command/events/stream${query}`);

describe('GET /command/events/stream', () => {
  it('refuses like the list: 401 without a credential, 403 without command:read or for another organization, 422', async () => {
    const anonymous = await openStream(streamUrl());
    expect(anonymous.status).toBe(401);
    await anonymous.ended;
    expect(JSON.parse(anonymous.text())).toEqual({ detail: 'Not authenticated' });
    // Header authentication only: a token in the query string is not read.
    const inQuery = await openStream(streamUrl(`?access_token=${alpha.token}`));
    expect(inQuery.status).toBe(401);

    const member = await addMember(svc, alpha, 'member');
    const refused = await openStream(streamUrl(), member.token);
    expect(refused.status).toBe(403);
    await refused.ended;
    expect(JSON.parse(refused.text()).detail).toBe('Missing permission: command:read');

    const other = await openStream(streamUrl(`?tenant_id=${beta.tenantId}`), alpha.token);
    expect(other.status).toBe(403);
    const malformed = await openStream(streamUrl('?tenant_id=nope'), alpha.token);
    expect(malformed.status).toBe(422);
  });

  it('starts at the live tip and delivers an event committed after it connected, confined to the organization', async () => {
    await failSignIn(svc, alpha); // before the stream: never sent
    const stream = await openStream(streamUrl(), alpha.token);
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers['cache-control']).toContain('no-cache');
    await stream.until(opened);

    await failSignIn(svc, beta); // another organization: never sent to alpha
    await failSignIn(svc, alpha);
    await stream.until((text) => text.includes('user.login_failed'));
    const events = stream.events();
    expect(events).toEqual([
      expect.objectContaining({
        tenant_id: alpha.tenantId,
        actor: { id: alpha.userId, type: 'human' },
        action: 'user.login_failed',
        category: 'auth',
        severity: 'low',
        outcome: 'failure',
      }),
    ]);
    // The streamed envelope is the listed one, exactly.
    const listed = await request(api(`/command/events?action=user.login_failed&limit=1`), { token: alpha.token });
    expect(listed.body.events[0]).toEqual(events[0]);
    // No event ids, so nothing to resume from.
    expect(stream.text()).not.toMatch(/^id:/m);
    expect(stream.text()).not.toMatch(/^retry:/m);
    stream.close();
  });

  it("streams every organization's events to the platform operator, or the one organization it names", async () => {
    const everything = await openStream(streamUrl(), platform.token);
    const onlyBeta = await openStream(streamUrl(`?tenant_id=${beta.tenantId}`), platform.token);
    await Promise.all([everything.until(opened), onlyBeta.until(opened)]);
    await failSignIn(svc, alpha);
    await failSignIn(svc, beta);
    const bothSeen = (text: string) => text.includes(alpha.tenantId) && text.includes(beta.tenantId);
    await everything.until(bothSeen);
    await onlyBeta.until((text) => text.includes(beta.tenantId));
    expect(everything.events().map((e) => e.tenant_id)).toEqual([alpha.tenantId, beta.tenantId]);
    expect(onlyBeta.events().map((e) => [e.tenant_id, e.action])).toEqual([[beta.tenantId, 'user.login_failed']]);
    everything.close();
    onlyBeta.close();
  });

  it('lets an auditor stream', async () => {
    const auditor = await addMember(svc, beta, 'auditor');
    const stream = await openStream(streamUrl(), auditor.token);
    expect(stream.status).toBe(200);
    await stream.until(opened);
    await failSignIn(svc, beta);
    await stream.until((text) => text.includes('user.login_failed'));
    expect(stream.events().every((e) => e.tenant_id === beta.tenantId)).toBe(true);
    stream.close();
  });

  it('sends a keepalive comment every STREAM_KEEPALIVE_MS while quiet', async () => {
    // The service runs in this process: its interval timers are faked while the stream opens, so the test moves
    // time instead of waiting for it.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const stream = await openStream(streamUrl(), beta.token);
      await stream.until(opened);
      vi.advanceTimersByTime(STREAM_KEEPALIVE_MS - 1);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(stream.text()).not.toContain(': keepalive');
      vi.advanceTimersByTime(1);
      await stream.until((text) => text.includes(': keepalive\n\n'));
      vi.advanceTimersByTime(STREAM_KEEPALIVE_MS);
      await stream.until((text) => text.split(': keepalive\n\n').length === 3);
      expect(stream.events()).toEqual([]);
      stream.close();
    } finally {
      vi.useRealTimers();
    }
  });

  it('ends a stream after one access-token lifetime, so a credential revoked since stops streaming', async () => {
    // Timeouts are faked while the stream opens (advancing with real time as well), so the test jumps ahead.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
    try {
      const stream = await openStream(streamUrl(), beta.token);
      await stream.until(opened);
      let ended = false;
      void stream.ended.then(() => {
        ended = true;
      });
      const lifetimeMs = svc.deps.config.accessTokenTtlSeconds * 1000;
      vi.advanceTimersByTime(lifetimeMs - 5000);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(ended).toBe(false);
      vi.advanceTimersByTime(5000);
      await stream.ended;
      expect(stream.text().endsWith('\n\n')).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('closes the stream of a consumer that stops reading once its buffer is full, instead of growing memory', async () => {
    // A raw connection that sends the request and then reads nothing.
    const socket: Socket = connect(Number(new URL(svc.url).port), '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    let received = 0;
    let head = '';
    const headRead = new Promise<void>((resolve) => {
      const onData = (chunk: Buffer) => {
        received += chunk.length;
        head += chunk.toString('latin1');
        if (head.includes(': stream open')) {
          socket.off('data', onData);
          socket.pause();
          resolve();
        }
      };
      socket.on('data', onData);
    });
    socket.write(
      `GET /api/v1/command/events/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${alpha.token}\r\n\r\n`,
    );
    await headRead;
    expect(head).toMatch(/^HTTP\/1\.1 200/);

    // Events of 256 KiB each until the server gives up on the consumer (it never would on one that reads).
    const bulk = 'x'.repeat(256 * 1024);
    const closedLog = () => logLines.some((line) => line.includes('the consumer is not reading'));
    let sent = 0;
    while (!closedLog() && sent < 200) {
      await svc.deps.transactions.tenant(alpha.tenantId, (tx) =>
        svc.deps.events.emit(tx, {
          tenantId: alpha.tenantId,
          actor: { id: alpha.userId, type: 'human' },
          category: 'admin',
          action: 'setting.changed',
          data: { bulk },
          audit: false,
        }),
      );
      sent += 1;
    }
    expect(closedLog()).toBe(true);
    const line = JSON.parse(logLines.find((l) => l.includes('the consumer is not reading'))!);
    expect(line.limit_bytes).toBe(STREAM_BUFFER_MAX_BYTES);
    expect(line.buffered_bytes).toBeGreaterThan(STREAM_BUFFER_MAX_BYTES);

    // Reading again, the consumer gets what the network held, then the end: far less than was sent.
    const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.on('data', (chunk: Buffer) => {
      received += chunk.length;
    });
    socket.on('error', () => undefined);
    socket.resume();
    await ended;
    expect(received).toBeLessThan(sent * bulk.length);
  });

  // Last: it stops the service.
  it('ends every stream when the service stops, and the stop does not wait for the clients', async () => {
    const streams = await Promise.all([openStream(streamUrl(), alpha.token), openStream(streamUrl(), platform.token)]);
    await Promise.all(streams.map((stream) => stream.until(opened)));
    const started = Date.now();
    await svc.close();
    expect(Date.now() - started).toBeLessThan(10_000);
    await Promise.all(streams.map((stream) => stream.ended));
    expect(streams.map((stream) => stream.text().endsWith('\n\n'))).toEqual([true, true]);
  });
});
