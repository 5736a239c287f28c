import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STREAMS_PER_PRINCIPAL } from '../../src/modules/command/events-stream.js';
import { request } from '../support/http.js';
import type { TestService } from '../support/service.js';
import {
  failSignIn,
  failSignInsSecondApart,
  type Owner,
  opened,
  openStream,
  type PlatformOwner,
  startWithTwoOrganizations,
} from './command-support.js';

// An attacker's review of the Command Center reads (Part B 4.8): cursors forged from another organization's
// position, garbage or oversized, and filters holding SQL wildcards, quotes and NUL. Each either answers the
// caller's own records only or is refused with 422, and none reveals another organization's records. One
// credential cannot hold live streams (and their buffers) without bound.

let svc: TestService;
let platform: PlatformOwner;
let alpha: Owner;
let beta: Owner;
beforeAll(async () => {
  ({ svc, platform, alpha, beta } = await startWithTwoOrganizations());
  await failSignInsSecondApart(svc, [alpha, beta, beta]);
});
afterAll(async () => {
  await svc?.close();
});

const api = (path: string) => `${svc.url}/api/v1${path}`;
const get = (path: string, token: string, params: Record<string, string | number> = {}) =>
  request(
    api(`${path}?${new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]))}`),
    { token },
  );
const cursorOf = (key: unknown[]) => Buffer.from(JSON.stringify(key)).toString('base64url');

describe('forged cursors', () => {
  it("refuses an events cursor made from another organization's position with 422, and accepts its own", async () => {
    // Beta's own next_cursor points at one of beta's events.
    const betaPage = await get('/command/events', beta.token, { limit: 1 });
    expect(betaPage.status).toBe(200);
    const betaCursor = betaPage.body.next_cursor as string;
    expect(betaCursor).toEqual(expect.any(String));
    const forged = await get('/command/events', alpha.token, { cursor: betaCursor });
    expect(forged.status, forged.text).toBe(422);
    expect(forged.body.detail).toBe('cursor: is not a cursor this list answered');
    expect(forged.text).not.toContain(beta.tenantId);

    // The platform operator's cursor over every organization, at one of beta's events, is beta's position too.
    const all = await get('/command/events', platform.token, { tenant_id: beta.tenantId, limit: 1 });
    expect((await get('/command/events', alpha.token, { cursor: all.body.next_cursor })).status).toBe(422);

    // A real instant with an id no event has: not a cursor this list answered either.
    const [instant] = JSON.parse(Buffer.from(betaCursor, 'base64url').toString()) as [string, string];
    const unknown = cursorOf([instant, '00000000-0000-7000-8000-000000000000']);
    expect((await get('/command/events', beta.token, { cursor: unknown })).status).toBe(422);

    // Alpha's own cursor still pages, and beta's still works for beta.
    const own = await get('/command/events', alpha.token, { limit: 1 });
    const next = await get('/command/events', alpha.token, { limit: 1, cursor: own.body.next_cursor });
    expect(next.status, next.text).toBe(200);
    expect(next.body.events.every((e: { tenant_id: string }) => e.tenant_id === alpha.tenantId)).toBe(true);
    expect((await get('/command/events', beta.token, { cursor: betaCursor })).status).toBe(200);
  });

  it("answers an audit cursor made from another organization's seq with the caller's own entries only", async () => {
    const betaPage = await get('/command/audit', beta.token, { limit: 1 });
    const res = await get('/command/audit', alpha.token, { cursor: betaPage.body.next_cursor, limit: 1000 });
    expect(res.status).toBe(200);
    expect(res.body.entries.length).toBeGreaterThan(0);
    expect(res.body.entries.every((e: { tenant_id: string }) => e.tenant_id === alpha.tenantId)).toBe(true);
    // A seq far beyond the chain, or below genesis, reads nothing of anyone else's either.
    for (const seq of [Number.MAX_SAFE_INTEGER, -1, 0]) {
      const page = await get('/command/audit', alpha.token, { cursor: cursorOf([seq]) });
      expect(page.status).toBe(200);
      expect(page.body.entries.every((e: { tenant_id: string }) => e.tenant_id === alpha.tenantId)).toBe(true);
    }
  });

  it('refuses garbage, oversized and wrongly shaped cursors with 422 on both lists', async () => {
    const garbage = [
      "' or 1=1 --",
      '%00',
      '\u00ff'.repeat(10),
      'x'.repeat(257),
      'A'.repeat(8000),
      cursorOf([]),
      cursorOf([1, 2, 3]),
      cursorOf(['2026-01-01T00:00:00.000000Z', "x' or '1'='1"]),
      cursorOf([{ seq: 1 }]),
      cursorOf([1.5]),
      cursorOf(['1e309']),
      // Instants of the stored shape that are no instant: February 30th, a leap second, year 0.
      cursorOf(['2026-02-30T00:00:00.000000Z', '00000000-0000-7000-8000-000000000000']),
      cursorOf(['2026-01-01T23:59:60.000000Z', '00000000-0000-7000-8000-000000000000']),
      cursorOf(['0000-01-01T00:00:00.000000Z', '00000000-0000-7000-8000-000000000000']),
    ];
    for (const cursor of garbage) {
      for (const path of ['/command/events', '/command/audit']) {
        const res = await get(path, alpha.token, { cursor });
        expect(res.status, `${path} ${cursor.slice(0, 40)}`).toBe(422);
        expect(res.body.detail, `${path} ${cursor.slice(0, 40)}`).toMatch(/cursor/);
      }
    }
  });
});

