import { type AddressInfo, createServer } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../support/http.js';
import { changeDirectly, type TestService } from '../support/service.js';
import { verifySignature, type WebhookReceiver } from '../support/webhook-receiver.js';
import { signUpWebhookOwner, startWebhookServices } from './webhooks-support.js';

let svc: TestService;
let receiver: WebhookReceiver;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ svc, receiver, close } = await startWebhookServices(async (receiverPort) => [
    // The receiver's certificate does not name this host.
    `wrong-name.example.test=127.0.0.1:${receiverPort}`,
    `down.example.test=127.0.0.1:${await closedPort()}`,
  ]));
});
afterAll(() => close?.());

/** A port nothing listens on, for a refused connection. */
async function closedPort() {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const { port } = closed.address() as AddressInfo;
  await new Promise((resolve) => closed.close(resolve));
  return port;
}

const api = (path: string) => `${svc.url}/api/v1${path}`;

const owner = () => signUpWebhookOwner(svc, 'hooks');

const register = (token: string, body: Record<string, unknown>) =>
  request(api('/tenants/webhooks'), { token, json: body });

describe('webhook endpoints', () => {
  it('publishes the event catalogue', async () => {
    const { token } = await owner();
    const res = await request(api('/tenants/webhooks/events'), { token });
    expect(res.status).toBe(200);
    const types = res.body.map((entry: { type: string }) => entry.type);
    expect(types).toEqual([
      'user.signed_up',
      'user.login_throttled',
      'user.sessions_revoked',
      'user.email_verified',
      'apikey.issued',
      'apikey.revoked',
      'apikey.rotated',
      'apikey.quota_exceeded',
      'oauth.client_created',
      'oauth.client_deleted',
      'content.published',
    ]);
    expect(res.body[0]).toEqual({ type: 'user.signed_up', description: expect.any(String), schema_version: 1 });
  });

  it('registers an endpoint and returns its secret once', async () => {
    const { token } = await owner();
    const res = await register(token, {
      url: receiver.url('/a'),
      description: 'primary',
      event_types: ['apikey.issued', 'apikey.issued', 'user.signed_up'],
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      url: 'https://secure.example.test/a',
      description: 'primary',
      event_types: ['apikey.issued', 'user.signed_up'],
      enabled: true,
      disabled_reason: null,
    });
    expect(res.body.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const list = await request(api('/tenants/webhooks'), { token });
    expect(list.body).toHaveLength(1);
    expect(list.text).not.toContain(res.body.secret);
    expect(list.body[0]).not.toHaveProperty('secret');
    const stored = await svc.deps.database.db.execute(sql`select secret_sealed from webhook_endpoints`);
    expect(JSON.stringify(stored)).not.toContain(res.body.secret.slice(6));
  });

  it('refuses URLs that break a registration rule, naming it', async () => {
    const { token } = await owner();
    const cases: Array<[string, string]> = [
      ['http://hooks.example.com/x', 'url: must use https'],
      ['https://hooks.example.com:8443/x', 'url: port must be 443'],
      ['https://93.184.216.34/x', 'url: host must be a name, not an IP address'],
      ['https://[2606:2800:220:1::]/x', 'url: host must be a name, not an IP address'],
      ['https://intranet/x', 'url: host must be a fully-qualified public host name (single-label host name)'],
      ['https://localhost/x', 'url: host must be a fully-qualified public host name (localhost name (RFC 6761))'],
      [
        'https://printer.local/x',
        'url: host must be a fully-qualified public host name (multicast DNS name (RFC 6762))',
      ],
      ['https://user:pw@hooks.example.com/x', 'url: must not carry credentials'],
      ['not a url', 'url: must be an absolute URL'],
    ];
    for (const [url, detail] of cases) {
      const res = await register(token, { url, event_types: [] });
      expect([url, res.status, res.body.detail]).toEqual([url, 422, detail]);
    }
    expect((await register(token, { url: 'https://hooks.example.com:443/x', event_types: [] })).status).toBe(201);
    expect((await register(token, { event_types: [] })).status).toBe(422);
    expect((await request(api('/tenants/webhooks'), { token })).body).toHaveLength(1);
  });

  it('refuses unknown event types with 400, svc.test included', async () => {
    const { token } = await owner();
    for (const type of ['user.nope', 'svc.test', 'user.logged_in']) {
      const res = await register(token, { url: receiver.url('/x'), event_types: [type] });
      expect(res.status).toBe(400);
      expect(res.body.detail).toBe(`Unknown event type: ${type}`);
    }
  });

  it('allows at most 25 endpoints per organization', async () => {
    const { token } = await owner();
    for (let i = 0; i < 25; i++) {
      expect((await register(token, { url: receiver.url(`/n${i}`), event_types: [] })).status).toBe(201);
    }
    const refused = await register(token, { url: receiver.url('/n25'), event_types: [] });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toBe('An organization has at most 25 webhook endpoints');
  });

  it('updates, rotates the secret of, and deletes an endpoint', async () => {
    const { token } = await owner();
    const created = await register(token, { url: receiver.url('/u'), event_types: ['apikey.issued'] });
    const id = created.body.id;
    const patched = await request(api(`/tenants/webhooks/${id}`), {
      token,
      method: 'PATCH',
      json: { description: 'renamed', event_types: ['apikey.revoked'], enabled: false },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ description: 'renamed', event_types: ['apikey.revoked'], enabled: false });
    const bad = await request(api(`/tenants/webhooks/${id}`), {
      token,
      method: 'PATCH',
      json: { event_types: ['x.y'] },
    });
    expect(bad.status).toBe(400);
    const unknownField = await request(api(`/tenants/webhooks/${id}`), {
      token,
      method: 'PATCH',
      json: { url: 'https://a.b/' },
    });
    expect(unknownField.status).toBe(422);
    const rotated = await request(api(`/tenants/webhooks/${id}/rotate-secret`), { token, method: 'POST' });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(created.body.secret);
    expect((await request(api(`/tenants/webhooks/${id}`), { token, method: 'DELETE' })).status).toBe(204);
    expect((await request(api(`/tenants/webhooks/${id}`), { token, method: 'DELETE' })).status).toBe(404);
    expect((await request(api('/tenants/webhooks'), { token })).body).toEqual([]);
  });

  it("answers 404 for another organization's endpoint on every route", async () => {
    const a = await owner();
    const b = await owner();
    const created = await register(a.token, { url: receiver.url('/own'), event_types: [] });
    const id = created.body.id;
    const calls = [
      request(api(`/tenants/webhooks/${id}`), { token: b.token, method: 'PATCH', json: { description: 'x' } }),
      request(api(`/tenants/webhooks/${id}`), { token: b.token, method: 'DELETE' }),
      request(api(`/tenants/webhooks/${id}/rotate-secret`), { token: b.token, method: 'POST' }),
      request(api(`/tenants/webhooks/${id}/test`), { token: b.token, method: 'POST' }),
      request(api(`/tenants/webhooks/${id}/deliveries`), { token: b.token }),
      request(api(`/tenants/webhooks/${id}/deliveries/${id}/replay`), { token: b.token, method: 'POST' }),
      request(api('/tenants/webhooks/not-a-uuid'), { token: b.token, method: 'PATCH', json: {} }),
    ];
    for (const res of await Promise.all(calls)) expect(res.status).toBe(404);
    expect((await request(api('/tenants/webhooks'), { token: b.token })).body).toEqual([]);
    expect(receiver.on('/own')).toHaveLength(0);
  });

  it('needs tenant:manage: a key without it gets 403, a key with it manages endpoints', async () => {
    const { token } = await owner();
    const weak = await request(api('/tenants/api-keys'), { token, json: { label: 'weak', scopes: ['members:read'] } });
    const strong = await request(api('/tenants/api-keys'), {
      token,
      json: { label: 'strong', scopes: ['tenant:manage'] },
    });
    const refused = await register(weak.body.key, { url: receiver.url('/k'), event_types: [] });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toBe('Missing permission: tenant:manage');
    expect((await register(strong.body.key, { url: receiver.url('/k'), event_types: [] })).status).toBe(201);
    expect((await request(api('/tenants/webhooks'), { token: 'svc_test_nope' })).status).toBe(401);
  });

  it('answers 403 while the organization is quarantined', async () => {
    const { token, tenantId } = await owner();
    const created = await register(token, { url: receiver.url('/q'), event_types: [] });
    await changeDirectly(svc, sql`update tenants set quarantined = true where id = ${tenantId}`);
    const refused = await register(token, { url: receiver.url('/q2'), event_types: [] });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/awaiting approval/);
    expect((await request(api('/tenants/webhooks'), { token })).status).toBe(403);
    expect((await request(api(`/tenants/webhooks/${created.body.id}/test`), { token, method: 'POST' })).status).toBe(
      403,
    );
    await changeDirectly(svc, sql`update tenants set quarantined = false where id = ${tenantId}`);
    expect((await request(api('/tenants/webhooks'), { token })).body).toHaveLength(1);
  });
});

