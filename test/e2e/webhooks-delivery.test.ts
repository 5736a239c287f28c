import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/kernel/db/index.js';
import { request } from '../support/http.js';
import { startSecondNode, type TestService } from '../support/service.js';
import { type ReceivedDelivery, verifySignature, type WebhookReceiver } from '../support/webhook-receiver.js';
import { signUpWebhookOwner, startWebhookServices } from './webhooks-support.js';

let svc: TestService;
let receiver: WebhookReceiver;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ svc, receiver, close } = await startWebhookServices());
});
afterAll(() => close?.());

const api = (path: string) => `${svc.url}/api/v1${path}`;
const runWorker = () => svc.deps.webhooks.runOnce();

const owner = () => signUpWebhookOwner(svc, 'deliver');

async function endpoint(token: string, path: string, eventTypes = ['apikey.issued']) {
  const res = await request(api('/tenants/webhooks'), {
    token,
    json: { url: receiver.url(path), event_types: eventTypes },
  });
  expect(res.status).toBe(201);
  return res.body as { id: string; secret: string };
}

/** One `apikey.issued` event in the organization (an API key creation). */
async function emitEvent(token: string, label = 'k') {
  const res = await request(api('/tenants/api-keys'), { token, json: { label, scopes: [] } });
  expect(res.status).toBe(201);
  return res.body as { id: string };
}

const deliveries = async (token: string, id: string) =>
  (await request(api(`/tenants/webhooks/${id}/deliveries`), { token })).body as Array<{
    id: string;
    event_id: string;
    status: string;
    attempts: number;
    last_status_code: number | null;
    last_error: string | null;
    next_attempt_at: string | null;
    replay_of: string | null;
  }>;

const verify = (got: ReceivedDelivery, secrets: string[], now = svc.clock.now()) =>
  verifySignature({ header: got.headers['svc-signature'] as string, raw: got.raw, secrets, now });