describe('filters holding wildcards, quotes and NUL', () => {
  it('matches SQL wildcards and quotes literally (nothing) and answers 422 for NUL and oversized values', async () => {
    const literal = ['%', '_', '%%', "' or '1'='1", "user.login_failed' --", '\\', '*'];
    const lists: Array<[string, string[], string]> = [
      ['/command/events', ['action', 'category', 'actor_id', 'correlation_id'], 'events'],
      ['/command/audit', ['action', 'actor_id'], 'entries'],
      ['/command/detections', ['rule_id', 'actor_id'], 'detections'],
    ];
    for (const [path, fields, key] of lists) {
      for (const field of fields) {
        for (const value of literal) {
          const res = await get(path, alpha.token, { [field]: value });
          expect(res.status, `${path} ${field}=${value}`).toBe(200);
          expect(res.body[key], `${path} ${field}=${value}`).toEqual([]);
        }
        const nul = await get(path, alpha.token, { [field]: 'user\u0000login' });
        expect(nul.status, `${path} ${field} NUL`).toBe(422);
        const huge = await get(path, alpha.token, { [field]: 'x'.repeat(5000) });
        expect(huge.status, `${path} ${field} huge`).toBe(422);
        expect(huge.body.detail, `${path} ${field} huge`).toContain(field);
      }
    }
    // The platform operator's wildcard is literal too: it does not widen to every organization's records.
    expect((await get('/command/events', platform.token, { actor_id: '%' })).body.events).toEqual([]);
    expect((await get('/command/detections', platform.token, { actor_id: '_' })).body.detections).toEqual([]);
    // A since the format allows but no stored instant can be (a leap second, year 0) is 422, not a failure.
    for (const since of ['2026-01-01T23:59:60Z', '0000-01-01T00:00:00Z', '0001-01-01T00:30:00+01:00']) {
      const res = await get('/command/events', alpha.token, { since });
      expect(res.status, since).toBe(422);
      expect(res.body.detail, since).toMatch(/^since: /);
    }
    for (const since of ['0001-01-01T00:00:00Z', '2024-02-29T23:59:59.999999Z', '2026-01-01T00:00:00-05:00']) {
      expect((await get('/command/events', alpha.token, { since })).status, since).toBe(200);
    }
    // A tenant_id that is not an id is 422, whatever it holds.
    for (const tenant of ["' or 1=1 --", '%', `${beta.tenantId}'`]) {
      expect((await get('/command/events', alpha.token, { tenant_id: tenant })).status, tenant).toBe(422);
    }
  });
});

/** A live stream, read until it says it is open; the text it received so far, and how to close it. */
/** The caller's live stream once the service holds it open, or its refusal read whole. */
async function openEventsStream(token: string) {
  const stream = await openStream(api('/command/events/stream'), token);
  await (stream.status === 200 ? stream.until(opened) : stream.ended);
  return stream;
}

describe('live streams of one caller', () => {
  it(`holds at most ${STREAMS_PER_PRINCIPAL} at once per caller (429 beyond), each confined to its organization`, async () => {
    const streams = [];
    for (let i = 0; i < STREAMS_PER_PRINCIPAL; i++) streams.push(await openEventsStream(alpha.token));
    expect(streams.map((stream) => stream.status)).toEqual(streams.map(() => 200));
    const refused = await openEventsStream(alpha.token);
    expect(refused.status, refused.text()).toBe(429);
    expect(refused.headers['retry-after']).toBe('5');
    expect(JSON.parse(refused.text()).detail).toContain(`at most ${STREAMS_PER_PRINCIPAL}`);
    // Another caller is not held back by alpha's streams, and every one of alpha's sees alpha's events only.
    const other = await openEventsStream(beta.token);
    expect(other.status).toBe(200);
    for (const who of [beta, alpha]) await failSignIn(svc, who);
    const deadline = Date.now() + 15_000;
    while (streams.some((stream) => !stream.text().includes('"data":{"user_id"')) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    for (const stream of streams) {
      expect(stream.text()).toContain(alpha.tenantId);
      expect(stream.text()).not.toContain(beta.tenantId);
    }
    expect(other.text()).not.toContain(alpha.tenantId);
    // A stream closed frees its place.
    streams.pop()!.close();
    let again = await openEventsStream(alpha.token);
    for (let attempt = 0; again.status === 429 && attempt < 100; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      again = await openEventsStream(alpha.token);
    }
    expect(again.status).toBe(200);
    for (const stream of [...streams, other, again]) stream.close();
  });
});