describe('POST /tenants/webhooks/{id}/test', () => {
  it('sends a signed svc.test now, reports the outcome and logs nothing', async () => {
    const { token } = await owner();
    const created = await register(token, { url: receiver.url('/t-ok'), event_types: ['apikey.issued'] });
    const res = await request(api(`/tenants/webhooks/${created.body.id}/test`), { token, method: 'POST' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ delivered: true, status_code: 204, error: null, blocked_by_policy: false });
    const [got] = receiver.on('/t-ok');
    expect(got!.json).toMatchObject({ type: 'svc.test', schema_version: 1, data: { endpoint_id: created.body.id } });
    expect(got!.headers['svc-event-type']).toBe('svc.test');
    expect(got!.headers['svc-event-id']).toBe(got!.json.id);
    expect(
      verifySignature({
        header: got!.headers['svc-signature'] as string,
        raw: got!.raw,
        secrets: [created.body.secret],
        now: svc.clock.now(),
      }),
    ).toBe(true);
    const log = await request(api(`/tenants/webhooks/${created.body.id}/deliveries`), { token });
    expect(log.body).toEqual([]);
  });

  it('reports an error status, and a blocked destination as blocked_by_policy', async () => {
    const { token } = await owner();
    receiver.respond('/t-fail', 500);
    const failing = await register(token, { url: receiver.url('/t-fail'), event_types: [] });
    const res = await request(api(`/tenants/webhooks/${failing.body.id}/test`), { token, method: 'POST' });
    expect(res.body).toEqual({ delivered: false, status_code: 500, error: 'http_status', blocked_by_policy: false });
    for (const host of ['internal.example.test', 'loopback.example.test']) {
      const blocked = await register(token, { url: `https://${host}/hook`, event_types: [] });
      expect(blocked.status).toBe(201);
      const answer = await request(api(`/tenants/webhooks/${blocked.body.id}/test`), { token, method: 'POST' });
      expect(answer.body).toEqual({ delivered: false, status_code: null, error: 'blocked', blocked_by_policy: true });
    }
    // Connection and TLS failures are reported by their error name.
    const down = await register(token, { url: 'https://down.example.test/hook', event_types: [] });
    const refused = await request(api(`/tenants/webhooks/${down.body.id}/test`), { token, method: 'POST' });
    expect(refused.body).toEqual({
      delivered: false,
      status_code: null,
      error: 'ECONNREFUSED',
      blocked_by_policy: false,
    });
    const wrong = await register(token, { url: 'https://wrong-name.example.test/hook', event_types: [] });
    const tls = await request(api(`/tenants/webhooks/${wrong.body.id}/test`), { token, method: 'POST' });
    expect(tls.body).toEqual({
      delivered: false,
      status_code: null,
      error: 'ERR_TLS_CERT_ALTNAME_INVALID',
      blocked_by_policy: false,
    });
    // A redirect counts as success and is not followed.
    receiver.respond('/t-redirect', (_delivery, response) =>
      response.writeHead(302, { location: 'https://elsewhere.example.com/' }).end(),
    );
    const redirecting = await register(token, { url: receiver.url('/t-redirect'), event_types: [] });
    const redirected = await request(api(`/tenants/webhooks/${redirecting.body.id}/test`), { token, method: 'POST' });
    expect(redirected.body).toEqual({ delivered: true, status_code: 302, error: null, blocked_by_policy: false });
  });

  it('is limited to 30 calls a minute per organization', async () => {
    const { token } = await owner();
    const created = await register(token, { url: receiver.url('/t-limit'), event_types: [] });
    const call = () => request(api(`/tenants/webhooks/${created.body.id}/test`), { token, method: 'POST' });
    for (let i = 0; i < 30; i++) expect((await call()).status).toBe(200);
    const throttled = await call();
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(throttled.headers.get('ratelimit-limit')).toBe('30');
    expect(receiver.on('/t-limit')).toHaveLength(30);
  });
});