describe('signed delivery', () => {
  it('delivers subscribed events with the headers and signature of Part A 6', async () => {
    const { token, tenantId } = await owner();
    const hook = await endpoint(token, '/d-signed');
    const unsubscribed = await endpoint(token, '/d-other', ['apikey.revoked']);
    const silent = await endpoint(token, '/d-none', []);
    const key = await emitEvent(token, 'signed');
    await runWorker();
    const [got] = await receiver.waitFor(1, '/d-signed');
    const [event] = await rows<{ id: string }>(
      svc.deps.database.db,
      sql`select id from events where tenant_id = ${tenantId} and action = 'apikey.issued'`,
    );
    expect(got!.json).toEqual({
      id: event!.id,
      type: 'apikey.issued',
      schema_version: 1,
      data: {
        api_key_id: key.id,
        label: 'signed',
        scopes: [],
        expires_at: expect.any(String),
        occurred_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/),
      },
    });
    expect(got!.headers['content-type']).toBe('application/json');
    expect(got!.headers['user-agent']).toBe('Svc-Auth-Webhooks/1');
    expect(got!.headers['svc-event-id']).toBe(event!.id);
    expect(got!.headers['svc-event-type']).toBe('apikey.issued');
    expect(got!.headers['svc-delivery-attempt']).toBe('1');
    expect(got!.headers['svc-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    // The independent verifier accepts it, and refuses any change of secret, bytes or time.
    expect(verify(got!, [hook.secret])).toBe(true);
    expect(verify(got!, [unsubscribed.secret])).toBe(false);
    expect(verify({ ...got!, raw: Buffer.from(got!.raw.toString().replace('signed', 'sIgned')) }, [hook.secret])).toBe(
      false,
    );
    expect(verify(got!, [hook.secret], new Date(svc.clock.now().getTime() + 301_000))).toBe(false);
    expect(verify(got!, [hook.secret], new Date(svc.clock.now().getTime() - 301_000))).toBe(false);
    // Nothing about sessions, addresses or correlation travels.
    expect(got!.raw.toString()).not.toMatch(/session|"ip"|correlation|127\.0\.0\.1/);
    expect(receiver.on('/d-other')).toHaveLength(0);
    expect(receiver.on('/d-none')).toHaveLength(0);
    expect(await deliveries(token, silent.id)).toEqual([]);
    const [logged] = await deliveries(token, hook.id);
    expect(logged).toMatchObject({
      event_id: event!.id,
      status: 'delivered',
      attempts: 1,
      last_status_code: 204,
      last_error: null,
      next_attempt_at: null,
    });
  });

  it('deletes fanned-out outbox rows after 7 days; the delivery log keeps the event', async () => {
    const { token, tenantId } = await owner();
    const hook = await endpoint(token, '/d-prune');
    await emitEvent(token, 'prune');
    await runWorker();
    await receiver.waitFor(1, '/d-prune');
    const outbox = () =>
      rows<{ id: string }>(svc.deps.database.db, sql`select id from webhook_outbox where tenant_id = ${tenantId}`);
    const kept = await outbox();
    expect(kept.length).toBeGreaterThan(0);
    svc.clock.advance(6 * 86_400_000);
    await runWorker();
    expect(await outbox()).toEqual(kept);
    svc.clock.advance(2 * 86_400_000);
    await runWorker();
    expect(await outbox()).toEqual([]);
    // (The owner's access token has long expired: the log is read in the database.)
    const logged = await rows<{ status: string }>(
      svc.deps.database.db,
      sql`select status from webhook_deliveries where endpoint_id = ${hook.id}`,
    );
    expect(logged).toEqual([{ status: 'delivered' }]);
  });

  it('delivers events of other modules (user.sessions_revoked) with their data and nothing about the session', async () => {
    const { token, tenantId } = await owner();
    await endpoint(token, '/d-sessions', ['user.sessions_revoked']);
    const me = await request(api('/me'), { token });
    const [session] = await rows<{ id: string }>(
      svc.deps.database.db,
      sql`select id from sessions where tenant_id = ${tenantId} and user_id = ${me.body.user_id}`,
    );
    expect((await request(api('/auth/sign-out-all'), { token, method: 'POST' })).status).toBeLessThan(300);
    await runWorker();
    const [got] = await receiver.waitFor(1, '/d-sessions');
    expect(got!.json).toMatchObject({ type: 'user.sessions_revoked', schema_version: 1 });
    expect(Object.keys(got!.json).sort()).toEqual(['data', 'id', 'schema_version', 'type']);
    expect(got!.json.data.user_id).toBe(me.body.user_id);
    expect(got!.raw.toString()).not.toContain(session!.id);
    expect(got!.raw.toString()).not.toContain(token.split('.')[1]!);
    expect(got!.raw.toString()).not.toMatch(/session_id|"sid"|"ip"|correlation|request_id|127\.0\.0\.1/);
  });

  it("never delivers one organization's events to another's endpoints", async () => {
    const a = await owner();
    const b = await owner();
    await endpoint(a.token, '/d-tenant-a');
    await endpoint(b.token, '/d-tenant-b');
    await emitEvent(a.token);
    await runWorker();
    await receiver.waitFor(1, '/d-tenant-a');
    expect(receiver.on('/d-tenant-b')).toHaveLength(0);
  });

  it('signs with both secrets during a rotation, and drops the older one at the next', async () => {
    const { token } = await owner();
    const hook = await endpoint(token, '/d-rotate');
    const first = hook.secret;
    const second = (await request(api(`/tenants/webhooks/${hook.id}/rotate-secret`), { token, method: 'POST' })).body
      .secret as string;
    await emitEvent(token);
    await runWorker();
    const [during] = await receiver.waitFor(1, '/d-rotate');
    expect(during!.headers['svc-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    expect(verify(during!, [first])).toBe(true);
    expect(verify(during!, [second])).toBe(true);
    const third = (await request(api(`/tenants/webhooks/${hook.id}/rotate-secret`), { token, method: 'POST' })).body
      .secret as string;
    await emitEvent(token);
    await runWorker();
    const after = (await receiver.waitFor(2, '/d-rotate'))[1]!;
    expect(verify(after, [first])).toBe(false);
    expect(verify(after, [second])).toBe(true);
    expect(verify(after, [third])).toBe(true);
  });
});

describe('retries, dead letter, disabling and replay', () => {
  it('follows the retry schedule, dead-letters after the 8th failure, and replays with the same event id', async () => {
    const person = await owner();
    // The clock moves hours ahead: manage with an API key, which outlives the 15-minute access token.
    const token = (
      await request(api('/tenants/api-keys'), {
        token: person.token,
        json: { label: 'admin', scopes: ['tenant:manage'] },
      })
    ).body.key as string;
    receiver.respond('/d-retry', 503);
    // The key's own apikey.issued happened before the endpoint existed: it is not delivered to it.
    svc.clock.advance(1000);
    const hook = await endpoint(token, '/d-retry');
    await emitEvent(token);
    await runWorker();
    await receiver.waitFor(1, '/d-retry');
    const expectedBase = [30, 60, 120, 240, 480, 960, 1920];
    for (let attempt = 1; attempt <= 7; attempt++) {
      const [state] = await deliveries(token, hook.id);
      expect(state).toMatchObject({
        status: 'retrying',
        attempts: attempt,
        last_status_code: 503,
        last_error: 'http_status',
      });
      const delay = new Date(state!.next_attempt_at!).getTime() - svc.clock.now().getTime();
      const base = expectedBase[attempt - 1]! * 1000;
      expect(delay).toBeGreaterThanOrEqual(base * 0.75 - 1);
      expect(delay).toBeLessThanOrEqual(base * 1.25 + 1);
      // Not before it is due...
      svc.clock.advance(delay - 1000);
      await runWorker();
      expect(receiver.on('/d-retry')).toHaveLength(attempt);
      // ...and then exactly once.
      svc.clock.advance(1000);
      await runWorker();
      const seen = await receiver.waitFor(attempt + 1, '/d-retry');
      expect(seen[attempt]!.headers['svc-delivery-attempt']).toBe(String(attempt + 1));
    }
    const [dead] = await deliveries(token, hook.id);
    expect(dead).toMatchObject({
      status: 'dead_letter',
      attempts: 8,
      next_attempt_at: null,
      last_error: 'http_status',
    });
    svc.clock.advance(7 * 3_600_000);
    await runWorker();
    expect(receiver.on('/d-retry')).toHaveLength(8);
    const ids = new Set(receiver.on('/d-retry').map((got) => got.json.id));
    expect(ids.size).toBe(1);

    receiver.respond('/d-retry', 200);
    const replay = await request(api(`/tenants/webhooks/${hook.id}/deliveries/${dead!.id}/replay`), {
      token,
      method: 'POST',
    });
    expect(replay.status).toBe(202);
    expect(replay.body).toMatchObject({
      event_id: dead!.event_id,
      status: 'pending',
      attempts: 0,
      replay_of: dead!.id,
    });
    await runWorker();
    const replayed = (await receiver.waitFor(9, '/d-retry'))[8]!;
    expect(replayed.json.id).toBe(dead!.event_id);
    expect(replayed.raw.equals(receiver.on('/d-retry')[0]!.raw)).toBe(true);
    expect(replayed.headers['svc-delivery-attempt']).toBe('1');
    const log = await deliveries(token, hook.id);
    expect(log).toHaveLength(2);
    // `limit` bounds the log, newest first.
    const limited = await request(api(`/tenants/webhooks/${hook.id}/deliveries?limit=1`), { token });
    expect(limited.body.map((row: { id: string }) => row.id)).toEqual([replay.body.id]);
    expect((await request(api(`/tenants/webhooks/${hook.id}/deliveries?limit=0`), { token })).status).toBe(422);
    expect(log.find((row) => row.id === dead!.id)).toMatchObject({ status: 'dead_letter', attempts: 8 });
    expect(log.find((row) => row.id === replay.body.id)).toMatchObject({ status: 'delivered', attempts: 1 });
    const unknown = await request(api(`/tenants/webhooks/${hook.id}/deliveries/${hook.id}/replay`), {
      token,
      method: 'POST',
    });
    expect(unknown.status).toBe(404);
  });

  it('counts a 3xx as delivered without following it; a receiver that never answers is a timeout after 10 s', async () => {
    const { token } = await owner();
    receiver.respond('/d-redirect', (_delivery, response) => {
      response.writeHead(302, { location: '/d-redirect-target' }).end();
    });
    const redirected = await endpoint(token, '/d-redirect');
    const hanging: Array<() => void> = [];
    receiver.respond('/d-hang', (_delivery, response) => {
      hanging.push(() => response.destroy());
    });
    const silent = await endpoint(token, '/d-hang');
    await emitEvent(token);
    const started = performance.now();
    await runWorker();
    const waited = performance.now() - started;
    for (const release of hanging) release();
    expect((await deliveries(token, redirected.id))[0]).toMatchObject({ status: 'delivered', last_status_code: 302 });
    expect(receiver.on('/d-redirect-target')).toHaveLength(0);
    expect((await deliveries(token, silent.id))[0]).toMatchObject({
      status: 'retrying',
      attempts: 1,
      last_status_code: null,
      last_error: 'timeout',
    });
    expect(waited).toBeGreaterThanOrEqual(9_500);
  });

  it('a worker that stopped during the 8th attempt leaves the delivery dead-lettered, never tried a 9th time', async () => {
    const { token } = await owner();
    receiver.respond('/d-interrupted', 503);
    const hook = await endpoint(token, '/d-interrupted');
    await emitEvent(token);
    await runWorker();
    await receiver.waitFor(1, '/d-interrupted');
    const [first] = await deliveries(token, hook.id);
    // As a worker leaves it when it stops after claiming the 8th attempt: counted, leased, lease run out.
    const past = new Date(svc.clock.now().getTime() - 1000);
    await svc.deps.database.db.execute(
      sql`update webhook_deliveries set attempts = 8, lease_until = ${past}, next_attempt_at = ${past}
          where id = ${first!.id}`,
    );
    await runWorker();
    expect(receiver.on('/d-interrupted')).toHaveLength(1);
    const [dead] = await deliveries(token, hook.id);
    expect(dead).toMatchObject({
      status: 'dead_letter',
      attempts: 8,
      next_attempt_at: null,
      last_error: 'http_status',
    });
  });

  it('disables the endpoint after 20 consecutive failures; PATCH enabled re-enables and clears the counter', async () => {
    const { token } = await owner();
    receiver.respond('/d-disable', 500);
    const hook = await endpoint(token, '/d-disable');
    for (let i = 0; i < 19; i++) await emitEvent(token, `e${i}`);
    await runWorker();
    await receiver.waitFor(19, '/d-disable');
    let [state] = (await request(api('/tenants/webhooks'), { token })).body;
    expect(state).toMatchObject({ enabled: true, disabled_reason: null });
    await emitEvent(token, 'e19');
    await runWorker();
    await receiver.waitFor(20, '/d-disable');
    [state] = (await request(api('/tenants/webhooks'), { token })).body;
    expect(state).toMatchObject({
      enabled: false,
      disabled_reason: 'Disabled after 20 consecutive failed deliveries',
    });
    // Sending stops: neither retries nor new events go out.
    await emitEvent(token, 'while-disabled');
    svc.clock.advance(60_000);
    await runWorker();
    expect(receiver.on('/d-disable')).toHaveLength(20);

    receiver.respond('/d-disable', 204);
    const enabled = await request(api(`/tenants/webhooks/${hook.id}`), {
      token,
      method: 'PATCH',
      json: { enabled: true },
    });
    expect(enabled.body).toMatchObject({ enabled: true, disabled_reason: null });
    await runWorker();
    await receiver.waitFor(40, '/d-disable');
    const log = await deliveries(token, hook.id);
    expect(log.filter((row) => row.status === 'delivered')).toHaveLength(20);
    // The counter was cleared: 19 failures no longer disable.
    receiver.respond('/d-disable', 500);
    for (let i = 0; i < 19; i++) await emitEvent(token, `f${i}`);
    await runWorker();
    [state] = (await request(api('/tenants/webhooks'), { token })).body;
    expect(state.enabled).toBe(true);
  });

  it('never connects to a host resolving to a private or loopback address: blocked', async () => {
    const { token } = await owner();
    const hooks = [];
    for (const host of ['internal.example.test', 'loopback.example.test']) {
      const res = await request(api('/tenants/webhooks'), {
        token,
        json: { url: `https://${host}/hook`, event_types: ['apikey.issued'] },
      });
      hooks.push(res.body.id as string);
    }
    const before = receiver.received.length;
    await emitEvent(token);
    await runWorker();
    for (const id of hooks) {
      const [state] = await deliveries(token, id);
      expect(state).toMatchObject({ status: 'retrying', attempts: 1, last_status_code: null, last_error: 'blocked' });
    }
    expect(receiver.received.length).toBe(before);
  });
});

describe('several workers', () => {
  it('two nodes against one database deliver each attempt exactly once', async () => {
    const second = await startSecondNode(svc);
    try {
      const { token } = await owner();
      // The first ten events fail their first attempt (fewer than the 20 failures that would disable).
      const firstSeen = new Set<string>();
      const failedOnce = new Set<string>();
      receiver.respond('/d-two', (delivery, response) => {
        const fresh = !firstSeen.has(delivery.json.id);
        firstSeen.add(delivery.json.id);
        const fail = fresh && failedOnce.size < 10;
        if (fail) failedOnce.add(delivery.json.id);
        response.writeHead(fail ? 500 : 200).end();
      });
      await endpoint(token, '/d-two');
      for (let i = 0; i < 30; i++) await emitEvent(token, `two${i}`);
      await Promise.all([svc.deps.webhooks.runOnce(), second.deps.webhooks.runOnce()]);
      svc.clock.advance(40_000);
      await Promise.all([svc.deps.webhooks.runOnce(), second.deps.webhooks.runOnce()]);
      await Promise.all([svc.deps.webhooks.runOnce(), second.deps.webhooks.runOnce()]);
      const got = receiver.on('/d-two');
      const pairs = got.map((delivery) => `${delivery.json.id}#${delivery.headers['svc-delivery-attempt']}`);
      expect(new Set(pairs).size).toBe(pairs.length);
      expect(pairs).toHaveLength(40);
      expect(firstSeen.size).toBe(30);
      for (const id of failedOnce) expect(pairs).toContain(`${id}#2`);
    } finally {
      await second.close();
    }
  });
});
